use bir::bir;

bir! {
    system S {
        int x;

        active thread T() {
            loc a: do { x := x[0]; } goto a;
        }
    }
}

fn main() {}
