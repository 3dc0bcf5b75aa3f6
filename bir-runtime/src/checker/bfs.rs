//! Breadth-first search: the counterexample reported is as short as possible.
//!
//! The seen set stores states in discovery order, which is breadth-first order, so it *is* the
//! queue: a cursor walks it. Beside each stored state we keep its parent's index (4 bytes),
//! from which traces are rebuilt; the transition from the parent is the first of the
//! parent's successors leading to the state (the one that stored it), found again when a
//! trace is written rather than stored for every state.
//!
//! Trace length counts a failing step, so while expanding level `d` a deadlock (a state at
//! depth `d`) is one step shorter than a fault of a step leaving level `d` or a violating
//! state at level `d + 1`. Errors found while expanding a level are therefore recorded only
//! once the level is done, and deadlocks at once: the first finding is always a shortest one.

use std::mem::size_of;

use crate::model::{Model, Outcome, Successor, TransitionId};
use crate::report::{Report, Strategy};
use crate::seen::{IndexedStates, Seen, StateIndex};
use crate::trace::FindingKind;

use super::search::{Expansion, Search, Visit};
use super::{Options, Storage};

/// The index of the state a stored state was first reached from.
type Link = StateIndex;

/// An error found while expanding the current level, recorded when the level is done.
struct PendingError {
    from: StateIndex,
    transition: TransitionId,
    kind: FindingKind,
}

/// Runs a breadth-first search.
pub(crate) fn run<M: Model>(model: &M, options: &Options) -> Report {
    let mut search: Search<'_, M, IndexedStates<M::State>> =
        Search::new(model, options, Strategy::BreadthFirst);
    if options.storage != Storage::Exact {
        search.note(
            "breadth-first search keeps its queue, hence every state, exactly: hash \
             compaction and bitstate hashing apply to depth-first and parallel searches"
                .to_string(),
        );
    }
    if search.start().is_none() {
        return search.finish();
    }
    let mut links: Vec<Link> = vec![StateIndex::MAX];
    // Violating states are stored (they count) but never expanded; their indices ascend.
    let mut violating: Vec<StateIndex> = Vec::new();
    let mut skipped = 0;
    let mut pending: Vec<PendingError> = Vec::new();
    let mut arena: Vec<Successor<M::State>> = Vec::new();
    let mut depth = 0;
    let mut level_end = 1;
    let mut cursor = 0;
    while cursor < search.seen.len() && !search.is_stopped() {
        if cursor == level_end {
            record_pending(model, &mut search, &links, &mut pending);
            if search.is_stopped() {
                break;
            }
            depth += 1;
            level_end = search.seen.len();
        }
        let index = cursor as StateIndex;
        cursor += 1;
        if violating.get(skipped) == Some(&index) {
            skipped += 1;
            continue;
        }
        let state = search.seen.get(index);
        arena.clear();
        match search.expand(&state, depth, &mut arena) {
            Expansion::Explore => {}
            Expansion::Leaf => continue,
            Expansion::Deadlock => {
                let mut path = Vec::new();
                if search.keeps_next_trace() {
                    path_to(model, &search.seen, &links, index, &mut path);
                }
                search.record(FindingKind::Deadlock, |out| out.extend(path));
                continue;
            }
        }
        // The links may grow while this state's successors are stored: count what they
        // will hold by then, so that the memory limit is checked before they grow.
        let needed = links.len() + arena.len();
        let links_capacity = if needed > links.capacity() {
            (2 * links.capacity()).max(needed)
        } else {
            links.capacity()
        };
        search.seen_extra_bytes = links_capacity * size_of::<Link>();
        for successor in &arena {
            let transition = successor.transition;
            match search.visit(depth, successor) {
                Visit::New(..) => links.push(index),
                Visit::Violating(new, kind) => {
                    links.push(index);
                    violating.push(new);
                    pending.push(PendingError {
                        from: index,
                        transition,
                        kind,
                    });
                }
                Visit::Fault(kind) => pending.push(PendingError {
                    from: index,
                    transition,
                    kind,
                }),
                Visit::Seen(_) => {}
                Visit::Stopped => break,
            }
        }
        search.frontier_bytes = arena.capacity() * size_of::<Successor<M::State>>()
            + violating.capacity() * size_of::<StateIndex>()
            + pending.capacity() * size_of::<PendingError>();
    }
    // Errors of the last level, or of a level cut short by a limit, were found all the same.
    if !search.stopped_at_finding() {
        record_pending(model, &mut search, &links, &mut pending);
    }
    search.seen_extra_bytes = links.capacity() * size_of::<Link>();
    search.finish()
}

/// Records the errors found while expanding the level just finished, in discovery order.
fn record_pending<M: Model>(
    model: &M,
    search: &mut Search<'_, M, IndexedStates<M::State>>,
    links: &[Link],
    pending: &mut Vec<PendingError>,
) {
    for error in pending.drain(..) {
        if search.stopped_at_finding() {
            break;
        }
        let mut path = Vec::new();
        if search.keeps_next_trace() {
            path_to(model, &search.seen, links, error.from, &mut path);
            path.push(error.transition);
        }
        search.record(error.kind, |out| out.extend(path));
    }
}

/// Writes the transition ids from the initial state to the state at `index`: the parents
/// from the links, and each step's transition as the first successor of the parent that
/// leads to the child (an id that cannot be replayed if a nondeterministic model gives no
/// such successor: the rebuild then fails with a note).
fn path_to<M: Model>(
    model: &M,
    states: &IndexedStates<M::State>,
    links: &[Link],
    index: StateIndex,
    path: &mut Vec<TransitionId>,
) {
    let start = path.len();
    let mut successors = Vec::new();
    let mut child = index;
    while child != 0 {
        let parent = links[child as usize];
        let target = states.get(child);
        successors.clear();
        model.successors(&states.get(parent), &mut successors);
        let via = successors
            .iter()
            .find(|s| matches!(&s.outcome, Outcome::Next(next) if *next == target))
            .map_or(TransitionId::MAX, |s| s.transition);
        path.push(via);
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
