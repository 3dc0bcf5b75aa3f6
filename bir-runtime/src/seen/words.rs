//! [`WordTable`]: states that fit in one word (see
//! [`Model::state_word`](crate::Model::state_word)) stored as words, in 256 segments of
//! open-addressing tables with linear probing, each growing on its own.

use super::{Lookup, Seen, StateIndex};

/// Marks an empty slot of a [`WordTable`]; `Model::state_word` never returns it.
pub(crate) const EMPTY: u64 = u64::MAX;

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

/// Asks the processor to start loading the cache line of `value`.
#[inline(always)]
pub(crate) fn prefetch<T>(value: &T) {
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
