use bir::bir;

bir! {
    system S {
        int (0, 3 4) x;
    }
}

fn main() {}
