use bir::bir;

bir! {
    system S {
        active thread T() {
            int a := 1;
            int b := a;
            loc l: do {} goto l;
        }
    }
}

fn main() {}
