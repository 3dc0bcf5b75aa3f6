use bir::bir;

bir! {
    system S {
        int (0, 9) x;

        function twice(int (0, 4) n) returns int (0, 9) {
            return n + n;
        }

        active thread T() {
            x := twice(2) + 1;
        }
    }
}

fn main() {}
