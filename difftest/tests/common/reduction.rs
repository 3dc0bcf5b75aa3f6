//! What a reduced search (partial-order or symmetry reduction) must keep of the full one,
//! shared by the differential tests.

use bir::{Checker, Model, Report};

/// States each search may store: the models are random, some have large state spaces.
pub const MAX_STATES: u64 = 3_000;

/// The options of every search of the differential tests: past the first finding, up to
/// [`MAX_STATES`], depth-first or breadth-first.
pub fn configure<M: Model>(checker: Checker<M>, bfs: bool) -> Checker<M> {
    let checker = checker.keep_going(1).max_states(MAX_STATES).progress(false);
    if bfs {
        checker.bfs()
    } else {
        checker
    }
}

/// What a reduced search misses of a full one, when both are complete: a kind of finding
/// (an error, a deadlock), or more states than the full search.
pub fn reduction_difference(full: &Report, reduced: &Report) -> Option<String> {
    if reduced.states() > full.states() && full.is_complete() {
        return Some(format!(
            "{} states reduced, {} full",
            reduced.states(),
            full.states()
        ));
    }
    if !(full.is_complete() && reduced.is_complete()) {
        return None;
    }
    let kinds = |r: &Report| (r.errors() > 0, r.deadlocks() > 0);
    (kinds(full) != kinds(reduced)).then(|| {
        format!(
            "(errors, deadlocks) found: {:?} full, {:?} reduced",
            kinds(full),
            kinds(reduced)
        )
    })
}

/// Symmetry reduction of `checker`'s model in every frontier, alone and with partial-order
/// reduction, against the full depth-first search: the same kinds of finding, no more
/// states, and counterexamples that replay without symmetry. Returns the disagreements,
/// and whether the reduced depth-first search stored fewer states than the full one.
pub fn symmetry_differences<M: Model + Clone>(checker: &Checker<M>) -> (Vec<String>, bool) {
    let full = configure(checker.clone(), false).run();
    let mut failures = Vec::new();
    let mut shrank = false;
    let variants: [(&str, Checker<M>); 5] = [
        ("DFS", configure(checker.clone(), false)),
        ("BFS", configure(checker.clone(), true)),
        ("parallel", configure(checker.clone(), false).threads(2)),
        ("DFS with POR", configure(checker.clone().por(true), false)),
        ("BFS with POR", configure(checker.clone().por(true), true)),
    ];
    for (name, variant) in variants {
        let reduced = variant.symmetry(true).run();
        if let Some(difference) = reduction_difference(&full, &reduced) {
            failures.push(format!(
                "{name} with symmetry against the full search: {difference}\n--- full:\n{full}\n--- reduced:\n{reduced}"
            ));
        }
        if name == "DFS" && reduced.is_complete() && reduced.states() < full.states() {
            shrank = true;
        }
        for found in reduced.findings() {
            let again = checker.clone().replay(found.replay());
            if again.as_ref() != Ok(found) {
                failures.push(format!(
                    "{name} with symmetry: the counterexample does not replay without \
                     symmetry ({again:?}):\n{found}"
                ));
            }
        }
    }
    (failures, shrank)
}
