use bir::bir;

bir! {
    system S {
        int x;

        invariant Small: x;
    }
}

fn main() {}
