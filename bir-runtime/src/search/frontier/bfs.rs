//! Breadth-first search: the counterexample reported is as short as possible.
//!
//! With exact storage, the seen set stores states in discovery order, which is breadth-first
//! order, so it *is* the queue: a cursor walks it. Beside each stored state we keep its
//! parent's index (4 bytes), from which traces are rebuilt; the transition from the parent
//! is the first of the parent's successors leading to the state (the one that stored it),
//! found again when a trace is written rather than stored for every state.
//!
//! With lossy storage (hash compaction, bitstate), and with compact storage (of words, or
//! of wider states as trees), whose set gives back no state by number, the seen set keeps
//! no states in order: the queue
//! holds one level at a time, and each stored state gets a link (parent's number, transition:
//! 8 bytes) from which its path is read back. Both visit states in the same order.
//!
//! Trace length counts a failing step, so while expanding level `d` a deadlock (a state at
//! depth `d`) is one step shorter than a fault of a step leaving level `d` or a violating
//! state at level `d + 1`. Errors found while expanding a level are therefore recorded only
//! once the level is done, and deadlocks at once: the first finding is always a shortest one.

use std::mem::size_of;

use crate::model::{Model, Outcome, Successor, TransitionId};
use crate::report::Report;
use crate::store::{CompactStates, Footprint, IndexedStates, Keying, StateIndex, Store, WordTable};
use crate::verdict::FindingKind;
use crate::verdict::IncompleteReason;

use crate::plan::Storage;
use crate::search::core::{Role, Run, Stepper, Visit};
use crate::search::reduce::ample::VisitOrder;
use crate::trace::path::step_between;

/// An error found while expanding the current level, recorded when the level is done:
/// the step `transition` from the state numbered `from` faulted or reached a violating state.
struct Pending {
    from: StateIndex,
    transition: TransitionId,
    kind: FindingKind,
}

/// Runs a breadth-first search with the seen set the plan asks for.
pub(crate) fn run<M: Model>(run: Run<'_, M>) -> Report {
    match run.plan.storage {
        Storage::Exact => exact(run),
        Storage::Compact => {
            let (model, words) = (run.model, run.keying == Keying::Word);
            lossy(run, CompactStates::new(model, words))
        }
        Storage::HashCompaction => lossy(run, WordTable::new(0, true)),
        Storage::Bitstate { log2_bits, hashes } => {
            let bits = run.control.allocate_bitstate(log2_bits, hashes);
            lossy(run, bits)
        }
    }
}

/// Breadth-first search over states stored exactly, in discovery order.
fn exact<M: Model>(run: Run<'_, M>) -> Report {
    let model = run.model;
    let mut stepper = run.stepper(Role::Alone);
    let mut seen: IndexedStates<M::State> = IndexedStates::new().holding_apart(run.held_apart);
    // The index of the state each stored state was first reached from.
    let mut links: Vec<StateIndex> = Vec::new();
    if stepper.start(&mut seen).is_some() {
        links.push(StateIndex::MAX);
    }
    // Violating states are stored (they count) but never expanded; their indices ascend.
    let mut violating: Vec<StateIndex> = Vec::new();
    let mut skipped = 0;
    let mut pending: Vec<Pending> = Vec::new();
    let mut arena: Vec<Successor<M::State>> = Vec::new();
    let mut depth = 0;
    let mut level_end = 1;
    let mut cursor = 0;
    let path = |seen: &IndexedStates<M::State>, links: &[StateIndex], index, out: &mut _| {
        path_to(model, seen, links, index, out)
    };
    while cursor < links.len() && !stepper.is_stopped() {
        if cursor == level_end {
            record_pending(&mut stepper, &mut pending, |from, out| {
                path(&seen, &links, from, out)
            });
            if stepper.is_stopped() {
                break;
            }
            depth += 1;
            level_end = seen.len();
        }
        let index = cursor as StateIndex;
        cursor += 1;
        if violating.get(skipped) == Some(&index) {
            skipped += 1;
            continue;
        }
        let state = seen.get(index).clone();
        arena.clear();
        if !stepper.expand(&state, depth, &mut arena, &mut |out| {
            path(&seen, &links, index, out)
        }) {
            continue;
        }
        if !stepper.reserve(&mut links, arena.len()) {
            break;
        }
        stepper.prefetch(&arena, &mut seen);
        let mut order = VisitOrder::new(stepper.ample(&arena), arena.len());
        while let Some(k) = order.next_index() {
            let successor = &arena[k];
            let transition = successor.transition;
            match stepper.visit(depth, successor, &mut seen) {
                Visit::New => {
                    order.stored_new();
                    links.push(index);
                }
                Visit::Violating(kind) => {
                    order.stored_new();
                    violating.push(links.len() as StateIndex);
                    links.push(index);
                    pending.push(Pending {
                        from: index,
                        transition,
                        kind,
                    });
                }
                Visit::Fault(kind) => pending.push(Pending {
                    from: index,
                    transition,
                    kind,
                }),
                Visit::Seen(_) => {}
                Visit::Stopped => break,
            }
        }
    }
    // Errors of the last level, or of a level cut short by a limit, were found all the same.
    if !run.control.ending().at_finding {
        record_pending(&mut stepper, &mut pending, |from, out| {
            path(&seen, &links, from, out)
        });
    }
    let links_bytes = links.capacity() * size_of::<StateIndex>();
    stepper.finish(run.plan, &seen, links_bytes)
}

