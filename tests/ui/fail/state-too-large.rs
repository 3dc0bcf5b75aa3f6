use bir::bir;

bir! {
    system S {
        active [4] thread T() {
            int[65536] a;
            loc l: do { a[0] := 1; } goto l;
        }
    }
}

fn main() {}
