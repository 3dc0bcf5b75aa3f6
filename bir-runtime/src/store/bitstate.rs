//! [`Bitstate`]: Holzmann's supertrace. Each state sets a few bits of a fixed bit array, and
//! a state whose bits are all set already is taken as seen, so states may be missed; the
//! chance grows as the array fills. One thread sets bits with plain stores, several with
//! atomic `or`s on the same array.

use std::sync::atomic::{AtomicU64, Ordering};

use super::{exp_m1, mix, Footprint, Growth, Lookup, SharedStore, Store};
use crate::verdict::IncompleteReason;

/// A fixed array of `2^log2_bits` bits, `hashes` bits per state.
pub(crate) struct Bitstate {
    words: Box<[AtomicU64]>,
    log2_bits: u32,
    hashes: u32,
}

impl Bitstate {
    /// The bytes the array of `2^log2_bits` bits takes.
    pub(crate) fn bytes_for(log2_bits: u32) -> u64 {
        (1u64 << log2_bits) / 8
    }

    /// A cleared array of `2^log2_bits` bits (at least 64), `hashes` (1 to 8) bits set per
    /// state.
    pub(crate) fn new(log2_bits: u32, hashes: u32) -> Self {
        let log2_bits = log2_bits.max(6);
        let words = 1usize << (log2_bits - 6);
        Bitstate {
            words: (0..words).map(|_| AtomicU64::new(0)).collect(),
            log2_bits,
            hashes: hashes.clamp(1, 8),
        }
    }

    /// The bit positions of a key, as (word, bit mask): double hashing over the key and its
    /// mix.
    fn positions(&self, key: u64) -> impl Iterator<Item = (usize, u64)> {
        let (first, step) = (mix(key ^ 0x9e37_79b9_7f4a_7c15), mix(key) | 1);
        let mask = (1u64 << self.log2_bits) - 1;
        (0..u64::from(self.hashes)).map(move |i| {
            let bit = first.wrapping_add(i.wrapping_mul(step)) & mask;
            ((bit >> 6) as usize, 1u64 << (bit & 63))
        })
    }

    fn key(key: Option<u64>) -> u64 {
        match key {
            Some(key) => key,
            None => unreachable!("bitstate hashing keys states by word or fingerprint"),
        }
    }

    fn insert_shared(&self, key: u64) -> Lookup {
        let mut new = false;
        for (word, bit) in self.positions(key) {
            new |= self.words[word].fetch_or(bit, Ordering::Relaxed) & bit == 0;
        }
        if new {
            Lookup::New
        } else {
            Lookup::Seen(None)
        }
    }

    fn contains_key(&self, key: u64) -> bool {
        self.positions(key)
            .all(|(word, bit)| self.words[word].load(Ordering::Relaxed) & bit != 0)
    }
}

impl<S> Store<S> for Bitstate {
    fn insert(&mut self, _: &S, key: Option<u64>) -> Lookup {
        let mut new = false;
        let hashes = self.hashes as usize;
        let mut positions = [(0, 0); 8];
        for (slot, position) in positions.iter_mut().zip(self.positions(Self::key(key))) {
            *slot = position;
        }
        for &(word, bit) in &positions[..hashes.min(8)] {
            let word = self.words[word].get_mut();
            new |= *word & bit == 0;
            *word |= bit;
        }
        if new {
            Lookup::New
        } else {
            Lookup::Seen(None)
        }
    }

    fn grow(&mut self, _: Growth) {}

    fn contains(&mut self, _: &S, key: Option<u64>) -> bool {
        self.contains_key(Self::key(key))
    }
}

impl Footprint for Bitstate {
    fn bytes(&self) -> usize {
        self.words.len() * 8
    }

    fn omission(&self, states: u64) -> Option<(IncompleteReason, f64)> {
        // The i-th new state was taken for a seen one with probability (1 - e^(-k i / m))^k;
        // the sum over the states stored is the expected number missed.
        let (k, m, n) = (
            f64::from(self.hashes),
            (1u64 << self.log2_bits) as f64,
            states as f64,
        );
        let steps = 1000.0_f64.min(n.max(1.0));
        let expected: f64 = (0..steps as u32)
            .map(|i| {
                let x = (f64::from(i) + 0.5) * n / steps;
                (-exp_m1(-k * x / m)).powi(self.hashes as i32) * n / steps
            })
            .sum();
        Some((IncompleteReason::Bitstate, -exp_m1(-expected)))
    }
}

impl<S> SharedStore<S> for Bitstate {
    type Handle<'a> = &'a Bitstate;

    fn handle(&self) -> &Bitstate {
        self
    }
}

impl<S> Store<S> for &Bitstate {
    fn insert(&mut self, _: &S, key: Option<u64>) -> Lookup {
        self.insert_shared(Bitstate::key(key))
    }

    fn grow(&mut self, _: Growth) {}

    fn contains(&mut self, _: &S, key: Option<u64>) -> bool {
        self.contains_key(Bitstate::key(key))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_roomy_array_misses_nothing_and_a_cramped_one_misses_much() {
        let mut roomy = Bitstate::new(22, 3);
        let new = (0..1_000u64)
            .filter(|&k| Store::<()>::insert(&mut roomy, &(), Some(k)) == Lookup::New)
            .count();
        assert_eq!(new, 1_000);
        assert!((0..1_000u64).all(|k| Store::<()>::contains(&mut roomy, &(), Some(k))));
        assert!(roomy.omission(1_000).map_or(1.0, |(_, p)| p) < 1e-6);
        assert_eq!(roomy.bytes(), 1 << 19);
        let mut cramped = Bitstate::new(10, 2);
        let new = (0..10_000u64)
            .filter(|&k| Store::<()>::insert(&mut cramped, &(), Some(k)) == Lookup::New)
            .count();
        assert!(new < 10_000);
        assert!(cramped.omission(new as u64).map_or(0.0, |(_, p)| p) > 0.5);
        assert_eq!(cramped.bytes(), 128);
    }

    #[test]
    fn shared_and_single_thread_insertion_agree() {
        let mut single = Bitstate::new(12, 3);
        let shared = Bitstate::new(12, 3);
        for k in 0..2_000u64 {
            let a = Store::<()>::insert(&mut single, &(), Some(k));
            let b = Store::<()>::insert(&mut &shared, &(), Some(k));
            assert_eq!(a, b, "{k}");
        }
    }
}
