use bir::bir;

bir! {
    system S {
        int n;

        thread T(int n) {
            loc a: do {} return;
        }
    }
}

fn main() {}
