//! What one step did to the heap, as traces report it: which objects it allocated, which the
//! collector removed, and which lived through it under which canonical number
//! ([`HeapStep`]), and a per-thread switch of the heap order ([`with_order`]) with which a
//! report replays a step without the canonical renumbering.
//!
//! **Definition.** Let `before` be the canonical state a step starts in, `raw` the state
//! the same step makes from `before` in [`HeapOrder::Allocation`] (garbage removed, every
//! object at the index it was allocated at, so that an object of `before` keeps its index)
//! and `after` the canonical state the trace shows, which is `raw` renumbered. Then, per
//! record type and object index `j`:
//! - *allocated*: live in `raw`, dead in `before` (created by the step and still reachable
//!   at its end), named by its number in `after`;
//! - *collected*: live in `before`, dead in `raw` (unreachable at the end of the step),
//!   named by its number in `before`;
//! - *kept*: live in both, `R#(j + 1)` before and, after, the number the walk gives it.
//!
//! An object both allocated and dropped within one step is neither. The numbers after the
//! step come from walking `raw` and `after` side by side: every reference slot outside the
//! heap pairs the object it names in `raw` with the one it names in `after`, and a paired
//! object's reference fields pair their targets likewise; since `after` is `raw` renamed,
//! this is the walk's numbering.
use std::cell::Cell;
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicUsize, Ordering};

use super::HeapOrder;
use crate::info::{ModelInfo, SlotKind};
use crate::parts::StateParts;

/// How many [`with_order`] calls are running, on any thread: while none is, [`overridden`]
/// reads no thread-local.
static OVERRIDES: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// The order [`with_order`] set on this thread.
    static ORDER: Cell<Option<HeapOrder>> = const { Cell::new(None) };
}

/// Runs `run` with the heap's objects numbered in `order` after every step that this thread
/// executes, in generated checkers ([`order`](super::order)) and in the interpreter alike;
/// the previous order is back when it returns (or unwinds). Reports use it to replay one step
/// in [`HeapOrder::Allocation`]; searches never do.
pub fn with_order<T>(order: HeapOrder, run: impl FnOnce() -> T) -> T {
    struct Restore(Option<HeapOrder>);
    impl Drop for Restore {
        fn drop(&mut self) {
            ORDER.with(|cell| cell.set(self.0));
            OVERRIDES.fetch_sub(1, Ordering::SeqCst);
        }
    }
    OVERRIDES.fetch_add(1, Ordering::SeqCst);
    let _restore = Restore(ORDER.with(|cell| cell.replace(Some(order))));
    run()
}

/// The order a [`with_order`] running on this thread set, if any.
#[inline]
pub fn overridden() -> Option<HeapOrder> {
    if OVERRIDES.load(Ordering::Relaxed) == 0 {
        return None;
    }
    ORDER.with(Cell::get)
}

/// `default`, unless a [`with_order`] on this thread says otherwise.
#[inline]
pub fn effective(default: HeapOrder) -> HeapOrder {
    overridden().unwrap_or(default)
}

/// One object, by its record type and number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObjectRef {
    /// The record type: an index in [`StateParts::heaps`].
    pub record: usize,
    /// Its number (`2` for `Node#2`).
    pub number: u32,
}

/// An object that lived through a step: its number before and after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kept {
    /// The record type: an index in [`StateParts::heaps`].
    pub record: usize,
    /// Its number before the step.
    pub before: u32,
    /// Its number after the step.
    pub after: u32,
}

/// What one step did to the heap (see the [module documentation](self)).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HeapStep {
    /// The objects the step allocated, by their numbers after it, by type then number.
    pub allocated: Vec<ObjectRef>,
    /// The objects the collector removed, by their numbers before it, by type then number.
    pub collected: Vec<ObjectRef>,
    /// The objects live before and after, by type then number before.
    pub kept: Vec<Kept>,
}

