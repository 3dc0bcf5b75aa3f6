use bir::bir;

bir! {
    system S {
        record Node { int (0, 3) value := 2; }
        Node n;
        active thread T() {
            loc l: do { n := new Node; } return;
        }
    }
}

fn main() {}
