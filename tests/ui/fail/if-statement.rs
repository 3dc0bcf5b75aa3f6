use bir::bir;

bir! {
    system S {
        int x;

        active thread T() {
            loc a: do { if x > 2 { x := 0; } } goto a;
        }
    }
}

fn main() {}
