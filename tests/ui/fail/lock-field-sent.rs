use bir::bir;

bir! {
    system S {
        record Account { int (0, 3) balance; lock guard; }
        channel (int (0, 3)) buffer 1 c;
        Account a;

        active thread T() {
            c!(a.guard);
        }
    }
}

fn main() {}
