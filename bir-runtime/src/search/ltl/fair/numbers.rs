//! [`Numbered`]: the seen set of the search for fair cycles, with the search numbers of
//! the live states.

use std::collections::HashMap;

use crate::store::{word_of, FixedHasher, Footprint, Growth, Lookup, Store, WordTable};

/// The search's seen set, which also keeps the number of every live state (one of a
/// component still on the stack): beside each word in a numbered word table, where the
/// lookup that finds a state finds its number; in a map beside a table of whole states.
pub(super) trait Numbered<S>: Store<S> + Footprint {
    /// The number of the stored `state` (keyed by `key`) if it is live, given the mark the set
    /// keeps with it, as the search met it again ([`Visit::Seen`](super::super::core::Visit)).
    fn live(&self, mark: Option<u32>, state: &S, key: Option<u64>) -> Option<u32>;
    /// Makes the stored `state` live with `number` (from 1), or no longer live with 0.
    fn set_live(&mut self, state: &S, key: Option<u64>, number: u32);
    /// [`Numbered::set_live`] for a state held as its word `word` (its key): `state`
    /// decodes it, for a set that needs the state itself; a word table needs only the word.
    fn set_live_word(&mut self, word: u64, number: u32, state: impl FnOnce() -> Option<S>) {
        if let Some(state) = state() {
            self.set_live(&state, Some(word), number);
        }
    }
    /// The memory of the numbers, when they are not in the set's own slots.
    fn numbers_bytes(&self) -> usize {
        0
    }
    /// The bytes that making a state live with `number` first allocates, when it does.
    fn spill_bytes(&self, _number: u32) -> Option<usize> {
        None
    }
}

impl<S> Numbered<S> for WordTable {
    /// A numbered table says a state's number when the search meets it again.
    fn live(&self, mark: Option<u32>, _: &S, key: Option<u64>) -> Option<u32> {
        mark.or_else(|| self.number(word_of(key)))
            .filter(|&number| number != 0)
    }

    #[inline]
    fn set_live(&mut self, _: &S, key: Option<u64>, number: u32) {
        self.set_number(word_of(key), number);
    }

    #[inline]
    fn set_live_word(&mut self, word: u64, number: u32, _: impl FnOnce() -> Option<S>) {
        self.set_number(word, number);
    }

    /// A number too large for the bits above the words moves every number out of them.
    fn spill_bytes(&self, number: u32) -> Option<usize> {
        WordTable::spill_bytes(self, number)
    }
}

/// A set of whole states, and the live states' numbers in a map beside it.
pub(super) struct WithNumbers<S, T> {
    pub(super) seen: T,
    pub(super) live: HashMap<S, u32, FixedHasher>,
}

impl<S, T: Store<S>> Store<S> for WithNumbers<S, T> {
    fn insert(&mut self, state: &S, key: Option<u64>) -> Lookup {
        self.seen.insert(state, key)
    }

    fn grow(&mut self, growth: Growth) {
        self.seen.grow(growth);
    }

    fn contains(&mut self, state: &S, key: Option<u64>) -> bool {
        self.seen.contains(state, key)
    }

    fn prefetch(&mut self, key: Option<u64>) {
        self.seen.prefetch(key);
    }
}

impl<S, T: Footprint> Footprint for WithNumbers<S, T> {
    fn bytes(&self) -> usize {
        self.seen.bytes()
    }

    fn omission(&self, states: u64) -> Option<(crate::verdict::IncompleteReason, f64)> {
        self.seen.omission(states)
    }
}

impl<S: Clone + Eq + std::hash::Hash, T: Store<S> + Footprint> Numbered<S> for WithNumbers<S, T> {
    fn live(&self, _: Option<u32>, state: &S, _: Option<u64>) -> Option<u32> {
        self.live.get(state).copied()
    }

    fn set_live(&mut self, state: &S, _: Option<u64>, number: u32) {
        if number == 0 {
            self.live.remove(state);
        } else {
            self.live.insert(state.clone(), number);
        }
    }

    fn numbers_bytes(&self) -> usize {
        self.live.capacity() * std::mem::size_of::<(S, u32)>()
    }
}
