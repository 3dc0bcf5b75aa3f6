//! A model read with `bir!(file = "...")` names the lines of its file in its traces, as the
//! interpreter does: the generated checker's steps, assertions and invariants say `(line n)`
//! of the `.bir` file, not of the Rust file that invokes the macro.

use bir::Checker;
use bir_interp::Interpreter;

mod pool_tids {
    bir::bir!(file = "../../models/v3/pool_tids.bir");
}

mod heuristic_walk {
    bir::bir!(file = "../../models/v3/heuristic_walk.bir");
}

/// The text of the first counterexample of a breadth-first search.
fn trace<M: bir::Model>(model: M) -> String {
    let report = Checker::new(model).bfs().progress(false).run();
    assert!(!report.findings().is_empty(), "{report}");
    format!("{:#}", report.findings()[0])
}

/// The model `path` of `models/`, interpreted.
fn interpreted(path: &str) -> Interpreter {
    let path = format!("{}/../models/{path}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    Interpreter::from_source(&text).unwrap_or_else(|e| panic!("{path}: {e:?}"))
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
