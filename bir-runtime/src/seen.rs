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
//! Both hash with ahash under fixed seeds, so a run is reproducible: the same model gives the
//! same table layout, memory figures and timings run after run.

use std::hash::Hash;
use std::marker::PhantomData;

use ahash::RandomState;
use bitvec::vec::BitVec;
use hashbrown::hash_table::Entry;
use hashbrown::HashTable;

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

/// Marks an empty slot of a [`WordTable`]; `Model::state_word` never returns it.
const EMPTY: u64 = u64::MAX;

/// A segment grows once more than this many 1024ths of its slots are used (7/8, as
/// hashbrown): linear probing stays within a cache line or two at that load, and more of the
/// memory holds states.
const WORD_LOAD: usize = 896;

/// A word table is split into this many segments (by the top bits of the hash), each an
/// open-addressing table of its own that grows on its own: growing copies one segment, not
/// the whole table, so the peak memory of a growth is 1/256 of the table more, not 1.5 times.
const SEGMENTS: usize = 256;

/// Slots of each segment of a new table.
const MIN_SEGMENT: usize = 16;

/// States stored as 64-bit words: segments of open-addressing tables with linear probing.
pub(crate) struct WordTable {
    segments: Vec<Segment>,
    len: usize,
    /// Slots of all segments, and of the largest, kept up to date for the memory limit.
    slots: usize,
    largest: usize,
}

/// One segment: its slots (a power of two) and how many are used.
struct Segment {
    slots: Box<[u64]>,
    used: usize,
}

impl Segment {
    fn new(slots: usize) -> Segment {
        Segment {
            slots: vec![EMPTY; slots].into_boxed_slice(),
            used: 0,
        }
    }

    fn is_due_to_grow(&self) -> bool {
        (self.used + 1) * 1024 > self.slots.len() * WORD_LOAD
    }

    fn grow(&mut self) {
        let bigger = Segment::new(self.slots.len() * 2);
        let old = std::mem::replace(self, bigger);
        let mask = self.slots.len() - 1;
        for word in old.slots.iter().copied().filter(|&w| w != EMPTY) {
            let mut i = mix(word) as usize & mask;
            while self.slots[i] != EMPTY {
                i = (i + 1) & mask;
            }
            self.slots[i] = word;
        }
        self.used = old.used;
    }
}

impl WordTable {
    /// The segment of a word and the hash that places it there.
    fn segment(&self, word: u64) -> (usize, u64) {
        let hash = mix(word);
        ((hash >> 56) as usize, hash)
    }
}

/// Spreads the bits of a word over the table (the murmur3 finaliser).
pub(crate) fn mix(word: u64) -> u64 {
    let mut h = word;
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33)
}

/// The word a word table is looked up by; word tables are only built for models whose
/// every state has one.
fn word_of(word: Option<u64>) -> u64 {
    match word {
        Some(word) => word,
        None => unreachable!("a word table is only used when every state has a word"),
    }
}

impl<S> Seen<S> for WordTable {
    fn with_capacity(capacity: usize) -> Self {
        let per_segment = (capacity / SEGMENTS * 1024 / WORD_LOAD + 1).next_power_of_two();
        let per_segment = per_segment.max(MIN_SEGMENT);
        WordTable {
            segments: (0..SEGMENTS).map(|_| Segment::new(per_segment)).collect(),
            len: 0,
            slots: per_segment * SEGMENTS,
            largest: per_segment,
        }
    }

    fn len(&self) -> usize {
        self.len
    }

    fn insert(&mut self, _: S, word: Option<u64>) -> Lookup {
        let word = word_of(word);
        let (segment, hash) = self.segment(word);
        let segment = &mut self.segments[segment];
        let mask = segment.slots.len() - 1;
        let mut i = hash as usize & mask;
        loop {
            match segment.slots[i] {
                EMPTY => break,
                stored if stored == word => return Lookup::Seen(StateIndex::MAX),
                _ => i = (i + 1) & mask,
            }
        }
        if segment.is_due_to_grow() {
            segment.grow();
            self.slots += segment.slots.len() / 2;
            self.largest = self.largest.max(segment.slots.len());
            let mask = segment.slots.len() - 1;
            i = hash as usize & mask;
            while segment.slots[i] != EMPTY {
                i = (i + 1) & mask;
            }
        }
        segment.slots[i] = word;
        segment.used += 1;
        self.len += 1;
        Lookup::New((self.len - 1) as StateIndex)
    }

    fn contains(&self, _: &S, word: Option<u64>) -> bool {
        let word = word_of(word);
        let (segment, hash) = self.segment(word);
        let slots = &self.segments[segment].slots;
        let mask = slots.len() - 1;
        let mut i = hash as usize & mask;
        loop {
            match slots[i] {
                EMPTY => return false,
                stored if stored == word => return true,
                _ => i = (i + 1) & mask,
            }
        }
    }

    fn prefetch(&self, _: &S, word: Option<u64>) {
        if let Some(word) = word {
            let (segment, hash) = self.segment(word);
            let slots = &self.segments[segment].slots;
            prefetch(&slots[hash as usize & (slots.len() - 1)]);
        }
    }

    fn bytes(&self) -> usize {
        self.slots * 8
    }

    fn bytes_after_insert(&self) -> usize {
        // Segments grow one at a time, by at most the largest of them.
        (self.slots + self.largest) * 8
    }
}

