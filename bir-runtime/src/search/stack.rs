//! [`Stack`]: the depth-first search's current path, its states from the initial one to the
//! top. A deep search (the philosophers' paths are millions of states long) would spend
//! more on its path than on its seen set, so with compact storage the path keeps, per
//! level, the number of the successor taken (one byte, in the order of
//! [`Model::successors`]), a whole state every [`EVERY`] levels, and the states of the top
//! one or two stretches of [`EVERY`] levels. Popping below those states recomputes the
//! stretch under them from its checkpoint (models are deterministic), and keeps the
//! successors it computed on the way: the search, resuming each of those states in turn,
//! takes them ([`Stack::take_successors`]) rather than computing them a second time.

use crate::model::{Model, Outcome, Successor, TransitionId};

use crate::search::core::Stepper;
use crate::trace::path::steps_along;

/// Levels between two whole states kept by a compact path.
const EVERY: usize = 64;

/// A step number too large for a byte: the number is among the wide steps.
const WIDE: u8 = u8::MAX;

/// The current path of a depth-first search: see the [module](self).
pub(crate) struct Stack<S> {
    compact: bool,
    /// The states of levels `base..` (all of them when the path is not compact).
    window: Vec<S>,
    base: usize,
    /// The states of levels `0, EVERY, 2 EVERY...` (compact only).
    checkpoints: Vec<S>,
    /// For each level but the first, the number of the successor of the level below that
    /// leads to it (compact only); [`WIDE`] when it is in `wide`.
    steps: Vec<u8>,
    /// The steps of [`WIDE`], as (level, number), by level.
    wide: Vec<(usize, usize)>,
    len: usize,
    /// The successors of levels under the top that the last recomputation computed, as
    /// (level, successors), the highest level last (compact only).
    kept: Vec<(usize, Vec<Successor<S>>)>,
    /// Emptied buffers of `kept`, for the next recomputation.
    spare: Vec<Vec<Successor<S>>>,
}

impl<S: Clone + PartialEq> Stack<S> {
    /// An empty path; `compact` keeps step numbers rather than states.
    pub(crate) fn new(compact: bool) -> Self {
        Stack {
            compact,
            window: Vec::new(),
            base: 0,
            checkpoints: Vec::new(),
            steps: Vec::new(),
            wide: Vec::new(),
            len: 0,
            kept: Vec::new(),
            spare: Vec::new(),
        }
    }

    /// The number of states on the path.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// True when the path is empty.
    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The top state.
    pub(crate) fn last(&self) -> Option<&S> {
        self.window.last()
    }

    /// Makes room for one more state within the memory budget; false (and the search
    /// stops) when the budget refuses.
    #[inline]
    pub(crate) fn reserve<M: Model<State = S>>(&mut self, stepper: &mut Stepper<'_, M>) -> bool {
        if !self.compact {
            return stepper.reserve(&mut self.window, 1);
        }
        stepper.reserve(&mut self.steps, 1)
            && (!self.len.is_multiple_of(EVERY) || stepper.reserve(&mut self.checkpoints, 1))
    }

    /// Pushes `state`, reached from the top by its successor number `step` (none for the
    /// first state).
    #[inline]
    pub(crate) fn push(&mut self, state: S, step: Option<usize>) {
        if !self.compact {
            self.window.push(state);
            self.len += 1;
            return;
        }
        self.push_compact(state, step);
    }

    /// [`Self::push`] on a compact path.
    fn push_compact(&mut self, state: S, step: Option<usize>) {
        if let Some(step) = step {
            match u8::try_from(step) {
                Ok(byte) if byte != WIDE => self.steps.push(byte),
                _ => {
                    self.steps.push(WIDE);
                    self.wide.push((self.len, step));
                }
            }
        }
        if self.len.is_multiple_of(EVERY) {
            self.checkpoints.push(state.clone());
        }
        if self.window.len() == 2 * EVERY {
            self.window.drain(..EVERY);
            self.base += EVERY;
        }
        self.window.push(state);
        self.len += 1;
    }

