//! A hand-written reference search: bir's depth-first search written by hand for one model
//! at a time, with nothing else — no limits, traces, coverage, reports or generic code.
//!
//! `scripts/compare` runs it beside bir to show how far the generated checker is from the
//! fastest search of its kind: the same order (a state's successors computed at once, each
//! new one explored as soon as it is met), the same seen set (each state one 64-bit word,
//! placed by the word table's folded multiplication, linear probing, doubling at 7/8 load)
//! and the same prefetch of a new state's successors' slots once 2^17 states are stored.
//! It keeps every level's untaken successors, where bir keeps the top 128 frames' and
//! computes a deeper parent's again: faster on deep paths, at more memory (the
//! philosophers' paths are a million states deep). What bir spends beyond it is the price of being a checker; what this search spends is what
//! a search that looks up every transition's state costs on the machine. The models are
//! the reference ones, encoded by hand in the bits of a word; their counts must be the
//! reference tables' (the unit tests, and `scripts/compare` on every run).

mod ltl;
mod models;

pub use ltl::{search_ltl, HandWrittenLtl};
pub use models::{Peterson, Philosophers};

use std::time::{Duration, Instant};

/// A model written by hand for the reference search: states are words, and each thread enables at
/// most one transition at a time (true of the reference families).
pub trait HandWritten {
    /// The threads, in bir's successor order.
    const THREADS: usize;

    /// The initial state.
    fn initial(&self) -> u64;

    /// The state thread `thread` steps to from `state`, if it is enabled; `Err(())` when
    /// the step fails an assertion.
    fn step(&self, state: u64, thread: usize) -> Option<Result<u64, ()>>;

    /// Whether `state` satisfies the model's invariants.
    fn invariants_hold(&self, state: u64) -> bool;
}

/// What the hand-written search counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Distinct states stored.
    pub states: u64,
    /// Transitions executed.
    pub transitions: u64,
    /// States without successors.
    pub deadlocks: u64,
    /// Failed assertions and states that fail an invariant (in the nested search, also
    /// the accepting cycle it stops at).
    pub errors: u64,
    /// The search's own time.
    pub elapsed: Duration,
}

/// The states stored before the search prefetches slots (bir's `PREFETCH_FROM`).
const PREFETCH_FROM: u64 = 1 << 17;

/// A set of words: open addressing with linear probing, one table doubling at 7/8 load.
struct Words {
    slots: Vec<u64>,
    used: usize,
}

/// Set in every stored word, so that an empty slot (0) differs from every state.
const STORED: u64 = 1 << 63;

/// Set in a stored word while its state is an accepting state on the nested search's
/// stack (cyan); never part of where a word is placed.
const CYAN: u64 = 1 << 62;

/// The word table's placement: the 128-bit product with an odd constant, its halves XORed.
#[inline(always)]
fn spread(word: u64) -> u64 {
    let product = u128::from(word) * 0x9e37_79b9_7f4a_7c15;
    (product as u64) ^ ((product >> 64) as u64)
}

impl Words {
    fn new() -> Words {
        Words {
            slots: vec![0; 1 << 10],
            used: 0,
        }
    }

    /// Stores `word`; true if it was not stored before.
    #[inline(always)]
    fn insert(&mut self, word: u64) -> bool {
        match self.find(word | STORED, 0) {
            Ok(_) => false,
            Err(slot) => {
                self.place(slot, word | STORED);
                true
            }
        }
    }

    /// The slot that holds `word` but for its `ignored` bits (`Ok`), or the empty slot
    /// where it would go (`Err`).
    #[inline(always)]
    fn find(&self, word: u64, ignored: u64) -> Result<usize, usize> {
        let mask = self.slots.len() - 1;
        let mut i = spread(word) as usize & mask;
        loop {
            match self.slots[i] {
                stored if stored & !ignored == word => return Ok(i),
                0 => return Err(i),
                _ => i = (i + 1) & mask,
            }
        }
    }

