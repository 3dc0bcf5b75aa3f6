use bir::bir;

bir! {
    system S {
        int x;
        x y;
    }
}

fn main() {}
