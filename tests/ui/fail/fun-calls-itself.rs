use bir::bir;

bir! {
    system S {
        int (0, 3) x;

        fun down(int (0, 3) a) returns int (0, 3) = a == 0 ? 0 : down(a - 1);

        active thread T() {
            x := down(2);
        }
    }
}

fn main() {}
