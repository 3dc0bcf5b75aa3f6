use bir::bir;

bir! {
    system S {
        active thread T() {
            int n;
            loc a: do {} goto a;
        }

        invariant Small: n < 3;
    }
}

fn main() {}
