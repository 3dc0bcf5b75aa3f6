//! `bir-ltl-peterson5 --ltl One [--weak-fairness | --strong-fairness] [--exact | --compact]`: the
//! LTL benchmark of `scripts/compare --ltl` on Peterson's filter N=5, alone in its binary as SPIN's
//! `pan` holds one model (see `bir_bench::ltl_main`).

use bir_bench::{ltl_main, Family};

include!("../../../models/families.rs");

peterson_filter!(PetersonLtl5, 5,
    ltl One: []<>(incs == 1);
);

fn main() {
    ltl_main(
        PetersonLtl5::checker(),
        "bir-ltl-peterson5",
        Family::Peterson,
        5,
    )
}
