//! The sets of states already seen, and the one hashing policy they share.
//!
//! Every set is keyed one of three ways, chosen once per search by the plan
//! ([`Keying`]): by the state's own 64-bit word when every state fits in one
//! ([`Model::state_word`](crate::Model::state_word)), by a 64-bit [`fingerprint`] of the state
//! (hash compaction, and bitstate hashing of wide states), or by the state itself. The word
//! or fingerprint is computed once per successor by the search and handed to the set.
//!
//! The layouts, one per need:
//! * [`WordTable`]: words (exact states or fingerprints) in 256 open-addressing segments that
//!   grow one at a time; used through `&mut` by one thread and through `&self` (compare and
//!   swap, under a lock that only growth takes for writing) by many.
//! * [`StateTable`]: wide states inline in a hash table (one thread); [`ShardedStates`]: the
//!   same in 64 locked shards (many threads).
//! * [`IndexedStates`]: wide or narrow states in discovery order, found through a table of
//!   4-byte indices: the breadth-first queue and parent links in one.
//! * [`QuotientTable`]: states that fit in a word, exactly, in a few bytes each: the place
//!   of a state in the table stands for part of it (quotienting), only the rest is stored.
//! * [`TreeStates`](tree::TreeStates): wider states, exactly, in a few bytes each: the parts
//!   states share are stored once (tree compression), and each state as the pair of its
//!   halves' numbers in a [`QuotientTable`]. [`CompactStates`] is whichever of the two a
//!   search's states need.
//! * [`Bitstate`]: a few bits per state of a fixed bit array (supertrace); lossy.
//!
//! A set never allocates on its own: when storing a state needs more memory it answers
//! [`Lookup::Full`] with the bytes it needs, and the search asks its memory budget before
//! calling [`Store::grow`]. So the memory limit is checked before every large allocation.
//!
//! Everything hashes under fixed seeds, so a run is reproducible: the same model gives the
//! same table layout, memory figures and timings run after run.

mod bitstate;
mod filled;
mod flat;
mod nodes;
mod pages;
mod quotient;
mod states;
mod tree;
mod words;

use std::hash::Hash;

use ahash::RandomState;

pub(crate) use bitstate::Bitstate;
pub(crate) use flat::FlatStates;
pub(crate) use quotient::QuotientTable;
pub(crate) use states::{lock, IndexedStates, ShardedStates, StateTable};
pub(crate) use tree::CompactStates;
pub(crate) use words::{colours_of_mark, prefetch, word_of, SharedWords, WordTable, COLOURS};

use crate::verdict::IncompleteReason;

/// Marks an empty slot of a word table; neither [`Model::state_word`](crate::Model::state_word)
/// nor [`fingerprint`] ever returns it.
pub(crate) const EMPTY: u64 = u64::MAX;

/// The hasher of states, under fixed seeds (arbitrary constants: reproducible runs).
static HASHER: RandomState = RandomState::with_seeds(
    0x243f_6a88_85a3_08d3,
    0x1319_8a2e_0370_7344,
    0xa409_3822_299f_31d1,
    0x082e_fa98_ec4e_6c89,
);

/// The fixed-seed hasher as a `BuildHasher` with a `Default`, for the standard maps and
/// sets of the LTL searches (reproducible runs, as everywhere).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct FixedHasher;

impl std::hash::BuildHasher for FixedHasher {
    type Hasher = ahash::AHasher;

    fn build_hasher(&self) -> ahash::AHasher {
        HASHER.build_hasher()
    }
}

/// The hash of a state, for tables of whole states.
pub(crate) fn hash_state<S: Hash>(state: &S) -> u64 {
    HASHER.hash_one(state)
}

/// The bytes a state of `model` like `state` holds outside its value: the words of a state
/// wider than its type (the interpreter's boxed states, [`PackedState`](crate::PackedState)),
/// else none. The sets of whole states count them in their memory, and a depth-first
/// search's kept successors in their bound.
pub(crate) fn words_held_apart<M: crate::Model>(model: &M, state: &M::State) -> usize {
    let mut words = Vec::new();
    model.write_state_words(state, &mut words);
    let bytes = words.len() * std::mem::size_of::<u64>();
    if bytes > std::mem::size_of::<M::State>() {
        bytes
    } else {
        0
    }
}

/// The 64-bit fingerprint that hash compaction stores for a state; never [`EMPTY`].
pub(crate) fn fingerprint<S: Hash>(state: &S) -> u64 {
    hash_state(state).min(EMPTY - 1)
}

