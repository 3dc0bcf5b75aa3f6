use bir::bir;

bir! {
    system S {
        active [2] thread Worker(int index, int other) {
            loc work: do {} return;
        }
    }
}

fn main() {}
