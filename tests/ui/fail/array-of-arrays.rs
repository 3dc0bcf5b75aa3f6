use bir::bir;

bir! {
    system S {
        int[2][3] grid;
    }
}

fn main() {}
