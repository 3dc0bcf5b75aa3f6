use bir::bir;

bir! {
    system S {
        thread W(int[2] p) {
            loc a: do {} return;
        }
    }
}

fn main() {}
