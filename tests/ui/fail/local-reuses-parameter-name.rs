use bir::bir;

bir! {
    system S {
        active [2] thread T(int index) {
            int index;
            loc a: do {} goto a;
        }
    }
}

fn main() {}
