//! The parallel frontier: several threads expand states from stacks of their own, give
//! work away when another thread runs dry, and store states in one shared seen set. Each
//! thread is an ordinary [`Stepper`] over a handle on that set, so every reachable state is
//! stored and expanded exactly once and the counts (states, transitions, errors, deadlocks)
//! are those of the sequential searches; the limits are the shared ones of [`Control`].
//!
//! Which finding the sequential depth-first search meets first, and its trace, depend on
//! its order, which threads do not follow. So when a finding's trace is wanted (the search
//! stops at the first finding, or keeps counterexamples), the verdict and trace come from a
//! sequential depth-first search run afterwards to its first finding, within what is left
//! of the time limit; the counts of a keep-going search remain the parallel ones. When no
//! trace is wanted and every finding has one kind, that kind is the verdict without a
//! second search.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use crate::model::{Model, Outcome, Successor};
use crate::report::Report;
use crate::store::{lock, Keying, ShardedStates, SharedStore, SharedWords, Store};
use crate::verdict::Verdict;

use crate::plan::{self, Options, Storage};
use crate::search::control::Control;
use crate::search::core::{Role, Run, Stepper, Tally, Visit};
use crate::search::finish::finish;
use crate::search::reduce::ample::VisitOrder;

use super::dfs;

/// States a thread expands between two looks at the shared state (stop flag, limits, table
/// growth, idle threads).
const BATCH: usize = 64;

/// Runs a parallel search with the shared seen set the plan asks for.
pub(crate) fn run<M: Model>(run: Run<'_, M>) -> Report {
    match (run.plan.storage, run.keying) {
        (Storage::Bitstate { log2_bits, hashes }, _) => {
            let bits = run.control.allocate_bitstate(log2_bits, hashes);
            search(run, bits)
        }
        (_, Keying::Word) => search(run, SharedWords::new(0, false)),
        (_, Keying::Fingerprint) => search(run, SharedWords::new(0, true)),
        (_, Keying::State) => {
            let set = ShardedStates::new().holding_apart(run.held_apart);
            search(run, set)
        }
    }
}

/// Work given away by threads with plenty, for idle ones.
struct Pool<S> {
    /// States and their depths.
    work: Mutex<Vec<(S, u32)>>,
    /// Threads holding work; the search is over when it is 0 and the pool is empty.
    busy: AtomicUsize,
    threads: usize,
}

impl<S> Pool<S> {
    /// Refills an empty stack from the pool, waiting while other threads still work.
    /// Returns false when the search is over: nobody works and the pool is empty, or the
    /// run was stopped.
    fn take(&self, stack: &mut Vec<(S, u32)>, control: &Control) -> bool {
        let mut idle = false;
        loop {
            {
                let mut work = lock(&self.work);
                if !work.is_empty() {
                    if idle {
                        self.busy.fetch_add(1, Ordering::SeqCst);
                    }
                    let keep = work.len().saturating_sub(BATCH);
                    stack.extend(work.drain(keep..));
                    return true;
                }
                if !idle {
                    idle = true;
                    self.busy.fetch_sub(1, Ordering::SeqCst);
                }
                // Under the pool's lock: a thread with work is counted busy until its
                // stack is empty, and gives work away only into the pool.
                if self.busy.load(Ordering::SeqCst) == 0 || control.is_stopped() {
                    return false;
                }
            }
            std::thread::yield_now();
        }
    }

    /// Gives the older half of a stack to the pool when some thread is idle.
    fn share(&self, stack: &mut Vec<(S, u32)>) {
        if stack.len() < 2 || self.busy.load(Ordering::Relaxed) == self.threads {
            return;
        }
        let mut work = lock(&self.work);
        if work.is_empty() {
            work.extend(stack.drain(..stack.len() / 2));
        }
    }
}

