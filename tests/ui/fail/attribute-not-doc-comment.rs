use bir::bir;

bir! {
    system S {
        #[allow(unused)]
        int x;
    }
}

fn main() {}
