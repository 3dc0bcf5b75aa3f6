use bir::bir;

bir! {
    system S {
        int x;

        active thread T() {
            loc a: when x <> 3 do { x := 3; } goto a;
        }
    }
}

fn main() {}
