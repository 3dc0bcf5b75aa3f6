use bir::bir;

bir! {
    system S {
        invariant Sorted: forall i in 0 .. 3 : (forall j in 0 .. i : (j < i));
    }
}

fn main() {}
