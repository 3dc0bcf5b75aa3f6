use bir::bir;

bir! {
    system S {
        int y := x;
        int x;
    }
}

fn main() {}
