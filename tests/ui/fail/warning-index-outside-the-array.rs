#![deny(deprecated)]

use bir::bir;

bir! {
    system S {
        boolean[2] a;

        active thread T() {
            loc l: do { a[2] := true; } goto l;
        }
    }
}

fn main() {}
