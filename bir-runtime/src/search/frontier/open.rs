//! The open list of the heuristic searches (`best_first`, `swarm`): the stored states not
//! yet expanded, each with its key (heuristic value, then tie-break), lowest first.
//!
//! Best-first search by branch coverage merges a queue per transition ([`Runs`]): a
//! transition's count only grows, so the states it reaches queue in key order.
//! Best-first search takes the lowest key of all: a bucket per value over a window of
//! [`WINDOW`] values (states of one value in the order they were queued, which is their
//! tie-break order), where the built-in heuristics' values and most models' fall, and a
//! binary heap for values outside it and for tie-breaks that are not the queuing order
//! (a swarm's seeded ones). Popping a bucket costs a queue's pop (and a heap of the
//! values queued, only when a bucket fills or empties), where a heap of a million states
//! costs twenty comparisons and as many cache misses. The
//! random heuristic's best-first search takes a uniformly random open state instead (a
//! bag): the same kind of order, without sorting random keys. Ordered depth-first search
//! pushes each expansion's new states on a stack, sorted so that the lowest is on top.

use std::cmp::{Ordering, Reverse};
use std::collections::binary_heap::PeekMut;
use std::collections::{BinaryHeap, VecDeque};
use std::mem::size_of;

use crate::model::{Model, TransitionId};
use crate::search::core::Stepper;
use crate::search::heuristic::score::mix;
use crate::store::{prefetch, StateIndex};

/// Values the buckets cover, from the first queued value less [`MARGIN`].
const WINDOW: i64 = 1 << 20;

/// How far below the first queued value the buckets' window starts.
const MARGIN: i64 = 1 << 10;

/// A stored state not yet expanded.
pub(crate) struct Entry<S> {
    /// Heuristic value, then tie-break: the lowest is expanded first.
    pub(crate) key: (i64, u64),
    pub(crate) state: S,
    /// The state's number (its link's index).
    pub(crate) number: StateIndex,
    pub(crate) depth: u32,
    /// The transition that reached it ([`TransitionId::MAX`] for the initial state).
    pub(crate) via: TransitionId,
}

impl<S> PartialEq for Entry<S> {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}

impl<S> Eq for Entry<S> {}

impl<S> PartialOrd for Entry<S> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Reversed, so that the heap's greatest is the lowest key.
impl<S> Ord for Entry<S> {
    fn cmp(&self, other: &Self) -> Ordering {
        other.key.cmp(&self.key)
    }
}

/// The lowest key first: buckets over a window of values, a heap for the rest.
pub(crate) struct Queue<S> {
    heap: BinaryHeap<Entry<S>>,
    /// Bucket `i` holds the entries of value `base + i`, in queuing order.
    buckets: Vec<VecDeque<Entry<S>>>,
    /// The value of bucket 0, once something was queued (none: every entry to the heap).
    base: Option<i64>,
    /// Buckets may be used (the tie-break is the queuing order).
    bucketed: bool,
    /// The indices of the buckets that hold entries, lowest first (one per value queued,
    /// not per state: pushed when a bucket fills, popped when it empties).
    filled: BinaryHeap<Reverse<usize>>,
}

impl<S> Queue<S> {
    fn push(&mut self, entry: Entry<S>) {
        let index = match self.base {
            Some(base) => entry
                .key
                .0
                .checked_sub(base)
                .filter(|d| (0..WINDOW).contains(d)),
            None => None,
        };
        match index {
            Some(index) => {
                let index = index as usize;
                if index >= self.buckets.len() {
                    self.buckets.resize_with(index + 1, VecDeque::new);
                }
                let bucket = &mut self.buckets[index];
                if bucket.is_empty() {
                    self.filled.push(Reverse(index));
                }
                bucket.push_back(entry);
            }
            None => self.heap.push(entry),
        }
    }

    fn pop(&mut self) -> Option<Entry<S>> {
        let Some(&Reverse(lowest)) = self.filled.peek() else {
            return self.heap.pop();
        };
        let value = self.base.unwrap_or(0) + lowest as i64;
        // Values in the window are all in buckets; the heap's top of the same value is
        // the initial state, queued first.
        if self.heap.peek().is_some_and(|top| top.key.0 <= value) {
            return self.heap.pop();
        }
        let bucket = &mut self.buckets[lowest];
        let entry = bucket.pop_front();
        if bucket.is_empty() {
            self.filled.pop();
        }
        entry
    }

    /// Sets the buckets' window around `value`, the first key of the search's states.
    fn open_window(&mut self, value: i64) {
        if self.bucketed && self.base.is_none() {
            self.base = Some(value.saturating_sub(MARGIN));
        }
    }
}

