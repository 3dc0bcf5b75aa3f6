use bir::bir;

bir! {
    system S {
        thread[2] Worker() {
            loc work: do {} return;
        }
        tid t;
        tid u;

        active thread Main() {
            loc a: when t < u do {} return;
        }
    }
}

fn main() {}
