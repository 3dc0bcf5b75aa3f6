//! What the end-to-end test targets (`suite`, and `release` for the sizes that need an
//! optimised build) check alike on a model: a full search that depth-first and
//! breadth-first agree on, and exact and compact storage giving the same counts, verdicts
//! and counterexamples. Each target includes this file as its module `search`.

use bir::{Checker, Model, Report, Storage};

/// Runs a full search (past every finding) in both orders; they must agree.
pub fn explore<M: Model + Clone>(checker: Checker<M>) -> Report {
    let dfs = checker.clone().keep_going(1).progress(false).run();
    let bfs = checker.clone().bfs().keep_going(1).progress(false).run();
    assert_eq!(
        (
            dfs.states(),
            dfs.transitions(),
            dfs.errors(),
            dfs.deadlocks()
        ),
        (
            bfs.states(),
            bfs.transitions(),
            bfs.errors(),
            bfs.deadlocks()
        ),
        "DFS and BFS disagree on {}",
        dfs.name()
    );
    assert!(dfs.is_complete() || dfs.first_finding().is_some());
    // Compact storage stores the same states: same counts and findings, in both orders.
    agree(checker, &[Some(1)]);
    dfs
}

#[allow(unused_macros)]
macro_rules! family_test {
    ($test:ident, $family:ident, $name:ident, $n:tt, $states:expr, $transitions:expr, $deadlocks:expr) => {
        #[test]
        fn $test() {
            $family!($name, $n);
            let report = $crate::search::explore($name::checker());
            assert_eq!(report.states(), $states);
            assert_eq!(report.transitions(), $transitions);
            assert_eq!(report.deadlocks(), $deadlocks);
            assert_eq!(report.errors(), 0);
        }
    };
}

/// What a report says: counts, verdict, completeness and the first counterexample's replay.
pub fn summary(report: &Report) -> (u64, u64, u64, u64, String, bool, Option<String>) {
    (
        report.states(),
        report.transitions(),
        report.errors(),
        report.deadlocks(),
        format!("{:?}", report.verdict()),
        report.is_complete(),
        report.first_finding().map(|cx| cx.replay().to_string()),
    )
}

/// Runs `checker` with exact and with compact storage, depth-first and breadth-first,
/// stopping at the first finding (`None`) or keeping going as given; they agree.
pub fn agree<M: Model + Clone>(checker: Checker<M>, keep_going: &[Option<usize>]) {
    let checker = checker.progress(false);
    for bfs in [false, true] {
        for &keep_going in keep_going {
            let configure = |storage| {
                let c = checker.clone().storage(storage);
                let c = if bfs { c.bfs() } else { c };
                match keep_going {
                    Some(n) => c.keep_going(n),
                    None => c,
                }
            };
            let exact = configure(Storage::Exact).run();
            let compact = configure(Storage::Compact).run();
            assert_eq!(
                summary(&exact),
                summary(&compact),
                "{} (bfs {bfs}, keep going {keep_going:?})",
                exact.name()
            );
            assert_eq!(exact.is_verified(), compact.is_verified());
            // Every generated model is stored compactly, states wider than a word as trees.
            let plan = compact.plan();
            assert_eq!(
                plan.storage,
                Storage::Compact,
                "{}: {plan:?}",
                compact.name()
            );
            assert!(plan.notes.is_empty(), "{}: {plan:?}", compact.name());
            assert_eq!(
                plan.layout.contains("trees"),
                !fits_a_word(&checker),
                "{}: {plan:?}",
                compact.name()
            );
        }
    }
}

/// True when every state of the checker's model fits in a 64-bit word.
pub fn fits_a_word<M: Model + Clone>(checker: &Checker<M>) -> bool {
    let model = checker.model();
    model.state_word(&model.initial_state()).is_some()
}

/// The counts of `checker` with symmetry, verified.
pub fn reduced<M: Model>(checker: Checker<M>) -> (u64, u64) {
    let report = checker.symmetry(true).progress(false).run();
    report.assert_verified();
    (report.states(), report.transitions())
}
