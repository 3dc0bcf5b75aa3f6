//! [`QuotientTable`]: an exact set of states that fit in a word, storing a few bytes per
//! state by quotienting (Cleary; the quotient filter): where a state is stored says part of
//! what it is, so only the rest of it is kept.
//!
//! A state's word `x` of `b` bits (the set learns `b` from the widest word it has met) is
//! first permuted by an invertible mix of `b`-bit integers, `y = permute(x)`, so that every
//! bit of `x` spreads over `y`. The top 8 bits of `y` choose one of 256 segments; within a
//! segment of `n` buckets the other `b - 8` bits, `z`, are split by one division into the
//! home bucket `z / R` and the remainder `z % R`, where `R = ceil(2^(b-8) / n)`. A bucket is
//! one cache line holding a count and as many `(remainder, choice)` entries as fit. An entry
//! whose home bucket is full goes to its alternate bucket (home plus an offset computed from
//! the remainder, so the home can be found again from where the entry is) with the choice
//! bit set, and the home bucket is marked as having overflowed, so a lookup reads a second
//! line only for the few buckets that did. The remainder, the bucket and the choice give
//! back `z`, and `y` and `x` with the segment: nothing is lost, and a complete search over
//! this set may say verified.
//!
//! The number of buckets of a segment is not a power of two: a segment grows by a quarter
//! when both of a new state's buckets are full (its remainders lose a bit now and then), so
//! the buckets stay between about 70% and 95% full (a segment's size is rounded up to whole
//! pages). A growth takes one segment's words out, 1/256 of the set, and puts them back into
//! the same memory and more: blocks of 64 KiB, and a last, shorter one in pages of its own
//! that lengthens in place ([`pages`](super::pages)). A word wider
//! than any before changes `b` and rebuilds the whole set, one old segment at a time: early
//! in a search when the words are states (the search soon meets the widest ones), now and
//! then throughout when they are the roots of a tree ([`tree`](super::tree)), whose numbers
//! grow with the search.

mod bucket;
mod layout;
mod segment;
#[cfg(test)]
mod tests;

use self::bucket::Bucket;
use self::layout::{Layout, Place, M1};
use self::segment::{room_at, segment_bytes, size_at, Segment};
use super::pages::{Block, Zeroable, PAGE};
use super::words::prefetch;
use super::{mix, Footprint, Growth, Lookup, WordSet};

/// Segments of the set, chosen by the top bits of a permuted word.
const SEGMENT_BITS: u32 = 8;
const SEGMENTS: usize = 1 << SEGMENT_BITS;

/// Buckets of a new segment (at least; see [`buckets_at`](segment::buckets_at)).
const MIN_BUCKETS: u64 = 2;

/// The factor by which a segment grows.
const GROWTH: f64 = 1.25;

/// The narrowest words the set is laid out for: narrower words are stored as this many
/// bits (a segment's remainders are then still wide enough to address it).
const MIN_WIDTH: u32 = 24;

/// A segment grows once this many 1024ths of its entries are used (92%).
const LOAD_PER_1024: usize = 944;

/// How full a widening leaves the new segments (80%): a widening may come late in a search
/// (a tree's root set widens whenever its indices gain a bit), and a set laid out emptier
/// would keep the extra bytes per state until its segments next grow.
const WIDEN_LOAD_PER_1024: usize = 820;

/// The most entries one insertion moves to make room before the segment grows.
const KICKS: usize = 32;

/// The growth part that widens the whole set (the segments are parts 0 to 255).
const WIDEN: usize = SEGMENTS;

/// An exact set of words, a few bytes each: see the [module](self).
pub(crate) struct QuotientTable {
    segments: Box<[Segment]>,
    /// The width of the words as laid out (0 before the first word), and what lookups
    /// derive from it.
    layout: Layout,
    /// The widest word met (a wider one than `width` waits for [`WIDEN`]).
    wanted: u32,
    /// The words prefetched last, with where they go: a search prefetches a state's
    /// successors and then visits them, and the insertion finds its word's place here
    /// instead of computing it again (a permutation, a division). Emptied when the layout
    /// changes.
    recent: [Located; RECENT],
}

