use bir::bir;

bir! {
    system S {
        active [2] thread P(int index) {
            loc idle: do {} goto idle;
        }

        invariant Idle: P@idle;
    }
}

fn main() {}
