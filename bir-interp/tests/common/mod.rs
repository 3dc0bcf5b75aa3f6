//! What the tests of both engines share: the summary each engine must give of a model, the
//! interpreter of a model file, the text of a first counterexample.

// Each test crate uses some of these.
#![allow(dead_code)]

use bir::{Checker, Model, Report, Verdict};
use bir_interp::Interpreter;

/// The interpreter of `models/<path>`.
pub fn interpreted(path: &str) -> Interpreter {
    let path = format!("{}/../models/{path}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    Interpreter::from_source(&text).unwrap_or_else(|e| panic!("{path}: {e:?}"))
}

/// The text of the first counterexample of a breadth-first search.
pub fn trace<M: Model>(model: M) -> String {
    let report = Checker::new(model).bfs().progress(false).run();
    assert!(!report.findings().is_empty(), "{report}");
    format!("{:#}", report.findings()[0])
}

/// The summary both engines must give: states, transitions, deadlocks, errors, the
/// verdict of a search that stops at the first finding, and that finding's replay string
/// (the full search's verdict when there is nothing to find).
pub fn summary<M: Model + Clone>(model: M) -> (u64, u64, u64, u64, String, Option<String>) {
    let full: Report = Checker::new(model.clone())
        .keep_going(0)
        .progress(false)
        .run();
    if full.errors() == 0 && full.deadlocks() == 0 {
        // Nothing to find: the search that stops at the first finding is this one.
        return (
            full.states(),
            full.transitions(),
            0,
            0,
            format!("{:?}", Verdict::Verified),
            None,
        );
    }
    let first = Checker::new(model).progress(false).run();
    (
        full.states(),
        full.transitions(),
        full.deadlocks(),
        full.errors(),
        format!("{:?}", first.verdict()),
        first
            .first_finding()
            .map(|found| found.replay().to_string()),
    )
}
