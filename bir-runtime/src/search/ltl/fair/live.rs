//! [`Live`]: the component stack of the search for fair cycles, its live states in the
//! order they were found.
//!
//! When the seen set is keyed by the product states' words and a word gives its state back
//! (a generated model of one word, with the automaton's state above it), a live state is
//! kept as its word: 8 bytes instead of the state's 16, on a stack that can hold most of
//! the product (every state of one big component). Other states are kept whole.

/// The live states, as words or whole: see the [module](self).
pub(super) struct Live<S> {
    /// The states, when they are kept whole.
    states: Vec<S>,
    /// Their words, when they are kept as words.
    words: Vec<u64>,
    as_words: bool,
}

impl<S: Clone> Live<S> {
    /// An empty stack, of words when `as_words` (every state pushed then has a word).
    pub(super) fn new(as_words: bool) -> Live<S> {
        Live {
            states: Vec::new(),
            words: Vec::new(),
            as_words,
        }
    }

    pub(super) fn len(&self) -> usize {
        if self.as_words {
            self.words.len()
        } else {
            self.states.len()
        }
    }

    /// Pushes `state`, whose word is `word`: a stack of words is only made for a seen set
    /// keyed by words, where every state has one.
    pub(super) fn push(&mut self, state: S, word: Option<u64>) {
        debug_assert!(word.is_some() || !self.as_words);
        match word {
            Some(word) if self.as_words => self.words.push(word),
            _ => self.states.push(state),
        }
    }

    /// The state at `index` (from 0), its word read by `decode` when kept as a word.
    pub(super) fn get(&self, decode: impl Fn(u64) -> Option<S>, index: usize) -> Option<S> {
        if self.as_words {
            decode(*self.words.get(index)?)
        } else {
            self.states.get(index).cloned()
        }
    }

    /// The states from `start` on, oldest first.
    pub(super) fn from(&self, decode: impl Fn(u64) -> Option<S>, start: usize) -> Vec<S> {
        if self.as_words {
            let words = self.words.get(start..).unwrap_or(&[]);
            words.iter().filter_map(|&word| decode(word)).collect()
        } else {
            self.states.get(start..).unwrap_or(&[]).to_vec()
        }
    }

    /// The states from `start` on, kept whole, or their words.
    pub(super) fn tail(&self, start: usize) -> Result<&[S], &[u64]> {
        if self.as_words {
            Err(self.words.get(start..).unwrap_or(&[]))
        } else {
            Ok(self.states.get(start..).unwrap_or(&[]))
        }
    }

    /// Drops the states from `start` on.
    pub(super) fn truncate(&mut self, start: usize) {
        self.states.truncate(start);
        self.words.truncate(start);
    }

    /// The bytes the stack holds.
    pub(super) fn bytes(&self) -> usize {
        self.states.capacity() * std::mem::size_of::<S>()
            + self.words.capacity() * std::mem::size_of::<u64>()
    }
}

#[cfg(test)]
mod tests {
    use super::Live;

    /// States (a, b) with the word a * 100 + b.
    fn decode(word: u64) -> Option<(u64, u32)> {
        Some((word / 100, (word % 100) as u32))
    }

    #[test]
    fn words_and_whole_states_give_the_same_states_back() {
        let states = [(1, 2), (3, 4), (5, 6)];
        for as_words in [false, true] {
            let mut live = Live::new(as_words);
            for &(a, b) in &states {
                live.push((a, b), Some(a * 100 + u64::from(b)));
            }
            assert_eq!(live.len(), 3);
            assert_eq!(live.get(decode, 1), Some((3, 4)));
            assert_eq!(live.get(decode, 3), None);
            assert_eq!(live.from(decode, 1), [(3, 4), (5, 6)]);
            assert_eq!(live.tail(2).is_err(), as_words);
            live.truncate(1);
            assert_eq!(live.from(decode, 0), [(1, 2)]);
            assert!(live.bytes() >= std::mem::size_of::<u64>());
        }
    }
}
