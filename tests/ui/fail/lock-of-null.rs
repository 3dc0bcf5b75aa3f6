use bir::bir;

bir! {
    system S {
        record Node { int (0, 3) value; }
        active thread T() {
            loc l: do { lock(null); } return;
        }
    }
}

fn main() {}
