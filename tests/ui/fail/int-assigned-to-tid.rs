use bir::bir;

bir! {
    system S {
        thread[2] Worker() {
            loc work: do {} return;
        }
        tid t;

        active thread Main() {
            loc a: do { t := 1; } return;
        }
    }
}

fn main() {}
