use bir::bir;

bir! {
    system M {
        boolean b;
    }
}

bir! {
    system M {
        int x;
    }
}

fn main() {}
