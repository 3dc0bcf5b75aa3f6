//! bir's LTL check without fairness written by hand, a reference for how fast it can be: the nested depth-first search of the
//! product of a hand-written model with the automaton of `![]<>p`, written by hand.
//!
//! The automaton is bir's for `[]<>p` negated (`<>[]!p`): state 0 (not accepting) moves
//! to 0 on every state and to 1 on a state where `p` is false; state 1 (accepting) moves
//! to 1 on a state where `p` is false. It is weak, so, as bir does, the search runs no red
//! pass: a step onto an accepting state of the stack (cyan) closes an accepting cycle.
//! A product state is its model state's word with the automaton's state in bit 61; the
//! product's order, initial states and stutter steps are bir's (`checker/product.rs`), so
//! that its counts are bir's.

use std::time::Instant;

use super::{each_successor, prefetch, Counts, HandWritten, Words, CYAN, STORED};

/// A hand-written model with the proposition `p` of the property `[]<>p`.
pub trait HandWrittenLtl: HandWritten {
    /// Whether `p` holds in `state`.
    fn proposition(&self, state: u64) -> bool;
}

/// The automaton's state in a product word.
const ACCEPTING: u64 = 1 << 61;

/// The model's part of a product word.
const MODEL: u64 = ACCEPTING - 1;

/// A state of the search's path: its product word and its untaken successors,
/// `arena[next..end]`.
struct Frame {
    word: u64,
    next: usize,
    end: usize,
}

/// The product states the automaton enters from `accepting` on model state `state`
/// (whose proposition is `p`), pushed in bir's order.
#[inline(always)]
fn pair(state: u64, accepting: bool, p: bool, out: &mut Vec<u64>) {
    if !accepting {
        out.push(state);
    }
    if !p {
        out.push(state | ACCEPTING);
    }
}

/// The nested depth-first search of `model`'s product with `![]<>p`. It stops at the first
/// accepting cycle (the property is violated), counted in `errors` with the failed
/// assertions met; with none, every product state was explored and the property holds.
pub fn search_ltl<M: HandWrittenLtl>(model: &M) -> Counts {
    let started = Instant::now();
    let mut seen = Words::new();
    let mut counts = Counts::default();
    let mut arena: Vec<u64> = Vec::new();
    let mut path: Vec<Frame> = Vec::new();
    let initial = model.initial();
    let mut starts = Vec::new();
    pair(initial, false, model.proposition(initial), &mut starts);
    for start in starts {
        if !seen.insert_coloured(start) {
            continue;
        }
        counts.states += 1;
        enter(model, start, &seen, &mut arena, &mut path, &mut counts);
        while let Some(top) = path.last_mut() {
            if top.next == top.end {
                let word = top.word;
                path.pop();
                arena.truncate(path.last().map_or(0, |parent| parent.end));
                if word & ACCEPTING != 0 {
                    seen.uncolour(word);
                }
                continue;
            }
            let next = arena[top.next];
            top.next += 1;
            counts.transitions += 1;
            match seen.find(next | STORED, CYAN) {
                Err(slot) => {
                    seen.place(slot, coloured(next));
                    counts.states += 1;
                    enter(model, next, &seen, &mut arena, &mut path, &mut counts);
                }
                Ok(slot) if seen.slots[slot] & CYAN != 0 => {
                    counts.errors += 1;
                    counts.elapsed = started.elapsed();
                    return counts;
                }
                Ok(_) => {}
            }
        }
    }
    counts.elapsed = started.elapsed();
    counts
}

/// The word stored for product state `word`: cyan when it is accepting (it is about to
/// be pushed).
#[inline(always)]
fn coloured(word: u64) -> u64 {
    let cyan = if word & ACCEPTING != 0 { CYAN } else { 0 };
    word | STORED | cyan
}

impl Words {
    /// Stores product state `word` (cyan if accepting); true if it was new.
    fn insert_coloured(&mut self, word: u64) -> bool {
        match self.find(word | STORED, CYAN) {
            Ok(_) => false,
            Err(slot) => {
                self.place(slot, coloured(word));
                true
            }
        }
    }

    /// Tells stored product state `word` no longer cyan (it leaves the stack).
    fn uncolour(&mut self, word: u64) {
        if let Ok(slot) = self.find(word | STORED, CYAN) {
            self.slots[slot] &= !CYAN;
        }
    }
}

/// Computes the product successors of a new product state into the arena (a model state
/// without successors steps to itself) and pushes its frame.
#[inline(always)]
fn enter<M: HandWrittenLtl>(
    model: &M,
    word: u64,
    seen: &Words,
    arena: &mut Vec<u64>,
    path: &mut Vec<Frame>,
    counts: &mut Counts,
) {
    let start = arena.len();
    let (state, accepting) = (word & MODEL, word & ACCEPTING != 0);
    let enabled = each_successor(model, state, counts, |next| {
        pair(next, accepting, model.proposition(next), arena)
    });
    if !enabled {
        pair(state, accepting, model.proposition(state), arena);
    }
    prefetch(seen, counts, &arena[start..]);
    path.push(Frame {
        word,
        next: start,
        end: arena.len(),
    });
}
