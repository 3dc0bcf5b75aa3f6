//! The parallel search: several threads expand states from their own stacks, share work
//! when one runs dry, and store states in one concurrent seen set. Every reachable state
//! is stored and expanded exactly once, so the counts (states, transitions, errors,
//! deadlocks) are those of the sequential searches.
//!
//! Which finding the sequential depth-first search meets first, and its trace, depend on
//! its order, which threads do not follow. So when a finding's trace is wanted (the search
//! stops at the first finding, or keeps counterexamples), the verdict and trace come from a
//! sequential depth-first search run afterwards (to its first finding only); the counts of
//! a keep-going search remain the parallel ones. When no trace is wanted and every finding
//! has one kind, that kind is the verdict without a second search.

use std::mem::size_of;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::model::{Model, Outcome, Successor};
use crate::report::{IncompleteReason, Report, Stats, Strategy, Verdict};
use crate::seen::compaction_omission;
use crate::seen::hasher as state_hasher;
use crate::shared_seen::{lock, Insert, SharedSeen};
use crate::trace::{self, FindingKind};
use ahash::RandomState;

use super::{dfs, Options, Storage};

/// States a thread expands between two looks at the shared state (stop flag, limits,
/// table growth, idle threads).
const BATCH: usize = 64;

/// How often the progress line is printed.
const PROGRESS_EVERY: Duration = Duration::from_secs(3);

/// What the threads share.
struct Shared<'a, M: Model> {
    model: &'a M,
    options: &'a Options,
    threads: usize,
    seen: SharedSeen<M::State>,
    /// States wider than a word stored as 64-bit fingerprints (hash compaction).
    fingerprints: Option<RandomState>,
    /// Work given away by a thread with plenty, for idle threads: states and their depths.
    pool: Mutex<Vec<(M::State, u32)>>,
    /// Threads holding work; the search is over when it is 0 and the pool is empty.
    busy: AtomicUsize,
    stop: AtomicBool,
    /// States stored so far, updated once per batch (for limits and progress).
    states: AtomicU64,
    transitions: AtomicU64,
    limit: Mutex<Option<IncompleteReason>>,
    started: Instant,
    last_progress: Mutex<Instant>,
}

/// What one thread found.
#[derive(Default)]
struct Tally {
    states: u64,
    transitions: u64,
    errors: u64,
    deadlocks: u64,
    max_depth: u32,
    /// Every kind of finding met, in the order met.
    kinds: Vec<FindingKind>,
}

/// Runs a parallel search on `threads` threads.
pub(crate) fn run<M: Model + Sync>(model: &M, options: &Options, threads: usize) -> Report {
    let started = Instant::now();
    let initial = model.initial_state();
    let words = model.state_word(&initial).is_some();
    let fingerprints = (!words && options.storage == Storage::HashCompaction).then(state_hasher);
    let shared = Shared {
        model,
        options,
        threads,
        seen: SharedSeen::new(words || fingerprints.is_some(), 0),
        fingerprints,
        pool: Mutex::new(Vec::new()),
        busy: AtomicUsize::new(threads),
        stop: AtomicBool::new(false),
        states: AtomicU64::new(0),
        transitions: AtomicU64::new(0),
        limit: Mutex::new(None),
        started,
        last_progress: Mutex::new(started),
    };
    let mut total = Tally::default();
    if options.max_states == Some(0) {
        shared.hit_limit(IncompleteReason::StateLimit);
    } else {
        shared.seen_initial(&initial, &mut total);
    }
    let tallies: Vec<Tally> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|id| {
                let shared = &shared;
                scope.spawn(move || shared.work(id == 0))
            })
            .collect();
        workers
            .into_iter()
            .map(|worker| {
                worker
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    });
    for tally in tallies {
        total.states += tally.states;
        total.transitions += tally.transitions;
        total.errors += tally.errors;
        total.deadlocks += tally.deadlocks;
        total.max_depth = total.max_depth.max(tally.max_depth);
        total.kinds.extend(tally.kinds);
    }
    shared.report(total)
}

