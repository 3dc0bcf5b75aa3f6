use bir::bir;

bir! {
    system S {
        int x;
        boolean ready;

        active thread T() {
            loc a: when ready and x < 3 do { x := x + 1; } goto a;
        }
    }
}

fn main() {}
