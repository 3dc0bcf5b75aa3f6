use bir::bir;

bir! {
    system S {
        thread[2] Worker() {
            loc work: do {} return;
        }
        tid t;

        active thread Main() {
            loc a: when t == 1 do { t := start Worker(); } return;
        }
    }
}

fn main() {}
