use bir::bir;

bir! {
    system S {
        boolean[100000] a;
    }
}

fn main() {}
