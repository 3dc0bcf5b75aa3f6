use bir::bir;

bir! {
    system S {
        record Node { int (0, 3) value; }
        Node n;
        active thread T() {
            loc a: do { n := new Node; } goto b;
            loc b: do { lock(n); } return;
        }
    }
}

fn main() {}
