use bir::bir;

bir! {
    system S {
        invariant Small: forall k in 0 ..= 3 : (k < 10);
    }
}

fn main() {}
