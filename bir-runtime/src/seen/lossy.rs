//! Lossy seen sets, which may take a new state for one seen before and so never let a
//! search say verified: [`Fingerprints`] (hash compaction) and [`Bitstate`] (supertrace).

use std::hash::Hash;
use std::marker::PhantomData;

use ahash::RandomState;
use bitvec::vec::BitVec;

use super::words::{mix, WordTable, EMPTY};
use super::{hasher, Lookup, Seen, StateIndex};
use crate::report::IncompleteReason;

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
        Seen::<()>::len(&self.words)
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
            compaction_omission(Seen::<()>::len(&self.words) as u64),
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
