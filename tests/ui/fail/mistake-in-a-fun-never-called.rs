use bir::bir;

bir! {
    system S {
        int (0, 3) x;

        fun twice(int (0, 3) a) returns int (0, 6) = a + b;

        active thread T() {
            x := 2;
        }
    }
}

fn main() {}
