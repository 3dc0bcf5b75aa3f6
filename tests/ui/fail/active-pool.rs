use bir::bir;

bir! {
    system S {
        active thread[2] Worker() {
            loc work: do {} return;
        }
    }
}

fn main() {}
