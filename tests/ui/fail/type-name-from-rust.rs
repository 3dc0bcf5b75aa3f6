use bir::bir;

bir! {
    system S {
        bool done;
    }
}

fn main() {}
