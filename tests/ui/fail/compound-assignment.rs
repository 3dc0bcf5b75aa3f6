use bir::bir;

bir! {
    system S {
        int (0, 9) x;

        active thread T() {
            loc a: when x < 9 do { x += 1; } goto a;
        }
    }
}

fn main() {}