/// The lowest key first, for keys that never decrease among the states reached by one
/// transition (branch coverage: a transition's count only grows): a queue per transition,
/// and a heap of the queues' heads, so that a pop costs a heap of at most one entry per
/// transition rather than one per state.
pub(crate) struct Runs<S> {
    /// By transition, the entries reached by it, in queuing (and key) order.
    runs: Vec<VecDeque<Entry<S>>>,
    /// The key of each run's head, and its transition.
    heads: BinaryHeap<Reverse<((i64, u64), TransitionId)>>,
    /// The initial state, before any other.
    first: Option<Entry<S>>,
}

impl<S> Runs<S> {
    fn push(&mut self, entry: Entry<S>) {
        let index = entry.via as usize;
        if index >= self.runs.len() {
            self.runs.resize_with(index + 1, VecDeque::new);
        }
        let run = &mut self.runs[index];
        debug_assert!(run.back().is_none_or(|last| last.key <= entry.key));
        if run.is_empty() {
            self.heads.push(Reverse((entry.key, entry.via)));
        }
        run.push_back(entry);
    }

    fn pop(&mut self) -> Option<Entry<S>> {
        if let Some(first) = self.first.take() {
            return Some(first);
        }
        let mut head = self.heads.peek_mut()?;
        let via = head.0 .1;
        let run = &mut self.runs[via as usize];
        let entry = run.pop_front();
        // The run's next head replaces its last in place: one sift, not a pop and a push.
        match run.front() {
            Some(next) => *head = Reverse((next.key, via)),
            None => {
                PeekMut::pop(head);
            }
        }
        entry
    }
}

/// A uniformly random open state first, drawn by a SplitMix64 generator. The next one is
/// drawn as soon as one is taken (among those open then, before the expansion adds its
/// new states), and its memory fetched while the state taken is expanded: a random pick
/// from millions of states is a cache miss.
pub(crate) struct Bag<S> {
    entries: Vec<Entry<S>>,
    random: u64,
    /// The index of the next one to take (drawn when `entries` was not empty).
    next: Option<usize>,
}

impl<S> Bag<S> {
    fn draw(&mut self) -> Option<usize> {
        if self.entries.is_empty() {
            return None;
        }
        self.random = self.random.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let index = (mix(self.random) % self.entries.len() as u64) as usize;
        prefetch(&self.entries[index]);
        Some(index)
    }

    fn pop(&mut self) -> Option<Entry<S>> {
        let index = match self.next.take() {
            Some(index) => index,
            None => self.draw()?,
        };
        let entry = self.entries.swap_remove(index);
        self.next = self.draw();
        Some(entry)
    }
}

/// The open list: see the [module](self).
pub(crate) enum Open<S> {
    /// Best-first by keys that grow along each transition's states.
    Runs(Runs<S>),
    /// Best-first: the lowest key of all.
    Queue(Queue<S>),
    /// Ordered depth-first: the lowest key among the last expansion's new states.
    Stack(Vec<Entry<S>>),
    /// Best-first by a random heuristic: a uniformly random open state.
    Bag(Bag<S>),
}

impl<S> Open<S> {
    /// A best-first queue; `by_queuing` when ties go in queuing order (buckets may serve).
    pub(crate) fn queue(by_queuing: bool) -> Self {
        Open::Queue(Queue {
            heap: BinaryHeap::new(),
            buckets: Vec::new(),
            base: None,
            bucketed: by_queuing,
            filled: BinaryHeap::new(),
        })
    }

    /// A bag of open states taken in a random order of `seed`.
    pub(crate) fn bag(seed: u64) -> Self {
        Open::Bag(Bag {
            entries: Vec::new(),
            random: seed,
            next: None,
        })
    }

    /// A best-first queue for keys that never decrease among one transition's states.
    pub(crate) fn runs() -> Self {
        Open::Runs(Runs {
            runs: Vec::new(),
            heads: BinaryHeap::new(),
            first: None,
        })
    }

    /// The open state to expand next, taken off the list.
    pub(crate) fn pop(&mut self) -> Option<Entry<S>> {
        match self {
            Open::Runs(runs) => runs.pop(),
            Open::Queue(queue) => queue.pop(),
            Open::Stack(stack) => stack.pop(),
            Open::Bag(bag) => bag.pop(),
        }
    }

    /// Adds one expansion's new states (emptying `batch`, in generation order).
    pub(crate) fn add(&mut self, batch: &mut Vec<Entry<S>>) {
        match self {
            Open::Runs(runs) => {
                for entry in batch.drain(..) {
                    runs.push(entry);
                }
            }
            Open::Queue(queue) => {
                if let Some(first) = batch.first() {
                    queue.open_window(first.key.0);
                }
                for entry in batch.drain(..) {
                    queue.push(entry);
                }
            }
            Open::Stack(stack) => {
                // Highest key first, so that the lowest is on top.
                batch.sort_unstable_by_key(|entry| std::cmp::Reverse(entry.key));
                stack.append(batch);
            }
            Open::Bag(bag) => bag.entries.append(batch),
        }
    }

