#![deny(deprecated)]

use bir::bir;

bir! {
    system S {
        int (0, 3) count;

        active thread T() {
            loc l: do { count := 5; } goto l;
        }
    }
}

fn main() {}
