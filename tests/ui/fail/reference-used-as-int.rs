use bir::bir;

bir! {
    system S {
        record Node { int (0, 3) value; }
        Node n;
        int (0, 3) x;
        active thread T() {
            loc l: do { x := n + 1; } return;
        }
    }
}

fn main() {}
