use bir::bir;

bir! {
    system S {
        int x;

        active thread T() {
            loc a: when x < 1 or x > 3 do { x := 2; } goto a;
        }
    }
}

fn main() {}
