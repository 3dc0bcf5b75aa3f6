#![deny(deprecated)]

use bir::bir;

bir! {
    system S {
        const Param { Zero = 0; }
        int (0, 3) x;

        active thread T() {
            loc l: do { x := x % (Param.Zero * 2); } goto l;
        }
    }
}

fn main() {}
