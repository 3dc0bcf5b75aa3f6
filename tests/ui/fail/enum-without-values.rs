use bir::bir;

bir! {
    system S {
        enum Empty {}
    }
}

fn main() {}
