use bir::bir;

bir! {
    system S {
        record Node { int (0, 3) value; Node next; }
        Node n;
        active thread T() {
            loc l: do { n.vlaue := 1; } return;
        }
    }
}

fn main() {}
