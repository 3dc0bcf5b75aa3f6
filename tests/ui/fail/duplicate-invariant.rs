use bir::bir;

bir! {
    system S {
        int x;

        invariant Small: x < 10;
        invariant Small: x < 20;
    }
}

fn main() {}
