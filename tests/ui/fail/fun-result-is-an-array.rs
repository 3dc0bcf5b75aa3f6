use bir::bir;

bir! {
    system S {
        int (0, 3) x;

        fun pair(int (0, 3) a) returns int (0, 3)[2] = a;

        active thread T() {
            x := 1;
        }
    }
}

fn main() {}
