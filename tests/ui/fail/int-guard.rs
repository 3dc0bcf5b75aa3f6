use bir::bir;

bir! {
    system S {
        int x;

        active thread T() {
            loc a: when x do {} goto a;
        }
    }
}

fn main() {}
