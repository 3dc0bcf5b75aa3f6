use bir::bir;

bir! {
    system S {
        int (0, 3) x;

        fun positive(int (0, 3) a) returns boolean = a + 1;

        active thread T() {
            x := 1;
        }
    }
}

fn main() {}
