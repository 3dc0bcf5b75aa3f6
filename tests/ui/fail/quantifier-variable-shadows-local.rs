use bir::bir;

bir! {
    system S {
        active thread T() {
            int k;
            loc a: when forall k in 0 .. 3 : (k < 5) do {} goto a;
        }
    }
}

fn main() {}
