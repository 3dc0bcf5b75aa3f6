use bir::bir;

bir! {
    system S {
        int (0, 2147483648) x;
    }
}

fn main() {}
