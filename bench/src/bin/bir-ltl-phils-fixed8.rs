//! `bir-ltl-phils-fixed8 --ltl Someone [--weak-fairness | --strong-fairness] [--exact |
//! --compact]`: the LTL benchmark of `scripts/compare --ltl` on the fixed dining philosophers N=8,
//! alone in its binary as SPIN's `pan` holds one model (see `bir_bench::ltl_main`).

use bir_bench::{ltl_main, Family};

include!("../../../models/families.rs");

dining_philosophers_fixed!(FixedLtl8, 8,
    ltl Someone: []<>(exists i in 0 .. Param.N : (Philosopher[i]@putSecond));
);

fn main() {
    ltl_main(
        FixedLtl8::checker(),
        "bir-ltl-phils-fixed8",
        Family::PhilsFixed,
        8,
    )
}
