use bir::bir;

bir! {
    system S {
        record Account { int (0, 3) balance; lock guard[2]; }
        Account a;

        active thread T() {
            loc l: when a.guard[0] != null do { } return;
        }
    }
}

fn main() {}
