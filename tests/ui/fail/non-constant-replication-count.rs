use bir::bir;

bir! {
    system S {
        int n := 2;

        active [n] thread T(int index) {
            loc a: do {} goto a;
        }
    }
}

fn main() {}
