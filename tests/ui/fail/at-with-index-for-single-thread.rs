use bir::bir;

bir! {
    system S {
        active thread P() {
            loc idle: do {} goto idle;
        }

        invariant Idle: P[0]@idle;
    }
}

fn main() {}
