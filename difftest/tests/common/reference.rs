//! The reference models the peers' cross-checks count (`rumur.rs`, `spin.rs`), with the
//! counts of their reference tables.

use std::path::Path;

use bir_codegen::ir::System;
use bir_codegen::{drive::source::front_end, Overrides};

/// The reference models with the sizes set, and their states and transitions by the
/// reference tables (`models/README.md`, `models/v3/README.md`, `models/beem/README.md`;
/// every model of version 3 that bir parses): paths under `models/`, without `.bir`.
pub const REFERENCE: &[(&str, Option<i64>, u64, u64)] = &[
    ("sum_to_n", None, 15_276, 38_174),
    ("two_dining_philosophers", None, 10, 14),
    ("bounded_buffer", None, 10, 12),
    ("readers_writers", None, 11, 21),
    ("dining_philosophers", Some(5), 392, 1_415),
    ("dining_philosophers", Some(8), 14_158, 81_848),
    ("dining_philosophers_fixed", Some(8), 9_403, 51_944),
    ("peterson_filter", Some(3), 288, 651),
    ("peterson_filter", Some(4), 4_752, 13_080),
    ("v3/big_abp", None, 10_634, 35_838),
    ("v3/big_java_buffer", None, 26_751, 43_000),
    ("v3/big_java_buffer_notify", None, 14_533, 22_878),
    ("v3/big_rdv_phils", None, 19_682, 118_089),
    ("v3/func_rec_stack", None, 7, 7),
    ("v3/hl_vs_ll_peterson_high", None, 1_685, 4_214),
    ("v3/hl_vs_ll_peterson_low", None, 1_685, 4_214),
    ("v3/rdv_pair", None, 3, 2),
    ("v3/chan_fifo", None, 10, 12),
    ("v3/lock_notify", None, 17, 17),
    ("beem/bridge.1", None, 3_186, 4_565),
    ("beem/leader_election.1", None, 14_252, 52_944),
    ("beem/needham.1", None, 497, 753),
];

/// The reference models whose search meets an error: sum_to_n's assertion and
/// func_rec_stack's stack error. Rumur stops there when it stops at errors; SPIN's counts
/// are not compared (the Promela keeps BIR's semantics only where no step faults).
pub const MEETING_ERRORS: &[&str] = &["sum_to_n", "v3/func_rec_stack"];

/// The checked reference model `name` (a path under `models/`, without `.bir`), with
/// `Param.N = n` when given.
pub fn reference_system(name: &str, n: Option<i64>) -> System {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../models")
        .join(format!("{name}.bir"));
    let source = std::fs::read_to_string(&path).expect("the reference model is readable");
    let mut overrides = Overrides::default();
    if let Some(n) = n {
        overrides.set_int("Param", "N", n);
    }
    front_end(&source, &overrides).expect("the reference model compiles")
}
