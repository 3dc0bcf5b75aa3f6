use bir::bir;

bir! {
    system S {
        int x;

        active thread T() {
            loc a: do { x := forall i in 0 .. 3 : (i + 1); } goto a;
        }
    }
}

fn main() {}
