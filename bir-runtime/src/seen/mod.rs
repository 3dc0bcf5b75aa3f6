//! The sets of states already seen: the only place where the hashing policy lives.
//!
//! Three layouts, one per need:
//! * [`WordTable`] stores states that fit in one word (see
//!   [`Model::state_word`](crate::Model::state_word)) as words, in an open-addressing table
//!   with linear probing: 8 bytes a slot, and a lookup can be prefetched while the search
//!   does other work, which hides most of the cache miss a lookup in a large set costs.
//!   Depth-first search uses it whenever the model's states fit.
//! * [`StateTable`] stores each state inline in the hash table. A lookup touches one cache
//!   line, and small states cost the least memory. Depth-first search uses it for states
//!   wider than a word: its stack holds the states it needs.
//! * [`IndexedStates`] stores each state once in a `Vec`, in discovery order, and a table of
//!   4-byte indices into it. The index names a state compactly (breadth-first parent links)
//!   and the `Vec` doubles as the breadth-first queue; each lookup of a stored state costs a
//!   second memory access.
//!
//! And two lossy ones, for state spaces too large to store exactly, which make a search
//! incomplete by construction: [`Fingerprints`] (hash compaction) and [`Bitstate`].
//!
//! All hash under fixed seeds, so a run is reproducible: the same model gives the same
//! table layout, memory figures and timings run after run.

mod lossy;
mod words;

use std::hash::Hash;

use ahash::RandomState;
use hashbrown::hash_table::Entry;
use hashbrown::HashTable;

pub(crate) use lossy::{compaction_omission, Bitstate, Fingerprints};
pub(crate) use words::{mix, prefetch, WordTable};

use crate::report::IncompleteReason;

/// The fixed ahash seeds (arbitrary constants; changing them changes nothing but timings).
const SEEDS: [u64; 4] = [
    0x243f_6a88_85a3_08d3,
    0x1319_8a2e_0370_7344,
    0xa409_3822_299f_31d1,
    0x082e_fa98_ec4e_6c89,
];

/// The hasher of states, under fixed seeds (reproducible runs).
pub(crate) fn hasher() -> RandomState {
    RandomState::with_seeds(SEEDS[0], SEEDS[1], SEEDS[2], SEEDS[3])
}

/// The discovery number of a state (the initial state is 0); with [`IndexedStates`], also
/// where it is stored.
pub(crate) type StateIndex = u32;

/// The most states a set can hold: discovery numbers are `u32`.
pub(crate) const MAX_STATES: usize = u32::MAX as usize;

/// What [`Seen::insert`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lookup {
    /// The state was already in the set (at this index, for [`IndexedStates`]).
    Seen(StateIndex),
    /// The state was new and is now stored, with this discovery number.
    New(StateIndex),
}

/// A set of seen states, as the search core uses it.
pub(crate) trait Seen<S> {
    /// An empty set with room for `capacity` states before it first grows.
    fn with_capacity(capacity: usize) -> Self;
    /// How many states are stored.
    fn len(&self) -> usize;
    /// Looks `state` up and stores it if it is new. `word` is the state's
    /// [`Model::state_word`](crate::Model::state_word), which word tables store instead.
    /// The caller checks [`Self::is_full`] first.
    fn insert(&mut self, state: S, word: Option<u64>) -> Lookup;
    /// True when `state` (with its word) is stored.
    fn contains(&self, state: &S, word: Option<u64>) -> bool;
    /// Starts fetching the memory a lookup of `state` will read (a hint; may do nothing).
    fn prefetch(&self, state: &S, word: Option<u64>) {
        let _ = (state, word);
    }
    /// The memory the set holds now (allocated capacity).
    fn bytes(&self) -> usize;
    /// An estimate of [`Self::bytes`] once one more state is stored: growing doubles the
    /// storage, so a memory limit can stop the search *before* that allocation.
    fn bytes_after_insert(&self) -> usize;
    /// True when no further state can be stored.
    fn is_full(&self) -> bool {
        self.len() >= MAX_STATES
    }
    /// For a set that may take a new state for one seen before (hash compaction,
    /// bitstate): the mode, and the estimated probability that some state was missed.
    fn omission(&self) -> Option<(IncompleteReason, f64)> {
        None
    }
}

/// The bytes of a hash table once one more entry is inserted.
fn table_bytes_after_insert<T>(table: &HashTable<T>) -> usize {
    if table.len() == table.capacity() {
        (table.allocation_size() * 2).max(64)
    } else {
        table.allocation_size()
    }
}

/// Seen states stored inline in the hash table.
pub(crate) struct StateTable<S> {
    table: HashTable<S>,
    hasher: RandomState,
}

impl<S: Clone + Eq + Hash> Seen<S> for StateTable<S> {
    fn with_capacity(capacity: usize) -> Self {
        StateTable {
            table: HashTable::with_capacity(capacity),
            hasher: hasher(),
        }
    }

    fn len(&self) -> usize {
        self.table.len()
    }

