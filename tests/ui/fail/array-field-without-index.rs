use bir::bir;

bir! {
    system S {
        record Node { int (0, 3)[2] values; }
        Node n;
        int (0, 3) x;
        active thread T() {
            loc l: do { n := new Node; x := n.values; } return;
        }
    }
}

fn main() {}
