//! Packed states: every value at the width and the place the code generator's
//! [`Layout`] gives it, so that a state of the interpreter holds exactly the words of the
//! generated checker's state (a [`bir_runtime::model::PackedState`]).
//!
//! A value is stored as `value - lo` in its field's bits (wrapping, so that a 64-bit field
//! of any range round-trips); a field of width 0 (a single value) takes no bits and reads
//! as its lower bound.

use bir_codegen::emit::layout::Layout;
pub use bir_runtime::model::PackedState as State;

/// Where one slot's value lies in a state's words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Place {
    /// The word.
    word: u32,
    /// The bit offset of the value in the word (0 for a field of width 0).
    shift: u32,
    /// The value's bits, unshifted (0 for a field of width 0).
    mask: u64,
    /// The value stored as 0.
    offset: i64,
}

/// How one model's states are packed: the place of every slot (in slot order, the order
/// `Model::decode` writes them), read off the layout's fields.
#[derive(Clone, Debug)]
pub(crate) struct Packing {
    places: Box<[Place]>,
    /// Words per state.
    words: usize,
    /// The bits a state uses (in one word when at most 63: `Model::state_word`).
    used_bits: u32,
}

impl Packing {
    /// The packing of states laid out as `layout`.
    pub(crate) fn new(layout: &Layout) -> Packing {
        let mut places = Vec::new();
        for field in &layout.fields {
            for i in 0..field.elements {
                let (word, shift) = field.locate(i);
                places.push(if field.width == 0 {
                    Place {
                        word: 0,
                        shift: 0,
                        mask: 0,
                        offset: field.offset,
                    }
                } else {
                    Place {
                        word,
                        shift,
                        mask: field.mask(),
                        offset: field.offset,
                    }
                });
            }
        }
        Packing {
            places: places.into(),
            words: layout.words as usize,
            used_bits: layout.used_bits,
        }
    }

    /// The number of slots of a state.
    pub(crate) fn slots(&self) -> usize {
        self.places.len()
    }

    /// The value of slot `slot` in `state`.
    #[inline]
    pub(crate) fn get(&self, state: &State, slot: usize) -> i64 {
        let place = self.places[slot];
        let bits = (state.words()[place.word as usize] >> place.shift) & place.mask;
        (bits as i64).wrapping_add(place.offset)
    }

    /// Writes `value` to slot `slot` of `state`. The value lies in the slot's domain (the
    /// interpreter checks every write), so that its bits fit the slot's.
    #[inline]
    pub(crate) fn set(&self, state: &mut State, slot: usize, value: i64) {
        let place = self.places[slot];
        let bits = value.wrapping_sub(place.offset) as u64;
        debug_assert_eq!(bits & !place.mask, 0, "{value} is outside slot {slot}");
        let word = &mut state.words_mut()[place.word as usize];
        *word = (*word & !(place.mask << place.shift)) | ((bits & place.mask) << place.shift);
    }

    /// The state holding `values`, one per slot in slot order.
    pub(crate) fn pack(&self, values: &[i64]) -> State {
        debug_assert_eq!(values.len(), self.places.len());
        let mut state = State::zero(self.words);
        for (slot, &value) in values.iter().enumerate() {
            self.set(&mut state, slot, value);
        }
        state
    }

    /// Clears `values` and writes the value of every slot of `state`, in slot order.
    pub(crate) fn unpack(&self, state: &State, values: &mut Vec<i64>) {
        values.clear();
        values.extend((0..self.places.len()).map(|slot| self.get(state, slot)));
    }

    /// `state` as one word when every state fits in 63 bits: the word itself, whose top bit
    /// is clear (so it is never `u64::MAX`).
    pub(crate) fn word(&self, state: &State) -> Option<u64> {
        self.fits_word().then(|| state.words()[0])
    }

    /// The state whose packed words are `words`, if it has this packing's number of words
    /// (for states sent between processes).
    pub(crate) fn unpack_words(&self, words: &[u64]) -> Option<State> {
        (words.len() == self.words).then(|| State::from_words(words))
    }

    /// How many low bits [`Self::word`] uses, when states are words.
    pub(crate) fn word_bits(&self) -> Option<u32> {
        self.fits_word().then_some(self.used_bits)
    }

    /// Whether every state fits in one word of at most 63 bits.
    fn fits_word(&self) -> bool {
        self.words == 1 && self.used_bits < 64
    }
}

/// A state's slots as the heap's walk reads and writes them.
pub(crate) struct Slots<'a> {
    /// How the state is packed.
    pub packing: &'a Packing,
    /// The state.
    pub state: &'a mut State,
}

impl bir_runtime::model::heap::HeapSlots for Slots<'_> {
    fn heap_get(&self, slot: u32) -> i64 {
        self.packing.get(self.state, slot as usize)
    }

    fn heap_set(&mut self, slot: u32, value: i64) {
        self.packing.set(self.state, slot as usize, value);
    }
}

#[cfg(test)]
mod tests;
