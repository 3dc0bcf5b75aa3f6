use bir::bir;

bir! {
    system S {
        int (0, 9) x;

        function inc(int (0, 8) n) returns int (0, 9) {
            return n + 1;
        }

        active thread T() {
            x := inc(true);
        }
    }
}

fn main() {}
