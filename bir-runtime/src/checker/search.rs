//! The core every strategy shares: it classifies what a step or a state is (new, seen,
//! faulty, violating, deadlocked), counts, records findings, and enforces the limits. The
//! strategies decide only the order in which states are expanded, and when findings are
//! recorded (depth-first at once; breadth-first in order of trace length).

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::display::Thousands;
use crate::model::{Model, ModelInfo, Outcome, Successor, TransitionId};
use crate::report::{IncompleteReason, Report, Stats, Strategy, Verdict};
use crate::seen::{Lookup, Seen, StateIndex};
use crate::trace::{self, Counterexample, FindingKind};

use super::Options;

/// How often (in transitions) the clock is read for the time limit and progress reports.
const CLOCK_EVERY: u64 = 1024;

/// How often a progress line is printed.
const PROGRESS_EVERY: Duration = Duration::from_secs(3);

/// The seen set's initial capacity, so small models allocate little and large ones do not
/// start with a cascade of tiny reallocations.
const INITIAL_CAPACITY: usize = 1 << 10;

/// What visiting one successor found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Visit<S> {
    /// A new state, stored and satisfying the invariants: explore it.
    New(StateIndex, S),
    /// A state seen before.
    Seen(StateIndex),
    /// The step faulted: an error finding for the strategy to record.
    Fault(FindingKind),
    /// A new state, stored, that fails its invariants: an error finding for the strategy to
    /// record; it must not be expanded.
    Violating(StateIndex, FindingKind),
    /// A limit stopped the search; the state was not stored.
    Stopped,
}

/// What expanding a state found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Expansion {
    /// Its successors were appended to the arena: explore them.
    Explore,
    /// Nothing to explore: a valid end state, a deadlock with detection off, or a state at
    /// the depth limit.
    Leaf,
    /// A deadlock for the strategy to record.
    Deadlock,
}

/// The state of one search: the seen set (of the layout `T` the strategy needs), the
/// counters, the findings and the limits.
pub(crate) struct Search<'a, M: Model, T> {
    model: &'a M,
    options: &'a Options,
    strategy: Strategy,
    info: Arc<ModelInfo>,
    pub(crate) seen: T,
    stats: Stats,
    /// Counterexamples kept, in the order they were recorded.
    findings: Vec<Counterexample>,
    /// How many counterexamples to keep.
    keep: usize,
    /// The first finding recorded: the verdict.
    first: Option<FindingKind>,
    stopped_at_finding: bool,
    limit: Option<IncompleteReason>,
    /// Bytes the strategy holds besides the seen set (stack, successor arena, queue marks).
    pub(crate) frontier_bytes: usize,
    /// Bytes the strategy keeps per stored state beside the seen set (BFS parent links),
    /// counted as part of it. The strategy keeps this at what they will be after one more
    /// state is stored, so that the memory limit is checked before they grow.
    pub(crate) seen_extra_bytes: usize,
    started: Instant,
    last_progress: Instant,
    /// Reused for the transition ids of a path to a finding.
    path: Vec<TransitionId>,
    notes: Vec<String>,
}

impl<'a, M: Model, T: Seen<M::State>> Search<'a, M, T> {
    pub(crate) fn new(model: &'a M, options: &'a Options, strategy: Strategy) -> Self {
        let capacity = options
            .max_states
            .map_or(INITIAL_CAPACITY, |max| (max as usize).min(INITIAL_CAPACITY));
        Search::with_seen(model, options, strategy, T::with_capacity(capacity))
    }

