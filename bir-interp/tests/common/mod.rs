//! What the tests of both engines share: the summary each engine must give of a model.

use bir::{Checker, Model, Report, Verdict};

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
