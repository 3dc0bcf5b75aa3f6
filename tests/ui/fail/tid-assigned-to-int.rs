use bir::bir;

bir! {
    system S {
        thread[2] Worker() {
            loc work: do {} return;
        }
        tid t;
        int x;

        active thread Main() {
            loc a: do { t := start Worker(); x := t; } return;
        }
    }
}

fn main() {}
