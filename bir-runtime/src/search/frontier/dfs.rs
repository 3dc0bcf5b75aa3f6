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
//! The recursion is an explicit stack holding only the states of the current path: a
//! deep search (a dining-philosophers DFS goes over a million states deep) costs one
//! packed state per level and nothing more. Only the top frames keep their successors
//! ([`Frames`], in one arena reused by the whole search), so that returning to a parent
//! seldom computes them again. Returning to a parent below those frames computes its
//! successors again (models are deterministic), and the parent resumes after the first
//! successor equal to the child: that is the one that was taken, since any earlier one
//! leading to the child would have entered it first, and any later one found it already
//! seen. The transitions of the path are rebuilt the same way, only when a counterexample
//! is kept. Nothing is allocated per state.

use crate::model::{Model, Outcome, Successor, TransitionId};
use crate::report::Report;
use crate::trace::path::taken;
use std::collections::HashSet;

use crate::store::{
    CompactStates, FixedHasher, FlatStates, Footprint, Keying, StateTable, Store, WordTable,
};

use crate::plan::Storage;
use crate::search::core::{Role, Run, Stepper, Visit};
use crate::search::frames::{Frames, KEPT_FRAMES};
use crate::search::reduce::ample::{Proviso, Reduction};
use crate::search::stack::Stack;

/// The depth-first frontier: the current path and the successors of its top frames.
struct Dfs<'a, M: Model> {
    model: &'a M,
    stepper: Stepper<'a, M>,
    /// The current path: the initial state at the bottom, the state being expanded on top.
    stack: Stack<M::State>,
    /// The successors of the top frames (their ample sets, when reduced).
    frames: Frames<M::State>,
    /// With partial-order reduction, the states of the stack, for the cycle proviso.
    on_stack: Option<HashSet<M::State, FixedHasher>>,
}

/// Runs a depth-first search with the seen set the plan asks for.
pub(crate) fn run<M: Model>(run: Run<'_, M>) -> Report {
    match (run.plan.storage, run.keying) {
        (Storage::Bitstate { log2_bits, hashes }, _) => {
            let bits = run.control.allocate_bitstate(log2_bits, hashes);
            search(run, bits)
        }
        (Storage::Compact, keying) => {
            let model = run.model;
            search(run, CompactStates::new(model, keying == Keying::Word))
        }
        (_, Keying::Word) => search(run, WordTable::new(0, false)),
        (_, Keying::Fingerprint) => search(run, WordTable::new(0, true)),
        // States held in their value sit in flat slots that the search fetches ahead;
        // states with words on the heap are never copied into empty slots.
        (_, Keying::State) if run.held_apart == 0 => search(run, FlatStates::new()),
        (_, Keying::State) => {
            let table = StateTable::new().holding_apart(run.held_apart);
            search(run, table)
        }
    }
}

/// The search over a seen set.
fn search<M: Model, T: Store<M::State> + Footprint>(run: Run<'_, M>, mut seen: T) -> Report {
    let mut dfs = Dfs {
        model: run.model,
        stepper: run.stepper(Role::Alone),
        stack: Stack::new(run.plan.storage == Storage::Compact),
        frames: Frames::new(KEPT_FRAMES, run.held_apart),
        on_stack: run.plan.por.then(|| HashSet::with_hasher(FixedHasher)),
    };
    if let Some(initial) = dfs.stepper.start(&mut seen) {
        dfs.enter(initial, None, &mut seen);
    }
    while !dfs.stepper.is_stopped() && !dfs.stack.is_empty() {
        let Some((step, successor)) = dfs.frames.take_numbered() else {
            dfs.backtrack(&mut seen);
            continue;
        };
        let depth = (dfs.stack.len() - 1) as u32;
        let via = successor.transition;
        match dfs.stepper.visit(depth, successor, &mut seen) {
            Visit::New => {
                if let Outcome::Next(state) = &successor.outcome {
                    let state = state.clone();
                    dfs.enter(state, Some((via, step)), &mut seen);
                }
            }
            Visit::Fault(kind) | Visit::Violating(kind) => {
                let (model, stack) = (dfs.model, &dfs.stack);
                dfs.stepper.record(kind, &mut |path| {
                    stack.transitions(model, path);
                    path.push(via);
                });
            }
            Visit::Seen(_) | Visit::Stopped => {}
        }
    }
    dfs.stepper.finish(run.plan, &seen, 0)
}

