#![deny(deprecated)]

use bir::bir;

bir! {
    system S {
        int (0, 3) x;

        active thread T() {
            while x / 0 < 3 do
                x := x + 1;
            end
        }
    }
}

fn main() {}
