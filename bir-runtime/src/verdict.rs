//! What a search concludes, in the terms every layer above shares: the kinds of finding,
//! the verdict, why a search was incomplete, and the strategy that ran. Plain data, over
//! the model's fault kinds only.

use crate::model::FaultKind;

/// What a counterexample shows, or which finding a verdict names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum FindingKind {
    /// A state where no transformation is enabled while some started instance has not ended.
    Deadlock,
    /// A reachable state where a declared invariant is false.
    Invariant,
    /// An `assert` whose condition was false.
    Assertion,
    /// A write outside a variable's range, or 64-bit arithmetic overflow.
    Range,
    /// An array index or a `T[i]@loc` instance outside its bounds.
    Index,
    /// `/` or `%` by zero.
    Division,
    /// `start` of an instance that is running or has ended.
    Start,
    /// A call beyond the frames a function's bound allows on one stack.
    Stack,
    /// A lock operation Java's monitors refuse (an `unlock`, `wait` or `notify` of a lock
    /// not held, a fourth nested `lock`, a `wait` while waiting).
    Lock,
    /// A `new` beyond the bound of live objects of its record type.
    Heap,
    /// A field read or written through `null`, or a `throw` of `null`.
    Null,
    /// An exception that no handler catches (it leaves a thread's body).
    Uncaught,
    /// A run that violates the LTL property checked (a lasso).
    Property,
    /// A state that satisfies the predicate of the reachability check (a witness: the
    /// check succeeded).
    Reached,
}

impl FindingKind {
    /// True for the findings counted as errors (everything but a deadlock and a witness).
    pub fn is_error(self) -> bool {
        !matches!(self, FindingKind::Deadlock | FindingKind::Reached)
    }

    /// A short lowercase name: `deadlock`, `assertion failure`, `range error`...
    pub fn describe(self) -> &'static str {
        match self {
            FindingKind::Deadlock => "deadlock",
            FindingKind::Invariant => "invariant violation",
            FindingKind::Assertion => "assertion failure",
            FindingKind::Range => "range error",
            FindingKind::Index => "index error",
            FindingKind::Division => "division error",
            FindingKind::Start => "start error",
            FindingKind::Stack => "stack error",
            FindingKind::Lock => "lock error",
            FindingKind::Heap => "heap error",
            FindingKind::Null => "null error",
            FindingKind::Uncaught => "uncaught exception",
            FindingKind::Property => "property violation",
            FindingKind::Reached => "witness",
        }
    }
}

impl From<FaultKind> for FindingKind {
    fn from(kind: FaultKind) -> Self {
        match kind {
            FaultKind::Assertion => FindingKind::Assertion,
            FaultKind::Range => FindingKind::Range,
            FaultKind::Index => FindingKind::Index,
            FaultKind::Division => FindingKind::Division,
            FaultKind::Start => FindingKind::Start,
            FaultKind::Stack => FindingKind::Stack,
            FaultKind::Lock => FindingKind::Lock,
            FaultKind::Heap => FindingKind::Heap,
            FaultKind::Null => FindingKind::Null,
            FaultKind::UncaughtException => FindingKind::Uncaught,
        }
    }
}

/// How the state space was explored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Strategy {
    /// Depth-first, each new state explored as soon as it is generated (the default).
    DepthFirst,
    /// Breadth-first: counterexamples are as short as possible.
    BreadthFirst,
    /// Seeded random walks; never proves anything.
    Simulation,
    /// Several threads sharing one seen set; same counts as the sequential searches.
    Parallel,
    /// Breadth-first, level by level, over workers that each own a shard of the states
    /// (`bir-dist`); counterexamples are as short as possible.
    Distributed,
    /// LTL without fairness: nested depth-first search on the product with the automaton.
    NestedDepthFirst,
    /// LTL under fairness: a depth-first search for strongly connected components of the
    /// product holding a fair accepting cycle.
    FairCycles,
    /// Best-first: the state of lowest heuristic value is expanded next (ties in the order
    /// they were generated); exhaustive when it completes.
    BestFirst,
    /// Depth-first, each state's successors explored in the order of a heuristic (lowest
    /// first); exhaustive when it completes.
    OrderedDepthFirst,
    /// Several diversified depth-first and best-first searches at once, each over its own
    /// lossy seen set, stopped at the first finding; never proves anything.
    Swarm,
}

impl Strategy {
    /// `depth-first search`, `breadth-first search`, `random simulation`, `parallel search`,
    /// `distributed breadth-first search`, `nested depth-first search`, `search for fair
    /// cycles`, `best-first search`, `ordered depth-first search`, `swarm search`.
    pub fn describe(self) -> &'static str {
        match self {
            Strategy::DepthFirst => "depth-first search",
            Strategy::BreadthFirst => "breadth-first search",
            Strategy::Simulation => "random simulation",
            Strategy::Parallel => "parallel search",
            Strategy::Distributed => "distributed breadth-first search",
            Strategy::NestedDepthFirst => "nested depth-first search",
            Strategy::FairCycles => "search for fair cycles",
            Strategy::BestFirst => "best-first search",
            Strategy::OrderedDepthFirst => "ordered depth-first search",
            Strategy::Swarm => "swarm search",
        }
    }
}

/// Why a search did not explore every reachable state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum IncompleteReason {
    /// States at the depth limit were not expanded.
    DepthLimit,
    /// The state limit was reached with states left to store.
    StateLimit,
    /// The time limit ran out.
    TimeLimit,
    /// The memory limit would have been exceeded.
    MemoryLimit,
    /// The search was cancelled through its [`Watch`](crate::Watch).
    Cancelled,
    /// The run was a random simulation, which samples paths and proves nothing.
    Simulation,
    /// States were stored as 64-bit fingerprints: two states may have been taken for one.
    HashCompaction,
    /// States were stored as a few bits of a bit array: states may have been taken for
    /// others seen before.
    Bitstate,
}

impl IncompleteReason {
    /// `depth limit reached`, `state limit reached`...
    pub fn describe(self) -> &'static str {
        match self {
            IncompleteReason::DepthLimit => "depth limit reached",
            IncompleteReason::StateLimit => "state limit reached",
            IncompleteReason::TimeLimit => "time limit reached",
            IncompleteReason::MemoryLimit => "memory limit reached",
            IncompleteReason::Cancelled => "cancelled",
            IncompleteReason::Simulation => "random simulation",
            IncompleteReason::HashCompaction => "hash compaction",
            IncompleteReason::Bitstate => "bitstate hashing",
        }
    }

    /// True for the reasons that end the search at once (the depth limit only prunes).
    pub(crate) fn stops_search(self) -> bool {
        !matches!(
            self,
            IncompleteReason::DepthLimit
                | IncompleteReason::Simulation
                | IncompleteReason::HashCompaction
                | IncompleteReason::Bitstate
        )
    }
}

/// What a search concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Verdict {
    /// Every reachable state was explored and nothing was found: no error and (with
    /// deadlock detection on) no deadlock.
    Verified,
    /// Something was found; this is the kind of the first finding (the first counterexample).
    Found(FindingKind),
    /// Nothing was found, but not every reachable state was explored: not verified.
    Incomplete {
        /// What cut the search short.
        reason: IncompleteReason,
    },
    /// A reachability check found a state satisfying its predicate (the witness is the
    /// first counterexample, a shortest path to it).
    Reached,
    /// A reachability check explored every reachable state and none satisfies its
    /// predicate: a failure (the model cannot do what the check expects).
    Unreachable,
}
