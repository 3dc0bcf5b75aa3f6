use bir::bir;

bir! {
    system S {
        active thread T() {
            loc a: when T do {} goto a;
        }
    }
}

fn main() {}
