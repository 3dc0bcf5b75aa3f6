use bir::bir;

bir! {
    system S {
        active thread T() {
            loc a:
            loc b: do {} goto a;
        }
    }
}

fn main() {}
