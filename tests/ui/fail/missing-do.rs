use bir::bir;

bir! {
    system S {
        boolean x;

        active thread T() {
            loc a: when x { x := false; } goto a;
        }
    }
}

fn main() {}
