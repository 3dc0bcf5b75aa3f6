#![deny(deprecated)]

use bir::bir;

bir! {
    system S {
        boolean[2] a;

        active thread T() {
            loc l: when a[-1] do {} goto l;
        }
    }
}

fn main() {}