/// Spreads the bits of a word (the murmur3 finaliser), for the sets and choices that hash
/// words other than the word table's lookups: tree nodes, the quotient table's alternate
/// buckets, the bitstate array, the worker that owns a state. The word table, which hashes
/// every successor three times, spreads its words with one multiplication instead
/// (`words::spread`).
pub(crate) fn mix(word: u64) -> u64 {
    let mut h = word;
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33)
}

/// How a search keys its seen set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Keying {
    /// By [`Model::state_word`](crate::Model::state_word): every state fits in 63 bits.
    Word,
    /// By [`fingerprint`]: lossy.
    Fingerprint,
    /// By the state itself.
    State,
}

/// The position of a state in an [`IndexedStates`] (the initial state is 0).
pub(crate) type StateIndex = u32;

/// Memory a set needs before it can store a further state: how many bytes it will allocate
/// (the old storage stays allocated while it is copied, so this is the whole new storage),
/// and which part of the set grows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Growth {
    pub(crate) bytes: usize,
    pub(crate) part: usize,
}

/// What [`Store::insert`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lookup {
    /// The state was new and is now stored.
    New,
    /// The state was stored before, with the mark the set keeps with it: where it is, in
    /// a set that numbers its states; its colours or search number, in a word table that
    /// keeps them in its slots.
    Seen(Option<StateIndex>),
    /// The state is new, but storing it needs this growth first: nothing was stored.
    Full(Growth),
    /// The state is new, and the set cannot hold any more states.
    Exhausted,
}

/// A set of 64-bit words (exact states that fit in one, or fingerprints): a word table or a
/// quotient table. Every word set is a [`Store`] of any state type, keyed by the word its
/// search hands it ([`Keying::Word`] or [`Keying::Fingerprint`]).
pub(crate) trait WordSet {
    /// Looks `word` up and stores it if it is new and there is room.
    fn insert_word(&mut self, word: u64) -> Lookup;
    /// True when `word` is stored.
    fn contains_word(&self, word: u64) -> bool;
    /// Starts fetching the memory a lookup of `word` will read.
    fn prefetch_word(&mut self, word: u64);
    /// Allocates what a [`Lookup::Full`] asked for.
    fn grow_part(&mut self, growth: Growth);
}

impl<S, W: WordSet> Store<S> for W {
    #[inline(always)]
    fn insert(&mut self, _: &S, key: Option<u64>) -> Lookup {
        self.insert_word(word_of(key))
    }

    fn grow(&mut self, growth: Growth) {
        self.grow_part(growth);
    }

    fn contains(&mut self, _: &S, key: Option<u64>) -> bool {
        self.contains_word(word_of(key))
    }

    #[inline]
    fn prefetch(&mut self, key: Option<u64>) {
        if let Some(word) = key {
            self.prefetch_word(word);
        }
    }
}

/// A set of seen states as one search thread uses it: the set itself (one thread), or a
/// handle on a set shared by several.
pub(crate) trait Store<S> {
    /// Looks `state` up (by `key`, its word or fingerprint when the set is keyed so) and
    /// stores it if it is new and there is room.
    fn insert(&mut self, state: &S, key: Option<u64>) -> Lookup;
    /// Allocates what a [`Lookup::Full`] asked for.
    fn grow(&mut self, growth: Growth);
    /// True when `state` is stored (a lookup that never stores, for a search at its limit).
    fn contains(&mut self, state: &S, key: Option<u64>) -> bool;
    /// Starts fetching the memory a lookup of `key` will read (a hint; may do nothing).
    fn prefetch(&mut self, key: Option<u64>) {
        let _ = key;
    }
    /// Starts fetching the memory a lookup of `state` itself will read, in a set keyed by
    /// whole states (a hint; may do nothing).
    fn prefetch_state(&mut self, state: &S) {
        let _ = state;
    }
    /// Called between batches of work: a handle on a shared set lets the set grow.
    fn pause(&mut self) {}
}

/// The facts about a set that a report needs, whichever threads filled it.
pub(crate) trait Footprint {
    /// The memory the set holds (allocated capacity).
    fn bytes(&self) -> usize;
    /// For a set that may take a new state for one seen before: the mode, and the
    /// estimated probability that one of `states` stored states was missed.
    fn omission(&self, states: u64) -> Option<(IncompleteReason, f64)> {
        let _ = states;
        None
    }
}

impl<T: Footprint> Footprint for &T {
    fn bytes(&self) -> usize {
        (**self).bytes()
    }

    fn omission(&self, states: u64) -> Option<(IncompleteReason, f64)> {
        (**self).omission(states)
    }
}