impl HeapStep {
    /// Compares the decoded states `before` (canonical), `raw` (the step from `before` in
    /// allocation order) and `after` (`raw` canonical) of the model `info` describes.
    /// Slots missing from a state read as 0; nothing panics on ill-formed states.
    pub fn new(
        info: &ModelInfo,
        parts: &StateParts,
        before: &[i64],
        raw: &[i64],
        after: &[i64],
    ) -> HeapStep {
        let heaps = parts.heaps();
        let by_name: HashMap<&str, usize> = heaps
            .iter()
            .enumerate()
            .map(|(index, heap)| (heap.record.as_str(), index))
            .collect();
        let get = |values: &[i64], slot: usize| values.get(slot).copied().unwrap_or(0);
        let refers = |slot: usize| match &info.slots.get(slot)?.kind {
            SlotKind::Reference { record } => by_name.get(record.as_ref()).copied(),
            _ => None,
        };
        // Per type, per object index, the slots of its fields in `raw` and in `after`.
        let fields_of = |values: &[i64]| -> Vec<HashMap<usize, Vec<usize>>> {
            heaps
                .iter()
                .map(|heap| {
                    heap.objects(values)
                        .map(|o| (o.number - 1, o.fields.iter().map(|f| f.1).collect()))
                        .collect()
                })
                .collect()
        };
        let live_of = |values: &[i64]| -> Vec<HashSet<usize>> {
            heaps
                .iter()
                .map(|heap| heap.objects(values).map(|o| o.number - 1).collect())
                .collect()
        };
        let (raw_fields, after_fields) = (fields_of(raw), fields_of(after));
        let in_heap: HashSet<usize> = raw_fields
            .iter()
            .chain(&after_fields)
            .flat_map(|objects| objects.values().flatten().copied())
            .collect();
        // The walk side by side: per type, raw index -> number after.
        let mut numbers: Vec<HashMap<usize, u32>> = vec![HashMap::new(); heaps.len()];
        let mut queue: Vec<(usize, usize, usize)> = Vec::new();
        let mut pair = |record: usize, x: i64, y: i64, queue: &mut Vec<(usize, usize, usize)>| {
            let (Ok(x), Ok(y)) = (usize::try_from(x), usize::try_from(y)) else {
                return;
            };
            if x == 0
                || y == 0
                || !raw_fields[record].contains_key(&(x - 1))
                || !after_fields[record].contains_key(&(y - 1))
            {
                return;
            }
            if let std::collections::hash_map::Entry::Vacant(entry) = numbers[record].entry(x - 1) {
                entry.insert(y as u32);
                queue.push((record, x - 1, y - 1));
            }
        };
        for slot in 0..info.slots.len() {
            if in_heap.contains(&slot) {
                continue;
            }
            if let Some(record) = refers(slot) {
                pair(record, get(raw, slot), get(after, slot), &mut queue);
                while let Some((record, x, y)) = queue.pop() {
                    let (raw_slots, after_slots) =
                        (&raw_fields[record][&x], &after_fields[record][&y]);
                    for (&r, &a) in raw_slots.iter().zip(after_slots) {
                        if let Some(target) = refers(r) {
                            pair(target, get(raw, r), get(after, a), &mut queue);
                        }
                    }
                }
            }
        }
        let mut step = HeapStep::default();
        let (live_before, live_raw) = (live_of(before), live_of(raw));
        for record in 0..heaps.len() {
            let mut indices: Vec<usize> = live_before[record]
                .union(&live_raw[record])
                .copied()
                .collect();
            indices.sort_unstable();
            for index in indices {
                let number = (index + 1) as u32;
                let after = numbers[record].get(&index).copied().unwrap_or(number);
                match (
                    live_before[record].contains(&index),
                    live_raw[record].contains(&index),
                ) {
                    (true, true) => step.kept.push(Kept {
                        record,
                        before: number,
                        after,
                    }),
                    (true, false) => step.collected.push(ObjectRef { record, number }),
                    _ => step.allocated.push(ObjectRef {
                        record,
                        number: after,
                    }),
                }
            }
            step.allocated.sort_unstable();
        }
        step
    }

    /// True when the step allocated or collected nothing and renumbered nothing.
    pub fn is_quiet(&self) -> bool {
        self.allocated.is_empty()
            && self.collected.is_empty()
            && self.kept.iter().all(|k| k.before == k.after)
    }

    /// True when the objects of type `record` in `after` are those of `before` renumbered
    /// and nothing else: none allocated or collected, and each kept object's fields equal
    /// its fields before, references read through the renumbering. A trace shows such a
    /// type's objects as unchanged.
    pub fn renames_only(
        &self,
        info: &ModelInfo,
        parts: &StateParts,
        record: usize,
        before: &[i64],
        after: &[i64],
    ) -> bool {
        if self.allocated.iter().any(|o| o.record == record)
            || self.collected.iter().any(|o| o.record == record)
        {
            return false;
        }
        let Some(heap) = parts.heaps().get(record) else {
            return false;
        };
        let by_name: HashMap<&str, usize> = parts
            .heaps()
            .iter()
            .enumerate()
            .map(|(index, heap)| (heap.record.as_str(), index))
            .collect();
        let renamed: HashMap<(usize, i64), i64> = self
            .kept
            .iter()
            .map(|k| ((k.record, i64::from(k.before)), i64::from(k.after)))
            .collect();
        let before_objects: HashMap<usize, Vec<usize>> = heap
            .objects(before)
            .map(|o| (o.number, o.fields.iter().map(|f| f.1).collect()))
            .collect();
        let after_objects: HashMap<usize, Vec<usize>> = heap
            .objects(after)
            .map(|o| (o.number, o.fields.iter().map(|f| f.1).collect()))
            .collect();
        if before_objects.len() != after_objects.len() {
            return false;
        }
        let get = |values: &[i64], slot: usize| values.get(slot).copied().unwrap_or(0);
        self.kept.iter().filter(|k| k.record == record).all(|k| {
            let (Some(old), Some(new)) = (
                before_objects.get(&(k.before as usize)),
                after_objects.get(&(k.after as usize)),
            ) else {
                return false;
            };
            old.iter().zip(new).all(|(&o, &n)| {
                let (value, now) = (get(before, o), get(after, n));
                match info.slots.get(o).map(|s| &s.kind) {
                    Some(SlotKind::Reference { record: target }) => {
                        let target = by_name.get(target.as_ref()).copied();
                        let renamed = target
                            .and_then(|t| renamed.get(&(t, value)).copied())
                            .unwrap_or(value);
                        renamed == now
                    }
                    _ => value == now,
                }
            })
        })
    }
}

#[cfg(test)]
mod tests;
