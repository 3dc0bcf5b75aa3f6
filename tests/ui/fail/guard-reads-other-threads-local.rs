use bir::bir;

bir! {
    system S {
        active thread T() {
            boolean ready;
            loc a: do { ready := true; } goto a;
        }

        active thread U() {
            loc a: when ready do {} goto a;
        }
    }
}

fn main() {}