impl<M: Model> Dfs<'_, M> {
    /// Explores a new state reached from the top state by `via`, a transition and the
    /// number of the successor it is (the initial state when `via` is `None`): pushes it
    /// with its successors, or records its deadlock.
    fn enter(
        &mut self,
        state: M::State,
        via: Option<(TransitionId, usize)>,
        seen: &mut impl Store<M::State>,
    ) {
        let depth = self.stack.len() as u32;
        let start = self.frames.arena().len();
        let (model, stack) = (self.model, &self.stack);
        let explore = self
            .stepper
            .expand(&state, depth, self.frames.arena(), &mut |path| {
                stack.transitions(model, path);
                path.extend(via.map(|(transition, _)| transition));
            });
        if !explore {
            return;
        }
        // Fetching their slots starts now, while the state is pushed.
        self.stepper.prefetch(&self.frames.arena()[start..], seen);
        if !self.stack.reserve(&mut self.stepper) {
            self.frames.arena().truncate(start);
            return;
        }
        let skipped = reduce(
            &self.stepper,
            self.on_stack.as_ref(),
            &state,
            self.frames.arena(),
            start,
        );
        if let Some(on_stack) = &mut self.on_stack {
            on_stack.insert(state.clone());
        }
        self.stack.push(state, via.map(|(_, step)| step));
        self.frames.push_after(start, skipped);
    }

    /// Pops the finished top state and resumes its parent after the successor that led to
    /// it, computing the parent's successors again if its frame dropped them.
    fn backtrack(&mut self, seen: &mut impl Store<M::State>) {
        let Some(child) = self.stack.pop(self.model) else {
            return;
        };
        if let Some(on_stack) = &mut self.on_stack {
            on_stack.remove(&child);
        }
        let dropped = self.frames.pop();
        // The path's recomputation may have computed the parent's successors already.
        let kept = dropped && self.stack.take_successors(self.frames.arena());
        let Some(parent) = self.stack.last() else {
            return;
        };
        if dropped {
            self.stepper.tick();
            let successors = self.frames.arena();
            if !kept {
                self.model.successors(parent, successors);
            }
            // The same reduction as when the parent was entered: its stack was the same.
            let skipped = reduce(&self.stepper, self.on_stack.as_ref(), parent, successors, 0);
            // A nondeterministic model may not give the child again: the parent is then done.
            let next = taken(successors, &child).map_or(successors.len(), |i| i + 1);
            self.frames.refill_after(next, skipped);
        }
        // The subtree searched since may have pushed the siblings' slots out of the cache.
        self.stepper.prefetch(self.frames.untaken(), seen);
    }
}

/// Partial-order reduction of the successors of `state` ([`Stepper::reduce_to_ample`], the
/// stack's states at hand when the search is reduced), under the weak proviso that safety
/// allows. Returns how many successors were dropped before the ample set.
#[inline]
fn reduce<M: Model>(
    stepper: &Stepper<'_, M>,
    on_stack: Option<&HashSet<M::State, FixedHasher>>,
    state: &M::State,
    successors: &mut Vec<Successor<M::State>>,
    start: usize,
) -> usize {
    let Some(on_stack) = on_stack else {
        return 0;
    };
    match stepper.reduce_to_ample(state, successors, start, Proviso::SomeLeaves, |s| {
        on_stack.contains(s)
    }) {
        Reduction::Ample { skipped } => skipped,
        Reduction::Full | Reduction::Proviso => 0,
    }
}

#[cfg(test)]
mod tests {
    use crate::test_models::{Graph, Philosophers, ReadersWriters, SumToN};
    use crate::{Checker, FindingKind, IncompleteReason, Storage, Verdict};

