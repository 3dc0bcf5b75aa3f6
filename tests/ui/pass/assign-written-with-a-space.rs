use bir::{bir, Verdict};

bir! {
    system S {
        int x : = 1;
        int[2] a : = { 1, 2 };

        active thread T() {
            int y : = 2;
            loc l: do { x : = y; a[0] : = x + 1; assert (a[0] == 3); } return;
        }
    }
}

pub fn main() {
    assert_eq!(S::checker().run().verdict(), Verdict::Verified);
}