/// Breadth-first search over a seen set that keeps no states (lossy, or compact), one level
/// of states in memory at a time.
fn lossy<M: Model, T: Store<M::State> + Footprint>(run: Run<'_, M>, mut seen: T) -> Report {
    let mut stepper = run.stepper(Role::Alone);
    // Each stored state's parent number and the transition from it, by state number.
    let mut links: Vec<(StateIndex, TransitionId)> = Vec::new();
    let mut level: Vec<(M::State, StateIndex)> = Vec::new();
    let mut next_level: Vec<(M::State, StateIndex)> = Vec::new();
    if let Some(initial) = stepper.start(&mut seen) {
        links.push((StateIndex::MAX, TransitionId::MAX));
        level.push((initial, 0));
    }
    let mut pending: Vec<Pending> = Vec::new();
    let mut arena: Vec<Successor<M::State>> = Vec::new();
    let mut depth = 0;
    while !level.is_empty() && !stepper.is_stopped() {
        for (state, number) in level.drain(..) {
            if stepper.is_stopped() {
                break;
            }
            arena.clear();
            if !stepper.expand(&state, depth, &mut arena, &mut |out| {
                linked_path(&links, number, out)
            }) {
                continue;
            }
            if !stepper.reserve(&mut links, arena.len())
                || !stepper.reserve(&mut next_level, arena.len())
            {
                break;
            }
            stepper.prefetch(&arena, &mut seen);
            let mut order = VisitOrder::new(stepper.ample(&arena), arena.len());
            while let Some(k) = order.next_index() {
                let successor = &arena[k];
                let transition = successor.transition;
                let visit = stepper.visit(depth, successor, &mut seen);
                let new_number = links.len();
                if matches!(visit, Visit::New | Visit::Violating(_)) {
                    order.stored_new();
                    if new_number > StateIndex::MAX as usize - 1 {
                        stepper.hit_limit(IncompleteReason::StateLimit);
                        break;
                    }
                    links.push((number, transition));
                }
                match (visit, &successor.outcome) {
                    (Visit::New, Outcome::Next(next)) => {
                        next_level.push((next.clone(), new_number as StateIndex));
                    }
                    (Visit::Violating(kind) | Visit::Fault(kind), _) => pending.push(Pending {
                        from: number,
                        transition,
                        kind,
                    }),
                    (Visit::Stopped, _) => break,
                    _ => {}
                }
            }
        }
        if !run.control.ending().at_finding {
            record_pending(&mut stepper, &mut pending, |from, out| {
                linked_path(&links, from, out)
            });
        }
        std::mem::swap(&mut level, &mut next_level);
        next_level.clear();
        depth += 1;
    }
    let links_bytes = links.capacity() * size_of::<(StateIndex, TransitionId)>();
    stepper.finish(run.plan, &seen, links_bytes)
}

/// Records the errors found while expanding the level just finished, in discovery order;
/// `path` writes the path to the state an error's step left.
fn record_pending<M: Model>(
    stepper: &mut Stepper<'_, M>,
    pending: &mut Vec<Pending>,
    mut path: impl FnMut(StateIndex, &mut Vec<TransitionId>),
) {
    for error in pending.drain(..) {
        if stepper.is_stopped() {
            break;
        }
        stepper.record(error.kind, &mut |out| {
            path(error.from, out);
            out.push(error.transition);
        });
    }
}

