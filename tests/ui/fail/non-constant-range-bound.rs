use bir::bir;

bir! {
    system S {
        int hi := 3;
        int (0, hi) x;
    }
}

fn main() {}
