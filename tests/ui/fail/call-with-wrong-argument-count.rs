use bir::bir;

bir! {
    system S {
        int (0, 9) x;

        function add(int (0, 4) a, int (0, 4) b) returns int (0, 9) {
            return a + b;
        }

        active thread T() {
            x := add(1);
        }
    }
}

fn main() {}
