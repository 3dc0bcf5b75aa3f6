use bir::bir;

bir! {
    system S {
        int (0, 3) x;

        active thread T() {
            x := 1;
            loc a: do { x := 2; } goto a;
        }
    }
}

fn main() {}
