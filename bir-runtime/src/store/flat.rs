//! [`FlatStates`]: whole states wider than a word, held in their slots, in 16
//! open-addressing segments with linear probing and a one-byte tag per slot. A search
//! computes where a successor will be looked up and fetches that memory while it computes
//! the others ([`Store::prefetch_state`]): a wide state's lookup is a cache miss in the tags
//! and one in the slots, which [`StateTable`](super::StateTable)'s hashbrown tables cannot
//! start early (they keep their buckets to themselves). For states held in their value (the
//! generated checkers'); a state with words on the heap stays in a `StateTable`, whose slots
//! are never filled with copies.

use std::hash::Hash;
use std::mem::size_of;

use super::filled::Filled;
use super::words::prefetch;
use super::{hash_state, Footprint, Growth, Lookup, Store};

/// The number of segments, by bits 40 to 43 of a state's hash. Few, so that a large set's
/// segments are large enough for huge pages ([`Filled`]); a growth still rehashes only
/// 1/16 of the set.
const SEGMENTS: usize = 16;

/// Slots of a segment's first allocation.
const MIN_SLOTS: usize = 16;

/// A segment grows once more than 7/8 of its slots would be used (as hashbrown): linear
/// probes stay short, and a probe always ends at an empty slot.
const LOAD_PER_8: usize = 7;

/// The tag of an empty slot; a used slot's tag has its top bit set.
const EMPTY_TAG: u8 = 0;

/// One open-addressing table: `tags[i]` says whether `slots[i]` holds a state (and 7 bits
/// of its hash, so that a probe compares few states).
struct Segment<S> {
    tags: Filled<u8>,
    slots: Filled<S>,
    used: usize,
}

impl<S: Clone + Eq + Hash> Segment<S> {
    fn empty() -> Self {
        Segment {
            tags: Filled::empty(),
            slots: Filled::empty(),
            used: 0,
        }
    }

    /// Whether one more state fits under the load limit.
    fn has_room(&self) -> bool {
        (self.used + 1) * 8 <= self.tags.len() * LOAD_PER_8
    }

    /// The slots of the next allocation.
    fn next_slots(&self) -> usize {
        (self.tags.len() * 2).max(MIN_SLOTS)
    }

    /// Where `hash` starts probing (the segment must have slots).
    fn start(&self, hash: u64) -> usize {
        hash as usize & (self.tags.len() - 1)
    }

    /// The slot holding `state`, or the empty slot where it would go.
    fn probe(&self, state: &S, hash: u64) -> Result<usize, usize> {
        let (mask, tag) = (self.tags.len() - 1, tag_of(hash));
        let mut index = self.start(hash);
        loop {
            match self.tags[index] {
                EMPTY_TAG => return Err(index),
                t if t == tag && self.slots[index] == *state => return Ok(index),
                _ => index = (index + 1) & mask,
            }
        }
    }

    /// The segment with `slots` slots holding the same states, each copied once; `filler`
    /// fills the empty slots.
    fn resized(&mut self, slots: usize, filler: &S) -> Segment<S> {
        let mut grown = Segment {
            tags: Filled::new(slots, EMPTY_TAG),
            slots: Filled::new(slots, filler.clone()),
            used: self.used,
        };
        for (tag, state) in self.tags.iter().zip(self.slots.iter()) {
            if *tag != EMPTY_TAG {
                let hash = hash_state(state);
                if let Err(index) = grown.probe(state, hash) {
                    grown.tags[index] = *tag;
                    grown.slots[index] = state.clone();
                }
            }
        }
        grown
    }
}

/// A used slot's tag: the top 7 bits of the hash, with the top bit set.
fn tag_of(hash: u64) -> u8 {
    0x80 | (hash >> 57) as u8
}

/// The segment of a hash (bits the probe start and the tag do not use at usual sizes).
fn segment_of(hash: u64) -> usize {
    (hash >> 40) as usize & (SEGMENTS - 1)
}

