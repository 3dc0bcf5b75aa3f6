use bir::bir;

bir! {
    system S {
        int (0, 9) x;

        function reset() {
            x := 0;
            return 1;
        }

        active thread T() {
            reset();
        }
    }
}

fn main() {}
