use bir::bir;

bir! {
    system S {
        active thread T() {
            loc a: do { goto a; } goto a;
        }
    }
}

fn main() {}
