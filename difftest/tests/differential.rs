//! The generated checkers against the reference interpreter, on the random models of one
//! run (see `build.rs`): depth-first and breadth-first, each past findings and up to a
//! state limit (both implementations follow the same successor order, so even a truncated
//! search must agree), on states, transitions, errors, deadlocks, verdict, completeness and
//! the first counterexample, step by step. With partial-order reduction too: both reduce
//! alike, and a complete reduced search (depth-first, breadth-first, parallel) finds errors
//! and deadlocks exactly when the full one does, in no more states. Compact storage against
//! exact storage: the same counts, verdicts and counterexamples.

use bir::{Checker, Model, Report, Storage};
use bir_interp::Interpreter;

include!(concat!(env!("OUT_DIR"), "/models.rs"));

/// States each search may store: the models are random, some have large state spaces.
const MAX_STATES: u64 = 3_000;

/// Compares each model's two implementations and collects the disagreements.
#[derive(Default)]
struct Differ {
    compared: usize,
    /// Models whose complete reduced depth-first search stored fewer states.
    reduced: usize,
    failures: Vec<String>,
}

impl Differ {
    fn check<M: Model + Clone>(&mut self, checker: Checker<M>, source: &str, seed: u64) {
        self.compared += 1;
        let interpreter = match Interpreter::from_source(source) {
            Ok(interpreter) => interpreter,
            Err(errors) => {
                let messages: Vec<_> = errors.iter().map(|e| e.message.clone()).collect();
                self.fail(
                    seed,
                    source,
                    format!("the interpreter rejects it: {messages:?}"),
                );
                return;
            }
        };
        for bfs in [false, true] {
            let compiled = configure(checker.clone(), bfs).run();
            let interpreted = configure(Checker::new(interpreter.clone()), bfs).run();
            if let Some(difference) = difference(&compiled, &interpreted) {
                let strategy = if bfs { "BFS" } else { "DFS" };
                self.fail(seed, source, format!("{strategy}: {difference}\n--- compiled:\n{compiled}\n--- interpreted:\n{interpreted}"));
            }
            // Partial-order reduction: both implementations reduce alike, and the reduced
            // search finds what the full one finds, in no more states.
            let reduced = configure(checker.clone().por(true), bfs).run();
            let reduced_interpreted =
                configure(Checker::new(interpreter.clone()).por(true), bfs).run();
            let strategy = if bfs { "BFS with POR" } else { "DFS with POR" };
            if let Some(difference) = difference(&reduced, &reduced_interpreted) {
                self.fail(seed, source, format!("{strategy}: {difference}"));
            }
            if !bfs && reduced.is_complete() && reduced.states() < compiled.states() {
                self.reduced += 1;
            }
            if let Some(difference) = reduction_difference(&compiled, &reduced) {
                self.fail(seed, source, format!("{strategy} against the full search: {difference}\n--- full:\n{compiled}\n--- reduced:\n{reduced}"));
            }
        }
        // Compact storage stores the same states as exact storage, in both orders.
        for bfs in [false, true] {
            let exact = configure(checker.clone().storage(Storage::Exact), bfs).run();
            let compact = configure(checker.clone().storage(Storage::Compact), bfs).run();
            if let Some(difference) = difference(&exact, &compact) {
                let strategy = if bfs { "BFS" } else { "DFS" };
                self.fail(seed, source, format!("{strategy}, compact against exact storage: {difference}\n--- exact:\n{exact}\n--- compact:\n{compact}"));
            }
        }
        let parallel = configure(checker.clone().por(true).threads(2), false).run();
        let full = configure(checker.clone(), false).run();
        if let Some(difference) = reduction_difference(&full, &parallel) {
            self.fail(
                seed,
                source,
                format!("parallel with POR against the full search: {difference}"),
            );
        }
    }

    fn fail(&mut self, seed: u64, source: &str, what: String) {
        self.failures.push(format!(
            "model seed {seed} (run BIR_DIFF_SEED={SEED}):\n{source}\n{what}"
        ));
    }
}

fn configure<M: Model>(checker: Checker<M>, bfs: bool) -> Checker<M> {
    let checker = checker.keep_going(1).max_states(MAX_STATES).progress(false);
    if bfs {
        checker.bfs()
    } else {
        checker
    }
}

/// What a reduced search misses of a full one, when both are complete: a kind of finding
/// (an error, a deadlock), or more states than the full search.
fn reduction_difference(full: &Report, reduced: &Report) -> Option<String> {
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

/// What differs between two reports of one model, if anything.
fn difference(a: &Report, b: &Report) -> Option<String> {
    let counts = |r: &Report| (r.states(), r.transitions(), r.errors(), r.deadlocks());
    if counts(a) != counts(b) {
        return Some(format!(
            "counts (states, transitions, errors, deadlocks) {:?} vs {:?}",
            counts(a),
            counts(b)
        ));
    }
    if a.verdict() != b.verdict() || a.is_complete() != b.is_complete() {
        return Some(format!("verdicts {:?} vs {:?}", a.verdict(), b.verdict()));
    }
    // Messages name source lines, which differ between the two (the macro's input sits in
    // the generated test file): compare the path, the changes and the states instead.
    let path = |r: &Report| {
        r.first_finding().map(|cx| {
            (
                cx.kind(),
                cx.replay().to_string(),
                cx.steps().to_vec(),
                cx.states().collect::<Vec<_>>(),
            )
        })
    };
    if path(a) != path(b) {
        return Some("first counterexamples differ".to_string());
    }
    None
}

#[test]
fn generated_checkers_agree_with_the_interpreter() {
    let mut differ = Differ::default();
    run_all(&mut differ);
    assert_eq!(differ.compared, COUNT);
    if !differ.failures.is_empty() {
        panic!(
            "{} of {COUNT} models disagree (BIR_DIFF_SEED={SEED}):\n\n{}",
            differ.failures.len(),
            differ.failures.join("\n\n")
        );
    }
    eprintln!(
        "{COUNT} random models agree (BIR_DIFF_SEED={SEED}); partial-order reduction shrank \
         {} of them",
        differ.reduced
    );
}
