use bir::bir;

bir! {
    system S {
        int x;

        active thread T() {
            loc a: do { assert (x); } goto a;
        }
    }
}

fn main() {}
