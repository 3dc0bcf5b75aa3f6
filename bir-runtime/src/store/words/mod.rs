//! [`WordTable`]: 64-bit words (states that fit in a word, or fingerprints) in 256
//! open-addressing segments with linear probing, each growing on its own, so a growth copies
//! 1/256 of the table rather than all of it, and the peak memory of a growth is that much more.
//!
//! A numbered table ([`WordTable::numbered`]) keeps a number with each word: the search for
//! fair cycles keeps there the search numbers of the states it has not finished with, so
//! that the lookup that finds a state also finds its number: the insertion of a word seen
//! before answers it ([`Lookup::Seen`]), as it answers the colours of a word in a coloured
//! table. Words of a known width keep their numbers in the slot's bits above the word, as
//! colours, at no cost in memory; when a number outgrows those bits (or the words are
//! fingerprints, which use all 64), the numbers move to 32-bit arrays beside the slots
//! ([`WordTable::spill_bytes`], [`WordTable::spill`]).
//!
//! One table serves one thread (through `&mut`, plain loads and stores) and many (through
//! [`SharedWords`]: lookups are plain loads, a new word is one compare-and-swap; threads hold a
//! read lock for a batch of work, and a segment grows under the write lock between batches).

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{RwLock, RwLockReadGuard};

use super::{compaction_omission, Footprint, Growth, Lookup, SharedStore, Store, WordSet, EMPTY};
use crate::verdict::IncompleteReason;

/// A segment grows once more than this many 1024ths of its slots would be used (7/8, as
/// hashbrown): linear probing stays within a cache line or two at that load, and more of the
/// memory holds states. Used slots never reach all of them, so every probe ends.
const LOAD_PER_1024: usize = 896;

/// The table is split into this many segments by the top bits of a word's hash.
const SEGMENTS: usize = 256;

/// Slots of each segment of a new table.
const MIN_SEGMENT: usize = 16;

/// Spreads the bits of a word over a table by one multiplication: the 128-bit product with
/// an odd constant, its halves folded together (the "folded multiply" of wyhash and ahash).
/// Every bit of the word moves the high half, so both ends of the result depend on all of
/// them; a third of the instructions and latency of the murmur finaliser ([`super::mix`]),
/// which a table looking each successor up (and fetching its slot ahead) pays three times a
/// transition.
#[inline(always)]
fn spread(word: u64) -> u64 {
    let product = u128::from(word) * 0x9e37_79b9_7f4a_7c15;
    (product as u64) ^ ((product >> 64) as u64)
}

/// Words in segments of open-addressing tables.
pub(crate) struct WordTable {
    /// A fixed number, so that indexing by the top byte of a hash needs no bounds check.
    segments: Box<[Segment; SEGMENTS]>,
    /// Slots of all segments, and of the largest, kept up to date for the memory figures.
    slots: usize,
    largest: usize,
    /// Whether the words are fingerprints (for the omission estimate).
    lossy: bool,
    /// The bits of a stored word that are colours ([`COLOURS`] in a coloured table, none
    /// otherwise): they are no part of the word's identity.
    colours: u64,
    /// The lowest bit of `colours`: an insertion that meets a word again says its colours
    /// shifted down by this many bits.
    shift: u32,
    /// The largest number a numbered table keeps in its words' colour bits; 0 when the
    /// numbers are in arrays beside the slots, or the table keeps none.
    in_words: u32,
    /// The colours a word is stored with when it is inserted (none unless the table is
    /// coloured): a search that colours every new state at once saves a lookup per state.
    fresh: u64,
    /// The last word inserted, its segment and slot (the word [`EMPTY`] when a growth
    /// moved it): the search for fair cycles numbers each new state right after inserting
    /// it, and [`WordTable::set_number`] then needs no second lookup.
    last_new: (u64, usize, usize),
}

/// The colour bits of a coloured table ([`WordTable::coloured`]), above the words' 61 bits.
pub(crate) const COLOURS: u64 = 0b11 << 61;

/// The fewest bits above its words in which a numbered table keeps their numbers; with
/// fewer, the numbers would soon outgrow them.
const MIN_NUMBER_BITS: u32 = 12;

