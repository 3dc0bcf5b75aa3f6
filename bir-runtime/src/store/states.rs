//! Sets of whole states, for states wider than a word: inline in hash tables
//! ([`StateTable`]), in discovery order behind tables of indices ([`IndexedStates`]), or in
//! locked shards for several threads ([`ShardedStates`]).
//!
//! Each set is split into [`SEGMENTS`] hash tables by the top bits of a state's hash, each
//! growing on its own: a growth rehashes 1/256 of the set, so it neither pauses the search
//! for long (a time limit holds) nor needs 1.5 times the memory for a moment.

use std::hash::Hash;
use std::mem::size_of;
use std::sync::{Mutex, MutexGuard};

use hashbrown::HashTable;

use super::{hash_state, Footprint, Growth, Lookup, SharedStore, StateIndex, Store};

/// The number of hash tables a set is split into.
const SEGMENTS: usize = 256;

/// Empty tables, one per segment.
pub(super) fn segments<T>() -> Box<[HashTable<T>]> {
    (0..SEGMENTS).map(|_| HashTable::new()).collect()
}

/// The segment of a hash: bits 40 to 47, which hashbrown uses for neither the position in a
/// table (the low bits) nor the tag it filters probes with (the top 7).
pub(super) fn segment_of(hash: u64) -> usize {
    usize::from((hash >> 40) as u8)
}

/// The memory of segmented tables.
pub(super) fn segments_bytes<T>(tables: &[HashTable<T>]) -> usize {
    tables.iter().map(HashTable::allocation_size).sum()
}

/// The bytes a hash table allocates when it doubles.
pub(super) fn doubled_bytes<T>(table: &HashTable<T>) -> usize {
    (table.allocation_size() * 2).max(64 * size_of::<T>())
}

/// Room for `additional` more entries in `table`, rehashing with `hash`.
pub(super) fn reserve<T>(table: &mut HashTable<T>, hash: impl Fn(&T) -> u64) {
    let additional = table.capacity().max(16);
    table.reserve(additional, hash);
}

/// States stored inline in hash tables: one cache line per lookup.
pub(crate) struct StateTable<S> {
    tables: Box<[HashTable<S>]>,
    /// The bytes each state holds outside its value ([`Self::holding_apart`]).
    held_apart: usize,
}

impl<S> StateTable<S> {
    /// An empty set.
    pub(crate) fn new() -> Self {
        StateTable {
            tables: segments(),
            held_apart: 0,
        }
    }

    /// The set, counting `bytes` more for each state in its memory: the words a wide state
    /// of the interpreter holds on the heap ([`words_held_apart`](super::words_held_apart)).
    pub(crate) fn holding_apart(self, bytes: usize) -> Self {
        StateTable {
            held_apart: bytes,
            ..self
        }
    }
}

impl<S: Clone + Eq + Hash> Store<S> for StateTable<S> {
    fn insert(&mut self, state: &S, _: Option<u64>) -> Lookup {
        let hash = hash_state(state);
        let part = segment_of(hash);
        let table = &mut self.tables[part];
        if table.find(hash, |stored| stored == state).is_some() {
            return Lookup::Seen(None);
        }
        if table.len() == table.capacity() {
            return Lookup::Full(Growth {
                bytes: doubled_bytes(table),
                part,
            });
        }
        table.insert_unique(hash, state.clone(), hash_state);
        Lookup::New
    }

    fn grow(&mut self, growth: Growth) {
        reserve(&mut self.tables[growth.part], hash_state);
    }

    fn contains(&mut self, state: &S, _: Option<u64>) -> bool {
        let hash = hash_state(state);
        self.tables[segment_of(hash)]
            .find(hash, |stored| stored == state)
            .is_some()
    }
}

impl<S> Footprint for StateTable<S> {
    fn bytes(&self) -> usize {
        let states: usize = self.tables.iter().map(HashTable::len).sum();
        segments_bytes(&self.tables) + states * self.held_apart
    }
}

