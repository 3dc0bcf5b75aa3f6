use bir::bir;

bir! {
    system S {
        int x;

        active thread T() {
            loc a: do { goto a; x := 1; }
        }
    }
}

fn main() {}
