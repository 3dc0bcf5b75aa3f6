use bir::{bir, Verdict};

bir! {
    system S {
        int (0, 5) count;

        active [3] thread P(int (0, 2) me) {
            loc a: do { count := count + 1; } goto b;
            loc b: do { assert (me < 3); } return;
        }

        active [2] thread R() {
            loc a: do { count := count + 1; } return;
        }

        active thread Q() {
            loc a: when count == 5 do {} return;
        }
    }
}

pub fn main() {
    assert_eq!(S::checker().run().verdict(), Verdict::Verified);
}
