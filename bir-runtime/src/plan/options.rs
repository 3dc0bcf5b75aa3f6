//! What a [`Checker`](crate::Checker) was configured with: the options its builder
//! methods set, before the plan resolves them.

use std::fmt;
use std::time::Duration;

use super::heuristic::Heuristic;
use crate::verdict::Strategy;

use super::{Storage, Watch};

/// What a [`Checker`](crate::Checker) was configured with (see its builder methods for the meaning).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Options {
    pub(crate) strategy: Strategy,
    pub(crate) deadlock_detection: bool,
    pub(crate) max_states: Option<u64>,
    pub(crate) max_depth: Option<u32>,
    pub(crate) time_limit: Option<Duration>,
    pub(crate) memory_limit: Option<usize>,
    /// `None`: stop at the first finding. `Some(n)`: continue, keeping the first `n` traces.
    pub(crate) keep_going: Option<usize>,
    pub(crate) progress: bool,
    /// Threads of the search; more than one selects the parallel search.
    pub(crate) threads: usize,
    /// Whether the user chose `threads`: a swarm runs on one thread per core unless told.
    pub(crate) threads_chosen: bool,
    /// How the seen set stores states.
    pub(crate) storage: Storage,
    /// The property searched for, if any.
    pub(crate) property: Option<PropertyCheck>,
    /// The runs an LTL check considers.
    pub(crate) fairness: Fairness,
    /// Partial-order reduction.
    pub(crate) por: bool,
    /// Symmetry reduction.
    pub(crate) symmetry: bool,
    /// Shorten the traces of a depth-first, parallel or random search afterwards.
    pub(crate) shortest: bool,
    /// A handle another thread follows and cancels the search with.
    pub(crate) watch: Option<Watch>,
    /// What orders a best-first or ordered depth-first search (and joins a swarm's).
    pub(crate) heuristic: Option<Heuristic>,
    /// The searches of a swarm.
    pub(crate) swarm: usize,
}

impl Options {
    /// What orders a best-first or ordered depth-first search: the heuristic given, or
    /// branch coverage.
    pub(crate) fn ordering(&self) -> Heuristic {
        self.heuristic.clone().unwrap_or(Heuristic::Coverage)
    }
}

/// A property the checker searches for, by name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum PropertyCheck {
    /// An `ltl` property: a run that violates it.
    Ltl(String),
    /// A `reachable` check: a state that satisfies its predicate.
    Reachable(String),
}

impl Default for Options {
    fn default() -> Self {
        Options {
            strategy: Strategy::DepthFirst,
            deadlock_detection: true,
            max_states: None,
            max_depth: None,
            time_limit: None,
            memory_limit: None,
            keep_going: None,
            progress: true,
            threads: 1,
            threads_chosen: false,
            storage: Storage::Exact,
            property: None,
            fairness: Fairness::None,
            por: false,
            symmetry: false,
            shortest: true,
            watch: None,
            heuristic: None,
            swarm: 0,
        }
    }
}

/// Which runs an LTL check considers (LANGUAGE.md: an instance is enabled when one of its
/// transformations is, a step that would fault included; a finite run, stuttered, is fair).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Fairness {
    /// Every run.
    #[default]
    None,
    /// Runs in which every instance that is enabled continuously from some point on takes
    /// a step infinitely often.
    Weak,
    /// Runs in which every instance that is enabled infinitely often takes a step
    /// infinitely often.
    Strong,
}

impl fmt::Display for Fairness {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Fairness::None => "no fairness",
            Fairness::Weak => "weak fairness",
            Fairness::Strong => "strong fairness",
        })
    }
}