    /// Queues the initial state (before any other).
    pub(crate) fn start(&mut self, entry: Entry<S>) {
        match self {
            Open::Runs(runs) => runs.first = Some(entry),
            Open::Queue(queue) => queue.heap.push(entry),
            Open::Stack(stack) => stack.push(entry),
            Open::Bag(bag) => bag.entries.push(entry),
        }
    }

    /// Makes room for `more` entries within the memory budget; false (and the search
    /// stops) when the budget refuses.
    pub(crate) fn reserve<M: Model>(&mut self, stepper: &mut Stepper<'_, M>, more: usize) -> bool {
        let queue = match self {
            Open::Stack(stack) => return stepper.reserve(stack, more),
            Open::Bag(bag) => return stepper.reserve(&mut bag.entries, more),
            // Runs grow as vectors do, bounded by the resident set.
            Open::Runs(_) => return true,
            Open::Queue(queue) => queue,
        };
        // Entries may go to the heap or to buckets; the buckets' queues grow as vectors
        // do, and the process's resident set (read every few milliseconds) bounds them.
        let heap = &mut queue.heap;
        let needed = heap.len() + more;
        if needed <= heap.capacity() {
            return true;
        }
        let capacity = needed.max(heap.capacity() * 2).max(16);
        if !stepper.may_allocate(capacity * size_of::<Entry<S>>()) {
            return false;
        }
        heap.reserve_exact(capacity - heap.len());
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(value: i64, tie: u64) -> Entry<u32> {
        Entry {
            key: (value, tie),
            state: tie as u32,
            number: 0,
            depth: 0,
            via: TransitionId::MAX,
        }
    }

    /// The keys `open` gives back, in order.
    fn drain(open: &mut Open<u32>) -> Vec<(i64, u64)> {
        std::iter::from_fn(|| open.pop()).map(|e| e.key).collect()
    }

    #[test]
    fn the_queue_gives_the_lowest_key_first_within_and_outside_its_window() {
        for by_queuing in [true, false] {
            let mut open = Open::queue(by_queuing);
            open.start(entry(0, 0));
            assert_eq!(open.pop().map(|e| e.key), Some((0, 0)));
            let mut batch = vec![entry(5, 1), entry(3, 2), entry(5, 3), entry(i64::MIN, 4)];
            open.add(&mut batch);
            let mut batch = vec![
                entry(i64::MAX, 5),
                entry(3, 6),
                entry(4, 7),
                entry(-2000, 8),
            ];
            open.add(&mut batch);
            let expected = [
                (i64::MIN, 4),
                (-2000, 8),
                (3, 2),
                (3, 6),
                (4, 7),
                (5, 1),
                (5, 3),
                (i64::MAX, 5),
            ];
            assert_eq!(drain(&mut open), expected);
        }
    }

    #[test]
    fn runs_merge_the_transitions_queues_by_key() {
        let mut open = Open::runs();
        let reached = |value, tie, via| Entry {
            via,
            ..entry(value, tie)
        };
        open.start(entry(0, 0));
        assert_eq!(open.pop().map(|e| e.key), Some((0, 0)));
        open.add(&mut vec![
            reached(1, 1, 0),
            reached(1, 2, 1),
            reached(1, 3, 5),
        ]);
        assert_eq!(open.pop().map(|e| e.key), Some((1, 1)));
        open.add(&mut vec![
            reached(2, 4, 0),
            reached(2, 5, 1),
            reached(1, 6, 2),
        ]);
        let expected = [(1, 2), (1, 3), (1, 6), (2, 4), (2, 5)];
        assert_eq!(drain(&mut open), expected);
    }

    #[test]
    fn the_stack_expands_the_lowest_of_the_last_expansion_first() {
        let mut open = Open::Stack(Vec::new());
        open.start(entry(0, 0));
        assert!(open.pop().is_some());
        open.add(&mut vec![entry(2, 1), entry(1, 2), entry(2, 3)]);
        assert_eq!(open.pop().map(|e| e.key), Some((1, 2)));
        open.add(&mut vec![entry(9, 4), entry(7, 5)]);
        assert_eq!(drain(&mut open), [(7, 5), (9, 4), (2, 1), (2, 3)]);
    }

    #[test]
    fn the_bag_gives_back_every_state_in_a_seeded_order() {
        let order = |seed| {
            let mut open = Open::bag(seed);
            open.add(&mut (0..50).map(|i| entry(0, i)).collect());
            drain(&mut open)
        };
        let mut sorted = order(1);
        assert_eq!(order(1), sorted);
        assert_ne!(order(2), sorted);
        sorted.sort_unstable();
        assert_eq!(sorted, (0..50).map(|i| (0, i)).collect::<Vec<_>>());
    }
}