    /// Pops the top state; the state under it is then the top (recomputed if need be).
    #[inline]
    pub(crate) fn pop<M: Model<State = S>>(&mut self, model: &M) -> Option<S> {
        let top = self.window.pop()?;
        self.len -= 1;
        if self.compact {
            self.pop_compact(model);
        }
        Some(top)
    }

    /// What [`Self::pop`] does besides on a compact path.
    fn pop_compact<M: Model<State = S>>(&mut self, model: &M) {
        let level = self.len;
        if level.is_multiple_of(EVERY) {
            self.checkpoints.pop();
        }
        if level > 0 && self.steps.pop() == Some(WIDE) {
            self.wide.pop();
        }
        if self.kept.last().is_some_and(|&(kept, _)| kept >= level) {
            self.drop_kept();
        }
        if self.window.is_empty() && self.len > 0 {
            self.recompute(model);
        }
    }

    /// Moves the successors of the top state into `out` (empty) and says true, when the
    /// recomputation that gave the top state computed them; false otherwise.
    pub(crate) fn take_successors(&mut self, out: &mut Vec<Successor<S>>) -> bool {
        match self.kept.last_mut() {
            Some((level, successors)) if *level + 1 == self.len && out.is_empty() => {
                // Moved rather than swapped: `out` is a search's arena, whose capacity stays.
                out.append(successors);
                self.drop_kept();
                true
            }
            _ => false,
        }
    }

    /// Drops the highest level's kept successors, keeping their buffer.
    fn drop_kept(&mut self) {
        if let Some((_, mut successors)) = self.kept.pop() {
            successors.clear();
            self.spare.push(successors);
        }
    }

    /// The successor number that leads to `level` from the level below.
    fn step(&self, level: usize) -> usize {
        match self.steps[level - 1] {
            WIDE => {
                let at = self.wide.partition_point(|&(l, _)| l < level);
                self.wide[at].1
            }
            byte => usize::from(byte),
        }
    }

    /// Fills the window with the stretch of levels under the top from its checkpoint.
    #[cold]
    fn recompute<M: Model<State = S>>(&mut self, model: &M) {
        let top = self.len - 1;
        self.base = top / EVERY * EVERY;
        let mut state = self.checkpoints[top / EVERY].clone();
        while !self.kept.is_empty() {
            self.drop_kept();
        }
        for level in self.base + 1..=top {
            let mut successors = self.spare.pop().unwrap_or_default();
            let next = self.follow(model, &state, level, &mut successors).1;
            self.kept.push((level - 1, successors));
            self.window.push(std::mem::replace(&mut state, next));
        }
        self.window.push(state);
    }

    /// The transition and the state that step `level` takes from `state`.
    fn follow<M: Model<State = S>>(
        &self,
        model: &M,
        state: &S,
        level: usize,
        successors: &mut Vec<Successor<S>>,
    ) -> (TransitionId, S) {
        successors.clear();
        model.successors(state, successors);
        match successors.get(self.step(level)) {
            Some(Successor {
                transition,
                outcome: Outcome::Next(next),
            }) => (*transition, next.clone()),
            // Only a nondeterministic model gets here.
            _ => panic!("the model's successors changed: a step of the path is gone"),
        }
    }

    /// Every state of the path, from the first to the top (a compact path replays its
    /// steps from the first state): for a counterexample.
    pub(crate) fn states<M: Model<State = S>>(&self, model: &M) -> Vec<S> {
        if !self.compact {
            return self.window.clone();
        }
        let Some(mut state) = self.checkpoints.first().cloned() else {
            return Vec::new();
        };
        let mut states = Vec::with_capacity(self.len);
        let mut successors = Vec::new();
        for level in 1..self.len {
            let next = self.follow(model, &state, level, &mut successors).1;
            states.push(std::mem::replace(&mut state, next));
        }
        states.push(state);
        states
    }

