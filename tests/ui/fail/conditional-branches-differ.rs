use bir::bir;

bir! {
    system S {
        int x;
        boolean b;

        active thread T() {
            loc a: do { x := b ? 1 : false; } goto a;
        }
    }
}

fn main() {}
