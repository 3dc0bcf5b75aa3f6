use bir::bir;

bir! {
    system S {
        record Account { int (0, 3) balance; lock guard; }
        Account a;
        boolean b;

        active thread T() {
            b := a.guard;
        }
    }
}

fn main() {}
