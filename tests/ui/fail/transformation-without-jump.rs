use bir::bir;

bir! {
    system S {
        boolean x;

        active thread T() {
            loc a: when !x do { x := true; }
        }
    }
}

fn main() {}
