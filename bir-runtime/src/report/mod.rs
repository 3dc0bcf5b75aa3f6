//! The report layer: the result of a search (a verdict, the counterexamples kept, the
//! statistics, the coverage) and how it reads (`display`), with the assertions tests make
//! on it.

mod coverage;
mod display;

use std::sync::Arc;
use std::time::Duration;

use crate::model::{ModelInfo, PropertyInfo};
use crate::plan::Plan;
use crate::trace::Counterexample;
use crate::verdict::{FindingKind, IncompleteReason, Strategy, Verdict};

pub(crate) use coverage::Fired;
pub use coverage::{Coverage, Unfired, Vacuous};
pub use display::{
    heap_step_text, step_changes, OperandsDisplay, PartDisplay, StateDisplay, StepChange,
};

/// What a search counted. See the counting rules in `LANGUAGE.md` ("Steps, states and
/// verdicts"); a search stopped at a finding or a limit counts what it did up to there.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct Stats {
    /// Distinct states stored, the initial one included.
    pub states: u64,
    /// Executed (state, enabled transition) pairs, those that end in an error included.
    pub transitions: u64,
    /// Error steps plus invariant-violating states (in a simulation: walks ending in one).
    pub errors: u64,
    /// Deadlock states (in a simulation: walks ending in one).
    pub deadlocks: u64,
    /// The largest depth (steps from the initial state) of a stored state.
    pub max_depth: u32,
    /// Wall-clock time of the search.
    pub elapsed: Duration,
    /// The memory of the seen-state set (allocated capacity, per-state links included).
    pub seen_bytes: usize,
    /// The largest resident memory of the whole process so far, when the system says
    /// (Linux: `VmHWM`): what the memory limit bounds.
    pub peak_memory: Option<usize>,
    /// The number of random walks (0 for an exhaustive search).
    pub walks: u64,
    /// With hash compaction or bitstate hashing: the estimated probability that some
    /// reachable state was taken for another and missed.
    pub omission_probability: Option<f64>,
}

impl Stats {
    /// Stored states per second of search.
    pub fn states_per_sec(&self) -> f64 {
        let seconds = self.elapsed.as_secs_f64();
        if seconds > 0.0 {
            self.states as f64 / seconds
        } else {
            0.0
        }
    }
}

/// The result of [`Checker::run`](crate::Checker::run) or
/// [`Checker::simulate`](crate::Checker::simulate).
///
/// It does not depend on the model's state type, so reports of two implementations of one
/// model can be compared. Its `Display` is the full human-readable report: system name and
/// verdict, every kept counterexample step by step, and the statistics.
#[derive(Clone, Debug)]
pub struct Report {
    pub(crate) info: Arc<ModelInfo>,
    pub(crate) plan: Plan,
    pub(crate) deadlock_detection: bool,
    pub(crate) verdict: Verdict,
    pub(crate) findings: Vec<Counterexample>,
    pub(crate) incomplete: Option<IncompleteReason>,
    pub(crate) complete: bool,
    pub(crate) stats: Stats,
    pub(crate) notes: Vec<String>,
    /// The property checked, if any.
    pub(crate) property: Option<PropertyInfo>,
    /// What the search covered, after a complete search of the model's own states.
    pub(crate) coverage: Option<Coverage>,
    /// The searches of a swarm, in order (none for another search).
    pub(crate) swarm: Vec<SwarmSearch>,
}

/// One search of a swarm ([`Checker::swarm`](crate::Checker::swarm)), as it ended.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SwarmSearch {
    /// The search in words: `ordered depth-first search by random (seed 3), ties seeded 3`.
    pub search: String,
    /// The states it stored (in its own seen set).
    pub states: u64,
    /// The transitions it executed.
    pub transitions: u64,
    /// The kind of its first finding, if it found one.
    pub found: Option<FindingKind>,
    /// It ran (a search that another's finding stopped before it started did not).
    pub ran: bool,
}

impl Report {
    /// The searches of a swarm and what each covered, in order; empty for another search.
    pub fn swarm_searches(&self) -> &[SwarmSearch] {
        &self.swarm
    }

    /// The system's name.
    pub fn name(&self) -> &str {
        &self.info.name
    }

    /// The description of the checked model.
    pub fn info(&self) -> &ModelInfo {
        &self.info
    }

