//! [`Marks`]: the acceptance sets an edge of the product belongs to, under fairness.

use crate::model::Model;
use crate::search::core::Stepper;

/// A set of marks: bit 0 is the property's, bit `1 + i` instance `i`'s. One word for
/// models of up to 63 instances (no allocation per edge), several beyond.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) enum Marks {
    Word(u64),
    Words(Box<[u64]>),
}

impl Marks {
    #[inline]
    pub(super) fn empty(bits: usize) -> Marks {
        if bits <= 64 {
            Marks::Word(0)
        } else {
            Marks::Words(vec![0; bits.div_ceil(64)].into_boxed_slice())
        }
    }

    pub(super) fn full(bits: usize) -> Marks {
        let mut marks = Marks::empty(bits);
        for bit in 0..bits {
            marks.set(bit);
        }
        marks
    }

    /// Every instance's mark, without the property's.
    pub(super) fn every_instance(bits: usize) -> Marks {
        let mut marks = Marks::full(bits);
        marks.words_mut()[0] &= !1;
        marks
    }

    pub(super) fn words(&self) -> &[u64] {
        match self {
            Marks::Word(word) => std::slice::from_ref(word),
            Marks::Words(words) => words,
        }
    }

    pub(super) fn words_mut(&mut self) -> &mut [u64] {
        match self {
            Marks::Word(word) => std::slice::from_mut(word),
            Marks::Words(words) => words,
        }
    }

    #[inline]
    pub(super) fn set(&mut self, bit: usize) {
        match self {
            Marks::Word(word) if bit < 64 => *word |= 1 << bit,
            _ => self.words_mut()[bit / 64] |= 1 << (bit % 64),
        }
    }

    pub(super) fn has(&self, bit: usize) -> bool {
        self.words()[bit / 64] & (1 << (bit % 64)) != 0
    }

    /// Adds the marks of `other`. Both sets are of one size (the fast path is one word's).
    #[inline]
    pub(super) fn add(&mut self, other: &Marks) {
        match (self, other) {
            (Marks::Word(word), Marks::Word(other)) => *word |= other,
            (this, other) => {
                for (word, other) in this.words_mut().iter_mut().zip(other.words()) {
                    *word |= other;
                }
            }
        }
    }

    /// Removes the marks of `other`. Both sets are of one size.
    #[inline]
    pub(super) fn remove(&mut self, other: &Marks) {
        match (self, other) {
            (Marks::Word(word), Marks::Word(other)) => *word &= !other,
            (this, other) => {
                for (word, other) in this.words_mut().iter_mut().zip(other.words()) {
                    *word &= !other;
                }
            }
        }
    }

    #[inline]
    pub(super) fn covers(&self, other: &Marks) -> bool {
        if let (Marks::Word(word), Marks::Word(other)) = (self, other) {
            return word & other == *other;
        }
        self.words()
            .iter()
            .zip(other.words())
            .all(|(a, b)| a & b == *b)
    }

    pub(super) fn meets(&self, other: &Marks) -> bool {
        self.words()
            .iter()
            .zip(other.words())
            .any(|(a, b)| a & b != 0)
    }

    pub(super) fn is_empty(&self) -> bool {
        self.words().iter().all(|&word| word == 0)
    }
}

/// A stack of marks, one per frame of the search: plain words when the marks fit in one
/// (8 bytes a frame, against a [`Marks`]'s 16), whole sets otherwise.
pub(super) enum MarksStack {
    Words(Vec<u64>),
    Sets(Vec<Marks>),
}

impl MarksStack {
    /// An empty stack of sets of `bits` marks.
    pub(super) fn new(bits: usize) -> MarksStack {
        if bits <= 64 {
            MarksStack::Words(Vec::new())
        } else {
            MarksStack::Sets(Vec::new())
        }
    }

    /// Pushes `marks`, a set of the stack's size.
    #[inline]
    pub(super) fn push(&mut self, marks: Marks) {
        match (self, marks) {
            (MarksStack::Words(words), Marks::Word(word)) => words.push(word),
            (MarksStack::Sets(sets), marks) => sets.push(marks),
            (MarksStack::Words(_), Marks::Words(_)) => {
                unreachable!("a set wider than a word on a stack of words")
            }
        }
    }

    #[inline]
    pub(super) fn pop(&mut self) {
        match self {
            MarksStack::Words(words) => {
                words.pop();
            }
            MarksStack::Sets(sets) => {
                sets.pop();
            }
        }
    }

    /// `f` of the top set, if any.
    #[inline]
    pub(super) fn with_top<R>(&self, f: impl FnOnce(&Marks) -> R) -> Option<R> {
        match self {
            MarksStack::Words(words) => words.last().map(|&word| f(&Marks::Word(word))),
            MarksStack::Sets(sets) => sets.last().map(f),
        }
    }

    /// Makes room for one more set within the memory budget ([`Stepper::reserve`]); false
    /// (and the search stops) when the budget refuses.
    #[inline]
    pub(super) fn reserve<M: Model>(&mut self, stepper: &mut Stepper<'_, M>) -> bool {
        match self {
            MarksStack::Words(words) => stepper.reserve(words, 1),
            MarksStack::Sets(sets) => stepper.reserve(sets, 1),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Marks, MarksStack};

    #[test]
    fn a_stack_of_marks_keeps_words_or_sets() {
        for bits in [3, 64, 65, 130] {
            let mut stack = MarksStack::new(bits);
            assert_eq!(stack.with_top(|m| m.clone()), None);
            for bit in 0..bits {
                let mut marks = Marks::empty(bits);
                marks.set(bit);
                stack.push(marks);
            }
            for bit in (0..bits).rev() {
                assert_eq!(stack.with_top(|m| m.has(bit)), Some(true), "{bits}: {bit}");
                assert_eq!(stack.with_top(|m| m.has((bit + 1) % bits)), Some(bits == 1));
                stack.pop();
            }
            assert_eq!(stack.with_top(|m| m.clone()), None);
            assert!(matches!(stack, MarksStack::Words(_)) == (bits <= 64));
        }
    }
}