/// Hash compaction: 64-bit fingerprints of states in a [`WordTable`]. Two states with one
/// fingerprint are taken for one, so a state may be missed; with `n` states the chance of
/// that is about `n² / 2^65`.
pub(crate) struct Fingerprints<S> {
    words: WordTable,
    hasher: RandomState,
    state: PhantomData<fn(&S)>,
}

impl<S: Hash> Fingerprints<S> {
    fn fingerprint(&self, state: &S) -> Option<u64> {
        // Never the empty marker.
        Some(self.hasher.hash_one(state).min(EMPTY - 1))
    }
}

impl<S: Hash> Seen<S> for Fingerprints<S> {
    fn with_capacity(capacity: usize) -> Self {
        Fingerprints {
            words: <WordTable as Seen<()>>::with_capacity(capacity),
            hasher: hasher(),
            state: PhantomData,
        }
    }

    fn len(&self) -> usize {
        self.words.len
    }

    fn insert(&mut self, state: S, _: Option<u64>) -> Lookup {
        let fingerprint = self.fingerprint(&state);
        Seen::<()>::insert(&mut self.words, (), fingerprint)
    }

    fn contains(&self, state: &S, _: Option<u64>) -> bool {
        Seen::<()>::contains(&self.words, &(), self.fingerprint(state))
    }

    fn prefetch(&self, state: &S, _: Option<u64>) {
        Seen::<()>::prefetch(&self.words, &(), self.fingerprint(state));
    }

    fn bytes(&self) -> usize {
        Seen::<()>::bytes(&self.words)
    }

    fn bytes_after_insert(&self) -> usize {
        Seen::<()>::bytes_after_insert(&self.words)
    }

    fn omission(&self) -> Option<(IncompleteReason, f64)> {
        Some((
            IncompleteReason::HashCompaction,
            compaction_omission(self.words.len as u64),
        ))
    }
}

/// The probability that storing `states` 64-bit fingerprints took two states for one: the
/// expected number of colliding pairs is `n (n - 1) / 2^65`.
pub(crate) fn compaction_omission(states: u64) -> f64 {
    let n = states as f64;
    -(-(n * (n - 1.0) / 2f64.powi(65))).exp_m1()
}

/// Bitstate hashing (Holzmann's supertrace): each state sets `hashes` bits of a fixed bit
/// array, and a state whose bits are all set already is taken as seen, so states may be
/// missed; the chance grows as the array fills.
pub(crate) struct Bitstate<S> {
    bits: BitVec<u64>,
    hashes: u32,
    len: usize,
    hasher: RandomState,
    state: PhantomData<fn(&S)>,
}

impl<S: Hash> Bitstate<S> {
    /// A bit array of `2^log2_bits` bits, `hashes` bits set per state.
    pub(crate) fn new(log2_bits: u32, hashes: u32) -> Self {
        Bitstate {
            bits: BitVec::repeat(false, 1 << log2_bits),
            hashes: hashes.max(1),
            len: 0,
            hasher: hasher(),
            state: PhantomData,
        }
    }

    /// The bit positions of a state: double hashing over two halves of one 64-bit hash
    /// spread twice.
    fn positions(&self, state: &S) -> impl Iterator<Item = usize> {
        let hash = self.hasher.hash_one(state);
        let (first, step) = (hash, mix(hash) | 1);
        let mask = self.bits.len() as u64 - 1;
        (0..u64::from(self.hashes))
            .map(move |i| (first.wrapping_add(i.wrapping_mul(step)) & mask) as usize)
    }
}

impl<S: Hash> Seen<S> for Bitstate<S> {
    fn with_capacity(_: usize) -> Self {
        Bitstate::new(27, 3)
    }

    fn len(&self) -> usize {
        self.len
    }

    fn insert(&mut self, state: S, _: Option<u64>) -> Lookup {
        let mut new = false;
        for position in self.positions(&state) {
            if !self.bits.replace(position, true) {
                new = true;
            }
        }
        if new {
            self.len += 1;
            Lookup::New((self.len - 1) as StateIndex)
        } else {
            Lookup::Seen(StateIndex::MAX)
        }
    }

    fn contains(&self, state: &S, _: Option<u64>) -> bool {
        self.positions(state).all(|position| self.bits[position])
    }

    fn bytes(&self) -> usize {
        self.bits.len() / 8
    }

    fn bytes_after_insert(&self) -> usize {
        self.bits.len() / 8
    }

    fn omission(&self) -> Option<(IncompleteReason, f64)> {
        // The i-th new state was taken for a seen one with probability (1 - e^(-k i / m))^k;
        // the sum over the states stored is the expected number missed.
        let (k, m, n) = (
            f64::from(self.hashes),
            self.bits.len() as f64,
            self.len as f64,
        );
        let steps = 1000.0_f64.min(n.max(1.0));
        let expected: f64 = (0..steps as u32)
            .map(|i| {
                let x = (f64::from(i) + 0.5) * n / steps;
                (1.0 - (-k * x / m).exp()).powf(k) * n / steps
            })
            .sum();
        Some((IncompleteReason::Bitstate, -(-expected).exp_m1()))
    }
}

/// Asks the processor to start loading the cache line of `value`.
#[inline(always)]
fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is a hint: it never faults, whatever the address, and the
    // address here is of a live reference.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
            (value as *const T).cast::<i8>(),
        );
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
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
