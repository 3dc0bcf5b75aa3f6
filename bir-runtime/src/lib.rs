//! The search engine that checks the models `bir!` generates: explicit-state model checking
//! of BIR systems, with the semantics of `LANGUAGE.md` ("Steps, states and verdicts").
//!
//! Users reach everything here through the facade crate (`bir::Checker`, `bir::Report`...).
//!
//! # Concepts
//!
//! * A [`Model`] is a finite transition system: an initial state, the enabled transitions of
//!   a state in a fixed order (each one atomic step of one thread instance, which either
//!   leads to a next state or *faults*), the invariants, and which states are valid end
//!   states. `bir!` implements it for each system with a bit-packed state; a [`ModelInfo`](model::ModelInfo)
//!   describes the variables, transitions and fault sites for printing.
//! * A [`Checker`] is the one builder to configure: depth-first (default) or breadth-first
//!   search, deadlock detection, limits (states, depth, time, memory), whether to continue
//!   past findings ([`Checker::keep_going`]), progress output. [`Checker::run`] searches
//!   exhaustively, [`Checker::simulate`] samples random walks, [`Checker::replay`] re-executes
//!   a printed counterexample. The search is compiled once per state type: a model runs
//!   on a copy specialised to its [`Model::State`], or (generated models in debug builds,
//!   or with the feature `quick-build`) on one copy compiled in this crate for every model,
//!   with states as words or [`PackedState`](model::PackedState)s; both give the same reports.
//! * A [`Report`] holds the [`Verdict`], the kept [`Counterexample`]s and the [`Stats`]. The
//!   verdict is [`Verdict::Verified`] only when every reachable state was explored and
//!   nothing was found; a finding gives [`Verdict::Found`] with its [`FindingKind`]
//!   (deadlock, invariant violation, assertion, range, index, division or start error);
//!   a search cut short by a limit, or a simulation, gives [`Verdict::Incomplete`] — never
//!   "verified".
//! * Counting follows SPIN, Rumur and Stateright: *states* are distinct reachable states (the
//!   initial one included), *transitions* are executed (state, enabled transition) pairs
//!   (those leading to seen states and those that fault included), *errors* are faulting
//!   steps plus invariant-violating states, *deadlocks* are deadlock states.
//!
//! # Reading a report
//!
//! `println!("{report}")` prints, for the textbook two dining philosophers under
//! breadth-first search:
//!
//! ```text
//! TwoDiningPhilosophers: deadlock found (breadth-first search)
//!
//! 1. deadlock after 2 steps: no transition is enabled: Philosopher1 blocked at loc1, Philosopher2 blocked at loc1
//!   initial state: fork1 = false, fork2 = false, Philosopher1 @ loc0, Philosopher2 @ loc0
//!   #1  Philosopher1 loc0 -> loc1   when !fork1 do { fork1 := true; } goto loc1;   (line 7)
//!         fork1: false -> true
//!   #2  Philosopher2 loc0 -> loc1   when !fork2 do { fork2 := true; } goto loc1;   (line 27)
//!         fork2: false -> true
//!   final state: fork1 = true, fork2 = true, Philosopher1 @ loc1, Philosopher2 @ loc1
//!   replay: bir1:0.4
//!
//! states: 7, transitions: 7, errors: 0, deadlocks: 1, max depth: 3, 0.000 s, 350,000 states/s, seen set: 13.0 KiB
//! ```
//!
//! The first line names the system and the verdict. Each kept counterexample follows: what
//! was found and where, then the numbered steps, each with the instance, the locations it
//! moves between, the transformation's BIR text and source line, and below it the variables
//! the step changed (a failing step is marked `FAILS:` and changes nothing); then the last
//! state in full and the replay string, which [`Checker::replay`] turns back into the same
//! counterexample. The last line has the statistics of the search.
//!
//! # Layers
//!
//! The crate is built in layers, each a module that imports only the layers below it, so
//! that each can be read, tested and changed knowing only what it stands on (the test
//! `tests/suite/layers.rs` reads every file's `crate::` and `super::` paths and fails on one
//! that goes up, with the file, the line and this rule):
//!
//! ```text
//! checker      the builder users configure (Checker), handing each call to the search
//! search       core (the per-thread Stepper: classify, expand, limits, quota, clock,
//!              findings), frontier (dfs, bfs, parallel, simulation, shard), ltl (product,
//!              nested search, fair cycles, lasso), reduce (ample sets, canonical forms,
//!              quotient, shortening), erased (the search compiled once), dispatch
//! report       Report, Stats, Coverage, and how they read (display)
//! plan         options, the Plan they resolve to, ConfigError, Watch
//! trace        Counterexample, rebuilding it from transition ids, the replay codec
//! store        the seen sets (word tables, quotient tables, trees, bitstate) and hashing
//! verdict      FindingKind, Verdict, IncompleteReason, Strategy
//! model        the contract (crate bir-model): Model, its steps, tables and hooks
//! units        how numbers read
//! ```
//!
//! Above them, `oracle` (tests' answers, behind the feature `oracle`) and `__private`
//! (for generated code and bir-dist).
//!
//! # Example
//!
//! A hand-written model (what `bir!` would generate for a one-thread system that counts to 2
//! and then is stuck):
//!
//! ```
//! use bir_runtime::model::*;
//! use bir_runtime::{Checker, FindingKind, IncompleteReason, Verdict};
//!
//! /// `system Counter { int (0, 2) x; active thread Count() { loc count: when x < 2 do { x := x + 1; } goto count; } }`
//! struct Counter(ModelInfo);
//!
//! impl Counter {
//!     fn new() -> Self {
//!         Counter(ModelInfo {
//!             name: "Counter".into(),
//!             slots: vec![
//!                 SlotInfo { name: "x".into(), element: None, kind: SlotKind::Int },
//!                 SlotInfo {
//!                     name: "Count".into(),
//!                     element: None,
//!                     kind: SlotKind::Status { locations: vec!["count".into()].into() },
//!                 },
//!             ]
//!             .into(),
//!             transitions: vec![TransitionInfo {
//!                 thread: "Count".into(),
//!                 instance: 0,
//!                 from: "count".into(),
//!                 to: "count".into(),
//!                 text: "when x < 2 do { x := x + 1; } goto count;".into(),
//!                 line: 1,
//!                 partner: None,
//!             }]
//!             .into(),
//!             fault_sites: vec![].into(),
//!             invariants: vec![].into(),
//!         })
//!     }
//! }
//!
//! impl Model for Counter {
//!     type State = u8; // x; the thread is always at `count`
//!
//!     fn info(&self) -> &ModelInfo { &self.0 }
//!     fn initial_state(&self) -> u8 { 0 }
//!     fn successors(&self, &x: &u8, out: &mut Vec<Successor<u8>>) {
//!         if x < 2 {
//!             out.push(Successor { transition: 0, outcome: Outcome::Next(x + 1) });
//!         }
//!     }
//!     fn check_invariants(&self, _: &u8) -> Result<(), InvariantFailure> { Ok(()) }
//!     fn is_end_state(&self, _: &u8) -> bool { false } // Count never ends
//!     fn decode(&self, &x: &u8, values: &mut Vec<i64>) {
//!         values.clear();
//!         values.extend([i64::from(x), 0]);
//!     }
//! }
//!
//! let checker = Checker::new(Counter::new());
//! let report = checker.run();
//! assert_eq!(report.verdict(), Verdict::Found(FindingKind::Deadlock));
//! assert_eq!((report.states(), report.transitions()), (3, 2));
//! let deadlock = report.assert_deadlock();
//! assert_eq!(deadlock.replay(), "bir1:0.0");
//! assert_eq!(deadlock.message(), "no transition is enabled: Count blocked at count");
//! assert!(report.to_string().starts_with("Counter: deadlock found (depth-first search)"));
//!
//! // The replay string rebuilds the same counterexample.
//! assert_eq!(&checker.replay("bir1:0.0").unwrap(), deadlock);
//!
//! // With deadlock detection off there is nothing to find: verified, every state explored.
//! let report = Checker::new(Counter::new()).deadlock_detection(false).run();
//! report.assert_verified();
//!
//! // A limit that leaves states out never verifies.
//! let report = Checker::new(Counter::new()).deadlock_detection(false).max_states(2).run();
//! assert_eq!(report.verdict(), Verdict::Incomplete { reason: IncompleteReason::StateLimit });
//! ```
#![warn(missing_docs)]

