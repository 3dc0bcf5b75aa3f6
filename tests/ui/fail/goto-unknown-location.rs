use bir::bir;

bir! {
    system S {
        active thread T() {
            loc a: do {} goto b;
        }
    }
}

fn main() {}