/// Wide states held in flat open-addressing segments.
pub(crate) struct FlatStates<S> {
    segments: Box<[Segment<S>]>,
    /// A state to fill empty slots with: the first one offered (slots are plain values, so
    /// a segment allocates them filled).
    filler: Option<S>,
}

impl<S: Clone + Eq + Hash> FlatStates<S> {
    /// An empty set.
    pub(crate) fn new() -> Self {
        FlatStates {
            segments: (0..SEGMENTS).map(|_| Segment::empty()).collect(),
            filler: None,
        }
    }
}

impl<S: Clone + Eq + Hash> Store<S> for FlatStates<S> {
    #[inline]
    fn insert(&mut self, state: &S, _: Option<u64>) -> Lookup {
        let hash = hash_state(state);
        let part = segment_of(hash);
        let segment = &mut self.segments[part];
        // A segment without slots has no room either.
        let empty = match segment.tags.is_empty() {
            true => None,
            false => match segment.probe(state, hash) {
                Ok(_) => return Lookup::Seen(None),
                Err(index) => Some(index),
            },
        };
        match empty {
            Some(index) if segment.has_room() => {
                segment.tags[index] = tag_of(hash);
                segment.slots[index] = state.clone();
                segment.used += 1;
                Lookup::New
            }
            _ => {
                if self.filler.is_none() {
                    self.filler = Some(state.clone());
                }
                Lookup::Full(Growth {
                    bytes: segment.next_slots() * (1 + size_of::<S>()),
                    part,
                })
            }
        }
    }

    fn grow(&mut self, growth: Growth) {
        let Some(filler) = &self.filler else {
            return;
        };
        let segment = &mut self.segments[growth.part];
        let slots = segment.next_slots();
        *segment = segment.resized(slots, filler);
    }

    fn contains(&mut self, state: &S, _: Option<u64>) -> bool {
        let hash = hash_state(state);
        let segment = &self.segments[segment_of(hash)];
        !segment.tags.is_empty() && segment.probe(state, hash).is_ok()
    }

    #[inline]
    fn prefetch_state(&mut self, state: &S) {
        let hash = hash_state(state);
        let segment = &self.segments[segment_of(hash)];
        if !segment.tags.is_empty() {
            let start = segment.start(hash);
            prefetch(&segment.tags[start]);
            // A slot wider than the gap to its cache line's end spans two lines.
            let slot: *const S = &segment.slots[start];
            prefetch(slot);
            prefetch(slot.cast::<u8>().wrapping_add(size_of::<S>() - 1));
        }
    }
}

impl<S> Footprint for FlatStates<S> {
    fn bytes(&self) -> usize {
        self.segments
            .iter()
            .map(|segment| segment.tags.len() * (1 + size_of::<S>()))
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{insert, new_then_seen};
    use super::*;

    #[test]
    fn states_are_stored_once_and_found_across_growth() {
        let set = new_then_seen(FlatStates::<u64>::new());
        let stored: usize = set.segments.iter().map(|s| s.used).sum();
        assert_eq!(stored, 10_002);
        assert!(set.segments.iter().all(|s| s.used * 8 <= s.tags.len() * 7));
    }

    #[test]
    fn wide_states_compare_whole() {
        let mut set = FlatStates::<[u64; 5]>::new();
        for i in 0..5_000u64 {
            let state = [i, i ^ 1, 7, 0, i * 3];
            assert_eq!(insert(&mut set, &state, None), Lookup::New);
        }
        for i in 0..5_000u64 {
            assert!(set.contains(&[i, i ^ 1, 7, 0, i * 3], None));
            assert!(!set.contains(&[i, i ^ 1, 7, 1, i * 3], None));
        }
        set.prefetch_state(&[1, 0, 7, 0, 3]);
        assert!(set.bytes() >= 5_000 * 41);
    }
}
