use bir::bir;

bir! {
    system S {
        boolean x;
        int x;
    }
}

fn main() {}
