use bir::bir;

bir! {
    system S {
        int (0, 3) x;
        channel (int (0, 3)) buffer 1 c;
        channel (int (0, 3)) buffer 1 d;

        active thread T() {
            loc a: do { c?(x); d!(x); } goto a;
        }
    }
}

fn main() {}
