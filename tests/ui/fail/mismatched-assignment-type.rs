use bir::bir;

bir! {
    system S {
        int x;

        active thread T() {
            loc a: do { x := true; } goto a;
        }
    }
}

fn main() {}