    /// How the search explored.
    pub fn strategy(&self) -> Strategy {
        self.plan.strategy
    }

    /// What ran: strategy, threads, storage, and the notes on what the options left open.
    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// The LTL property or reachability check this run searched for, if any.
    pub fn property(&self) -> Option<&PropertyInfo> {
        self.property.as_ref()
    }

    /// Whether deadlocks were looked for.
    pub fn deadlock_detection(&self) -> bool {
        self.deadlock_detection
    }

    /// Notes on how this run went (a parallel search's trace from a sequential rerun, a
    /// counterexample that could not be rebuilt...), printed under the counterexamples
    /// with the plan's notes.
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// The verdict.
    pub fn verdict(&self) -> Verdict {
        self.verdict
    }

    /// True when every reachable state was explored and nothing was found.
    pub fn is_verified(&self) -> bool {
        self.verdict == Verdict::Verified
    }

    /// True when every reachable state was explored: no limit cut the search and it did not
    /// stop at a finding (with [`keep_going`](crate::Checker::keep_going) it continues past them).
    pub fn is_complete(&self) -> bool {
        self.complete
    }

    /// What cut the search short, if a limit did (or [`IncompleteReason::Simulation`]).
    pub fn incomplete_reason(&self) -> Option<IncompleteReason> {
        self.incomplete
    }

    /// What a complete search never saw happen: transformations never fired, instances
    /// that never took a step, locations never reached. `None` unless the search explored
    /// every reachable state of the model itself (not stopped at a finding or a limit, not
    /// lossy, not reduced by partial order, not an LTL or reachability check).
    pub fn coverage(&self) -> Option<&Coverage> {
        self.coverage.as_ref()
    }

    /// Panics with the full report unless the search was complete and covered everything:
    /// every transformation fired, every instance took a step, every location was reached,
    /// and no invariant holds vacuously (no atom of one is constant, see
    /// [`Coverage::vacuous`]). Guards a model against parts that never run and invariants
    /// that never bite, which prove nothing.
    #[track_caller]
    pub fn assert_full_coverage(&self) {
        match &self.coverage {
            Some(coverage) if coverage.is_full() => {}
            Some(_) => self.fail(
                "expected every transformation, instance and location covered, and no \
                 invariant holding vacuously",
            ),
            None => self.fail("expected a complete search of the model, for its coverage"),
        }
    }

    /// The counters.
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// Distinct states stored.
    pub fn states(&self) -> u64 {
        self.stats.states
    }

    /// Executed transitions.
    pub fn transitions(&self) -> u64 {
        self.stats.transitions
    }

    /// Error steps plus invariant-violating states found.
    pub fn errors(&self) -> u64 {
        self.stats.errors
    }

    /// Deadlock states found.
    pub fn deadlocks(&self) -> u64 {
        self.stats.deadlocks
    }

    /// The kept counterexamples, the first finding first (at most one unless
    /// [`keep_going`](crate::Checker::keep_going) asked for more).
    pub fn findings(&self) -> &[Counterexample] {
        &self.findings
    }

    /// The first kept counterexample.
    pub fn first_finding(&self) -> Option<&Counterexample> {
        self.findings.first()
    }

    /// The first kept counterexample of this kind.
    pub fn finding(&self, kind: FindingKind) -> Option<&Counterexample> {
        self.findings.iter().find(|c| c.kind() == kind)
    }

    /// The first kept deadlock.
    pub fn deadlock(&self) -> Option<&Counterexample> {
        self.finding(FindingKind::Deadlock)
    }

    /// The first kept assertion failure.
    pub fn assertion(&self) -> Option<&Counterexample> {
        self.finding(FindingKind::Assertion)
    }

    /// The first kept invariant violation.
    pub fn invariant_violation(&self) -> Option<&Counterexample> {
        self.finding(FindingKind::Invariant)
    }

    /// The first kept error of any kind (everything but deadlocks).
    pub fn error(&self) -> Option<&Counterexample> {
        self.findings.iter().find(|c| c.kind().is_error())
    }

    /// Panics with the full report unless the search was complete and found nothing.
    #[track_caller]
    pub fn assert_verified(&self) {
        if !self.is_verified() {
            self.fail("expected the model to be verified");
        }
    }

