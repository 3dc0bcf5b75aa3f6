use bir::bir;

bir! {
    system S {
        int r#x;
    }
}

fn main() {}
