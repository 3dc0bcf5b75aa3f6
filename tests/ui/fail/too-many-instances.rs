use bir::bir;

bir! {
    system S {
        active [5000] thread P(int index) {
            loc a: do {} goto a;
        }
    }
}

fn main() {}
