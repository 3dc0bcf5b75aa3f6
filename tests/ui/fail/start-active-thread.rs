use bir::bir;

bir! {
    system S {
        active thread Worker() {
            loc a: do {} return;
        }

        active thread Main() {
            loc a: do { start Worker(); } return;
        }
    }
}

fn main() {}
