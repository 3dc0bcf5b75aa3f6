use bir::bir;

bir! {
    system S {
        int[0] a;
    }
}

fn main() {}
