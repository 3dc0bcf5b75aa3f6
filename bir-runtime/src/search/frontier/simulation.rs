//! Seeded random walks: sample paths from the initial state. A simulation finds errors in
//! models too large to search, but proves nothing: without a finding its verdict is
//! [`IncompleteReason::Simulation`](crate::IncompleteReason::Simulation).
//!
//! Each walk picks, at every step, one enabled transition uniformly at random. It ends at a
//! finding (fault, invariant violation, deadlock if detection is on), at a state with no
//! enabled transition that is not a finding (a valid end state), or after `max_steps`. The
//! seen set only serves to count distinct states and to check invariants once per state.

use crate::model::{Model, Outcome, Successor, TransitionId};
use crate::report::Report;
use crate::store::{Keying, StateTable};
use crate::trace;

use crate::search::core::{Role, Run, Stepper, Visit};

/// The splitmix64 generator: tiny, fast, and good enough to pick transitions. Its output is
/// fixed by the seed on every platform, so a simulation is reproducible.
#[derive(Clone, Debug)]
pub(crate) struct SplitMix64(u64);

impl SplitMix64 {
    pub(crate) fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A uniform value in `0..bound` (`bound > 0`), by Lemire's multiply-and-reject method.
    pub(crate) fn below(&mut self, bound: usize) -> usize {
        let bound = bound as u64;
        let threshold = bound.wrapping_neg() % bound;
        loop {
            let product = u128::from(self.next_u64()) * u128::from(bound);
            if (product as u64) >= threshold {
                return (product >> 64) as usize;
            }
        }
    }
}

/// What a simulation is asked for: how many walks, how long, from which seed.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Walks {
    pub(crate) walks: u64,
    pub(crate) max_steps: u32,
    pub(crate) seed: u64,
}

/// Runs the random walks.
pub(crate) fn run<M: Model>(run: Run<'_, M>, walks: Walks) -> Report {
    let model = run.model;
    let mut stepper = Stepper::new(model, run.options, run.control, Keying::State, Role::Alone);
    let mut seen: StateTable<M::State> = StateTable::new().holding_apart(run.held_apart);
    let initial = stepper.start(&mut seen);
    let mut rng = SplitMix64::new(walks.seed);
    let mut arena: Vec<Successor<M::State>> = Vec::new();
    let mut walk: Vec<TransitionId> = Vec::new();
    for _ in 0..walks.walks {
        let Some(initial) = &initial else {
            break;
        };
        if stepper.is_stopped() {
            break;
        }
        walk.clear();
        let mut state = initial.clone();
        while (walk.len() as u64) < u64::from(walks.max_steps) && !stepper.is_stopped() {
            let depth = walk.len() as u32;
            arena.clear();
            if !stepper.expand(&state, depth, &mut arena, &mut |path| path.extend(&walk)) {
                break;
            }
            let successor = arena.swap_remove(rng.below(arena.len()));
            let transition = successor.transition;
            let visit = stepper.visit(depth, &successor, &mut seen);
            let kind = match (visit, successor.outcome) {
                (Visit::New, Outcome::Next(next)) => {
                    state = next;
                    None
                }
                // A seen state was checked when it was new, but walks may pass through a
                // violating one again, and each walk must stop there.
                (Visit::Seen(_), Outcome::Next(next)) => {
                    let failure = model.check_invariants(&next).err();
                    state = next;
                    failure.map(|failure| trace::invariant_failure_kind(stepper.info(), failure))
                }
                (Visit::Fault(kind) | Visit::Violating(kind), _) => Some(kind),
                (Visit::Stopped, _) => break,
                _ => None,
            };
            walk.push(transition);
            if let Some(kind) = kind {
                stepper.record(kind, &mut |path| path.extend(&walk));
                break;
            }
        }
        stepper.count_walk(walk.len() as u32);
    }
    stepper.finish(run.plan, &seen, 0)
}

#[cfg(test)]
mod tests {
    use super::SplitMix64;
    use crate::test_models::{Graph, Philosophers, SumToN};
    use crate::{Checker, FindingKind, IncompleteReason, Verdict};

    #[test]
    fn the_generator_is_uniform_enough_and_fixed_by_its_seed() {
        let mut a = SplitMix64::new(7);
        let mut b = SplitMix64::new(7);
        let mut counts = [0u32; 3];
        for _ in 0..30_000 {
            let x = a.below(3);
            assert_eq!(x, b.below(3));
            counts[x] += 1;
        }
        assert!(
            counts.iter().all(|&c| (9_000..11_000).contains(&c)),
            "{counts:?}"
        );
        assert_ne!(SplitMix64::new(1).next_u64(), SplitMix64::new(2).next_u64());
    }

    #[test]
    fn finds_a_reachable_error_and_is_reproducible() {
        let checker = Checker::new(SumToN).deadlock_detection(false);
        let report = checker.simulate(1_000, 100, 42);
        let found = report.assert_assertion_failure();
        let again = checker.simulate(1_000, 100, 42);
        assert_eq!(again.first_finding(), Some(found));
        assert_eq!(again.stats().transitions, report.stats().transitions);
        assert_eq!(checker.replay(found.replay()).as_ref(), Ok(found));
    }

    #[test]
    fn finds_the_deadlock_of_the_philosophers() {
        let report = Checker::new(Philosophers::new(3, false)).simulate(100, 1_000, 1);
        report.assert_deadlock();
        assert_eq!(report.stats().walks, 1);
    }

    #[test]
    fn never_verifies() {
        let report = Checker::new(Philosophers::new(3, true)).simulate(20, 50, 3);
        assert_eq!(
            report.verdict(),
            Verdict::Incomplete {
                reason: IncompleteReason::Simulation
            }
        );
        assert_eq!(report.stats().walks, 20);
        assert_eq!(report.transitions(), 20 * 50);
        assert!(report.states() <= 24);
        let text = report.to_string();
        assert!(
            text.contains("found in 20 random walks (1,000 steps"),
            "{text}"
        );
        assert!(text.contains("not verified"), "{text}");
        // Walks ending in a valid end state are not findings.
        let ends = Graph::new(3, &[(0, Some(1)), (0, Some(2))]).end(&[1, 2]);
        let report = Checker::new(ends).simulate(10, 10, 0);
        assert_eq!(report.transitions(), 10);
        assert!(!report.is_verified());
    }

    #[test]
    fn keep_going_counts_the_walks_that_end_in_a_finding() {
        let graph = Graph::new(3, &[(0, Some(1)), (0, Some(2)), (1, None)]);
        let report = Checker::new(graph).keep_going(2).simulate(100, 10, 5);
        assert_eq!(report.errors() + report.deadlocks(), 100);
        assert!(report.errors() > 20 && report.deadlocks() > 20);
        assert_eq!(report.findings().len(), 2);
        assert_eq!(
            report.verdict(),
            Verdict::Found(report.findings()[0].kind())
        );
        assert!(report.finding(FindingKind::Assertion).is_some() || report.deadlock().is_some());
    }
}
