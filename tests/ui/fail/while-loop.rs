use bir::bir;

bir! {
    system S {
        int (0, 9) x;

        active thread T() {
            loc a: while x < 9 do { x := x + 1; } goto a;
        }
    }
}

fn main() {}
