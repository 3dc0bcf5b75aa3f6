#![deny(deprecated)]

use bir::bir;

bir! {
    system S {
        thread Worker(int (0, 3) job) {
            loc work: do {} return;
        }

        active thread Main() {
            loc go: do { start Worker(5); } return;
        }
    }
}

fn main() {}
