use bir::bir;

bir! {
    system S {
        record Account { int (0, 3) balance; lock guard; }
        Account a;

        active thread T() {
            a.guard := 1;
        }
    }
}

fn main() {}
