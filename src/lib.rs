//! **bir**: a model checker for concurrent systems, embedded in Rust. Write a model in BIR
//! (the guarded-command language of the Bogor model checker) inside [`bir!`]; the macro
//! checks it at compile time — every mistake is a compiler error on the token that is
//! wrong — and generates a checker specialised to it: a bit-packed state and a
//! `match`-based successor function, searched by the engine of this crate.
//!
//! ```
//! use bir::bir;
//!
//! bir! {
//!     system Counter {
//!         int (0, 3) x;
//!
//!         active [2] thread Inc(int index) {
//!             loc l: when x < 3 do { x := x + 1; } goto l;
//!         }
//!
//!         invariant Small: x <= 3;
//!         ltl Grows: <>(x == 3);
//!         reachable Full: x == 3;
//!     }
//! }
//!
//! // Both threads block once x is 3: a deadlock, found with a shortest path to it.
//! let report = Counter::checker().bfs().run();
//! assert_eq!(report.assert_deadlock().len(), 3);
//! // The invariant holds in every state reached (past the deadlock).
//! Counter::checker().deadlock_detection(false).run().assert_verified();
//! // Every run reaches x == 3, and some state does.
//! Counter::checker().ltl("Grows").run().assert_holds();
//! Counter::checker().reachable("Full").run().assert_reachable();
//! ```
//!
//! # Where to go next
//!
//! - [The guide](guide): a [tutorial](guide::tutorial), [the language](guide::language)
//!   (the documentation of [`bir!`] too), [checking in tests](guide::testing),
//!   [properties](guide::properties), [reductions](guide::reductions),
//!   [storage and limits](guide::storage), [the command line](guide::cli),
//!   [the explorer](guide::explorer), [across machines](guide::dist),
//!   [bug hunting](guide::bug_hunting), [the evaluation](guide::evaluation) and
//!   [the internals](guide::internals).
//! - [`Checker`]: the builder — depth-first or breadth-first search, limits, threads,
//!   storage, partial-order reduction, LTL under fairness, reachability — and
//!   [`Checker::plan`], what a run will do.
//! - [`Report`]: the verdict, the counterexamples (each with a replay string for
//!   [`Checker::replay`]), the statistics, and assertions for tests (`assert_verified`,
//!   `assert_deadlock_free`, `assert_no_errors`, `assert_deadlock`,
//!   `assert_assertion_failure`, `assert_invariant_violation`, `assert_found`,
//!   `assert_holds`, `assert_violated`, `assert_reachable`).
//! - [`Model`]: what the generated code implements, to check hand-written models too. The
//!   model type, named after the system, is the one item `bir!` adds to your module; its
//!   state type is `<Counter as Model>::State`.
//! - Debug and release builds search alike (the same counts, verdicts and traces) but not
//!   on the same code: in a debug build every model runs on one search compiled once, in
//!   `bir-runtime`, so that a test crate of many models builds quickly; in a release build
//!   each model gets its own copy of the search, specialised to its state: the fastest
//!   search. The feature `quick-build` keeps the search compiled once in release builds too.
//!   To make large searches in `cargo test` fast, optimise that one search in your
//!   `Cargo.toml`: `[profile.dev.package.bir-runtime] opt-level = 3`.
#![warn(missing_docs)]

pub use bir_macros::bir;

// What users call: the builder, the report and its parts, the verdicts, the heuristics and
// the model contract (for hand-written models).
pub use bir_runtime::{
    model, Change, Checker, ConfigError, Counterexample, Coverage, Custom, Fairness, FindingKind,
    Heuristic, IncompleteReason, Model, Plan, Progress, ReplayError, Report, StateView, Stats,
    Step, Storage, Strategy, SwarmSearch, Unfired, Vacuous, Verdict, Watch, BITSTATE_HASHES,
    BITSTATE_LOG2_BITS, MAX_THREADS,
};

/// What only the code `bir!` generates and bir's own tools name (the checked operations,
/// the engine hooks, the report's pieces that the command line prints): public so that
/// they can reach it, hidden from the documentation.
#[doc(hidden)]
pub use bir_runtime::{
    __private, replay_steps, replay_string, step_changes, OperandsDisplay, PartDisplay,
    StateDisplay, StepChange,
};

/// Slow, independent answers the tests hold the searches against; with the feature `oracle`.
#[cfg(feature = "oracle")]
pub use bir_runtime::oracle;

/// The breadth-first search across threads, processes and machines on timely dataflow
/// (`bir_dist::check`); with the feature `dist`.
#[cfg(feature = "dist")]
pub use bir_dist as dist;

/// The user's guide: one module per chapter, each the chapter's text (`docs/guide/` in the
/// repository), whose Rust examples are doctests.
pub mod guide {
    /// A first model, to a verified property.
    #[doc = include_str!("../docs/guide/tutorial.md")]
    pub mod tutorial {}

    /// BIR, the language: the specification (`docs/LANGUAGE.md`).
    #[doc = include_str!("../docs/LANGUAGE.md")]
    pub mod language {}

    /// Checking in tests: the builder, the assertions, traces and replay.
    #[doc = include_str!("../docs/guide/testing.md")]
    pub mod testing {}

    /// Properties: LTL, fairness, reachability.
    #[doc = include_str!("../docs/guide/properties.md")]
    pub mod properties {}

    /// Reductions: partial orders, symmetry, heap symmetry.
    #[doc = include_str!("../docs/guide/reductions.md")]
    pub mod reductions {}

    /// Storage and limits.
    #[doc = include_str!("../docs/guide/storage.md")]
    pub mod storage {}

    /// The command line, `bir`.
    #[doc = include_str!("../docs/guide/cli.md")]
    pub mod cli {}

    /// `bir explore`: the state space in the browser.
    #[doc = include_str!("../docs/guide/explorer.md")]
    pub mod explorer {}

    /// Across machines: `bir-dist`.
    #[doc = include_str!("../docs/guide/dist.md")]
    pub mod dist {}

    /// Bug hunting: best-first search, heuristics, swarms.
    #[doc = include_str!("../docs/guide/bug-hunting.md")]
    pub mod bug_hunting {}

    /// Evaluation: bir beside SPIN, Rumur and Stateright, the tables `scripts/compare`
    /// writes.
    #[doc = include_str!("../docs/guide/evaluation.md")]
    pub mod evaluation {}

    /// Internals: the pipeline, the runtime's layers, the state layout, the search.
    #[doc = include_str!("../docs/guide/internals.md")]
    pub mod internals {}
}

/// The README's examples, compiled and run as doctests so that they stay true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
