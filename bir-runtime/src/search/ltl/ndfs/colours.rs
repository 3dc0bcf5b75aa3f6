//! The nested search's sets of states, blue, cyan and red: one coloured word table when
//! the product's states are narrow words ([`Coloured`]), else two seen sets and a set of the
//! stack's states ([`Separate`]).

use std::collections::HashSet;

use crate::model::Model;
use crate::search::core::{Admission, Stepper};
use crate::store::{colours_of_mark, word_of, FixedHasher, Footprint, Store, WordTable, COLOURS};

/// The nested search's sets of states: blue (the blue search's seen set, which the search
/// core fills), cyan (the states of the blue stack) and red (those the red searches
/// visited).
pub(super) trait Colours<S> {
    /// The blue search's seen set.
    type Blue: Store<S> + Footprint;
    /// The blue set.
    fn blue(&mut self) -> &mut Self::Blue;
    /// The blue `state` (keyed by `key`), new, is pushed on the stack: it is cyan.
    fn push_cyan(&mut self, state: &S, key: Option<u64>);
    /// The blue `state`, new, is not pushed (it violates an invariant, or there is nothing
    /// to search from it): it is not cyan.
    fn not_pushed(&mut self, state: &S, key: Option<u64>);
    /// The blue `state` is popped off the stack: it is no longer cyan.
    fn pop_cyan(&mut self, state: &S, key: Option<u64>);
    /// Whether `state` is cyan.
    fn is_cyan(&self, state: &S, key: Option<u64>) -> bool;
    /// Whether `state`, which the blue search met again, is cyan, given the mark the blue
    /// set keeps with it ([`Visit::Seen`]).
    fn is_cyan_marked(&self, mark: Option<u32>, state: &S, key: Option<u64>) -> bool {
        let _ = mark;
        self.is_cyan(state, key)
    }
    /// A red step into `state`: [`RedStep::Cyan`] if it is cyan (a cycle closes), else
    /// marks it red through `stepper` (which counts it against the limits when the red set
    /// stores it); `None` when the search stops.
    fn red_step<P: Model<State = S>>(
        &mut self,
        stepper: &mut Stepper<'_, P>,
        state: &S,
    ) -> Option<RedStep>;
    /// The memory the red and cyan states take beside the blue set.
    fn red_bytes(&self) -> usize;
}

/// Where a red step went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum RedStep {
    /// To a cyan state: the step closes a cycle.
    Cyan,
    /// To a state now red for the first time: the red search goes on from it.
    New,
    /// To a state red before.
    Red,
}

/// Blue, cyan and red as one [`WordTable::coloured`]: a red state is a blue one (a red
/// search goes only where the blue search has finished or is, in every state it reaches),
/// so the red search stores nothing. A new state is stored cyan, since the search pushes
/// almost every new state at once: that saves a lookup per state, and a state not pushed
/// costs one.
pub(super) struct Coloured(pub(super) WordTable);

/// The colour bit of cyan states in [`Coloured`].
pub(super) const CYAN: u64 = 1 << COLOURS.trailing_zeros();
/// The colour bit of red states in [`Coloured`].
const RED: u64 = COLOURS & !CYAN;

impl<S> Colours<S> for Coloured {
    type Blue = WordTable;

    fn blue(&mut self) -> &mut WordTable {
        &mut self.0
    }

    fn push_cyan(&mut self, _: &S, _: Option<u64>) {}

    fn not_pushed(&mut self, _: &S, key: Option<u64>) {
        self.0.recolour(word_of(key), 0, CYAN);
    }

    fn pop_cyan(&mut self, _: &S, key: Option<u64>) {
        self.0.recolour(word_of(key), 0, CYAN);
    }

    fn is_cyan(&self, _: &S, key: Option<u64>) -> bool {
        self.0
            .colours_of(word_of(key))
            .is_some_and(|colours| colours & CYAN != 0)
    }

    /// The insertion that met the state again gave its colours as its mark: no second lookup.
    fn is_cyan_marked(&self, mark: Option<u32>, state: &S, key: Option<u64>) -> bool {
        match mark {
            Some(mark) => colours_of_mark(mark) & CYAN != 0,
            None => <Self as Colours<S>>::is_cyan(self, state, key),
        }
    }

    /// One lookup: a cyan state stays as it is, any other is made red. A state the blue
    /// search never stored (it stopped at a limit first, and the search is incomplete)
    /// counts as red: the red search does not go there.
    fn red_step<P: Model<State = S>>(
        &mut self,
        stepper: &mut Stepper<'_, P>,
        state: &S,
    ) -> Option<RedStep> {
        let word = word_of(stepper.key(state));
        Some(match self.0.recolour_unless(word, RED, CYAN) {
            Some(colours) if colours & CYAN != 0 => RedStep::Cyan,
            Some(colours) if colours & RED == 0 => RedStep::New,
            _ => RedStep::Red,
        })
    }

    fn red_bytes(&self) -> usize {
        0
    }
}

/// Blue and red as two seen sets of any kind, and cyan as a set of the stack's words
/// (when states are keyed by words) or states.
pub(super) struct Separate<S, T> {
    blue: T,
    red: T,
    cyan: HashSet<S, FixedHasher>,
    cyan_words: HashSet<u64, FixedHasher>,
}

impl<S, T> Separate<S, T> {
    pub(super) fn new(blue: T, red: T) -> Self {
        Separate {
            blue,
            red,
            cyan: HashSet::with_hasher(FixedHasher),
            cyan_words: HashSet::with_hasher(FixedHasher),
        }
    }
}

impl<S: Clone + Eq + std::hash::Hash, T: Store<S> + Footprint> Colours<S> for Separate<S, T> {
    type Blue = T;

    fn blue(&mut self) -> &mut T {
        &mut self.blue
    }

    fn push_cyan(&mut self, state: &S, key: Option<u64>) {
        match key {
            Some(word) => self.cyan_words.insert(word),
            None => self.cyan.insert(state.clone()),
        };
    }

    fn not_pushed(&mut self, _: &S, _: Option<u64>) {}

    fn pop_cyan(&mut self, state: &S, key: Option<u64>) {
        match key {
            Some(word) => self.cyan_words.remove(&word),
            None => self.cyan.remove(state),
        };
    }

    fn is_cyan(&self, state: &S, key: Option<u64>) -> bool {
        match key {
            Some(word) => self.cyan_words.contains(&word),
            None => self.cyan.contains(state),
        }
    }

    fn red_step<P: Model<State = S>>(
        &mut self,
        stepper: &mut Stepper<'_, P>,
        state: &S,
    ) -> Option<RedStep> {
        if self.is_cyan(state, stepper.key(state)) {
            return Some(RedStep::Cyan);
        }
        Some(match stepper.admit(state, &mut self.red)? {
            Admission::New => RedStep::New,
            Admission::Seen(_) => RedStep::Red,
        })
    }

    fn red_bytes(&self) -> usize {
        self.red.bytes()
            + self.cyan.capacity() * (std::mem::size_of::<S>() + 1)
            + self.cyan_words.capacity() * (std::mem::size_of::<u64>() + 1)
    }
}
