use bir::bir;

bir! {
    system S {
        int x;

        active thread T() {
            loc a: do { x == 1; } goto a;
        }
    }
}

fn main() {}
