use bir::bir;

bir! {
    system S {
        thread[2] Worker() {
            loc work: do {} return;
        }
        int x;

        active thread Main() {
            loc a: do { x := start Worker(); } return;
        }
    }
}

fn main() {}
