//! Partial-order reduction: the ample set of a state (the enabled transitions of the first
//! instance standing at a location the model marks safe), the cycle provisos of a
//! depth-first stack, and the order in which a breadth-first or parallel frontier visits a
//! reduced state's successors.

use std::ops::Range;

use crate::model::{Outcome, Successor, TransitionInfo};

/// What [`AmpleSets::reduce`] did to a state's successors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reduction {
    /// There is no ample set smaller than all of them: all are kept.
    Full,
    /// All are kept: the ample set stays on the stack (the cycle proviso).
    Proviso,
    /// Only the ample set is kept; `skipped` successors came before it.
    Ample { skipped: usize },
}

/// When a depth-first search gives up a state's ample set and expands it fully, so that
/// no instance is postponed forever round a cycle of ample steps (the ignoring problem).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Proviso {
    /// When no ample successor leaves the stack. The state entered last in a terminal
    /// strongly connected part of the reduced graph has all its successors on the stack,
    /// so every such part holds a fully expanded state and from every state one is
    /// reachable: enough for deadlocks, assertions and invariants (Valmari's condition),
    /// and it keeps more ample sets than the strong rule.
    SomeLeaves,
    /// When any ample successor is on the stack or the state itself: every cycle of the
    /// reduced graph then holds a fully expanded state (Peled's C3, SPIN's rule), which
    /// a property of infinite runs needs. A cycle that the weak rule leaves reduced may
    /// hide a run on which another instance moves first and then never again.
    NoneOnStack,
}

/// The ample sets of a search: per transition, whether its location is safe for
/// partial-order reduction ([`Model::ample_safe`](crate::Model::ample_safe)); empty when
/// the search is not reduced.
#[derive(Clone, Copy)]
pub(crate) struct AmpleSets<'a> {
    safe: &'a [bool],
}

impl<'a> AmpleSets<'a> {
    /// No reduction.
    pub(crate) fn none() -> Self {
        AmpleSets { safe: &[] }
    }

    /// The reduction by these safe transitions.
    pub(crate) fn new(safe: &'a [bool]) -> Self {
        AmpleSets { safe }
    }

    /// The ample set among `successors` (one state's, in successor order), when the search
    /// is reduced and there is one smaller than all of them: the range of the first
    /// instance whose enabled transitions start at a safe location. The frontier applies
    /// its proviso before taking it.
    pub(crate) fn ample<S>(
        &self,
        transitions: &[TransitionInfo],
        successors: &[Successor<S>],
    ) -> Option<Range<usize>> {
        if self.safe.is_empty() {
            return None;
        }
        let instance =
            |s: &Successor<S>| transitions.get(s.transition as usize).map(|t| t.instance);
        let mut start = 0;
        while start < successors.len() {
            let first = &successors[start];
            let this = instance(first);
            let end = start
                + successors[start..]
                    .iter()
                    .take_while(|s| instance(s) == this)
                    .count();
            if self.safe.get(first.transition as usize) == Some(&true) {
                return (end - start < successors.len()).then_some(start..end);
            }
            start = end;
        }
        None
    }

    /// Partial-order reduction of the successors of `state`, about to be (or being) the top
    /// of a depth-first stack (those of `successors` from `start` on): its ample set, unless
    /// `proviso` says that its successors on the stack (`state` itself, or one that
    /// `on_stack` holds) close a cycle that must be broken.
    pub(crate) fn reduce<S: PartialEq>(
        &self,
        transitions: &[TransitionInfo],
        state: &S,
        successors: &mut Vec<Successor<S>>,
        start: usize,
        proviso: Proviso,
        on_stack: impl Fn(&S) -> bool,
    ) -> Reduction {
        let Some(ample) = self.ample(transitions, &successors[start..]) else {
            return Reduction::Full;
        };
        let leaves = |s: &Successor<S>| match &s.outcome {
            Outcome::Next(next) => next != state && !on_stack(next),
            Outcome::Fault(_) => true,
        };
        let ample_successors = &successors[start + ample.start..start + ample.end];
        let kept = match proviso {
            Proviso::SomeLeaves => ample_successors.iter().any(leaves),
            Proviso::NoneOnStack => ample_successors.iter().all(leaves),
        };
        if !kept {
            return Reduction::Proviso;
        }
        successors.truncate(start + ample.end);
        successors.drain(start..start + ample.start);
        Reduction::Ample {
            skipped: ample.start,
        }
    }
}

