#![deny(deprecated)]

use bir::bir;

bir! {
    system S {
        int (0, 3) x;

        active thread T() {
            loc l: do { x := x / 0; } goto l;
        }
    }
}

fn main() {}
