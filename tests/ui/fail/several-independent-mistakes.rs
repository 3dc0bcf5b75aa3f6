use bir::bir;

bir! {
    system S {
        int (0, 3) x := 4;

        active thread T() {
            loc a: do { y := 1; } goto a;
        }

        active thread U() {
            loc b: when x do {} goto b;
        }
    }
}

fn main() {}