// The layers, bottom first (see "Layers" above); each imports only those before it.
// 0: how numbers read in messages and reports.
mod units;
// 1: the contract with models (the crate `bir-model`).
pub use bir_model as model;
// 2: findings, verdicts, incomplete reasons, strategies.
mod verdict;
// 3: the seen sets and the hashing policy.
mod store;
// 4: counterexamples, their rebuilding, the replay codec.
mod trace;
// 5: options and the plan they resolve to.
mod plan;
// 6: the report, its coverage and how it reads.
mod report;
// 7: the one search core, the frontiers, LTL, the reductions, the engine dispatch.
mod search;
// 8: the builder users configure.
mod checker;
// 9: the tests' slow, independent answers.
#[cfg(feature = "oracle")]
pub mod oracle;
// 10: what only generated code and bir's own tools name.
#[doc(hidden)]
pub mod __private;

#[cfg(test)]
mod test_models;

pub use checker::Checker;
pub use model::Model;
pub use plan::heuristic::{Custom, Heuristic, StateView};
pub use plan::{
    ConfigError, Fairness, Plan, Progress, Storage, Watch, BITSTATE_HASHES, BITSTATE_LOG2_BITS,
    MAX_THREADS,
};
pub use report::{
    heap_step_text, step_changes, Coverage, OperandsDisplay, PartDisplay, Report, StateDisplay,
    Stats, StepChange, SwarmSearch, Unfired, Vacuous,
};
pub use trace::{
    heap_step, replay_steps, replay_string, Change, Counterexample, ReplayError, Step,
};
pub use verdict::{FindingKind, IncompleteReason, Strategy, Verdict};
