use bir::bir;

bir! {
    system S {
        record Node { int (0, 3) value; }
        int (0, 3) x;
        active thread T() {
            loc l: do { x := null.value; } return;
        }
    }
}

fn main() {}