    /// Panics with the full report unless the search was complete and found no deadlock.
    /// A search that stopped at an error is not complete: use
    /// [`keep_going`](crate::Checker::keep_going) to check deadlocks past errors.
    #[track_caller]
    pub fn assert_deadlock_free(&self) {
        if !self.complete || self.stats.deadlocks > 0 || !self.deadlock_detection {
            self.fail("expected a complete search without deadlock (with deadlock detection)");
        }
    }

    /// Panics with the full report unless the search was complete and found no error (fault
    /// or invariant violation). A search that stopped at a deadlock is not complete: use
    /// [`keep_going`](crate::Checker::keep_going) or turn deadlock detection off.
    #[track_caller]
    pub fn assert_no_errors(&self) {
        if !self.complete || self.stats.errors > 0 {
            self.fail("expected a complete search without error");
        }
    }

    /// Returns the first kept counterexample of `kind`; panics with the full report if there
    /// is none.
    #[track_caller]
    pub fn assert_found(&self, kind: FindingKind) -> &Counterexample {
        match self.finding(kind) {
            Some(found) => found,
            None => self.fail(&format!("expected a {kind}")),
        }
    }

    /// Returns the first kept deadlock; panics with the full report if there is none.
    #[track_caller]
    pub fn assert_deadlock(&self) -> &Counterexample {
        self.assert_found(FindingKind::Deadlock)
    }

    /// Returns the first kept assertion failure; panics with the full report if there is none.
    #[track_caller]
    pub fn assert_assertion_failure(&self) -> &Counterexample {
        self.assert_found(FindingKind::Assertion)
    }

    /// Returns the first kept invariant violation; panics with the full report if there is
    /// none.
    #[track_caller]
    pub fn assert_invariant_violation(&self) -> &Counterexample {
        self.assert_found(FindingKind::Invariant)
    }

    /// Panics with the full report unless the LTL check was complete and found no run that
    /// violates the property (nor any error on the way).
    #[track_caller]
    pub fn assert_holds(&self) {
        if self.property.is_none() || !self.is_verified() {
            self.fail("expected the property to hold");
        }
    }

    /// Returns the lasso of the LTL property's violation; panics with the full report if
    /// there is none.
    #[track_caller]
    pub fn assert_violated(&self) -> &Counterexample {
        self.assert_found(FindingKind::Property)
    }

    /// Returns the witness of a reachability check: a shortest path to a state that
    /// satisfies its predicate; panics with the full report if none was found.
    #[track_caller]
    pub fn assert_reachable(&self) -> &Counterexample {
        match (self.verdict, self.finding(FindingKind::Reached)) {
            (Verdict::Reached, Some(witness)) => witness,
            _ => self.fail("expected a reachable state satisfying the predicate"),
        }
    }

    #[track_caller]
    fn fail(&self, expectation: &str) -> ! {
        panic!("{expectation}, but the check gave:\n\n{self}")
    }
}

#[cfg(test)]
mod tests {
    use crate::test_models::{Graph, Philosophers, ReadersWriters, SumToN};
    use crate::{Checker, FindingKind, Verdict};

    #[test]
    fn the_report_prints_numbered_steps_changes_final_state_replay_and_stats() {
        let report = Checker::new(Philosophers::two()).bfs().run();
        let text = report.to_string();
        let expected_start = "\
TwoDiningPhilosophers: deadlock found (breadth-first search)

1. deadlock after 2 steps: no transition is enabled: Philosopher1 blocked at loc1, Philosopher2 blocked at loc1
  initial state: fork1 = false, fork2 = false, Philosopher1 @ loc0, Philosopher2 @ loc0
  #1  Philosopher1 loc0 -> loc1   when !fork1 do { fork1 := true; } goto loc1;   (line 7)
        fork1: false -> true
  #2  Philosopher2 loc0 -> loc1   when !fork2 do { fork2 := true; } goto loc1;   (line 27)
        fork2: false -> true
  final state: fork1 = true, fork2 = true, Philosopher1 @ loc1, Philosopher2 @ loc1
  replay: bir1:0.4

states: ";
        assert!(text.starts_with(expected_start), "{text}");
        let stats = text.lines().last().unwrap();
        for part in [
            "transitions: ",
            "errors: 0",
            "deadlocks: 1",
            "max depth: 3",
            " s, ",
        ] {
            assert!(stats.contains(part), "{stats}");
        }
        assert!(stats.contains(" states/s, seen set: "), "{stats}");
    }

