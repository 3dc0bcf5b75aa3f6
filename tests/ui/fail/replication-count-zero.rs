use bir::bir;

bir! {
    system S {
        active [0] thread T(int index) {
            loc a: do {} goto a;
        }
    }
}

fn main() {}
