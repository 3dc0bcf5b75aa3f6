use bir::bir;

bir! {
    system S {
        active thread T() {
            loc waiting: do {} goto wiating;
        }
    }
}

fn main() {}
