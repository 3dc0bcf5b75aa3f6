use bir::bir;

bir! {
    system S {
        record Node { int (0, 3) value; }
        Node n;
        active thread T() {
            loc l: do { n := new Node; n.value[0] := 1; } return;
        }
    }
}

fn main() {}
