use bir::bir;

bir! {
    system S {
        boolean locked;

        active thread T() {
            loc a: when !lockd do { locked := true; } goto a;
        }
    }
}

fn main() {}