    #[test]
    fn a_failing_step_is_marked_and_adds_no_state() {
        let report = Checker::new(SumToN).bfs().run();
        let failure = report.assert_assertion_failure();
        assert_eq!(failure.len(), 4);
        assert_eq!(failure.states().count(), 4);
        let last = failure.steps().last().unwrap();
        assert!(last.fault.is_some() && last.changes.is_empty());
        assert_eq!(
            failure.message(),
            "assertion failed: x != Param.N (line 14)"
        );
        let text = failure.to_string();
        assert!(
            text.contains(
                "  #4  Thread0 loc0 -> return   do { assert (x != Param.N); } return;   \
                 (line 14)\n        FAILS: assertion failed: x != Param.N (line 14)\n  \
                 final state: x = 2, t1 = 1, t2 = 1, Thread0 @ loc0"
            ),
            "{text}"
        );
    }

    #[test]
    fn verified_reports_say_so_and_pass_every_assertion() {
        let report = ReadersWriters::new(false).checker().run();
        report.assert_verified();
        report.assert_deadlock_free();
        report.assert_no_errors();
        assert!(report.is_verified() && report.is_complete());
        assert_eq!(report.first_finding(), None);
        assert!(report.to_string().starts_with(
            "ReadersWriters: verified: no error and no deadlock in all 11 reachable states \
             (depth-first search)"
        ));
    }

    #[test]
    fn accessors_find_each_kind() {
        let report = Checker::new(SumToN).keep_going(100).run();
        assert_eq!(report.deadlock().unwrap().kind(), FindingKind::Deadlock);
        assert_eq!(report.assertion().unwrap().kind(), FindingKind::Assertion);
        assert_eq!(report.error(), report.assertion());
        assert_eq!(report.invariant_violation(), None);
        assert_eq!(report.finding(FindingKind::Range), None);
        report.assert_found(FindingKind::Assertion);
        let text = report.to_string();
        assert!(text.contains("all 15,276 reachable states explored: 42 errors, 1 deadlock"));
        let broken = ReadersWriters::new(true).checker().keep_going(1).run();
        let violation = broken.assert_invariant_violation();
        assert_eq!(violation.invariant(), Some(0));
        assert!(broken
            .to_string()
            .contains("invariant RW violated: (nr == 0 || nw == 0) && nw <= 1 (line 9)"));
        broken.assert_deadlock_free();
    }

    #[test]
    #[should_panic(
        expected = "expected the model to be verified, but the check gave:\n\n\
                               TwoDiningPhilosophers: deadlock found"
    )]
    fn assert_verified_panics_with_the_report() {
        Checker::new(Philosophers::two()).run().assert_verified();
    }

    #[test]
    #[should_panic(expected = "expected a complete search without error")]
    fn assert_no_errors_needs_a_complete_search() {
        // The deadlock stops the search before any error: nothing is proved.
        Checker::new(Philosophers::two()).run().assert_no_errors();
    }

    #[test]
    #[should_panic(expected = "expected a deadlock")]
    fn assert_deadlock_panics_without_one() {
        let _ = Checker::new(Graph::diamond_with_fault())
            .run()
            .assert_deadlock();
    }

    #[test]
    #[should_panic(expected = "not verified")]
    fn assert_deadlock_free_refuses_an_incomplete_search() {
        Checker::new(Philosophers::new(4, true))
            .max_states(10)
            .run()
            .assert_deadlock_free();
    }

    #[test]
    fn reports_of_two_implementations_compare_by_content() {
        let a = Checker::new(Philosophers::two()).keep_going(5).run();
        let b = Checker::new(Philosophers::new(2, false))
            .keep_going(5)
            .run();
        assert_eq!(a.verdict(), b.verdict());
        assert_eq!(a.stats().states, b.stats().states);
        // Same run, but the messages name the instances differently.
        assert_eq!(a.findings()[0].steps(), b.findings()[0].steps());
        assert_ne!(a.findings(), b.findings());
        assert_eq!(a.verdict(), Verdict::Found(FindingKind::Deadlock));
    }
}
