use bir::bir;

bir! {
    system S {
        int x
        int y;
    }
}

fn main() {}
