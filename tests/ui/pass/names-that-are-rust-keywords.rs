use bir::{bir, Verdict};

bir! {
    system S {
        const fn { match = 1; }
        enum type { mod, impl, Self }
        int loop := fn.match;
        type struct := type.impl;
        boolean self;
        int (0, 1) super;

        active thread move(int (0, 0) ref) {
            int let;
            loc for: do { let := loop + ref; } goto break;
            loc break: do { assert (let == 1 && struct == type.impl); self := true; } return;
        }

        active [2] thread crate(int Self) {
            loc yield: when move@break || self do { super := Self; } return;
        }

        invariant match: !move@for || !self;
    }
}

pub fn main() {
    assert_eq!(S::checker().run().verdict(), Verdict::Verified);
}