/// The order in which a breadth-first or parallel frontier visits the successors of a state
/// under partial-order reduction: the ample set first, then the others only if the ample
/// set stored no new state (the proviso for these searches: a cycle of ample steps through
/// seen states could otherwise postpone the other instances forever). Without an ample
/// set, every successor in order.
pub(crate) struct VisitOrder {
    ample: Option<Range<usize>>,
    len: usize,
    next: usize,
    /// Still inside the ample set.
    first: bool,
    found_new: bool,
}

impl VisitOrder {
    /// The order for `len` successors with this ample set.
    pub(crate) fn new(ample: Option<Range<usize>>, len: usize) -> VisitOrder {
        let next = ample.as_ref().map_or(0, |a| a.start);
        VisitOrder {
            ample,
            len,
            next,
            first: true,
            found_new: false,
        }
    }

    /// The visit of the last index given stored a new state.
    pub(crate) fn stored_new(&mut self) {
        self.found_new = true;
    }

    /// The next successor to visit, if any.
    pub(crate) fn next_index(&mut self) -> Option<usize> {
        let Some(ample) = &self.ample else {
            let index = self.next;
            self.next += 1;
            return (index < self.len).then_some(index);
        };
        if self.first {
            if self.next < ample.end {
                self.next += 1;
                return Some(self.next - 1);
            }
            if self.found_new {
                return None;
            }
            self.first = false;
            self.next = 0;
        }
        if self.next == ample.start {
            self.next = ample.end;
        }
        let index = self.next;
        self.next += 1;
        (index < self.len).then_some(index)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Instance 0's transitions 0 and 1 (safe), instance 1's transition 2.
    fn two_instances() -> Vec<TransitionInfo> {
        (0..3)
            .map(|id| TransitionInfo {
                thread: "T".into(),
                instance: (id == 2).into(),
                from: "l0".into(),
                to: "l0".into(),
                text: "".into(),
                line: 1,
                partner: None,
            })
            .collect()
    }

    #[test]
    fn the_strong_proviso_expands_fully_where_one_ample_successor_stays_on_the_stack() {
        let transitions = two_instances();
        let safe = [true, true, false];
        let sets = AmpleSets::new(&safe);
        // From state 0: instance 0 loops (to 0) or goes to 1; instance 1 goes to 2.
        let successors = || {
            [(0, 0u8), (1, 1), (2, 2)]
                .map(|(transition, next)| Successor {
                    transition,
                    outcome: Outcome::Next(next),
                })
                .to_vec()
        };
        let reduce = |proviso, on_stack: &[u8]| {
            let mut kept = successors();
            let reduction = sets.reduce(&transitions, &0, &mut kept, 0, proviso, |s| {
                on_stack.contains(s)
            });
            (reduction, kept.len())
        };
        let ample = (Reduction::Ample { skipped: 0 }, 2);
        assert_eq!(reduce(Proviso::SomeLeaves, &[]), ample);
        assert_eq!(reduce(Proviso::NoneOnStack, &[]), (Reduction::Proviso, 3));
        // Both ample successors on the stack: both rules expand fully.
        assert_eq!(reduce(Proviso::SomeLeaves, &[1]), (Reduction::Proviso, 3));
        assert_eq!(reduce(Proviso::NoneOnStack, &[1]), (Reduction::Proviso, 3));
    }

    #[test]
    fn the_visit_order_takes_the_ample_set_first_and_the_rest_only_without_a_new_state() {
        let take = |mut order: VisitOrder, new_at: &[usize]| {
            let mut visited = Vec::new();
            while let Some(k) = order.next_index() {
                visited.push(k);
                if new_at.contains(&k) {
                    order.stored_new();
                }
            }
            visited
        };
        assert_eq!(take(VisitOrder::new(None, 3), &[]), [0, 1, 2]);
        assert_eq!(take(VisitOrder::new(Some(1..3), 5), &[2]), [1, 2]);
        assert_eq!(take(VisitOrder::new(Some(1..3), 5), &[]), [1, 2, 0, 3, 4]);
        assert_eq!(take(VisitOrder::new(Some(0..2), 2), &[]), [0, 1]);
    }
}