/// States stored once each in a `Vec`, in discovery order, found through a table of their
/// 4-byte indices. The index names a state compactly (breadth-first parent links) and the
/// `Vec` doubles as the breadth-first queue; a lookup costs a second memory access.
pub(crate) struct IndexedStates<S> {
    states: Vec<S>,
    tables: Box<[HashTable<StateIndex>]>,
    /// The bytes each state holds outside its value ([`Self::holding_apart`]).
    held_apart: usize,
}

impl<S: Clone> IndexedStates<S> {
    /// An empty set.
    pub(crate) fn new() -> Self {
        IndexedStates {
            states: Vec::new(),
            tables: segments(),
            held_apart: 0,
        }
    }

    /// The set, counting `bytes` more for each state in its memory (as
    /// [`StateTable::holding_apart`]).
    pub(crate) fn holding_apart(self, bytes: usize) -> Self {
        IndexedStates {
            held_apart: bytes,
            ..self
        }
    }

    /// The state stored at `index`.
    pub(crate) fn get(&self, index: StateIndex) -> &S {
        &self.states[index as usize]
    }

    /// How many states are stored.
    pub(crate) fn len(&self) -> usize {
        self.states.len()
    }
}

/// The growth part of the state vector (the index tables are parts 0 to 255).
const VECTOR: usize = SEGMENTS;

impl<S: Clone + Eq + Hash> Store<S> for IndexedStates<S> {
    fn insert(&mut self, state: &S, _: Option<u64>) -> Lookup {
        let hash = hash_state(state);
        let part = segment_of(hash);
        let states = &self.states;
        let table = &mut self.tables[part];
        if let Some(&index) = table.find(hash, |&index| states[index as usize] == *state) {
            return Lookup::Seen(Some(index));
        }
        if states.len() == states.capacity() {
            let bytes = (states.capacity() * 2).max(16) * size_of::<S>();
            return Lookup::Full(Growth {
                bytes,
                part: VECTOR,
            });
        }
        if table.len() == table.capacity() {
            return Lookup::Full(Growth {
                bytes: doubled_bytes(table),
                part,
            });
        }
        if states.len() > StateIndex::MAX as usize {
            // Indices are 4 bytes: more states cannot be told apart.
            return Lookup::Exhausted;
        }
        let index = states.len() as StateIndex;
        table.insert_unique(hash, index, |&i| hash_state(&states[i as usize]));
        self.states.push(state.clone());
        Lookup::New
    }

    fn grow(&mut self, growth: Growth) {
        if growth.part == VECTOR {
            let additional = self.states.capacity().max(16);
            self.states.reserve_exact(additional);
        } else {
            let states = &self.states;
            reserve(&mut self.tables[growth.part], |&i| {
                hash_state(&states[i as usize])
            });
        }
    }

    fn contains(&mut self, state: &S, _: Option<u64>) -> bool {
        let hash = hash_state(state);
        let states = &self.states;
        self.tables[segment_of(hash)]
            .find(hash, |&index| states[index as usize] == *state)
            .is_some()
    }
}

impl<S> Footprint for IndexedStates<S> {
    fn bytes(&self) -> usize {
        self.states.capacity() * size_of::<S>()
            + segments_bytes(&self.tables)
            + self.states.len() * self.held_apart
    }
}

/// States stored inline in hash tables, each behind its own lock, for several threads:
/// with a few threads they rarely contend.
pub(crate) struct ShardedStates<S> {
    shards: Box<[Mutex<HashTable<S>>]>,
    /// The bytes each state holds outside its value ([`Self::holding_apart`]).
    held_apart: usize,
}

impl<S> ShardedStates<S> {
    /// An empty set.
    pub(crate) fn new() -> Self {
        ShardedStates {
            shards: (0..SEGMENTS)
                .map(|_| Mutex::new(HashTable::new()))
                .collect(),
            held_apart: 0,
        }
    }

    /// The set, counting `bytes` more for each state in its memory (as
    /// [`StateTable::holding_apart`]).
    pub(crate) fn holding_apart(self, bytes: usize) -> Self {
        ShardedStates {
            held_apart: bytes,
            ..self
        }
    }
}

