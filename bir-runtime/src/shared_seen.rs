//! Seen-state sets shared by the threads of a parallel search.
//!
//! * [`SharedSeen::Words`]: states that fit in one 64-bit word (see
//!   [`Model::state_word`](crate::Model::state_word)) are stored exactly, as words, in one
//!   open-addressing table with linear probing: a lookup of a stored state is a few plain
//!   loads, a new state one compare-and-swap. The table grows while no thread is inside a
//!   batch: threads hold a read lock for a batch of states (not per lookup), and the thread
//!   that finds the table too full takes the write lock between batches and rehashes.
//! * [`SharedSeen::States`]: any other state, in 64 hash tables each behind its own mutex;
//!   with a few threads they rarely contend.

use std::hash::Hash;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, RwLock, RwLockReadGuard};

use ahash::RandomState;
use hashbrown::hash_table::Entry;
use hashbrown::HashTable;

use crate::seen::{mix, prefetch};

/// Marks an empty slot of a word table; [`Model::state_word`](crate::Model::state_word) never
/// returns it.
const EMPTY: u64 = u64::MAX;

/// The smallest word table, in slots.
const MIN_SLOTS: usize = 1 << 16;

/// A table grows once more than this fraction (in 1/1024) of its slots is used.
const GROW_AT: usize = 717;

/// Past this fraction (in 1/1024) a batch ends early, so that the table always keeps free
/// slots: a thread finishes the state it is expanding and then lets the table grow.
const BATCH_FULL_AT: usize = 870;

/// What an insertion found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Insert {
    /// The state was stored now.
    New,
    /// The state was already stored.
    Seen,
}

/// A concurrent set of states.
pub(crate) enum SharedSeen<S> {
    /// States stored as 64-bit words.
    Words(RwLock<WordTable>),
    /// States stored in mutex-protected shards.
    States(Box<[Mutex<HashTable<S>>]>),
}

/// An open-addressing table of words.
pub(crate) struct WordTable {
    slots: Box<[AtomicU64]>,
    len: AtomicUsize,
}

/// Access to the set for one batch of work.
pub(crate) enum Batch<'a, S> {
    /// A read lock on the word table: it cannot grow while the batch runs.
    Words(RwLockReadGuard<'a, WordTable>),
    /// The shards lock themselves per insertion.
    States(&'a [Mutex<HashTable<S>>], &'a RandomState),
}

impl WordTable {
    fn with_slots(slots: usize) -> WordTable {
        WordTable {
            slots: (0..slots).map(|_| AtomicU64::new(EMPTY)).collect(),
            len: AtomicUsize::new(0),
        }
    }

    fn insert(&self, word: u64) -> Insert {
        debug_assert_ne!(word, EMPTY);
        let mask = self.slots.len() - 1;
        let mut i = mix(word) as usize & mask;
        loop {
            let slot = &self.slots[i];
            let current = slot.load(Ordering::Acquire);
            if current == word {
                return Insert::Seen;
            }
            if current == EMPTY {
                match slot.compare_exchange(EMPTY, word, Ordering::AcqRel, Ordering::Acquire) {
                    Ok(_) => {
                        self.len.fetch_add(1, Ordering::Relaxed);
                        return Insert::New;
                    }
                    // Another thread filled the slot: it may have stored this very word.
                    Err(other) if other == word => return Insert::Seen,
                    Err(_) => {}
                }
            }
            i = (i + 1) & mask;
        }
    }

    fn used(&self) -> usize {
        self.len.load(Ordering::Relaxed)
    }

    /// True when more than `per_1024` / 1024 of the slots are used.
    fn above(&self, per_1024: usize) -> bool {
        self.used() * 1024 > self.slots.len() * per_1024
    }

    /// A table of twice the size holding the same words.
    fn doubled(&self) -> WordTable {
        let bigger = WordTable::with_slots(self.slots.len() * 2);
        for slot in self.slots.iter() {
            let word = slot.load(Ordering::Relaxed);
            if word != EMPTY {
                bigger.insert(word);
            }
        }
        bigger
    }
}

impl<S: Clone + Eq + Hash + Send> SharedSeen<S> {
    /// A set of words with room for at least `reserve` states before it first grows, or a
    /// sharded set of states.
    pub(crate) fn new(words: bool, reserve: usize) -> Self {
        if words {
            let slots = (reserve * 2).next_power_of_two().max(MIN_SLOTS);
            SharedSeen::Words(RwLock::new(WordTable::with_slots(slots)))
        } else {
            SharedSeen::States((0..64).map(|_| Mutex::new(HashTable::new())).collect())
        }
    }

