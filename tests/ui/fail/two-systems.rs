use bir::bir;

bir! {
    system S {
        boolean b;
    }
    system R {
        boolean b;
    }
}

fn main() {}