impl<M: Model + Sync> Shared<'_, M> {
    /// Stores and checks the initial state, and puts it in the pool if it is to be expanded.
    fn seen_initial(&self, initial: &M::State, tally: &mut Tally) {
        let hasher = state_hasher();
        let batch = self.seen.batch(&hasher);
        batch.insert(initial, self.word(initial));
        drop(batch);
        tally.states = 1;
        self.states.store(1, Ordering::Relaxed);
        match self.model.check_invariants(initial) {
            Ok(()) => lock(&self.pool).push((initial.clone(), 0)),
            Err(failure) => {
                let kind = trace::invariant_failure_kind(self.model.info(), failure);
                self.found(kind, tally);
            }
        }
    }

    /// One thread's loop: expand batches of states from its own stack until the search ends.
    fn work(&self, prints_progress: bool) -> Tally {
        let hasher = state_hasher();
        let mut tally = Tally::default();
        let mut stack: Vec<(M::State, u32)> = Vec::new();
        let mut successors: Vec<Successor<M::State>> = Vec::new();
        while !self.stop.load(Ordering::Relaxed) {
            if stack.is_empty() && !self.take_work(&mut stack) {
                break;
            }
            let states_before = tally.states;
            let transitions_before = tally.transitions;
            let batch = self.seen.batch(&hasher);
            for _ in 0..BATCH {
                if batch.is_nearly_full() {
                    break;
                }
                let Some((state, depth)) = stack.pop() else {
                    break;
                };
                successors.clear();
                self.model.successors(&state, &mut successors);
                if successors.is_empty() {
                    if self.options.deadlock_detection && !self.model.is_end_state(&state) {
                        self.found(FindingKind::Deadlock, &mut tally);
                    }
                    continue;
                }
                if self.options.max_depth.is_some_and(|max| depth >= max) {
                    self.hit_limit(IncompleteReason::DepthLimit);
                    continue;
                }
                for successor in &successors {
                    if let Outcome::Next(next) = &successor.outcome {
                        batch.prefetch(self.word(next));
                    }
                }
                for successor in successors.drain(..) {
                    tally.transitions += 1;
                    let next = match successor.outcome {
                        Outcome::Fault(fault) => {
                            let kind = trace::fault_kind(self.model.info(), fault);
                            self.found(kind, &mut tally);
                            continue;
                        }
                        Outcome::Next(next) => next,
                    };
                    if batch.insert(&next, self.word(&next)) == Insert::Seen {
                        continue;
                    }
                    tally.states += 1;
                    tally.max_depth = tally.max_depth.max(depth + 1);
                    match self.model.check_invariants(&next) {
                        Ok(()) => stack.push((next, depth + 1)),
                        Err(failure) => {
                            let kind = trace::invariant_failure_kind(self.model.info(), failure);
                            self.found(kind, &mut tally);
                        }
                    }
                }
            }
            drop(batch);
            self.seen.grow_if_needed();
            self.states
                .fetch_add(tally.states - states_before, Ordering::Relaxed);
            self.transitions
                .fetch_add(tally.transitions - transitions_before, Ordering::Relaxed);
            self.check_limits(stack.len());
            if prints_progress {
                self.progress();
            }
            self.share(&mut stack);
        }
        tally
    }

    /// What the seen set stores of a state: its word, its fingerprint, or (`None`) itself.
    fn word(&self, state: &M::State) -> Option<u64> {
        match &self.fingerprints {
            // Never the empty marker of word tables.
            Some(hasher) => Some(hasher.hash_one(state).min(u64::MAX - 1)),
            None => self.model.state_word(state),
        }
    }

    /// Refills an empty stack from the pool, waiting while other threads still work.
    /// Returns false when the search is over: nobody works and the pool is empty.
    fn take_work(&self, stack: &mut Vec<(M::State, u32)>) -> bool {
        let mut idle = false;
        loop {
            {
                let mut pool = lock(&self.pool);
                if !pool.is_empty() {
                    if idle {
                        self.busy.fetch_add(1, Ordering::SeqCst);
                    }
                    let keep = pool.len().saturating_sub(BATCH);
                    stack.extend(pool.drain(keep..));
                    return true;
                }
                if !idle {
                    idle = true;
                    self.busy.fetch_sub(1, Ordering::SeqCst);
                }
                // Under the pool's lock: a thread with work is counted busy until its
                // stack is empty, and gives work away only into the pool.
                if self.busy.load(Ordering::SeqCst) == 0 || self.stop.load(Ordering::Relaxed) {
                    return false;
                }
            }
            std::thread::yield_now();
        }
    }

    /// Gives the older half of a stack to the pool when some thread is idle.
    fn share(&self, stack: &mut Vec<(M::State, u32)>) {
        if stack.len() < 2 || self.busy.load(Ordering::Relaxed) == self.threads {
            return;
        }
        let mut pool = lock(&self.pool);
        if pool.is_empty() {
            pool.extend(stack.drain(..stack.len() / 2));
        }
    }

    /// Counts a finding; without keep-going the search stops at it.
    fn found(&self, kind: FindingKind, tally: &mut Tally) {
        if kind == FindingKind::Deadlock {
            tally.deadlocks += 1;
        } else {
            tally.errors += 1;
        }
        if !tally.kinds.contains(&kind) {
            tally.kinds.push(kind);
        }
        if self.options.keep_going.is_none() {
            self.stop.store(true, Ordering::Relaxed);
        }
    }

    fn hit_limit(&self, reason: IncompleteReason) {
        let mut limit = lock(&self.limit);
        match *limit {
            Some(current) if current.stops_search() || !reason.stops_search() => {}
            _ => *limit = Some(reason),
        }
        if reason.stops_search() {
            self.stop.store(true, Ordering::Relaxed);
        }
    }

    /// The state, time and memory limits, checked once per batch.
    fn check_limits(&self, stack_len: usize) {
        let options = self.options;
        let states = self.states.load(Ordering::Relaxed);
        if options.max_states.is_some_and(|max| states >= max) {
            self.hit_limit(IncompleteReason::StateLimit);
        }
        if options
            .time_limit
            .is_some_and(|limit| self.started.elapsed() >= limit)
        {
            self.hit_limit(IncompleteReason::TimeLimit);
        }
        if let Some(limit) = options.memory_limit {
            let frontier = stack_len * self.threads * size_of::<(M::State, u32)>();
            if self.seen.bytes() + frontier > limit {
                self.hit_limit(IncompleteReason::MemoryLimit);
            }
        }
    }

    fn progress(&self) {
        if !self.options.progress {
            return;
        }
        let mut last = lock(&self.last_progress);
        if last.elapsed() < PROGRESS_EVERY {
            return;
        }
        *last = Instant::now();
        let seconds = self.started.elapsed().as_secs_f64();
        let states = self.states.load(Ordering::Relaxed);
        eprintln!(
            "bir: {states} states, {} transitions, {:.0} states/s, {seconds:.1} s ({} threads)",
            self.transitions.load(Ordering::Relaxed),
            states as f64 / seconds,
            self.threads,
        );
    }

    /// The report: the parallel counts, and the verdict and trace the sequential
    /// depth-first search gives (see the module documentation).
    fn report(self, total: Tally) -> Report {
        let mut limit = *lock(&self.limit);
        let mut omission_probability = None;
        if self.fingerprints.is_some() {
            omission_probability = Some(compaction_omission(total.states));
            limit.get_or_insert(IncompleteReason::HashCompaction);
        }
        let stats = Stats {
            states: total.states,
            transitions: total.transitions,
            errors: total.errors,
            deadlocks: total.deadlocks,
            max_depth: total.max_depth,
            elapsed: self.started.elapsed(),
            seen_bytes: self.seen.bytes(),
            walks: 0,
            omission_probability,
        };
        let stopped_at_finding = self.options.keep_going.is_none() && !total.kinds.is_empty();
        let wants_trace = self.options.keep_going != Some(0);
        if !total.kinds.is_empty() && (wants_trace || total.kinds.len() > 1) {
            // To its first finding only: the counts are the parallel search's.
            let sequential = dfs::run(
                self.model,
                &Options {
                    keep_going: None,
                    ..self.options.clone()
                },
            );
            if stopped_at_finding {
                return sequential.with_note(format!(
                    "the parallel search ({} threads) stopped at a finding; the verdict, the \
                     counts and the trace are those of the sequential depth-first search",
                    self.threads
                ));
            }
            let mut report = self.report_with(
                stats,
                limit,
                Verdict::Found(first_kind(&sequential, &total)),
            );
            report.findings = sequential.findings;
            return report.with_note(format!(
                "counts from the parallel search ({} threads); the first counterexample from \
                 the sequential depth-first search",
                self.threads
            ));
        }
        let verdict = match (total.kinds.first(), limit) {
            (Some(&kind), _) => Verdict::Found(kind),
            (None, Some(reason)) => Verdict::Incomplete { reason },
            (None, None) => Verdict::Verified,
        };
        self.report_with(stats, limit, verdict)
    }

    fn report_with(
        &self,
        stats: Stats,
        limit: Option<IncompleteReason>,
        verdict: Verdict,
    ) -> Report {
        let stopped_at_finding =
            matches!(verdict, Verdict::Found(_)) && self.options.keep_going.is_none();
        Report {
            info: Arc::new(self.model.info().clone()),
            strategy: Strategy::Parallel,
            deadlock_detection: self.options.deadlock_detection,
            verdict,
            findings: Vec::new(),
            incomplete: limit,
            complete: !stopped_at_finding && limit.is_none(),
            stats,
            notes: Vec::new(),
        }
    }
}