/// Locks a mutex; a thread that panicked while holding it leaves data that is still
/// consistent for a seen set (insertions are single writes), so poisoning is ignored.
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl<S> Footprint for ShardedStates<S> {
    fn bytes(&self) -> usize {
        self.shards
            .iter()
            .map(|shard| {
                let shard = lock(shard);
                shard.allocation_size() + shard.len() * self.held_apart
            })
            .sum()
    }
}

impl<S: Clone + Eq + Hash + Send> SharedStore<S> for ShardedStates<S> {
    type Handle<'a>
        = &'a ShardedStates<S>
    where
        S: 'a;

    fn handle(&self) -> &ShardedStates<S> {
        self
    }
}

impl<S: Clone + Eq + Hash> Store<S> for &ShardedStates<S> {
    fn insert(&mut self, state: &S, _: Option<u64>) -> Lookup {
        let hash = hash_state(state);
        let part = segment_of(hash);
        let mut shard = lock(&self.shards[part]);
        if shard.find(hash, |stored| stored == state).is_some() {
            return Lookup::Seen(None);
        }
        if shard.len() == shard.capacity() {
            return Lookup::Full(Growth {
                bytes: doubled_bytes(&shard),
                part,
            });
        }
        shard.insert_unique(hash, state.clone(), hash_state);
        Lookup::New
    }

    fn grow(&mut self, growth: Growth) {
        let mut shard = lock(&self.shards[growth.part]);
        // Another thread may have grown it already.
        if shard.len() == shard.capacity() {
            reserve(&mut shard, hash_state);
        }
    }

    fn contains(&mut self, state: &S, _: Option<u64>) -> bool {
        let hash = hash_state(state);
        lock(&self.shards[segment_of(hash)])
            .find(hash, |stored| stored == state)
            .is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::tests::{insert, new_then_seen};

    #[test]
    fn every_layout_reports_new_then_seen() {
        new_then_seen(StateTable::new());
        let indexed = new_then_seen(IndexedStates::new());
        assert_eq!(indexed.len(), 10_002);
        assert_eq!(*indexed.get(1), 20);
        let mut indexed = indexed;
        assert_eq!(insert(&mut indexed, &20, None), Lookup::Seen(Some(1)));
        let sharded = ShardedStates::new();
        new_then_seen(sharded.handle());
    }

    #[test]
    fn growth_is_asked_for_before_any_allocation() {
        let mut table = StateTable::new();
        assert_eq!(table.bytes(), 0);
        let Lookup::Full(growth) = table.insert(&1u64, None) else {
            panic!("an empty table has no room");
        };
        assert_eq!(table.bytes(), 0);
        table.grow(growth);
        assert!(table.bytes() > 0 && table.bytes() <= growth.bytes);
        assert_eq!(table.insert(&1u64, None), Lookup::New);
    }

    #[test]
    fn the_words_a_state_holds_apart_count_in_the_memory() {
        // 10,002 states stored (`new_then_seen`), each holding 100 bytes elsewhere.
        let plain = new_then_seen(StateTable::new()).bytes();
        let apart = new_then_seen(StateTable::new().holding_apart(100)).bytes();
        assert_eq!(apart - plain, 10_002 * 100);
        let plain = new_then_seen(IndexedStates::new()).bytes();
        let apart = new_then_seen(IndexedStates::new().holding_apart(100)).bytes();
        assert_eq!(apart - plain, 10_002 * 100);
        let sharded = ShardedStates::new().holding_apart(100);
        new_then_seen(sharded.handle());
        let plain = ShardedStates::new();
        new_then_seen(plain.handle());
        assert_eq!(sharded.bytes() - plain.bytes(), 10_002 * 100);
    }

    #[test]
    fn concurrent_inserts_store_each_state_once() {
        let set: ShardedStates<u64> = ShardedStates::new();
        let new: usize = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..2)
                .map(|_| {
                    scope.spawn(|| {
                        let mut handle = set.handle();
                        (0..50_000u64)
                            .filter(|s| insert(&mut handle, s, None) == Lookup::New)
                            .count()
                    })
                })
                .collect();
            workers.into_iter().map(|w| w.join().unwrap_or(0)).sum()
        });
        assert_eq!(new, 50_000);
    }
}
