use bir::bir;

bir! {
    system S {
        int n := 3;

        invariant Small: forall k in 0 .. n : (k < 10);
    }
}

fn main() {}
