use bir::bir;

bir! {
    system S {
        active [3] thread P(int (0, 1) index) {
            loc a: do {} goto a;
        }
    }
}

fn main() {}
