use bir::{bir, Verdict};

bir! {
    system S {
        const Param { Min = -2147483648; }
        int x := -2147483648;
        int (-2147483648, 2147483647) y := Param.Min;

        active thread T() {
            loc a: do { assert (x == y && x < -2_147_483_647); } return;
        }
    }
}

pub fn main() {
    assert_eq!(S::checker().run().verdict(), Verdict::Verified);
}