    /// A search storing its states in `seen`.
    pub(crate) fn with_seen(
        model: &'a M,
        options: &'a Options,
        strategy: Strategy,
        seen: T,
    ) -> Self {
        let now = Instant::now();
        Search {
            model,
            options,
            strategy,
            info: Arc::new(model.info().clone()),
            seen,
            stats: Stats::default(),
            findings: Vec::new(),
            keep: options.keep_going.unwrap_or(1),
            first: None,
            stopped_at_finding: false,
            limit: None,
            frontier_bytes: 0,
            seen_extra_bytes: 0,
            started: now,
            last_progress: now,
            path: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// True when the next finding's counterexample will be kept (so its path is needed).
    pub(crate) fn keeps_next_trace(&self) -> bool {
        self.findings.len() < self.keep
    }

    /// Adds a note to the report.
    pub(crate) fn note(&mut self, note: String) {
        self.notes.push(note);
    }

    /// True once a finding (without keep-going) or a limit has ended the search.
    pub(crate) fn is_stopped(&self) -> bool {
        self.stopped_at_finding || self.limit.is_some_and(IncompleteReason::stops_search)
    }

    /// True once a finding has ended the search (never with keep-going).
    pub(crate) fn stopped_at_finding(&self) -> bool {
        self.stopped_at_finding
    }

    /// Stores and checks the initial state (recording a violation with the empty path).
    /// Returns it when it is to be expanded.
    pub(crate) fn start(&mut self) -> Option<M::State> {
        let initial = self.model.initial_state();
        if self.options.max_states == Some(0) {
            self.hit_limit(IncompleteReason::StateLimit);
            return None;
        }
        self.seen
            .insert(initial.clone(), self.model.state_word(&initial));
        self.stats.states = 1;
        match self.model.check_invariants(&initial) {
            Ok(()) => Some(initial),
            Err(failure) => {
                let kind = trace::invariant_failure_kind(&self.info, failure);
                self.record(kind, |_| {});
                None
            }
        }
    }

    /// Starts fetching the seen-set memory that visiting these successors will read.
    pub(crate) fn prefetch(&self, successors: &[Successor<M::State>]) {
        for successor in successors {
            if let Outcome::Next(next) = &successor.outcome {
                self.seen.prefetch(next, self.model.state_word(next));
            }
        }
    }

    /// Counts one executed transition of a state at `from_depth` and classifies its outcome;
    /// a new state is stored and checked against the invariants.
    pub(crate) fn visit(
        &mut self,
        from_depth: u32,
        successor: &Successor<M::State>,
    ) -> Visit<M::State> {
        self.stats.transitions += 1;
        if self.stats.transitions.is_multiple_of(CLOCK_EVERY) {
            self.read_clock(from_depth);
            if self.is_stopped() {
                return Visit::Stopped;
            }
        }
        let next = match &successor.outcome {
            Outcome::Fault(fault) => return Visit::Fault(trace::fault_kind(&self.info, *fault)),
            Outcome::Next(next) => next.clone(),
        };
        // At a limit, a state may still be looked up, but not stored.
        if let Some(reason) = self.storage_limit() {
            if self.seen.contains(&next, self.model.state_word(&next)) {
                // Its index is not needed by any strategy at a limit.
                return Visit::Seen(StateIndex::MAX);
            }
            self.hit_limit(reason);
            return Visit::Stopped;
        }
        let index = match self.seen.insert(next.clone(), self.model.state_word(&next)) {
            Lookup::Seen(index) => return Visit::Seen(index),
            Lookup::New(index) => index,
        };
        self.stats.states += 1;
        self.stats.max_depth = self.stats.max_depth.max(from_depth + 1);
        match self.model.check_invariants(&next) {
            Ok(()) => Visit::New(index, next),
            Err(failure) => {
                Visit::Violating(index, trace::invariant_failure_kind(&self.info, failure))
            }
        }
    }

    /// The limit that forbids storing one more state, if any.
    fn storage_limit(&self) -> Option<IncompleteReason> {
        let stored = self.seen.len();
        if self.seen.is_full()
            || self
                .options
                .max_states
                .is_some_and(|max| stored as u64 >= max)
        {
            return Some(IncompleteReason::StateLimit);
        }
        let limit = self.options.memory_limit?;
        let after = self.seen.bytes_after_insert() + self.seen_extra_bytes + self.frontier_bytes;
        (after > limit).then_some(IncompleteReason::MemoryLimit)
    }

    /// Appends the successors of `state` (at `depth`) to `arena` and says what to do with
    /// them. At the depth limit they are dropped again (the search becomes incomplete unless
    /// there were none).
    pub(crate) fn expand(
        &mut self,
        state: &M::State,
        depth: u32,
        arena: &mut Vec<Successor<M::State>>,
    ) -> Expansion {
        let start = arena.len();
        self.model.successors(state, arena);
        if arena.len() == start {
            let deadlock = self.options.deadlock_detection && !self.model.is_end_state(state);
            return if deadlock {
                Expansion::Deadlock
            } else {
                Expansion::Leaf
            };
        }
        if self.options.max_depth.is_some_and(|max| depth >= max) {
            arena.truncate(start);
            self.hit_limit(IncompleteReason::DepthLimit);
            return Expansion::Leaf;
        }
        Expansion::Explore
    }

    /// Counts a finding and keeps its counterexample while fewer than the configured number
    /// are kept; `path` writes the transition ids from the initial state to it. Without
    /// keep-going, the search stops here.
    pub(crate) fn record(&mut self, kind: FindingKind, path: impl FnOnce(&mut Vec<TransitionId>)) {
        if kind == FindingKind::Deadlock {
            self.stats.deadlocks += 1;
        } else {
            self.stats.errors += 1;
        }
        self.first.get_or_insert(kind);
        if self.findings.len() < self.keep {
            self.path.clear();
            path(&mut self.path);
            match trace::rebuild(self.model, &self.info, &self.path) {
                Ok(found) => self.findings.push(found),
                // Only a nondeterministic model gets here: say so rather than panic.
                Err(error) => self.notes.push(format!(
                    "the {kind} found at `{}` could not be rebuilt ({error}); \
                     are the model's successors deterministic?",
                    trace::replay_string(&self.path)
                )),
            }
        }
        if self.options.keep_going.is_none() {
            self.stopped_at_finding = true;
        }
    }

    /// Notes that a limit was hit. A limit that stops the search replaces a depth limit noted
    /// before, since it is what the report must explain.
    pub(crate) fn hit_limit(&mut self, reason: IncompleteReason) {
        match self.limit {
            Some(current) if current.stops_search() || !reason.stops_search() => {}
            _ => self.limit = Some(reason),
        }
    }

    /// Checks the time limit and prints a progress line when due.
    fn read_clock(&mut self, depth: u32) {
        let now = Instant::now();
        let elapsed = now - self.started;
        if self
            .options
            .time_limit
            .is_some_and(|limit| elapsed >= limit)
        {
            self.hit_limit(IncompleteReason::TimeLimit);
        }
        if self.options.progress && now - self.last_progress >= PROGRESS_EVERY {
            self.last_progress = now;
            let rate = self.stats.states as f64 / elapsed.as_secs_f64();
            eprintln!(
                "[bir] {}: {} states, {} transitions, depth {}, {} states/s, {:.0} s",
                self.info.name,
                Thousands(self.stats.states),
                Thousands(self.stats.transitions),
                Thousands(u64::from(depth)),
                Thousands(rate as u64),
                elapsed.as_secs_f64()
            );
        }
    }

    /// Counts one random walk (simulation only).
    pub(crate) fn count_walk(&mut self, depth_reached: u32) {
        self.stats.walks += 1;
        self.stats.max_depth = self.stats.max_depth.max(depth_reached);
    }

    /// Ends the search and writes the report. The verdict is the first finding, else the
    /// limit that cut the search, else (for an exhaustive search) verified.
    pub(crate) fn finish(mut self) -> Report {
        if self.strategy == Strategy::Simulation && !self.is_stopped() {
            // A depth limit only bounded walks; what a simulation lacks is coverage.
            self.limit = Some(IncompleteReason::Simulation);
        }
        self.stats.elapsed = self.started.elapsed();
        self.stats.seen_bytes = self.seen.bytes() + self.seen_extra_bytes;
        if let Some((reason, probability)) = self.seen.omission() {
            // A lossy seen set never lets a search say verified.
            self.limit.get_or_insert(reason);
            self.stats.omission_probability = Some(probability);
        }
        let verdict = match (self.first, self.limit) {
            (Some(kind), _) => Verdict::Found(kind),
            (None, Some(reason)) => Verdict::Incomplete { reason },
            (None, None) => Verdict::Verified,
        };
        Report {
            info: self.info,
            strategy: self.strategy,
            deadlock_detection: self.options.deadlock_detection,
            verdict,
            complete: !self.stopped_at_finding && self.limit.is_none(),
            incomplete: self.limit,
            findings: self.findings,
            stats: self.stats,
            notes: self.notes,
        }
    }
}
