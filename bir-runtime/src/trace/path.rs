//! The steps between the states of a path: which successor of a state leads to the next,
//! for the traces of searches that keep states rather than transitions (breadth-first
//! parent links, the nested search's stacks, the DFS resume rule).

use crate::model::{Model, Outcome, Successor, TransitionId};

/// A transition id no model gives: the step of a path that a nondeterministic model did
/// not give again, so that rebuilding the path fails with a clear note (not
/// [`STUTTER`](crate::model::STUTTER), which a product's path may hold).
pub(crate) const UNREPLAYABLE: TransitionId = TransitionId::MAX - 1;

/// The transition of the first successor of `from` (computed into `successors`) that
/// leads to `to`, or [`UNREPLAYABLE`]: a step of a path of states, for its trace.
pub(crate) fn step_between<M: Model>(
    model: &M,
    from: &M::State,
    to: &M::State,
    successors: &mut Vec<Successor<M::State>>,
) -> TransitionId {
    successors.clear();
    model.successors(from, successors);
    taken(successors, to).map_or(UNREPLAYABLE, |i| successors[i].transition)
}

/// Appends the transitions between consecutive states of `states` to `out`.
pub(crate) fn steps_along<M: Model>(model: &M, states: &[M::State], out: &mut Vec<TransitionId>) {
    let mut successors = Vec::new();
    for pair in states.windows(2) {
        out.push(step_between(model, &pair[0], &pair[1], &mut successors));
    }
}

/// The index of the first successor leading to `child`.
pub(crate) fn taken<S: PartialEq>(successors: &[Successor<S>], child: &S) -> Option<usize> {
    successors
        .iter()
        .position(|s| matches!(&s.outcome, Outcome::Next(next) if next == child))
}
