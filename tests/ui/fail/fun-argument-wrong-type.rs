use bir::bir;

bir! {
    system S {
        int (0, 3) x;

        fun id(int (0, 3) a) returns int (0, 3) = a;

        active thread T() {
            x := id(true);
        }
    }
}

fn main() {}
