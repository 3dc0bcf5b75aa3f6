use bir::bir;

bir! {
    system S {
        int x;

        active thread T() {
            loc a: when x = 1 do { x := 0; } goto a;
        }
    }
}

fn main() {}
