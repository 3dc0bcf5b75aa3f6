//! A model read with `bir!(file = "...")` names the lines of its file in its traces, as the
//! interpreter does: the generated checker's steps, assertions and invariants say `(line n)`
//! of the `.bir` file, not of the Rust file that invokes the macro.

mod common;
use common::{interpreted, trace};

mod pool_tids {
    bir::bir!(file = "../../models/v3/pool_tids.bir");
}

mod heuristic_walk {
    bir::bir!(file = "../../models/v3/heuristic_walk.bir");
}

#[test]
fn an_assertion_of_a_file_model_names_its_line_in_the_file() {
    let compiled = trace(pool_tids::PoolTids);
    assert_eq!(compiled, trace(interpreted("v3/pool_tids.bir")));
    // `assert(t == null && u != null);` is line 18 of the file.
    assert!(compiled.contains("(line 18)"), "{compiled}");
}

#[test]
fn an_invariant_of_a_file_model_names_its_line_in_the_file() {
    let compiled = trace(heuristic_walk::HeuristicWalk);
    assert_eq!(compiled, trace(interpreted("v3/heuristic_walk.bir")));
}
