use bir::bir;

bir! {
    system S {
        thread[0] Worker() {
            loc work: do {} return;
        }

        active thread Main() {
            loc a: do { start Worker(); } return;
        }
    }
}

fn main() {}
