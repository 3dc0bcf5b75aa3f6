use bir::bir;

bir! {
    system S {
        active thread Worker() {
            loc a: do {} goto a;
        }

        active thread Worker() {
            loc b: do {} goto b;
        }
    }
}

fn main() {}
