use bir::bir;

bir! {
    system S {
        thread[2] Worker() {
            loc work: do {} return;
        }

        active thread Main() {
            loc a: do { start Worker(); } return;
        }
        invariant Idle: !Worker@work;
    }
}

fn main() {}
