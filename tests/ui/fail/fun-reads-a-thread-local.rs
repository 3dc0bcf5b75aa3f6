use bir::bir;

bir! {
    system S {
        int (0, 3) x;

        fun plus(int (0, 3) a) returns int (0, 6) = a + y;

        active thread T() {
            int (0, 3) y;
            x := 1;
        }
    }
}

fn main() {}