/// The mark of the stored slot `stored`, its bits `colours` (from bit `shift` up), as an
/// insertion that meets its word gives it ([`Lookup::Seen`]): a coloured table's colours,
/// or the number a numbered table keeps in its words.
#[inline(always)]
fn mark_of(stored: u64, colours: u64, shift: u32) -> u32 {
    ((stored & colours) >> shift) as u32
}

/// The colour bits of the mark an insertion into a coloured table gave ([`mark_of`]).
pub(crate) fn colours_of_mark(mark: u32) -> u64 {
    u64::from(mark) << COLOURS.trailing_zeros() & COLOURS
}

/// One segment: its slots (a power of two) and how many are used.
struct Segment {
    slots: Box<[AtomicU64]>,
    /// The number of each slot's word in a numbered table; empty otherwise.
    numbers: Box<[u32]>,
    used: AtomicUsize,
}

impl Segment {
    fn new(slots: usize, numbered: bool) -> Segment {
        Segment {
            slots: (0..slots).map(|_| AtomicU64::new(EMPTY)).collect(),
            numbers: vec![0; if numbered { slots } else { 0 }].into_boxed_slice(),
            used: AtomicUsize::new(0),
        }
    }

    /// The bytes of a slot: the word, and its number in a numbered table.
    fn slot_bytes(&self) -> usize {
        if self.numbers.is_empty() {
            8
        } else {
            12
        }
    }

    /// The most words the segment holds before it must grow.
    fn capacity(&self) -> usize {
        self.slots.len() * LOAD_PER_1024 / 1024
    }

    fn growth(&self, index: usize) -> Growth {
        Growth {
            bytes: self.slots.len() * 2 * self.slot_bytes(),
            part: index,
        }
    }

    /// The segment with twice the slots; `colours` are bits of the words to hash without.
    fn doubled(&mut self, colours: u64) -> Segment {
        let numbered = !self.numbers.is_empty();
        let mut bigger = Segment::new(self.slots.len() * 2, numbered);
        let mask = bigger.slots.len() - 1;
        for (old, word) in self.slots.iter_mut().map(|w| *w.get_mut()).enumerate() {
            if word != EMPTY {
                let mut i = spread(word & !colours) as usize & mask;
                while bigger.slots[i].load(Ordering::Relaxed) != EMPTY {
                    i = (i + 1) & mask;
                }
                bigger.slots[i].store(word, Ordering::Relaxed);
                if numbered {
                    bigger.numbers[i] = self.numbers[old];
                }
            }
        }
        bigger.used.store(*self.used.get_mut(), Ordering::Relaxed);
        bigger
    }
}

impl WordTable {
    /// An empty table with room for about `capacity` words before it first grows; `lossy`
    /// when the words are fingerprints.
    pub(crate) fn new(capacity: usize, lossy: bool) -> WordTable {
        let per_segment = (capacity / SEGMENTS * 1024 / LOAD_PER_1024 + 1)
            .next_power_of_two()
            .max(MIN_SEGMENT);
        WordTable {
            segments: Box::new(std::array::from_fn(|_| Segment::new(per_segment, false))),
            slots: per_segment * SEGMENTS,
            largest: per_segment,
            lossy,
            colours: 0,
            shift: 0,
            in_words: 0,
            fresh: 0,
            last_new: (EMPTY, 0, 0),
        }
    }

    /// An empty table that keeps a number with each word, 0 when the word is stored
    /// ([`WordTable::number`], [`WordTable::set_number`]); `lossy` when the words are
    /// fingerprints, `word_bits` the width of the words when every one fits in it. With at
    /// least [`MIN_NUMBER_BITS`] bits above that width, the numbers start there.
    pub(crate) fn numbered(lossy: bool, word_bits: Option<u32>) -> WordTable {
        let table = WordTable::new(0, lossy);
        match word_bits.filter(|_| !lossy) {
            Some(bits) if 64 - bits.min(64) >= MIN_NUMBER_BITS => {
                let spare = (64 - bits).min(32);
                // All ones in every bit would be EMPTY: the largest number leaves one clear.
                let largest = ((1u64 << spare) - 2) as u32;
                WordTable {
                    colours: ((1u64 << spare) - 1) << bits,
                    shift: bits,
                    in_words: largest,
                    ..table
                }
            }
            _ => WordTable {
                segments: Box::new(std::array::from_fn(|_| Segment::new(table.largest, true))),
                ..table
            },
        }
    }

