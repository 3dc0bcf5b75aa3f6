use bir::bir;

bir! {
    system S {
        int (0, 3) x;

        function f(int (0, 3) n) {
            int (0, 3) n;
            x := n;
        }

        active thread T() {
            f(1);
        }
    }
}

fn main() {}
