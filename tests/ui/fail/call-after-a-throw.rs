use bir::bir;

bir! {
    system S {
        throwable record Full { int (0, 9) size; }
        int (0, 9) x;

        function f() {
            loc inside: do { x := 1; } return;
        }

        active thread T() {
            Full e;
            loc begin: do { e := new Full; throw e; } invoke f() goto begin;
        }
    }
}

fn main() {}