/// The parallel search over a shared seen set.
fn search<M: Model, T: SharedStore<M::State>>(run: Run<'_, M>, seen: T) -> Report {
    let Run {
        model,
        options,
        control,
        ref plan,
        ..
    } = run;
    let pool = Pool {
        work: Mutex::new(Vec::new()),
        busy: AtomicUsize::new(plan.threads),
        threads: plan.threads,
    };
    let mut first = run.stepper(Role::Worker);
    let mut handle = seen.handle();
    if let Some(initial) = first.start(&mut handle) {
        lock(&pool.work).push((initial, 0));
    }
    handle.pause();
    drop(handle);
    first.release_quota();
    let info = first.info().clone();
    let mut tally = first.tally;
    let tallies: Vec<Tally> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..plan.threads)
            .map(|_| scope.spawn(|| work(run.stepper(Role::Worker), &seen, &pool, control)))
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
    for other in tallies {
        tally.merge(other);
    }
    let plan = run.plan;
    let wants_trace = options.keep_going != Some(0);
    if tally.kinds.is_empty() || !(wants_trace || tally.kinds.len() > 1) {
        return finish(options, control, plan, info, tally, &seen, 0);
    }
    let sequential = sequential_first_finding(model, options, control);
    let threads = plan.threads;
    let mut report = if control.ending().at_finding {
        // The parallel counts at a stop depend on the threads' timing: give the sequential
        // search's, which are fixed by the model.
        let mut report = sequential.clone();
        report.plan = plan;
        report.notes.push(format!(
            "the parallel search ({threads} threads) stopped at a finding; the verdict, the \
             counts and the trace are those of the sequential depth-first search"
        ));
        report
    } else {
        let first_kind = match sequential.verdict() {
            Verdict::Found(kind) => kind,
            _ => tally.kinds[0],
        };
        tally.findings.clear();
        let mut report = finish(options, control, plan, info, tally, &seen, 0);
        report.verdict = Verdict::Found(first_kind);
        report.notes.push(format!(
            "counts from the parallel search ({threads} threads); the first counterexample \
             from the sequential depth-first search"
        ));
        report
    };
    report.findings = sequential.findings;
    report.notes.extend(sequential.notes);
    report
}

/// The sequential depth-first search to its first finding, within what is left of the
/// run's time limit.
fn sequential_first_finding<M: Model>(model: &M, options: &Options, control: &Control) -> Report {
    let remaining = control
        .deadline()
        .map(|deadline| deadline.saturating_duration_since(Instant::now()));
    let options = Options {
        keep_going: None,
        threads: 1,
        time_limit: remaining.or(options.time_limit),
        ..options.clone()
    };
    match plan::resolve(model, &options, false) {
        Ok(plan) => {
            let control = Control::new(&model.info().name, &options, 1);
            dfs::run(Run::new(model, &options, &control, plan))
        }
        // The parallel plan resolved, and the sequential one only drops threads.
        Err(error) => unreachable!("a sequential plan follows from a parallel one: {error}"),
    }
}

/// One thread's loop: expand batches of states from its own stack until the search ends.
fn work<M: Model, T: SharedStore<M::State>>(
    mut stepper: Stepper<'_, M>,
    seen: &T,
    pool: &Pool<M::State>,
    control: &Control,
) -> Tally {
    let mut store = seen.handle();
    let mut stack: Vec<(M::State, u32)> = Vec::new();
    let mut arena: Vec<Successor<M::State>> = Vec::new();
    while !stepper.is_stopped() {
        if stack.is_empty() {
            // Idle: what this thread may still store is for the others.
            stepper.release_quota();
            if !pool.take(&mut stack, control) {
                break;
            }
        }
        for _ in 0..BATCH {
            let Some((state, depth)) = stack.pop() else {
                break;
            };
            arena.clear();
            // No path is known here: the trace comes from a sequential search.
            if !stepper.expand(&state, depth, &mut arena, &mut |_| {}) {
                continue;
            }
            if !stepper.reserve(&mut stack, arena.len()) {
                break;
            }
            stepper.prefetch(&arena, &mut store);
            let mut order = VisitOrder::new(stepper.ample(&arena), arena.len());
            while let Some(k) = order.next_index() {
                let successor = &arena[k];
                match stepper.visit(depth, successor, &mut store) {
                    Visit::New => {
                        order.stored_new();
                        if let Outcome::Next(next) = &successor.outcome {
                            stack.push((next.clone(), depth + 1));
                        }
                    }
                    Visit::Violating(kind) => {
                        order.stored_new();
                        stepper.record(kind, &mut |_| {});
                    }
                    Visit::Fault(kind) => stepper.record(kind, &mut |_| {}),
                    Visit::Seen(_) => {}
                    Visit::Stopped => break,
                }
            }
            if stepper.is_stopped() {
                break;
            }
        }
        // Outside the set's lock, so that it can grow while this thread shares its work.
        store.pause();
        stepper.sync();
        pool.share(&mut stack);
    }
    store.pause();
    stepper.sync();
    stepper.tally
}

#[cfg(test)]
mod tests {
    use crate::test_models::{Philosophers, SumToN};
    use crate::{Checker, FindingKind, IncompleteReason, Verdict};

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
    fn lossy_storage_in_parallel_keeps_the_counts_and_never_verifies() {
        let exact = Checker::new(Philosophers::new(6, true)).run();
        let report = Checker::new(Philosophers::new(6, true))
            .threads(2)
            .bitstate(22, 3)
            .run();
        assert_eq!(report.states(), exact.states());
        assert_eq!(report.incomplete_reason(), Some(IncompleteReason::Bitstate));
    }

    #[test]
    fn a_verified_model_is_verified_in_parallel() {
        Checker::new(Philosophers::new(5, true))
            .threads(2)
            .run()
            .assert_verified();
    }
}
