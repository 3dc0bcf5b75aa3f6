use bir::bir;

bir! {
    system S {
        invariant Any: exists i in 0 .. 3 : (exists i in 0 .. 2 : (true));
    }
}

fn main() {}
