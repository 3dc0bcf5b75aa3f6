use bir::bir;

bir! {
    system S {
        boolean[64] a;
        active [4096] thread T() {
            loc l: when forall i in 0 .. 64 : (!a[i]) do { } goto l;
                   when forall i in 0 .. 64 : (a[i]) do { } goto l;
        }
    }
}

fn main() {}
