use bir::bir;

bir! {
    system S {
        boolean flag;

        active thread T() {
            boolean flag;
            loc a: do {} goto a;
        }
    }
}

fn main() {}
