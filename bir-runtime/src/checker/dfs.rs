//! Depth-first search with exactly the semantics of the seeds' recursive DFS:
//!
//! ```text
//! DFS(s): for each enabled α of s, in order:
//!             s' := α(s)
//!             if s' ∉ seen: seen := seen ∪ {s'}; check s'; push s'; DFS(s'); pop
//! ```
//!
//! Each new state is explored as soon as it is generated (not "push every successor, then
//! pop one"), so which finding comes first, and its trace, are fixed by the model.
//!
//! The recursion is an explicit stack of frames, each holding a state and how far through
//! its successors the search is. Only the top frame's successors are kept, in one buffer
//! reused by the whole search; when a child is popped, its parent's successors are computed
//! again (models are deterministic) and the parent resumes where it was. Keeping every
//! frame's successors instead would cost `depth × branching` entries, which on deep searches
//! (a dining-philosophers DFS goes a million states deep) is many times the seen set itself;
//! recomputing costs one extra successor generation per state, and nothing is allocated per
//! state either way.

use std::mem::size_of;

use crate::model::{Model, Successor, TransitionId};
use crate::report::{Report, Strategy};

use crate::seen::StateTable;

use super::search::{Expansion, Search, Visit};
use super::Options;

/// One state on the current path. Its depth is its index in the stack.
struct Frame<S> {
    state: S,
    /// The transition that led here from the frame below (unused for the initial state).
    via: TransitionId,
    /// The index, in the state's successor order, of the first successor not yet taken.
    next: u32,
    /// How many successors the state has, so that a finished frame is popped without
    /// computing them again.
    count: u32,
}

/// The depth-first search: the shared core plus the stack.
struct Dfs<'a, M: Model> {
    search: Search<'a, M, StateTable<M::State>>,
    stack: Vec<Frame<M::State>>,
    /// The successors of the top frame when `fresh`; otherwise stale.
    successors: Vec<Successor<M::State>>,
    fresh: bool,
}

/// Runs a depth-first search.
pub(crate) fn run<M: Model>(model: &M, options: &Options) -> Report {
    let mut dfs = Dfs {
        search: Search::new(model, options, Strategy::DepthFirst),
        stack: Vec::new(),
        successors: Vec::new(),
        fresh: false,
    };
    if let Some(initial) = dfs.search.start() {
        dfs.enter(initial, TransitionId::MAX);
    }
    while !dfs.search.is_stopped() {
        let Some(top) = dfs.stack.last_mut() else {
            break;
        };
        if top.next >= top.count {
            dfs.stack.pop();
            dfs.fresh = false;
            continue;
        }
        if !dfs.fresh {
            dfs.successors.clear();
            model.successors(&top.state, &mut dfs.successors);
            dfs.fresh = true;
        }
        // A nondeterministic model could give fewer successors the second time: end the
        // frame rather than panic.
        let Some(successor) = dfs.successors.get(top.next as usize).cloned() else {
            top.count = top.next;
            continue;
        };
        top.next += 1;
        let depth = (dfs.stack.len() - 1) as u32;
        let via = successor.transition;
        match dfs.search.visit(depth, &successor) {
            Visit::New(_, state) => dfs.enter(state, via),
            Visit::Fault(kind) | Visit::Violating(_, kind) => {
                let stack = &dfs.stack;
                dfs.search
                    .record(kind, |path| path_to_top(stack, Some(via), path));
            }
            Visit::Seen(_) | Visit::Stopped => {}
        }
    }
    dfs.search.finish()
}

impl<M: Model> Dfs<'_, M> {
    /// Explores a new state reached by `via` from the top frame (the initial state when the
    /// stack is empty): computes its successors and pushes it, or records its deadlock.
    fn enter(&mut self, state: M::State, via: TransitionId) {
        let depth = self.stack.len() as u32;
        self.successors.clear();
        self.fresh = false;
        match self.search.expand(&state, depth, &mut self.successors) {
            Expansion::Explore => {
                self.stack.push(Frame {
                    state,
                    via,
                    next: 0,
                    count: self.successors.len() as u32,
                });
                self.fresh = true;
                self.search.frontier_bytes = self.stack.capacity() * size_of::<Frame<M::State>>()
                    + self.successors.capacity() * size_of::<Successor<M::State>>();
            }
            Expansion::Deadlock => {
                let arriving = (depth > 0).then_some(via);
                let stack = &self.stack;
                self.search.record(crate::FindingKind::Deadlock, |path| {
                    path_to_top(stack, arriving, path)
                });
            }
            Expansion::Leaf => {}
        }
    }
}

/// Writes the path to the top frame, followed by `last` if given.
fn path_to_top<S>(stack: &[Frame<S>], last: Option<TransitionId>, path: &mut Vec<TransitionId>) {
    path.extend(stack.iter().skip(1).map(|frame| frame.via));
    path.extend(last);
}

#[cfg(test)]
mod tests {
    use crate::test_models::{Graph, Philosophers, ReadersWriters, SumToN};
    use crate::{Checker, FindingKind, IncompleteReason, Verdict};

