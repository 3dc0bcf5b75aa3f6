use bir::bir;

bir! {
    system S {
        int (0, 3) x;

        fun len(int (0, 3) a) returns int (0, 3) = a;

        active thread T() {
            x := 2;
        }
    }
}

fn main() {}
