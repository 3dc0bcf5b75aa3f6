use bir::bir;

bir! {
    system S {
        thread Worker(int n) {
            loc a: do {} return;
        }

        active thread Main() {
            loc a: do { start Worker(true); } return;
        }
    }
}

fn main() {}
