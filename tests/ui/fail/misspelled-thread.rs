use bir::bir;

bir! {
    system S {
        thread Worker() {
            loc w: do {} return;
        }

        active thread Main() {
            loc m: do { start Worke(); } return;
        }
    }
}

fn main() {}
