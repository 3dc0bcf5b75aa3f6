use bir::bir;

bir! {
    system S {
        int (0, 9) x;

        function reset() {
            x := 0;
        }

        active thread T() {
            x := reset();
        }
    }
}

fn main() {}
