use bir::bir;

bir! {
    system S {
        invariant Vacuous: forall k in 3 .. 1 : (k < 10);
    }
}

fn main() {}