    fn insert(&mut self, state: S, _: Option<u64>) -> Lookup {
        let hasher = &self.hasher;
        let hash = hasher.hash_one(&state);
        let number = self.table.len() as StateIndex;
        match self.table.entry(
            hash,
            |stored| *stored == state,
            |stored| hasher.hash_one(stored),
        ) {
            Entry::Occupied(_) => Lookup::Seen(StateIndex::MAX),
            Entry::Vacant(slot) => {
                slot.insert(state);
                Lookup::New(number)
            }
        }
    }

    fn contains(&self, state: &S, _: Option<u64>) -> bool {
        let hash = self.hasher.hash_one(state);
        self.table.find(hash, |stored| stored == state).is_some()
    }

    fn bytes(&self) -> usize {
        self.table.allocation_size()
    }

    fn bytes_after_insert(&self) -> usize {
        table_bytes_after_insert(&self.table)
    }
}

/// Seen states stored in discovery order, found through a table of their indices.
pub(crate) struct IndexedStates<S> {
    states: Vec<S>,
    table: HashTable<StateIndex>,
    hasher: RandomState,
}

impl<S: Clone> IndexedStates<S> {
    /// The state stored at `index`.
    pub(crate) fn get(&self, index: StateIndex) -> S {
        self.states[index as usize].clone()
    }
}

impl<S: Clone + Eq + Hash> Seen<S> for IndexedStates<S> {
    fn with_capacity(capacity: usize) -> Self {
        IndexedStates {
            states: Vec::with_capacity(capacity),
            table: HashTable::with_capacity(capacity),
            hasher: hasher(),
        }
    }

    fn len(&self) -> usize {
        self.states.len()
    }

    fn insert(&mut self, state: S, _: Option<u64>) -> Lookup {
        let hash = self.hasher.hash_one(&state);
        let states = &self.states;
        let hasher = &self.hasher;
        let entry = self.table.entry(
            hash,
            |&index| states[index as usize] == state,
            |&index| hasher.hash_one(&states[index as usize]),
        );
        match entry {
            Entry::Occupied(found) => Lookup::Seen(*found.get()),
            Entry::Vacant(slot) => {
                let index = self.states.len() as StateIndex;
                slot.insert(index);
                self.states.push(state);
                Lookup::New(index)
            }
        }
    }

    fn contains(&self, state: &S, _: Option<u64>) -> bool {
        let hash = self.hasher.hash_one(state);
        self.table
            .find(hash, |&index| self.states[index as usize] == *state)
            .is_some()
    }

    fn bytes(&self) -> usize {
        self.states.capacity() * std::mem::size_of::<S>() + self.table.allocation_size()
    }

    fn bytes_after_insert(&self) -> usize {
        let state_size = std::mem::size_of::<S>();
        let vector = if self.states.len() == self.states.capacity() {
            (self.states.capacity() * 2).max(4) * state_size
        } else {
            self.states.capacity() * state_size
        };
        vector + table_bytes_after_insert(&self.table)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn insert<T: Seen<u64>>(seen: &mut T, state: u64) -> Lookup {
        seen.insert(state, Some(state))
    }

    fn new_then_seen<T: Seen<u64>>(indexed: bool) {
        let mut seen = T::with_capacity(2);
        assert_eq!(insert(&mut seen, 10), Lookup::New(0));
        assert_eq!(insert(&mut seen, 20), Lookup::New(1));
        assert!(matches!(insert(&mut seen, 10), Lookup::Seen(_)));
        if indexed {
            assert_eq!(insert(&mut seen, 10), Lookup::Seen(0));
        }
        assert_eq!(seen.len(), 2);
        assert!(seen.contains(&20, Some(20)));
        assert!(!seen.contains(&30, Some(30)));
        for i in 0..10_000u64 {
            insert(&mut seen, i * 7919 + 1);
        }
        assert_eq!(seen.len(), 10_002);
        for i in 0..10_000u64 {
            assert!(matches!(insert(&mut seen, i * 7919 + 1), Lookup::Seen(_)));
        }
        assert!(seen.bytes() >= 10_000 * 8);
    }

    #[test]
    fn both_layouts_report_new_then_seen() {
        new_then_seen::<StateTable<u64>>(false);
        new_then_seen::<IndexedStates<u64>>(true);
        new_then_seen::<WordTable>(false);
        let mut indexed = IndexedStates::with_capacity(0);
        indexed.insert(5u8, None);
        indexed.insert(7u8, None);
        assert_eq!(indexed.get(1), 7);
    }

    fn growth_estimate_never_lags<T: Seen<u32>>() {
        let mut seen = T::with_capacity(0);
        for i in 0..1_000u32 {
            let estimate = seen.bytes_after_insert();
            seen.insert(i, Some(u64::from(i)));
            assert!(
                estimate >= seen.bytes(),
                "at {i}: {estimate} < {}",
                seen.bytes()
            );
        }
    }

    #[test]
    fn the_growth_estimate_covers_the_next_insertion() {
        growth_estimate_never_lags::<StateTable<u32>>();
        growth_estimate_never_lags::<IndexedStates<u32>>();
        growth_estimate_never_lags::<WordTable>();
    }
}