    /// Stores `word` in the empty slot `slot` that [`Self::find`] gave (which it may
    /// then move: the table may grow).
    #[inline(always)]
    fn place(&mut self, slot: usize, word: u64) {
        self.slots[slot] = word;
        self.used += 1;
        if self.used * 8 >= self.slots.len() * 7 {
            self.grow();
        }
    }

    /// Starts loading the slot where `word`'s lookup begins.
    #[inline(always)]
    fn prefetch(&self, word: u64) {
        let i = spread(word | STORED) as usize & (self.slots.len() - 1);
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `i` is masked to the table's length; a prefetch reads nothing.
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch::<_MM_HINT_T0>(self.slots.as_ptr().add(i).cast());
        }
    }

    fn grow(&mut self) {
        let doubled = vec![0; self.slots.len() * 2];
        let old = std::mem::replace(&mut self.slots, doubled);
        let mask = self.slots.len() - 1;
        for word in old.into_iter().filter(|&w| w != 0) {
            let mut i = spread(word & !CYAN) as usize & mask;
            while self.slots[i] != 0 {
                i = (i + 1) & mask;
            }
            self.slots[i] = word;
        }
    }
}

/// One state of the path: its untaken successors are `arena[next..end]`.
struct Frame {
    next: usize,
    end: usize,
}

/// The depth-first search of `model`, every reachable state explored.
pub fn search<M: HandWritten>(model: &M) -> Counts {
    let started = Instant::now();
    let mut seen = Words::new();
    let mut counts = Counts::default();
    let mut arena: Vec<u64> = Vec::new();
    let mut path: Vec<Frame> = Vec::new();
    let initial = model.initial();
    seen.insert(initial);
    counts.states = 1;
    if model.invariants_hold(initial) {
        expand(model, initial, &seen, &mut arena, &mut path, &mut counts);
    } else {
        counts.errors += 1;
    }
    while let Some(top) = path.last_mut() {
        if top.next == top.end {
            path.pop();
            // The frame's successors follow its parent's.
            arena.truncate(path.last().map_or(0, |parent| parent.end));
            continue;
        }
        let next = arena[top.next];
        top.next += 1;
        counts.transitions += 1;
        if seen.insert(next) {
            counts.states += 1;
            if model.invariants_hold(next) {
                expand(model, next, &seen, &mut arena, &mut path, &mut counts);
            } else {
                counts.errors += 1;
            }
        }
    }
    counts.elapsed = started.elapsed();
    counts
}

/// Computes the successors of a new state into the arena and pushes its frame (or counts
/// its deadlock).
#[inline(always)]
fn expand<M: HandWritten>(
    model: &M,
    state: u64,
    seen: &Words,
    arena: &mut Vec<u64>,
    path: &mut Vec<Frame>,
    counts: &mut Counts,
) {
    let start = arena.len();
    if !each_successor(model, state, counts, |next| arena.push(next)) {
        counts.deadlocks += 1;
        return;
    }
    prefetch(seen, counts, &arena[start..]);
    path.push(Frame {
        next: start,
        end: arena.len(),
    });
}

/// Gives `to` the state each enabled thread steps to from `state`, in thread order, and
/// counts a failed assertion as a transition that leads nowhere. False when no thread is
/// enabled.
#[inline(always)]
fn each_successor<M: HandWritten>(
    model: &M,
    state: u64,
    counts: &mut Counts,
    mut to: impl FnMut(u64),
) -> bool {
    let mut enabled = false;
    for thread in 0..M::THREADS {
        match model.step(state, thread) {
            Some(Ok(next)) => to(next),
            Some(Err(())) => {
                counts.transitions += 1;
                counts.errors += 1;
            }
            None => continue,
        }
        enabled = true;
    }
    enabled
}

