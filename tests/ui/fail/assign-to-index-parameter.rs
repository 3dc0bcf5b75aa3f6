use bir::bir;

bir! {
    system S {
        active [2] thread T(int i) {
            loc a: do { i := 0; } goto a;
        }
    }
}

fn main() {}
