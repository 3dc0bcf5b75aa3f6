use bir::bir;

bir! {
    system S {
        const C { A = 2147483648; }
        int x;
        active thread T() {
            loc l: when forall i in 0 .. C.A + 1 : (x == 0) do { } goto l;
        }
    }
}

fn main() {}
