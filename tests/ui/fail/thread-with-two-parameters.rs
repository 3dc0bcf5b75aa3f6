use bir::bir;

bir! {
    system S {
        thread W(int a, int b) {
            loc l: do {} return;
        }
    }
}

fn main() {}
