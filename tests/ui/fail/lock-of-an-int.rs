use bir::bir;

bir! {
    system S {
        record Node { int (0, 3) value; }
        int (0, 3) x;
        active thread T() {
            loc l: do { lock(x); } return;
        }
    }
}

fn main() {}
