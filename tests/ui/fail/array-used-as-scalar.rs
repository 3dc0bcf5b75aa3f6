use bir::bir;

bir! {
    system S {
        int[3] a;
        int x;

        active thread T() {
            loc a: do { x := a; } goto a;
        }
    }
}

fn main() {}