    /// The bytes that numbering a state `number` first needs, when the table's numbers
    /// must move out of its words to arrays beside them ([`WordTable::spill`]) for it.
    pub(crate) fn spill_bytes(&self, number: u32) -> Option<usize> {
        self.outgrows_words(number).then(|| self.slots * 4)
    }

    /// Whether `number` is too large for the bits above the words that keep the numbers.
    #[inline]
    fn outgrows_words(&self, number: u32) -> bool {
        self.in_words != 0 && number > self.in_words
    }

    /// Moves the numbers out of the words into arrays beside the slots, which hold any
    /// 32-bit number. The words stay in their slots. Once in a search at most: kept out of
    /// line, so that numbering a state stays small enough to inline.
    #[cold]
    #[inline(never)]
    pub(crate) fn spill(&mut self) {
        if self.in_words == 0 {
            return;
        }
        let (colours, shift) = (self.colours, self.shift);
        for segment in self.segments.iter_mut() {
            let mut numbers = vec![0u32; segment.slots.len()].into_boxed_slice();
            for (slot, number) in segment.slots.iter_mut().zip(numbers.iter_mut()) {
                let stored = slot.get_mut();
                if *stored != EMPTY {
                    *number = mark_of(*stored, colours, shift);
                    *stored &= !colours;
                }
            }
            segment.numbers = numbers;
        }
        self.colours = 0;
        self.shift = 0;
        self.in_words = 0;
    }

    /// The segment and slot of the stored `word`, if it is stored.
    fn find(&self, word: u64) -> Option<(usize, usize)> {
        let (index, hash) = Self::place(word);
        let slots = &self.segments[index].slots;
        let mask = slots.len() - 1;
        let mut i = hash as usize & mask;
        loop {
            match slots[i].load(Ordering::Acquire) {
                EMPTY => return None,
                stored if stored & !self.colours == word => return Some((index, i)),
                _ => i = (i + 1) & mask,
            }
        }
    }

    /// The number of the stored `word` in a numbered table (0 in any other), or `None`
    /// when the word is not stored.
    pub(crate) fn number(&self, word: u64) -> Option<u32> {
        let (segment, slot) = self.find(word)?;
        let segment = &self.segments[segment];
        Some(match segment.numbers.get(slot) {
            Some(&number) => number,
            None if self.in_words != 0 => mark_of(
                segment.slots[slot].load(Ordering::Relaxed),
                self.colours,
                self.shift,
            ),
            None => 0,
        })
    }

    /// Sets the number of the stored `word` in a numbered table; false when the word is
    /// not stored or the table keeps no numbers. A number too large for the words' bits
    /// moves the numbers out of them first ([`WordTable::spill`]).
    #[inline]
    pub(crate) fn set_number(&mut self, word: u64, number: u32) -> bool {
        if self.outgrows_words(number) {
            self.spill();
        }
        let (last, segment, slot) = self.last_new;
        let found = if last == word {
            Some((segment, slot))
        } else {
            self.find(word)
        };
        let Some((segment, slot)) = found else {
            return false;
        };
        let segment = &mut self.segments[segment];
        match segment.numbers.get_mut(slot) {
            Some(stored) => {
                *stored = number;
                true
            }
            None if self.in_words != 0 => {
                let stored = segment.slots[slot].get_mut();
                *stored = *stored & !self.colours | u64::from(number) << self.shift;
                true
            }
            None => false,
        }
    }

    /// An empty exact table of words of at most 61 bits, each stored with two colour bits
    /// ([`COLOURS`]) that [`WordTable::recolour`] sets and clears, those of `fresh` set when
    /// a word is inserted: the nested depth-first search keeps its blue, cyan and red states
    /// in one table, and enters every new state cyan.
    pub(crate) fn coloured(fresh: u64) -> WordTable {
        WordTable {
            colours: COLOURS,
            shift: COLOURS.trailing_zeros(),
            fresh: fresh & COLOURS,
            ..WordTable::new(0, false)
        }
    }

    /// Sets the colour bits `set` and clears `clear` of the stored `word` (which has no
    /// colour bits); returns its colour bits before, or `None` when it is not stored.
    pub(crate) fn recolour(&mut self, word: u64, set: u64, clear: u64) -> Option<u64> {
        self.recolour_with(word, |colours| (colours | set) & !clear)
    }