/// Words remembered in [`QuotientTable::recent`]: many more than a state has successors, so
/// that few of one state's collide, and a state's untaken successors are often still there
/// when the search returns to it (on the philosophers' deep paths, fewer entries execute
/// more instructions).
const RECENT_BITS: u32 = 6;
const RECENT: usize = 1 << RECENT_BITS;

/// A word, its segment and its place there; a segment past the last for none.
#[derive(Clone, Copy, Debug)]
struct Located {
    word: u64,
    index: usize,
    place: Place,
}

impl Located {
    const NONE: Located = Located {
        word: 0,
        index: SEGMENTS,
        place: Place {
            home: 0,
            remainder: 0,
        },
    };
}

/// The entry of [`QuotientTable::recent`] for `word`.
#[inline(always)]
fn recent_slot(word: u64) -> usize {
    (word.wrapping_mul(M1) >> (64 - RECENT_BITS)) as usize
}

impl QuotientTable {
    /// An empty set.
    pub(crate) fn new() -> QuotientTable {
        QuotientTable {
            segments: Box::new([]),
            layout: Layout::new(0),
            wanted: 0,
            recent: [Located::NONE; RECENT],
        }
    }

    /// The words stored.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.segments.iter().map(|s| s.used).sum()
    }

    /// The segment of a word and where in it the word goes.
    #[inline(always)]
    fn locate(&self, word: u64) -> (usize, u64) {
        let y = self.layout.permute(word);
        (
            (y >> self.layout.part_bits) as usize,
            y & self.layout.part_mask,
        )
    }

    /// True when `word` is wider than the set's layout.
    #[inline(always)]
    fn too_wide(&self, word: u64) -> bool {
        word >> self.layout.width != 0 || self.segments.is_empty()
    }

    /// [`insert_word`](Self::insert_word) for a word whose place is not remembered.
    fn insert_located(&mut self, word: u64) -> Lookup {
        if self.too_wide(word) {
            self.wanted = self.wanted.max(64 - word.leading_zeros()).max(MIN_WIDTH);
            return Lookup::Full(Growth {
                bytes: self
                    .bytes()
                    .max((0..SEGMENTS).map(|i| segment_bytes(size_at(i, 0))).sum()),
                part: WIDEN,
            });
        }
        let (index, part) = self.locate(word);
        let place = self.segments[index].place(part);
        self.insert_at(index, place)
    }

    /// Inserts the word at `place` of segment `index`.
    #[inline(always)]
    fn insert_at(&mut self, index: usize, place: Place) -> Lookup {
        let segment = &mut self.segments[index];
        if segment.contains(place) {
            return Lookup::Seen(None);
        }
        if !segment.is_full() && segment.add(place) {
            Lookup::New
        } else {
            let buckets = size_at(index, segment.next_generation(index));
            Lookup::Full(Growth {
                bytes: segment_bytes(buckets),
                part: index,
            })
        }
    }

    /// Segment `index` of at least `generation` holding `parts` (of a later generation if
    /// they do not fit), in the memory of `blocks` where it can.
    fn rebuilt(
        index: usize,
        mut generation: u32,
        bits: u32,
        parts: &[u64],
        mut blocks: Vec<Block<Bucket>>,
    ) -> Segment {
        loop {
            let mut segment = Segment::with_blocks(size_at(index, generation), bits, blocks);
            segment.generation = generation;
            if parts.iter().all(|&part| segment.add(segment.place(part))) {
                return segment;
            }
            // A generation of the same size would fail the same way.
            generation = segment.next_generation(index);
            blocks = segment.take_blocks();
        }
    }

    /// Grows segment `index`: its words are taken out, and put back into a larger segment
    /// in the same memory and more.
    fn grow_segment(&mut self, index: usize) {
        self.regrow(index, self.layout.part_bits, Vec::new());
    }

    /// Segment `index` of a later generation, holding its own words and the parts `parts`
    /// (of words for it, whose segment part has `bits` bits), in its own memory and more.
    fn regrow(&mut self, index: usize, bits: u32, mut parts: Vec<u64>) {
        let segment = &mut self.segments[index];
        segment.parts(&mut parts);
        let generation = segment.next_generation(index);
        let blocks = segment.take_blocks();
        self.segments[index] = Self::rebuilt(index, generation, bits, &parts, blocks);
    }

    /// Lays the set out for words of `self.wanted` bits, moving every stored word. A first
    /// pass over the old segments only counts the words of each new segment, which is then
    /// allocated at [`WIDEN_LOAD_PER_1024`]; the second moves the words one old segment at a
    /// time, freeing each once it is moved. The set never holds more than both layouts and
    /// one segment's words: a list of every word would cost more than the set (8 bytes a
    /// word against a few), and a tree's root set widens late in a search too.
    fn widen(&mut self) {
        let (old_layout, mut old) = (self.layout, std::mem::take(&mut self.segments));
        self.layout = Layout::new(self.wanted);
        let bits = self.layout.part_bits;
        let mut words = Vec::new();
        let mut counts = vec![0usize; SEGMENTS];
        for (index, segment) in old.iter().enumerate() {
            segment.words(index, old_layout, &mut words);
            for &word in &words {
                counts[self.locate(word).0] += 1;
            }
        }
        self.segments = counts
            .iter()
            .enumerate()
            .map(|(index, &count)| {
                let generation = (0..)
                    .find(|&g| room_at(index, g, bits) >= count)
                    .unwrap_or(0);
                let mut segment = Segment::new(size_at(index, generation), bits);
                segment.generation = generation;
                segment
            })
            .collect();
        for (index, segment) in old.iter_mut().enumerate() {
            segment.words(index, old_layout, &mut words);
            segment.take_blocks();
            for &word in &words {
                self.add_moved(word, bits);
            }
        }
    }

    /// Stores a word moved by a widening, in a segment of a later generation if its own
    /// has no room for it.
    fn add_moved(&mut self, word: u64, bits: u32) {
        let (index, part) = self.locate(word);
        let segment = &mut self.segments[index];
        if segment.add(segment.place(part)) {
            return;
        }
        self.regrow(index, bits, vec![part]);
    }

    /// Every word stored, in no particular order.
    #[cfg(test)]
    fn words(&self) -> Vec<u64> {
        let (mut words, mut segment_words) = (Vec::new(), Vec::new());
        for (index, segment) in self.segments.iter().enumerate() {
            segment.words(index, self.layout, &mut segment_words);
            words.extend_from_slice(&segment_words);
        }
        words
    }
}