    /// Starts a batch of insertions.
    pub(crate) fn batch<'a>(&'a self, hasher: &'a RandomState) -> Batch<'a, S> {
        match self {
            SharedSeen::Words(table) => Batch::Words(read(table)),
            SharedSeen::States(shards) => Batch::States(shards, hasher),
        }
    }

    /// Grows the word table if it is too full; call between batches.
    pub(crate) fn grow_if_needed(&self) {
        let SharedSeen::Words(table) = self else {
            return;
        };
        if !read(table).above(GROW_AT) {
            return;
        }
        let mut table = table
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        // Another thread may have grown it while this one waited.
        if table.above(GROW_AT) {
            *table = table.doubled();
        }
    }

    /// How many states are stored.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        match self {
            SharedSeen::Words(table) => read(table).used(),
            SharedSeen::States(shards) => shards.iter().map(|s| lock(s).len()).sum(),
        }
    }

    /// The memory the set holds (allocated capacity).
    pub(crate) fn bytes(&self) -> usize {
        match self {
            SharedSeen::Words(table) => read(table).slots.len() * 8,
            SharedSeen::States(shards) => shards.iter().map(|s| lock(s).allocation_size()).sum(),
        }
    }
}

impl<S: Clone + Eq + Hash> Batch<'_, S> {
    /// Looks the state up (by its word when the set stores words) and stores it if new.
    pub(crate) fn insert(&self, state: &S, word: Option<u64>) -> Insert {
        match (self, word) {
            (Batch::Words(table), Some(word)) => table.insert(word),
            (Batch::States(shards, hasher), _) => {
                let hash = hasher.hash_one(state);
                let mut shard = lock(&shards[(hash >> 58) as usize]);
                match shard.entry(hash, |s| s == state, |s| hasher.hash_one(s)) {
                    Entry::Occupied(_) => Insert::Seen,
                    Entry::Vacant(slot) => {
                        slot.insert(state.clone());
                        Insert::New
                    }
                }
            }
            (Batch::Words(_), None) => unreachable!("a word set is only built for word states"),
        }
    }

    /// Starts fetching the slot a lookup of `word` will read first (word tables only).
    pub(crate) fn prefetch(&self, word: Option<u64>) {
        if let (Batch::Words(table), Some(word)) = (self, word) {
            let mask = table.slots.len() - 1;
            prefetch(&table.slots[mix(word) as usize & mask]);
        }
    }

    /// True when the batch should end so that the table can grow.
    pub(crate) fn is_nearly_full(&self) -> bool {
        match self {
            Batch::Words(table) => table.above(BATCH_FULL_AT),
            Batch::States(..) => false,
        }
    }
}

fn read(table: &RwLock<WordTable>) -> RwLockReadGuard<'_, WordTable> {
    table
        .read()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Locks a mutex; a thread that panicked while holding it leaves data that is still
/// consistent for a seen set (insertions are single writes), so poisoning is ignored.
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seen::hasher as state_hasher;

    #[test]
    fn word_tables_find_what_they_store_across_growth() {
        let set: SharedSeen<u64> = SharedSeen::new(true, 0);
        let hasher = state_hasher();
        for word in 0..200_000u64 {
            let batch = set.batch(&hasher);
            assert_eq!(batch.insert(&word, Some(word * 7)), Insert::New);
            assert_eq!(batch.insert(&word, Some(word * 7)), Insert::Seen);
            drop(batch);
            set.grow_if_needed();
        }
        assert_eq!(set.len(), 200_000);
        let batch = set.batch(&hasher);
        assert!((0..200_000u64).all(|w| batch.insert(&w, Some(w * 7)) == Insert::Seen));
    }

    #[test]
    fn concurrent_inserts_store_each_state_once() {
        for words in [true, false] {
            let set: SharedSeen<u64> = SharedSeen::new(words, 0);
            let hasher = state_hasher();
            let new: usize = std::thread::scope(|scope| {
                let workers: Vec<_> = (0..2)
                    .map(|_| {
                        scope.spawn(|| {
                            let mut new = 0;
                            for chunk in (0..100_000u64).collect::<Vec<_>>().chunks(64) {
                                let batch = set.batch(&hasher);
                                for &w in chunk {
                                    new += usize::from(batch.insert(&w, Some(w)) == Insert::New);
                                }
                                drop(batch);
                                set.grow_if_needed();
                            }
                            new
                        })
                    })
                    .collect();
                workers.into_iter().map(|w| w.join().unwrap_or(0)).sum()
            });
            assert_eq!(new, 100_000, "each state is new to exactly one thread");
            assert_eq!(set.len(), 100_000);
        }
    }
}
