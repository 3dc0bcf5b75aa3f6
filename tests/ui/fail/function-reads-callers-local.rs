use bir::bir;

bir! {
    system S {
        int (0, 3) x;

        function f() {
            x := mine;
        }

        active thread T() {
            int (0, 3) mine;
            f();
        }
    }
}

fn main() {}