    #[test]
    fn two_dining_philosophers_deadlock_is_found_and_counted() {
        let report = Checker::new(Philosophers::two()).run();
        assert_eq!(report.verdict(), Verdict::Found(FindingKind::Deadlock));
        // Philosopher1 eats once; then each takes its first fork, depth first.
        let deadlock = report.assert_deadlock();
        assert_eq!(deadlock.replay(), "bir1:0.1.2.4.3.0");
        let all = Checker::new(Philosophers::two()).keep_going(10).run();
        assert_eq!((all.states(), all.transitions()), (10, 14));
        assert_eq!((all.errors(), all.deadlocks()), (0, 1));
        assert!(all.is_complete());
    }

    #[test]
    fn dining_philosophers_counts_match_the_reference_tables() {
        let expected = [(2, 10, 14), (3, 35, 75), (4, 118, 340), (5, 392, 1_415)];
        for (n, states, transitions) in expected {
            let report = Checker::new(Philosophers::new(n, false))
                .keep_going(1)
                .run();
            assert_eq!(
                (report.states(), report.transitions()),
                (states, transitions)
            );
            assert_eq!(report.deadlocks(), 1, "N = {n}");
        }
        let fixed = [(2, 7, 8), (3, 24, 46), (4, 79, 208), (5, 261, 876)];
        for (n, states, transitions) in fixed {
            let report = Checker::new(Philosophers::new(n, true)).run();
            report.assert_verified();
            assert_eq!(
                (report.states(), report.transitions()),
                (states, transitions)
            );
        }
    }

    #[test]
    fn sum_to_n_stops_first_at_the_deadlock_after_25_steps() {
        let report = Checker::new(SumToN).run();
        let deadlock = report.assert_deadlock();
        assert_eq!(report.verdict(), Verdict::Found(FindingKind::Deadlock));
        assert_eq!(deadlock.len(), 25);
        let all = Checker::new(SumToN).keep_going(0).run();
        assert_eq!((all.states(), all.transitions()), (15_276, 38_174));
        assert_eq!((all.errors(), all.deadlocks()), (42, 1));
        assert!(all.findings().is_empty());
    }

    #[test]
    fn explores_each_new_state_as_soon_as_it_is_generated() {
        // 0 -a-> 1, 0 -b-> 2, 1 -c-> 2, 2 -d-> fault. The recursive DFS reaches 2 through 1
        // (a, c, d); a DFS that first pushed every successor of 0 would report b, d.
        let report = Checker::new(Graph::diamond_with_fault()).run();
        let fault = report.assert_assertion_failure();
        assert_eq!(fault.transitions().collect::<Vec<_>>(), [0, 2, 3]);
        assert_eq!(fault.replay(), "bir1:0.2.3");
    }

    #[test]
    fn invariants_are_checked_on_every_new_state_and_the_initial_one() {
        ReadersWriters::new(false).checker().run().assert_verified();
        let report = ReadersWriters::new(false).checker().run();
        assert_eq!((report.states(), report.transitions()), (11, 21));
        let broken = ReadersWriters::new(true).checker().run();
        let violation = broken.assert_invariant_violation();
        assert!(violation.message().contains("invariant RW violated"));
        let bad_start = Checker::new(Graph::new(1, &[(0, Some(0))]).bad(&[0])).run();
        assert_eq!(bad_start.assert_invariant_violation().len(), 0);
        assert_eq!((bad_start.states(), bad_start.transitions()), (1, 0));
    }

    #[test]
    fn violating_states_count_once_and_are_not_expanded() {
        // 0 -> 1 (bad) -> 2; 0 -> 3 -> 1.
        let graph = Graph::new(4, &[(0, Some(1)), (1, Some(2)), (0, Some(3)), (3, Some(1))])
            .bad(&[1])
            .end(&[3]);
        let report = Checker::new(graph).keep_going(5).run();
        assert_eq!((report.states(), report.transitions()), (3, 3));
        assert_eq!((report.errors(), report.deadlocks()), (1, 0));
    }

    #[test]
    fn valid_end_states_are_not_deadlocks() {
        let graph = Graph::new(3, &[(0, Some(1)), (0, Some(2))]).end(&[1, 2]);
        Checker::new(graph.clone()).run().assert_verified();
        let half = Graph::new(3, &[(0, Some(1)), (0, Some(2))]).end(&[1]);
        let report = Checker::new(half).run();
        assert_eq!(report.assert_deadlock().replay(), "bir1:1");
        let off = Checker::new(graph.end(&[])).deadlock_detection(false).run();
        off.assert_verified();
        assert!(off.to_string().contains("deadlock detection off"));
    }

    #[test]
    fn a_depth_limit_that_cuts_something_makes_the_search_incomplete() {
        let chain = Graph::chain_to_fault(10);
        let report = Checker::new(chain.clone()).max_depth(5).run();
        assert_eq!(
            report.verdict(),
            Verdict::Incomplete {
                reason: IncompleteReason::DepthLimit
            }
        );
        assert_eq!(report.states(), 6);
        assert!(report.to_string().contains("not verified"));
        // A limit deep enough to cut nothing leaves the search complete.
        let shallow = Graph::new(3, &[(0, Some(1)), (1, Some(2))]).end(&[2]);
        Checker::new(shallow).max_depth(2).run().assert_verified();
        // The fault is the 11th step, leaving the state at depth 10.
        let at_ten = Checker::new(chain.clone()).max_depth(10).run();
        assert_eq!(
            at_ten.incomplete_reason(),
            Some(IncompleteReason::DepthLimit)
        );
        Checker::new(chain)
            .max_depth(11)
            .run()
            .assert_assertion_failure();
    }
}