/// Writes the transition ids from the initial state to the state at `index`: the parents
/// from the links, and each step's transition as the first successor of the parent that
/// leads to the child (an id that cannot be replayed if a nondeterministic model gives no
/// such successor: the rebuild then fails with a note).
fn path_to<M: Model>(
    model: &M,
    states: &IndexedStates<M::State>,
    links: &[StateIndex],
    index: StateIndex,
    path: &mut Vec<TransitionId>,
) {
    let start = path.len();
    let mut successors = Vec::new();
    let mut child = index;
    while child != 0 {
        let parent = links[child as usize];
        let (from, to) = (states.get(parent), states.get(child));
        path.push(step_between(model, from, to, &mut successors));
        child = parent;
    }
    path[start..].reverse();
}

/// Writes the transition ids from the initial state to the state numbered `number`, read
/// back from the links of a lossy search (or of a best-first one).
pub(crate) fn linked_path(
    links: &[(StateIndex, TransitionId)],
    number: StateIndex,
    path: &mut Vec<TransitionId>,
) {
    let start = path.len();
    let mut child = number;
    while child != 0 {
        let (parent, transition) = links[child as usize];
        path.push(transition);
        child = parent;
    }
    path[start..].reverse();
}

#[cfg(test)]
mod tests {
    use crate::test_models::{Graph, Philosophers, ReadersWriters, SumToN};
    use crate::{Checker, FindingKind, Verdict};

    #[test]
    fn counts_are_those_of_the_depth_first_search() {
        for n in 2..=5 {
            for fixed in [false, true] {
                let model = Philosophers::new(n, fixed);
                let dfs = Checker::new(model.clone()).keep_going(1).run();
                let bfs = Checker::new(model).bfs().keep_going(1).run();
                assert_eq!(dfs.stats().states, bfs.stats().states);
                assert_eq!(dfs.stats().transitions, bfs.stats().transitions);
                assert_eq!(dfs.deadlocks(), bfs.deadlocks());
                assert!(bfs.is_complete());
            }
        }
        let bfs = Checker::new(SumToN).bfs().keep_going(3).run();
        assert_eq!((bfs.states(), bfs.transitions()), (15_276, 38_174));
        assert_eq!((bfs.errors(), bfs.deadlocks()), (42, 1));
        assert_eq!(bfs.findings().len(), 3);
        let rw = ReadersWriters::new(false).checker().bfs().run();
        rw.assert_verified();
        assert_eq!((rw.states(), rw.transitions()), (11, 21));
    }

    #[test]
    fn gives_the_shortest_trace() {
        let report = Checker::new(Graph::diamond_with_fault()).bfs().run();
        let fault = report.assert_assertion_failure();
        assert_eq!(fault.transitions().collect::<Vec<_>>(), [1, 3]);
        let report = Checker::new(Philosophers::two()).bfs().run();
        assert_eq!(report.assert_deadlock().replay(), "bir1:0.4");
        // SumToN: the assertion after 4 steps, where depth-first meets a deadlock first.
        let report = Checker::new(SumToN).bfs().run();
        assert_eq!(report.verdict(), Verdict::Found(FindingKind::Assertion));
        assert_eq!(report.assert_assertion_failure().len(), 4);
    }

    #[test]
    fn a_deadlock_beats_a_longer_error_found_earlier_in_its_level() {
        // Level 1 holds 1 (whose step faults: a trace of 2 steps) before 2 (a deadlock: a
        // trace of 1 step).
        let graph = Graph::new(3, &[(0, Some(1)), (0, Some(2)), (1, None)]);
        let report = Checker::new(graph.clone()).bfs().run();
        assert_eq!(report.verdict(), Verdict::Found(FindingKind::Deadlock));
        assert_eq!(report.assert_deadlock().replay(), "bir1:1");
        let dfs = Checker::new(graph).run();
        assert_eq!(dfs.verdict(), Verdict::Found(FindingKind::Assertion));
    }

    #[test]
    fn violating_states_are_stored_but_not_expanded() {
        let graph = Graph::new(4, &[(0, Some(1)), (1, Some(2)), (0, Some(3)), (3, Some(1))])
            .bad(&[1])
            .end(&[3]);
        let report = Checker::new(graph).bfs().keep_going(5).run();
        assert_eq!((report.states(), report.transitions()), (3, 3));
        assert_eq!((report.errors(), report.deadlocks()), (1, 0));
        assert_eq!(report.assert_invariant_violation().replay(), "bir1:0");
    }
}
