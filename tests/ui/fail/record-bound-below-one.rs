use bir::bir;

bir! {
    system S {
        record[0] Node { int (0, 3) value; }
        Node n;
        active thread T() {
            loc l: do { n := new Node; } return;
        }
    }
}

fn main() {}