/// The kind the sequential search met first, or (should a limit have stopped it) the
/// parallel search's first.
fn first_kind(sequential: &Report, total: &Tally) -> FindingKind {
    match sequential.verdict() {
        Verdict::Found(kind) => kind,
        _ => total.kinds[0],
    }
}

#[cfg(test)]
mod tests {
    use crate::test_models::{Philosophers, SumToN};
    use crate::{Checker, FindingKind, Verdict};

    #[test]
    fn counts_equal_the_sequential_search() {
        for (model, deadlocks) in [
            (Philosophers::new(6, false), 1),
            (Philosophers::new(6, true), 0),
        ] {
            let sequential = Checker::new(model.clone()).keep_going(0).run();
            let parallel = Checker::new(model).threads(2).keep_going(0).run();
            assert_eq!(
                (
                    parallel.states(),
                    parallel.transitions(),
                    parallel.deadlocks()
                ),
                (sequential.states(), sequential.transitions(), deadlocks)
            );
            assert!(parallel.is_complete());
        }
    }

    #[test]
    fn findings_take_the_sequential_verdict_and_trace() {
        let sequential = Checker::new(SumToN).run();
        let parallel = Checker::new(SumToN).threads(2).run();
        assert_eq!(parallel.verdict(), Verdict::Found(FindingKind::Deadlock));
        assert_eq!(parallel.first_finding(), sequential.first_finding());
        let counted = Checker::new(SumToN).threads(2).keep_going(1).run();
        assert_eq!((counted.states(), counted.transitions()), (15_276, 38_174));
        assert_eq!((counted.errors(), counted.deadlocks()), (42, 1));
        assert_eq!(counted.verdict(), Verdict::Found(FindingKind::Deadlock));
        assert_eq!(counted.first_finding().map(|f| f.len()), Some(25));
    }

    #[test]
    fn hash_compaction_in_parallel_keeps_the_counts_and_never_verifies() {
        let exact = Checker::new(Philosophers::new(6, true)).run();
        let report = Checker::new(Philosophers::new(6, true))
            .threads(2)
            .hash_compaction()
            .run();
        assert_eq!(report.states(), exact.states());
        assert_eq!(
            report.incomplete_reason(),
            Some(crate::IncompleteReason::HashCompaction)
        );
    }

    #[test]
    fn a_verified_model_is_verified_in_parallel() {
        Checker::new(Philosophers::new(5, true))
            .threads(2)
            .run()
            .assert_verified();
    }
}
