use bir::bir;

bir! {
    system S {
        active thread T() {
            loc a: do {} goto a;
            loc a: do {} goto a;
        }
    }
}

fn main() {}