    /// Writes the transitions of the path from the first state to the top.
    pub(crate) fn transitions<M: Model<State = S>>(&self, model: &M, out: &mut Vec<TransitionId>) {
        let mut successors = Vec::new();
        if self.compact {
            let Some(mut state) = self.checkpoints.first().cloned() else {
                return;
            };
            for level in 1..self.len {
                let (via, next) = self.follow(model, &state, level, &mut successors);
                out.push(via);
                state = next;
            }
            return;
        }
        steps_along(model, &self.window, out);
    }

    /// The memory the path holds.
    #[cfg(test)]
    pub(crate) fn bytes(&self) -> usize {
        let state = std::mem::size_of::<S>();
        (self.window.capacity() + self.checkpoints.capacity()) * state
            + self.steps.capacity()
            + self.wide.capacity() * std::mem::size_of::<(usize, usize)>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_models::Graph;

    /// A chain 0 -> 1 -> ... -> n - 1 in which state i also has i % 3 self-loops first, so
    /// that the step numbers vary.
    fn wide_chain(n: u8) -> Graph {
        let mut edges = Vec::new();
        for i in 0..n - 1 {
            for _ in 0..i % 3 {
                edges.push((i, Some(i)));
            }
            edges.push((i, Some(i + 1)));
        }
        Graph::new(n, &edges)
    }

    #[test]
    fn a_compact_path_gives_back_every_state_and_transition() {
        let n = 250;
        let model = wide_chain(n);
        let mut full = Stack::new(false);
        let mut compact = Stack::new(true);
        let mut state = model.initial_state();
        let mut successors = Vec::new();
        full.push(state, None);
        compact.push(state, None);
        for _ in 1..n {
            successors.clear();
            model.successors(&state, &mut successors);
            let step = successors.len() - 1;
            let Outcome::Next(next) = successors[step].outcome else {
                panic!("no fault in this graph");
            };
            state = next;
            full.push(state, None);
            compact.push(state, Some(step));
        }
        // States of a byte: the path is no smaller, but holds at most two stretches.
        assert!(compact.window.len() <= 2 * EVERY && compact.checkpoints.len() == 4);
        assert!(compact.bytes() < 2 * full.bytes());
        let (mut a, mut b) = (Vec::new(), Vec::new());
        full.transitions(&model, &mut a);
        compact.transitions(&model, &mut b);
        assert_eq!(a, b);
        assert_eq!(full.states(&model), compact.states(&model));
        assert_eq!(compact.states(&model).len(), n as usize);
        assert_eq!(a.len(), n as usize - 1);
        // Popping below the window recomputes a stretch, whose successors the path keeps
        // for the states under the top: every one it gives is the model's.
        let (mut kept, mut expected) = (Vec::new(), Vec::new());
        let mut taken = 0;
        while !full.is_empty() {
            assert_eq!(full.last(), compact.last());
            assert_eq!(full.pop(&model), compact.pop(&model));
            assert_eq!(full.len(), compact.len());
            kept.clear();
            if let (true, Some(top)) = (compact.take_successors(&mut kept), compact.last()) {
                expected.clear();
                model.successors(top, &mut expected);
                assert_eq!(kept, expected);
                taken += 1;
            }
        }
        assert!(compact.is_empty() && compact.last().is_none());
        // The window held levels 128 to 249; popping below it recomputed levels 64 to 127,
        // then 0 to 63, each stretch keeping the successors of all but its top.
        assert_eq!(taken, 2 * (EVERY - 1));
    }

    #[test]
    fn steps_wider_than_a_byte_are_kept() {
        let mut path: Stack<u32> = Stack::new(true);
        path.push(0, None);
        for level in 1..600 {
            path.push(level, Some(level as usize * 7));
        }
        for level in (1..600).rev() {
            assert_eq!(path.step(level), level * 7);
            path.steps.pop();
            if level * 7 >= 255 {
                assert_eq!(path.wide.pop(), Some((level, level * 7)));
            }
        }
    }
}