/// A set that several search threads fill at once, each through its own handle.
pub(crate) trait SharedStore<S>: Footprint + Sync {
    /// One thread's access.
    type Handle<'a>: Store<S>
    where
        Self: 'a;
    /// A handle for one thread.
    fn handle(&self) -> Self::Handle<'_>;
}

/// The probability that storing `states` 64-bit fingerprints took two states for one: the
/// expected number of colliding pairs is `n (n - 1) / 2^65`.
pub(crate) fn compaction_omission(states: u64) -> f64 {
    let n = states as f64;
    -exp_m1(-(n * (n - 1.0) / 2f64.powi(65)))
}

/// `e^x - 1` for `x <= 0`, to about the last bit: what the omission estimates need, without
/// `f64::exp_m1` (nor `f64::round`, a call into the C library on processors without
/// SSE4.1): any call into the C maths library (`libm`) loads it, about 340 KiB more in
/// every checker's peak memory.
pub(crate) fn exp_m1(x: f64) -> f64 {
    if x.is_nan() || x > 0.0 {
        return f64::NAN;
    }
    if x < -50.0 {
        return -1.0;
    }
    // e^x = 2^n e^r, n the integer nearest x / ln 2 (truncating x / ln 2 - 1/2 toward
    // zero rounds a negative number), |r| <= ln(2) / 2.
    let n = (x / std::f64::consts::LN_2 - 0.5) as i32;
    let r = x - f64::from(n) * std::f64::consts::LN_2;
    // e^r - 1 by its series, from the smallest term: 20 terms reach 2^-53 of r.
    let mut series = 0.0;
    for k in (1..=20).rev() {
        series = r / f64::from(k) * (1.0 + series);
    }
    if n == 0 {
        series
    } else {
        (1.0 + series) * 2f64.powi(n) - 1.0
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    #[test]
    fn exp_m1_is_the_standard_one_without_the_c_library() {
        for i in 0..=4000 {
            let x = -f64::from(i) / 50.0;
            let (ours, std) = (exp_m1(x), x.exp_m1());
            assert!((ours - std).abs() <= 4.0 * f64::EPSILON * std.abs(), "{x}");
        }
        for x in [
            -1e-300, -1e-20, -1e-9, -3e-4, -0.3, -0.35, -0.4, -50.0, -1e6, -0.0,
        ] {
            let (ours, std) = (exp_m1(x), x.exp_m1());
            assert!((ours - std).abs() <= 4.0 * f64::EPSILON * std.abs(), "{x}");
        }
        assert!(exp_m1(1.0).is_nan() && exp_m1(f64::NAN).is_nan());
    }

    /// Inserts, growing whenever the set asks to.
    pub(crate) fn insert<S, T: Store<S>>(set: &mut T, state: &S, key: Option<u64>) -> Lookup {
        loop {
            match set.insert(state, key) {
                Lookup::Full(growth) => set.grow(growth),
                other => return other,
            }
        }
    }

    /// A set keyed by words (or by states: the key is the state as a word) stores each
    /// state once and finds it again across growth.
    pub(crate) fn new_then_seen<T: Store<u64> + Footprint>(mut set: T) -> T {
        assert_eq!(insert(&mut set, &10, Some(10)), Lookup::New);
        assert_eq!(insert(&mut set, &20, Some(20)), Lookup::New);
        assert!(matches!(insert(&mut set, &10, Some(10)), Lookup::Seen(_)));
        assert!(set.contains(&20, Some(20)));
        assert!(!set.contains(&30, Some(30)));
        for i in 0..10_000u64 {
            assert_eq!(
                insert(&mut set, &(i * 7919 + 1), Some(i * 7919 + 1)),
                Lookup::New
            );
        }
        for i in 0..10_000u64 {
            let state = i * 7919 + 1;
            assert!(matches!(
                insert(&mut set, &state, Some(state)),
                Lookup::Seen(_)
            ));
        }
        assert!(set.bytes() >= 10_000);
        set
    }

    #[test]
    fn fingerprints_are_never_the_empty_marker() {
        assert_ne!(fingerprint(&1u64), EMPTY);
        assert_eq!(fingerprint(&7u32), fingerprint(&7u32));
        assert_ne!(fingerprint(&7u32), fingerprint(&8u32));
        assert_ne!(mix(1), mix(2));
    }

    #[test]
    fn compaction_omission_grows_with_the_square_of_the_states() {
        assert!(compaction_omission(1) < 1e-18);
        let p = compaction_omission(1 << 20);
        assert!(p > 1e-8 && p < 1e-7, "{p}");
    }
}
