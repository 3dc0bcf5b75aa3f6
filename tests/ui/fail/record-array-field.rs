use bir::bir;

bir! {
    system S {
        record Node { int (0, 3)[2] values; }
        Node n;
        active thread T() {
            loc l: do { n := new Node; } return;
        }
    }
}

fn main() {}
