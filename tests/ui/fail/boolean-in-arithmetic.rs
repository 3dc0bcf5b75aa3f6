use bir::bir;

bir! {
    system S {
        int x;
        boolean b;

        active thread T() {
            loc a: do { x := x + b; } goto a;
        }
    }
}

fn main() {}
