//! What both halves of the differential test share (`differential.rs` and
//! `differential_odd.rs`, each with half of the run's models: cargo compiles the two
//! binaries in parallel).
//!
//! The generated checkers against the reference interpreter, on the random models of one
//! run (see `build.rs`): depth-first and breadth-first, each past findings and up to a
//! state limit (both implementations follow the same successor order, so even a truncated
//! search must agree), on states, transitions, errors, deadlocks, verdict, completeness and
//! the first counterexample, step by step. With partial-order reduction too: both reduce
//! alike, and a complete reduced search (depth-first, breadth-first, parallel) finds errors
//! and deadlocks exactly when the full one does, in no more states. Compact storage against
//! exact storage: the same counts, verdicts and counterexamples. With symmetry on the
//! models with symmetric families: both implementations reduce alike, and every frontier,
//! alone and with partial-order reduction, finds what the full search finds, in no more
//! states, with counterexamples that replay without symmetry; alone, a complete search
//! stores one state per orbit, as many as the brute force counts.

mod reduction;

use bir::{Checker, Model, Report, Storage};
use bir_interp::Interpreter;
use reduction::{configure, reduction_difference, symmetry_differences};

/// Compares each model's two implementations and collects the disagreements.
#[derive(Default)]
pub struct Differ {
    /// The run's seed, `BIR_DIFF_SEED`, for the messages.
    run_seed: u64,
    compared: usize,
    /// Models whose complete reduced depth-first search stored fewer states.
    reduced: usize,
    /// Symmetric models whose search with symmetry stored fewer states.
    symmetric: usize,
    /// Symmetric models whose reduced counts were held against the brute-force orbits.
    exact: usize,
    /// Of those, the models whose group permutes two families.
    exact_both: usize,
    failures: Vec<String>,
}

impl Differ {
    /// Compares the generated checker of one random model with the interpreter.
    pub fn check<M: Model + Clone>(&mut self, checker: Checker<M>, source: &str, seed: u64) {
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

    /// A model with a symmetric family: the checks of [`Self::check`], the generated
    /// checker and the interpreter alike with symmetry, and symmetry reduction against the
    /// full search.
    /// Compares one model with a symmetric family, with symmetry reduction too.
    pub fn check_symmetric<M: Model + Clone>(
        &mut self,
        checker: Checker<M>,
        source: &str,
        seed: u64,
    ) {
        self.check(checker.clone(), source, seed);
        let Ok(interpreter) = Interpreter::from_source(source) else {
            return;
        };
        for bfs in [false, true] {
            let compiled = configure(checker.clone().symmetry(true), bfs).run();
            let interpreted =
                configure(Checker::new(interpreter.clone()).symmetry(true), bfs).run();
            if let Some(difference) = difference(&compiled, &interpreted) {
                let strategy = if bfs { "BFS" } else { "DFS" };
                self.fail(seed, source, format!("{strategy} with symmetry: {difference}\n--- compiled:\n{compiled}\n--- interpreted:\n{interpreted}"));
            }
        }
        let check = symmetry_differences(&checker);
        for failure in check.failures {
            self.fail(seed, source, failure);
        }
        self.symmetric += usize::from(check.shrank);
        self.exact += usize::from(check.exact);
        self.exact_both += usize::from(check.exact && check.acting == 2);
    }

    fn fail(&mut self, seed: u64, source: &str, what: String) {
        self.failures.push(format!(
            "model seed {seed} (run BIR_DIFF_SEED={}):\n{source}\n{what}",
            self.run_seed
        ));
    }
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

/// Checks the models of one part of the run (`run_all`, written by build.rs: `count` random
/// models and `symmetric` ones from the seed `seed`) and fails with every disagreement.
pub fn check_all(run_all: fn(&mut Differ), count: usize, symmetric: usize, seed: u64) {
    let mut differ = Differ {
        run_seed: seed,
        ..Differ::default()
    };
    run_all(&mut differ);
    assert_eq!(differ.compared, count + symmetric);
    if !differ.failures.is_empty() {
        panic!(
            "{} of {} models disagree (BIR_DIFF_SEED={seed}):\n\n{}",
            differ.failures.len(),
            count + symmetric,
            differ.failures.join("\n\n")
        );
    }
    eprintln!(
        "{count} random models and {symmetric} symmetric ones agree (BIR_DIFF_SEED={seed}); \
         partial-order reduction shrank {} of them, symmetry reduction {} of the symmetric \
         ones, whose counts matched the brute-force orbits on {} ({} with two families \
         permuted)",
        differ.reduced, differ.symmetric, differ.exact, differ.exact_both
    );
}
