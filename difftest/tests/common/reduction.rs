//! What a reduced search (partial-order or symmetry reduction) must keep of the full one,
//! shared by the differential tests.

use bir::oracle::orbit_count;
use bir::{Checker, Model, Report};
use bir_interp::Interpreter;

/// The counts a symmetry-reduced search is held to, and that a brute force finds: the
/// orbits of the reachable states, the orbits of the deadlocks, and the faulting steps of
/// one state per orbit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Orbits {
    pub states: u64,
    pub deadlocks: u64,
    pub errors: u64,
}

/// The interpreter of the model file `path` (relative to this crate).
pub fn interpreted(path: &str) -> Interpreter {
    let path = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    Interpreter::from_source(&text).unwrap_or_else(|e| panic!("{path}: {e:?}"))
}

/// The counts and the group of a complete search, past every finding, with or without
/// symmetry reduction.
pub fn searched<M: Model + Clone>(model: M, symmetry: bool) -> (Orbits, Option<String>) {
    let report = Checker::new(model)
        .keep_going(0)
        .symmetry(symmetry)
        .progress(false)
        .run();
    assert!(report.is_complete(), "{report}");
    let counts = Orbits {
        states: report.states(),
        deadlocks: report.deadlocks(),
        errors: report.errors(),
    };
    (counts, report.plan().symmetry.clone())
}

/// States each search may store: the models are random, some have large state spaces.
pub const MAX_STATES: u64 = 3_000;

/// The most reachable states of a model whose orbits the exactness check counts by brute
/// force ([`orbit_count`]: every state stored, every permutation applied to each).
pub const ORBIT_LIMIT: usize = 20_000;

/// What the report of a symmetry-reduced search says when the canonicaliser's cap cut some
/// canonical form short (its counts may then exceed the orbits).
const CAPPED: &str = "more candidate permutations than the canonicaliser tries";

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

/// What [`symmetry_differences`] found on one model.
#[derive(Default)]
pub struct SymmetryCheck {
    /// The disagreements, each a paragraph.
    pub failures: Vec<String>,
    /// The reduced depth-first search was complete and stored fewer states than the full one.
    pub shrank: bool,
    /// How many families the model's group permutes (more than one permutation each).
    pub acting: usize,
    /// The model has a non-trivial group and its reduced counts were held against the
    /// brute-force number of orbits.
    pub exact: bool,
}

/// Symmetry reduction of `checker`'s model in every frontier, alone and with partial-order
/// reduction, against the full depth-first search: the same kinds of finding, no more
/// states, and counterexamples that replay without symmetry. Without partial-order
/// reduction a complete reduced search stores one state per orbit, so depth-first,
/// breadth-first and parallel alike must store exactly as many states as there are orbits
/// of the states the full search reaches ([`orbit_count`], when there are at most
/// [`ORBIT_LIMIT`] of them), unless the report says the canonicaliser's cap was reached.
pub fn symmetry_differences<M: Model + Clone>(checker: &Checker<M>) -> SymmetryCheck {
    let full = configure(checker.clone(), false).run();
    let acting = checker
        .model()
        .symmetry()
        .map_or(0, |s| s.families.iter().filter(|f| f.acts()).count());
    let mut check = SymmetryCheck {
        acting,
        ..SymmetryCheck::default()
    };
    // Counted once, when a reduced search first needs it: `None` when the model has more
    // reachable states than the limit.
    let mut orbits: Option<Option<usize>> = None;
    let variants: [(&str, bool, Checker<M>); 5] = [
        ("DFS", true, configure(checker.clone(), false)),
        ("BFS", true, configure(checker.clone(), true)),
        (
            "parallel",
            true,
            configure(checker.clone(), false).threads(2),
        ),
        (
            "DFS with POR",
            false,
            configure(checker.clone().por(true), false),
        ),
        (
            "BFS with POR",
            false,
            configure(checker.clone().por(true), true),
        ),
    ];
    for (name, exact, variant) in variants {
        let reduced = variant.symmetry(true).run();
        if let Some(difference) = reduction_difference(&full, &reduced) {
            check.failures.push(format!(
                "{name} with symmetry against the full search: {difference}\n--- full:\n{full}\n--- reduced:\n{reduced}"
            ));
        }
        if name == "DFS" && reduced.is_complete() && reduced.states() < full.states() {
            check.shrank = true;
        }
        let capped = reduced.notes().iter().any(|note| note.contains(CAPPED));
        if exact && reduced.is_complete() && !capped {
            let count = *orbits.get_or_insert_with(|| orbit_count(checker.model(), ORBIT_LIMIT));
            if let Some(count) = count {
                check.exact |= acting > 0;
                if reduced.states() != count as u64 {
                    check.failures.push(format!(
                        "{name} with symmetry stored {} states, but the reachable states \
                         form {count} orbits\n--- full:\n{full}\n--- reduced:\n{reduced}",
                        reduced.states()
                    ));
                }
            }
        }
        for found in reduced.findings() {
            let again = checker.clone().replay(found.replay());
            if again.as_ref() != Ok(found) {
                check.failures.push(format!(
                    "{name} with symmetry: the counterexample does not replay without \
                     symmetry ({again:?}):\n{found}"
                ));
            }
        }
    }
    check
}
