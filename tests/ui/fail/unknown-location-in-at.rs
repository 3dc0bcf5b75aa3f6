use bir::bir;

bir! {
    system S {
        active thread T() {
            loc a: do {} goto a;
        }

        invariant Idle: T@b;
    }
}

fn main() {}
