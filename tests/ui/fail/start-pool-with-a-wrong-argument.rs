use bir::bir;

bir! {
    system S {
        thread[2] Worker(tid boss) {
            loc work: do {} return;
        }

        active thread Main() {
            loc a: do { start Worker(1); } return;
        }
    }
}

fn main() {}
