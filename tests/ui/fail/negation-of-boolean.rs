use bir::bir;

bir! {
    system S {
        boolean b;
        int x;

        active thread T() {
            loc a: do { x := -b; } goto a;
        }
    }
}

fn main() {}