    /// Sets the colour bits `set` of the stored `word` unless it has one of `unless`;
    /// returns its colour bits before, or `None` when it is not stored.
    pub(crate) fn recolour_unless(&mut self, word: u64, set: u64, unless: u64) -> Option<u64> {
        self.recolour_with(word, |colours| match colours & unless {
            0 => colours | set,
            _ => colours,
        })
    }

    /// Changes the colour bits of the stored `word` (which has none) by `change`; returns
    /// them before, or `None` when the word is not stored.
    fn recolour_with(&mut self, word: u64, change: impl Fn(u64) -> u64) -> Option<u64> {
        debug_assert_eq!(word & COLOURS, 0);
        let (segment, slot) = self.find(word)?;
        let slot = self.segments[segment].slots[slot].get_mut();
        let colours = *slot & self.colours;
        *slot = word | (change(colours) & self.colours);
        Some(colours)
    }

    /// The colour bits of the stored `word` (none in a table without colours), or `None`
    /// when it is not stored; the lookup of every table, shared ones included.
    pub(crate) fn colours_of(&self, word: u64) -> Option<u64> {
        let (segment, slot) = self.find(word)?;
        Some(self.segments[segment].slots[slot].load(Ordering::Acquire) & self.colours)
    }

    /// The words stored.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.segments
            .iter()
            .map(|s| s.used.load(Ordering::Relaxed))
            .sum()
    }

    /// The segment of a word and the hash that places it there: its top bits choose the
    /// segment, its low bits the slot.
    #[inline(always)]
    fn place(word: u64) -> (usize, u64) {
        let hash = spread(word);
        ((hash >> 56) as usize, hash)
    }

    /// The concurrent insertion: several threads may insert through `&self` at once.
    fn insert_shared(&self, word: u64) -> Lookup {
        debug_assert_ne!(word, EMPTY);
        let (index, hash) = Self::place(word);
        let segment = &self.segments[index];
        let mask = segment.slots.len() - 1;
        let mut i = hash as usize & mask;
        let mut reserved = false;
        loop {
            let slot = &segment.slots[i];
            let current = slot.load(Ordering::Acquire);
            if current == word {
                if reserved {
                    segment.used.fetch_sub(1, Ordering::Relaxed);
                }
                return Lookup::Seen(None);
            }
            if current == EMPTY {
                // Reserve room first, so that racing threads never fill every slot.
                if !reserved {
                    if segment.used.fetch_add(1, Ordering::Relaxed) >= segment.capacity() {
                        segment.used.fetch_sub(1, Ordering::Relaxed);
                        return Lookup::Full(segment.growth(index));
                    }
                    reserved = true;
                }
                match slot.compare_exchange(EMPTY, word, Ordering::AcqRel, Ordering::Acquire) {
                    Ok(_) => return Lookup::New,
                    // Another thread stored this very word: the loop finds it next.
                    Err(other) if other == word => continue,
                    Err(_) => {}
                }
            }
            i = (i + 1) & mask;
        }
    }

    #[inline]
    /// Starts fetching the slot where `word` would be (also through a shared table).
    pub(crate) fn prefetch_slot(&self, word: u64) {
        let (index, hash) = Self::place(word);
        let slots = &self.segments[index].slots;
        prefetch(&slots[hash as usize & (slots.len() - 1)]);
    }
}

/// The word a word-keyed set (a word table, a quotient table) is looked up by; the
/// plan builds such sets only for keyings that give every state one.
#[inline]
pub(crate) fn word_of(key: Option<u64>) -> u64 {
    match key {
        Some(word) => word,
        None => unreachable!("a word-keyed set is only used when every state has a word"),
    }
}

