use bir::bir;

bir! {
    system S {
        int[2] a;

        active thread T() {
            loc l: do { a := 0; } goto l;
        }
    }
}

fn main() {}
