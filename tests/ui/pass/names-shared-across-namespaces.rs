use bir::{bir, Verdict};

bir! {
    system S {
        int x;

        active thread T() {
            int n;
            loc a: do { n := 1; } goto b;
            loc b: do { x := n; } return;
        }

        active thread U() {
            int n;
            loc a: do { n := 2; } goto b;
            loc b: do {} return;
        }

        invariant T: forall n in 0 .. 2 : (n >= 0);
        invariant x: x >= 0;
    }
}

pub fn main() {
    assert_eq!(S::checker().run().verdict(), Verdict::Verified);
}
