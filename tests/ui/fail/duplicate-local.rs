use bir::bir;

bir! {
    system S {
        active thread T() {
            int n;
            boolean n;
            loc a: do {} goto a;
        }
    }
}

fn main() {}
