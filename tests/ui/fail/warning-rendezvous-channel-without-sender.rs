#![deny(deprecated)]

use bir::bir;

bir! {
    system S {
        int (0, 3) x;
        channel (int (0, 3)) c;

        active thread T() {
            c?(x);
        }
    }
}

fn main() {}
