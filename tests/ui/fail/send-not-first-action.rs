use bir::bir;

bir! {
    system S {
        int (0, 3) x;
        channel (int (0, 3)) buffer 1 c;

        active thread T() {
            loc a: do { x := 1; c!(x); } goto a;
        }

        active thread U() {
            loc a: do { c?(x); } goto a;
        }
    }
}

fn main() {}
