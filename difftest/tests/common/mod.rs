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
//! stores one state per orbit, as many as the brute force counts. Properties: the same
//! automata, and for every `ltl` property and `reachable` check of a model the same
//! reports (without fairness, reduced by partial orders, with compact storage, under weak
//! and under strong fairness), lassos included; and each verdict on an `ltl` property
//! against the oracle that builds the whole product and examines its strongly connected
//! components (`bir::oracle::judge`).

mod ltl;
// The symmetry tests' helpers (`Orbits`, `interpreted`, `searched`) are not used here.
#[allow(dead_code)]
mod reduction;

use bir::model::{PropertyInfo, PropertyKind};
use bir::oracle::{judge, Judgement};
use bir::{Checker, ConfigError, FindingKind, Model, Report, Storage, Verdict};
use bir_interp::Interpreter;
use ltl::ltl_modes;
use reduction::{configure, reduction_difference, symmetry_differences, MAX_STATES};

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
    /// `ltl` checks compared, and of those the ones that found a violating run and the
    /// ones whose property held.
    ltl_checks: usize,
    ltl_violated: usize,
    ltl_held: usize,
    /// `reachable` checks compared.
    reachable_checks: usize,
    /// `ltl` verdicts held against the oracle ([`judge`]).
    oracle_checks: usize,
    /// `ltl` checks of symmetric models under symmetry reduction compared.
    symmetric_ltl_checks: usize,
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
        self.check_properties(&checker, &interpreter, source, seed);
    }

    /// The model's properties, the generated checker against the interpreter: the same
    /// automata, and for every `ltl` property the same report without fairness (alone,
    /// reduced by partial orders, with compact storage), under weak and under strong
    /// fairness; for every `reachable` check, the same report.
    fn check_properties<M: Model + Clone>(
        &mut self,
        checker: &Checker<M>,
        interpreter: &Interpreter,
        source: &str,
        seed: u64,
    ) {
        let kinds = |properties: &[PropertyInfo]| -> Vec<(String, PropertyKind)> {
            let kind = |p: &PropertyInfo| (p.name.to_string(), p.kind.clone());
            properties.iter().map(kind).collect()
        };
        let properties = kinds(checker.model().properties());
        if properties != kinds(interpreter.properties()) {
            self.fail(
                seed,
                source,
                "the properties or their automata differ".into(),
            );
            return;
        }
        for (name, kind) in properties {
            let compiled = configure(checker.clone(), false);
            let interpreted = configure(Checker::new(interpreter.clone()), false);
            if kind == PropertyKind::Reachable {
                let what = format!("reachable {name}");
                let (compiled, interpreted) =
                    (compiled.reachable(&name), interpreted.reachable(&name));
                self.compare(seed, source, &what, &compiled.run(), &interpreted.run());
                self.reachable_checks += 1;
                continue;
            }
            let modes = ltl_modes::<M>().into_iter().zip(ltl_modes::<Interpreter>());
            for ((mode, on_compiled), (_, on_interpreted)) in modes {
                let what = format!("ltl {name} {mode}");
                let compiled = on_compiled(compiled.clone().ltl(&name)).try_run();
                let interpreted = on_interpreted(interpreted.clone().ltl(&name)).try_run();
                let case = (seed, source, what.as_str());
                let Some(compiled) = self.compare_ltl(case, compiled, interpreted, interpreter)
                else {
                    continue;
                };
                self.ltl_checks += 1;
                match compiled.verdict() {
                    Verdict::Found(FindingKind::Property) => self.ltl_violated += 1,
                    Verdict::Verified => self.ltl_held += 1,
                    _ => {}
                }
            }
        }
    }

    /// Compares the two runs of one `ltl` check (`what` of the model `source` of `seed`):
    /// both refuse alike (partial-order reduction of a formula with `X`), or both run to
    /// the same report, whose verdict the whole unreduced product of `interpreter` gives
    /// ([`judge`]). The compiled checker's report, when both ran.
    fn compare_ltl(
        &mut self,
        (seed, source, what): (u64, &str, &str),
        compiled: Result<Report, ConfigError>,
        interpreted: Result<Report, ConfigError>,
        interpreter: &Interpreter,
    ) -> Option<Report> {
        let (compiled, interpreted) = match (compiled, interpreted) {
            (Ok(compiled), Ok(interpreted)) => (compiled, interpreted),
            (Err(a), Err(b)) if a.to_string() == b.to_string() => return None,
            (a, b) => {
                let refusal = |r: Result<Report, ConfigError>| r.err().map(|e| e.to_string());
                let (a, b) = (refusal(a), refusal(b));
                self.fail(seed, source, format!("{what}: refused {a:?} vs {b:?}"));
                return None;
            }
        };
        self.compare(seed, source, what, &compiled, &interpreted);
        match judge(&compiled, interpreter, MAX_STATES as usize) {
            Judgement::Agrees => self.oracle_checks += 1,
            Judgement::Disagrees { violated } => self.fail(
                seed,
                source,
                format!("{what}: the whole product says violated {violated}\n{compiled}"),
            ),
            Judgement::Unjudged => {}
        }
        Some(compiled)
    }

    /// Records the difference between the generated checker's report and the
    /// interpreter's, if any, of the check `what`.
    fn compare(
        &mut self,
        seed: u64,
        source: &str,
        what: &str,
        compiled: &Report,
        interpreted: &Report,
    ) {
        if let Some(difference) = difference(compiled, interpreted) {
            self.fail(seed, source, format!("{what}: {difference}\n--- compiled:\n{compiled}\n--- interpreted:\n{interpreted}"));
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
        // Each property without fairness under symmetry reduction: both implementations
        // alike, and the verdict that of the whole unreduced product.
        for property in checker.model().properties().to_vec() {
            let name = &property.name;
            let what = format!("ltl {name} with symmetry");
            let compiled = configure(checker.clone().symmetry(true), false)
                .ltl(name)
                .try_run();
            let interpreted = configure(Checker::new(interpreter.clone()).symmetry(true), false)
                .ltl(name)
                .try_run();
            let case = (seed, source, what.as_str());
            if self
                .compare_ltl(case, compiled, interpreted, &interpreter)
                .is_some()
            {
                self.symmetric_ltl_checks += 1;
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
         permuted); {} ltl checks ({} found a violating run, {} held; {} verdicts held against \
         the whole product's components; {} under symmetry reduction) and {} reachable checks",
        differ.reduced,
        differ.symmetric,
        differ.exact,
        differ.exact_both,
        differ.ltl_checks,
        differ.ltl_violated,
        differ.ltl_held,
        differ.oracle_checks,
        differ.symmetric_ltl_checks,
        differ.reachable_checks
    );
}
