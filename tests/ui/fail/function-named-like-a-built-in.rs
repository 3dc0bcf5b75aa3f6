use bir::bir;

bir! {
    system S {
        int (0, 3) x;

        function full() {
            x := 1;
        }

        active thread T() {
            x := 2;
        }
    }
}

fn main() {}