impl WordSet for WordTable {
    #[inline(always)]
    fn insert_word(&mut self, word: u64) -> Lookup {
        debug_assert_ne!(word, EMPTY);
        debug_assert_eq!(word & self.colours, 0, "a word has no colour bits");
        let (index, hash) = Self::place(word);
        let segment = &mut self.segments[index];
        let mask = segment.slots.len() - 1;
        let mut i = hash as usize & mask;
        loop {
            match *segment.slots[i].get_mut() {
                EMPTY => break,
                stored if stored & !self.colours == word => {
                    // A numbered table says the word's number, a coloured one its colours.
                    let mark = match segment.numbers.get(i) {
                        Some(&number) => Some(number),
                        None if self.colours != 0 => {
                            Some(mark_of(stored, self.colours, self.shift))
                        }
                        None => None,
                    };
                    return Lookup::Seen(mark);
                }
                _ => i = (i + 1) & mask,
            }
        }
        let capacity = segment.capacity();
        let used = segment.used.get_mut();
        if *used >= capacity {
            return Lookup::Full(segment.growth(index));
        }
        *used += 1;
        *segment.slots[i].get_mut() = word | self.fresh;
        self.last_new = (word, index, i);
        Lookup::New
    }

    fn contains_word(&self, word: u64) -> bool {
        self.colours_of(word).is_some()
    }

    #[inline]
    fn prefetch_word(&mut self, word: u64) {
        self.prefetch_slot(word);
    }

    fn grow_part(&mut self, growth: Growth) {
        let segment = &mut self.segments[growth.part];
        // Another thread may have grown it already.
        if *segment.used.get_mut() < segment.capacity() {
            return;
        }
        *segment = segment.doubled(self.colours);
        self.last_new.0 = EMPTY;
        let slots = segment.slots.len();
        self.slots += slots / 2;
        self.largest = self.largest.max(slots);
    }
}

impl Footprint for WordTable {
    fn bytes(&self) -> usize {
        // Every segment is numbered, or none.
        self.slots * self.segments[0].slot_bytes()
    }

    fn omission(&self, states: u64) -> Option<(IncompleteReason, f64)> {
        self.lossy.then(|| {
            (
                IncompleteReason::HashCompaction,
                compaction_omission(states),
            )
        })
    }
}

/// A [`WordTable`] shared by the threads of a parallel search.
pub(crate) struct SharedWords {
    table: RwLock<WordTable>,
}

impl SharedWords {
    /// A shared table (see [`WordTable::new`]).
    pub(crate) fn new(capacity: usize, lossy: bool) -> SharedWords {
        SharedWords {
            table: RwLock::new(WordTable::new(capacity, lossy)),
        }
    }

    fn read(&self) -> RwLockReadGuard<'_, WordTable> {
        self.table
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The words stored.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.read().len()
    }
}

impl Footprint for SharedWords {
    fn bytes(&self) -> usize {
        self.read().bytes()
    }

    fn omission(&self, states: u64) -> Option<(IncompleteReason, f64)> {
        self.read().omission(states)
    }
}

impl<S> SharedStore<S> for SharedWords {
    type Handle<'a> = WordsHandle<'a>;

    fn handle(&self) -> WordsHandle<'_> {
        WordsHandle {
            shared: self,
            guard: None,
        }
    }
}

/// One thread's access to a [`SharedWords`]: a read lock held from its first lookup until
/// [`Store::pause`] or a growth.
pub(crate) struct WordsHandle<'a> {
    shared: &'a SharedWords,
    guard: Option<RwLockReadGuard<'a, WordTable>>,
}

impl WordsHandle<'_> {
    fn table(&mut self) -> &WordTable {
        self.guard.get_or_insert_with(|| self.shared.read())
    }
}

impl<S> Store<S> for WordsHandle<'_> {
    fn insert(&mut self, _: &S, key: Option<u64>) -> Lookup {
        self.table().insert_shared(word_of(key))
    }

    fn grow(&mut self, growth: Growth) {
        self.guard = None;
        let mut table = self
            .shared
            .table
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        table.grow_part(growth);
    }

    fn contains(&mut self, _: &S, key: Option<u64>) -> bool {
        self.table().contains_word(word_of(key))
    }

    fn prefetch(&mut self, key: Option<u64>) {
        if let Some(word) = key {
            self.table().prefetch_slot(word);
        }
    }

    fn pause(&mut self) {
        self.guard = None;
    }
}

/// Asks the processor to start loading the cache line at `address` (a reference, or a
/// byte inside one).
#[inline(always)]
pub(crate) fn prefetch<T>(address: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is a hint: it never faults, whatever the address.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(address.cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = address;
}

#[cfg(test)]
mod tests;