    /// A chain 0 -> 1 -> ... -> 199 whose first 50 nodes also step, second, to a leaf of
    /// their own (node i to 200 + i); the chain's end and the leaves are valid end states.
    fn chain_with_late_leaves() -> Graph {
        let mut edges = Vec::new();
        for node in 0..199u8 {
            edges.push((node, Some(node + 1)));
            if node < 50 {
                edges.push((node, Some(200 + node)));
            }
        }
        let ends: Vec<u8> = std::iter::once(199).chain(200..250).collect();
        Graph::new(250, &edges).end(&ends)
    }

    #[test]
    fn parents_below_the_kept_frames_resume_after_the_child_they_took() {
        // The search dives 199 levels, past the frames that keep their successors; going
        // back, every parent under them computes its successors again and must still enter
        // its leaf, as its second successor (which a compact path records by number).
        for storage in [Storage::Exact, Storage::Compact] {
            let report = Checker::new(chain_with_late_leaves())
                .storage(storage)
                .run();
            report.assert_verified();
            assert_eq!((report.states(), report.transitions()), (250, 199 + 50));
        }
        // The first leaf met on the way back is node 49's: 49 steps down the chain, one
        // aside (the depth-first trace, kept as found: node 0's leaf is nearer).
        let traces = [Storage::Exact, Storage::Compact].map(|storage| {
            let report = Checker::new(chain_with_late_leaves().bad(&[249, 200]))
                .storage(storage)
                .shortest(false)
                .run();
            let violation = report.assert_invariant_violation();
            assert_eq!(violation.len(), 50);
            violation.replay().to_owned()
        });
        assert_eq!(traces[0], traces[1]);
    }

    #[test]
    fn hash_compaction_counts_as_exact_storage_but_never_verifies() {
        let exact = Checker::new(Philosophers::new(6, true)).run();
        let compacted = Checker::new(Philosophers::new(6, true))
            .hash_compaction()
            .run();
        assert_eq!(
            (compacted.states(), compacted.transitions()),
            (exact.states(), exact.transitions())
        );
        assert_eq!(
            compacted.incomplete_reason(),
            Some(IncompleteReason::HashCompaction)
        );
        let p = compacted.stats().omission_probability.unwrap_or(1.0);
        assert!(p > 0.0 && p < 1e-12, "{p}");
        let text = compacted.to_string();
        assert!(text.contains(
            "no error and no deadlock found in 862 states (depth-first search, hash compaction; \
             probability that a state was missed"
        ));
        assert!(
            text.contains("not verified") && !text.contains("verified:"),
            "{text}"
        );
        // Findings are still findings.
        let deadlock = Checker::new(Philosophers::new(6, false))
            .hash_compaction()
            .run();
        assert_eq!(deadlock.verdict(), Verdict::Found(FindingKind::Deadlock));
    }

    #[test]
    fn bitstate_hashing_misses_states_when_the_array_is_small() {
        let exact = Checker::new(Philosophers::new(6, true)).run();
        let roomy = Checker::new(Philosophers::new(6, true))
            .bitstate(22, 3)
            .run();
        assert_eq!(roomy.states(), exact.states());
        assert_eq!(roomy.incomplete_reason(), Some(IncompleteReason::Bitstate));
        assert!(roomy.stats().omission_probability.unwrap_or(1.0) < 1e-6);
        let cramped = Checker::new(Philosophers::new(6, true))
            .bitstate(10, 2)
            .run();
        assert!(cramped.states() < exact.states());
        assert!(!cramped.is_verified());
        assert!(cramped.stats().omission_probability.unwrap_or(0.0) > 0.5);
        assert_eq!(cramped.stats().seen_bytes, 128);
    }

    #[test]
    fn two_dining_philosophers_deadlock_is_found_and_counted() {
        let report = Checker::new(Philosophers::two()).shortest(false).run();
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
        let report = Checker::new(Graph::diamond_with_fault())
            .shortest(false)
            .run();
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
