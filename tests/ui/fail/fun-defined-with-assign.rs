use bir::bir;

bir! {
    system S {
        fun double(int (0, 3) n) returns int (0, 6) := n + n;

        active thread T() {
            skip;
        }
    }
}

fn main() {}
