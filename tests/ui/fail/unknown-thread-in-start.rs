use bir::bir;

bir! {
    system S {
        thread Worker() {
            loc a: do {} return;
        }

        active thread Main() {
            loc a: do { start Worke(); } return;
        }
    }
}

fn main() {}