/// Starts loading the slots of a new state's successors, once [`PREFETCH_FROM`] states are
/// stored (as bir does).
#[inline(always)]
fn prefetch(seen: &Words, counts: &Counts, successors: &[u64]) {
    if counts.states >= PREFETCH_FROM {
        for &next in successors {
            seen.prefetch(next);
        }
    }
}

/// The hand-written search of a family at a size compiled in, or `None`.
pub fn check_family(family: crate::Family, n: u32) -> Option<Counts> {
    use crate::Family;
    Some(match (family, n) {
        (Family::Phils, 8) => search(&Philosophers::<8, false>),
        (Family::Phils, 12) => search(&Philosophers::<12, false>),
        (Family::PhilsFixed, 8) => search(&Philosophers::<8, true>),
        (Family::PhilsFixed, 12) => search(&Philosophers::<12, true>),
        (Family::Peterson, 4) => search(&Peterson::<4>),
        (Family::Peterson, 5) => search(&Peterson::<5>),
        (Family::Peterson, 6) => search(&Peterson::<6>),
        _ => return None,
    })
}

/// The hand-written LTL check of a family at a size compiled in (`[]<>(incs == 1)` on
/// Peterson's filter, `[]<>(exists i ... @putSecond)` on the fixed philosophers), or `None`.
pub fn check_family_ltl(family: crate::Family, n: u32) -> Option<Counts> {
    use crate::Family;
    Some(match (family, n) {
        (Family::PhilsFixed, 8) => search_ltl(&Philosophers::<8, true>),
        (Family::PhilsFixed, 10) => search_ltl(&Philosophers::<10, true>),
        (Family::Peterson, 4) => search_ltl(&Peterson::<4>),
        (Family::Peterson, 5) => search_ltl(&Peterson::<5>),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts<M: HandWritten>(model: &M) -> (u64, u64, u64, u64) {
        let c = search(model);
        (c.states, c.transitions, c.deadlocks, c.errors)
    }

    #[test]
    fn the_hand_written_models_have_the_reference_counts() {
        // models/README.md: states, transitions, deadlocks, errors.
        assert_eq!(counts(&Philosophers::<5, false>), (392, 1_415, 1, 0));
        assert_eq!(counts(&Philosophers::<8, false>), (14_158, 81_848, 1, 0));
        assert_eq!(counts(&Philosophers::<5, true>), (261, 876, 0, 0));
        assert_eq!(counts(&Philosophers::<8, true>), (9_403, 51_944, 0, 0));
        assert_eq!(counts(&Peterson::<4>), (4_752, 13_080, 0, 0));
        assert_eq!(counts(&Peterson::<5>), (88_560, 286_985, 0, 0));
    }

    #[test]
    fn the_hand_written_products_have_bir_s_counts() {
        // bir-ltl-peterson4 --ltl One and bir-ltl-phils-fixed8 --ltl Someone: both hold.
        let peterson = search_ltl(&Peterson::<4>);
        assert_eq!((peterson.states, peterson.transitions), (9_112, 36_864));
        assert_eq!(peterson.errors, 0);
        let philosophers = search_ltl(&Philosophers::<8, true>);
        assert_eq!(
            (philosophers.states, philosophers.transitions),
            (13_048, 91_148)
        );
        assert_eq!(philosophers.errors, 0);
    }

    #[test]
    fn the_nested_search_finds_a_violation() {
        // Without the fix the philosophers deadlock: the deadlock stutters forever with
        // nobody at putSecond, an accepting cycle of `<>[]!p`.
        let violated = search_ltl(&Philosophers::<4, false>);
        assert_eq!(violated.errors, 1);
    }

    #[test]
    fn the_table_finds_every_word_it_stored_across_growth() {
        let mut words = Words::new();
        for word in 0..5_000u64 {
            assert!(words.insert(word * 7));
        }
        for word in 0..5_000u64 {
            assert!(!words.insert(word * 7));
        }
        assert!(words.insert(1));
        assert_eq!(words.used, 5_001);
    }
}