impl WordSet for QuotientTable {
    #[inline(always)]
    fn insert_word(&mut self, word: u64) -> Lookup {
        let (index, place) = match self.recent[recent_slot(word)] {
            located if located.word == word && located.index < SEGMENTS => {
                (located.index, located.place)
            }
            _ => return self.insert_located(word),
        };
        self.insert_at(index, place)
    }

    fn contains_word(&self, word: u64) -> bool {
        if self.too_wide(word) {
            return false;
        }
        let (index, part) = self.locate(word);
        let segment = &self.segments[index];
        segment.contains(segment.place(part))
    }

    fn prefetch_word(&mut self, word: u64) {
        if self.too_wide(word) {
            return;
        }
        let (index, part) = self.locate(word);
        let segment = &self.segments[index];
        let place = segment.place(part);
        prefetch(segment.bucket(place.home));
        self.recent[recent_slot(word)] = Located { word, index, place };
    }

    fn grow_part(&mut self, growth: Growth) {
        self.recent = [Located::NONE; RECENT];
        if growth.part == WIDEN {
            if self.wanted > self.layout.width {
                self.widen();
            }
        } else if growth.part < self.segments.len() {
            self.grow_segment(growth.part);
        }
    }
}

impl Footprint for QuotientTable {
    fn bytes(&self) -> usize {
        self.segments.iter().map(Segment::bytes).sum()
    }
}
