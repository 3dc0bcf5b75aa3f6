//! A state as the words a generated checker packs it into, without its type: what the
//! interpreter's states are, and what the search compiled once for every model (`erased`)
//! stores. Up to [`INLINE_WORDS`] words are held in the value itself (no allocation);
//! wider states are boxed.

use std::fmt;
use std::hash::{Hash, Hasher};

/// Words a state holds inline; a wider state is boxed. Two words hold the reference models
/// at the sizes the benchmarks run, and keep a state at 24 bytes.
pub const INLINE_WORDS: usize = 2;

/// A state as its packed words, in the layout the code generator gives the model (word 0
/// holds the fields placed in word 0; a one-word state's word is the generated state's
/// integer, widened to `u64`). Two states compare (and hash) by their words.
#[derive(Clone)]
pub struct PackedState(Words);

/// A state's words: inline, or boxed when there are more than [`INLINE_WORDS`].
#[derive(Clone)]
enum Words {
    /// `len` words in front of `words` (the rest are zero).
    Inline { len: u8, words: [u64; INLINE_WORDS] },
    /// More words than fit inline.
    Boxed(Box<[u64]>),
}

impl PackedState {
    /// A state of `len` words, all zero.
    pub fn zero(len: usize) -> PackedState {
        match u8::try_from(len) {
            Ok(short) if len <= INLINE_WORDS => PackedState(Words::Inline {
                len: short,
                words: [0; INLINE_WORDS],
            }),
            _ => PackedState(Words::Boxed(vec![0; len].into_boxed_slice())),
        }
    }

    /// The state holding a copy of `words`.
    #[inline]
    pub fn from_words(words: &[u64]) -> PackedState {
        PackedState(match *words {
            [] => Words::Inline {
                len: 0,
                words: [0; INLINE_WORDS],
            },
            [word] => Words::Inline {
                len: 1,
                words: [word, 0],
            },
            [first, second] => Words::Inline {
                len: 2,
                words: [first, second],
            },
            _ => Words::Boxed(words.into()),
        })
    }

    /// The packed words.
    #[inline]
    pub fn words(&self) -> &[u64] {
        match &self.0 {
            Words::Inline { len, words } => &words[..usize::from(*len)],
            Words::Boxed(words) => words,
        }
    }

    /// The packed words, to write.
    pub fn words_mut(&mut self) -> &mut [u64] {
        match &mut self.0 {
            Words::Inline { len, words } => &mut words[..usize::from(*len)],
            Words::Boxed(words) => words,
        }
    }

    /// Whether the words are stored in the value itself (no allocation).
    pub fn is_inline(&self) -> bool {
        matches!(self.0, Words::Inline { .. })
    }
}

impl PartialEq for PackedState {
    fn eq(&self, other: &PackedState) -> bool {
        self.words() == other.words()
    }
}

impl Eq for PackedState {}

impl Hash for PackedState {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.words().hash(state);
    }
}

impl fmt::Debug for PackedState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("State[")?;
        for (i, word) in self.words().iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{word:#x}")?;
        }
        f.write_str("]")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_state_of_up_to_two_words_is_24_bytes_and_allocates_nothing() {
        assert_eq!(std::mem::size_of::<PackedState>(), 24);
        assert!(PackedState::zero(1).is_inline());
        assert!(PackedState::zero(2).is_inline());
        assert!(!PackedState::zero(3).is_inline());
        assert_eq!(PackedState::zero(3).words(), [0, 0, 0]);
        assert_eq!(PackedState::zero(2).words(), [0, 0]);
        for len in 0..5 {
            let words: Vec<u64> = (1..=len).collect();
            let state = PackedState::from_words(&words);
            assert_eq!(state.words(), words);
            assert_eq!(state.is_inline(), len <= INLINE_WORDS as u64);
        }
    }

    #[test]
    fn states_compare_and_print_by_their_words() {
        let (a, b) = (
            PackedState::from_words(&[1, 2, 3]),
            PackedState::from_words(&[1, 2, 3]),
        );
        assert_eq!(a, b);
        assert_ne!(a, PackedState::from_words(&[1, 2]));
        assert_eq!(format!("{a:?}"), "State[0x1, 0x2, 0x3]");
    }
}
