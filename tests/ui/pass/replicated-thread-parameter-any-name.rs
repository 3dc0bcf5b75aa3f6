use bir::{bir, Verdict};

bir! {
    system S {
        const Param { N = 3; }
        boolean[Param.N] done;

        active [Param.N] thread Worker(int id) {
            loc a: do { done[id] := true; } return;
        }

        active [2] thread Helper(int (-1, 1) h) {
            loc a: do { assert (h == 0 || h == 1); } return;
        }
    }
}

pub fn main() {
    assert_eq!(S::checker().run().verdict(), Verdict::Verified);
}
