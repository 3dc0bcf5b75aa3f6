//! A decoded state read in the terms of what a version-3 model declares: version 3 keeps a
//! buffered channel, a lock and a call's frames in hidden slots (LANGUAGE.md, "How `bir`
//! implements version 3"), which mean something only together — a channel's cells past
//! its length hold nothing, a lock's owner is an instance's number, a frame's locals are
//! those of a call only while it runs. [`StateParts`] groups a model's slots into its
//! channels ([`ChannelPart`]), locks ([`LockPart`]) and the call stacks of its instances
//! ([`StackPart`]), once per model, from the slot and location names of its [`ModelInfo`]
//! (see [`names`](self) for the contract); every rendering of states (the text report, the
//! JSON, the HTML page, the explorer) reads them through it.
//!
//! Rule: a model without channels, locks or functions has no parts, and every one of its
//! slots is [`SlotRole::Plain`], so that what is printed of it does not change.

mod channel;
mod heap;
mod lock;
mod names;
mod stack;

use std::collections::HashMap;

use crate::info::{ModelInfo, SlotInfo, SlotKind};

pub use channel::ChannelPart;
pub use heap::{HeapObject, HeapPart, ObjectLock};
use lock::{read_lock, WaitMarks};
pub use lock::{LockPart, LockState, Waiter};
pub use names::{
    channel_field_name, channel_length_name, frame_item_name, frame_name, heap_field_name,
    heap_live_name, heap_lock_holds_field, heap_lock_of_holds_field, is_overflow_name,
    lock_holds_name, lock_owner_name, object_wait_name, overflow_name, parse_frame_item,
    rendezvous_name, FRAME_RESULT, OBJECT_LOCK_FIELD, WAIT_HOLDS_NAME, WAIT_MARK_NAME,
};
pub use stack::{Frame, Local, StackPart};

/// What a slot is in the parts of a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlotRole {
    /// Shown as itself: a variable, an array element, an instance's status or local.
    Plain,
    /// Read only as a part of something shown where its [`SlotRole::Anchor`] is (a
    /// channel's cells, a lock's count, the wait marks, a frame's locals), or nowhere (a
    /// rendezvous channel's length, which is always 0).
    Hidden,
    /// Where a part is shown: a channel's length, a lock's owner, an instance's status.
    Anchor(Part),
}

/// One part of a state, by its index among its kind's in [`StateParts`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// A buffered channel (one element of an array of them): [`StateParts::channels`].
    Channel(usize),
    /// A lock (one element of an array of them): [`StateParts::locks`].
    Lock(usize),
    /// An instance of a thread that calls functions: [`StateParts::stacks`].
    Stack(usize),
    /// The objects of a record type (version 3): [`StateParts::heaps`].
    Heap(usize),
}

/// The slots of a model grouped into its channels, locks and call stacks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StateParts {
    roles: Vec<SlotRole>,
    channels: Vec<ChannelPart>,
    locks: Vec<LockPart>,
    stacks: Vec<StackPart>,
    heaps: Vec<HeapPart>,
    /// Every instance's name, by its global number (the order of the status slots:
    /// threads in declaration order, instances by index).
    instances: Vec<String>,
    /// The slots of each instance's wait mark and remembered count, by global number.
    wait_marks: Vec<Option<usize>>,
    wait_holds: Vec<Option<usize>>,
    /// The number of lock elements of the model (the declared locks' elements, then the
    /// locks each object of a record carries), which the wait marks' encoding counts.
    lock_elements: usize,
}

impl StateParts {
    /// The parts of the model `info` describes.
    pub fn new(info: &ModelInfo) -> StateParts {
        let slots = &info.slots;
        // Every name of hidden state holds `(`, `@` or a space, which no name of a model's
        // own variables, instances or locations has: a model without any is read as it is,
        // at the cost of one look at each name.
        let hides = |slot: &SlotInfo| {
            slot.name.contains(['(', '@', ' ', '#'])
                || match &slot.kind {
                    SlotKind::Status { locations } => locations.iter().any(|l| l.contains('@')),
                    _ => false,
                }
        };
        if !slots.iter().any(hides) {
            return StateParts::default();
        }
        let mut parts = StateParts {
            roles: vec![SlotRole::Plain; slots.len()],
            ..StateParts::default()
        };
        let mut by_name: HashMap<&str, Vec<usize>> = HashMap::new();
        for (index, slot) in slots.iter().enumerate() {
            by_name.entry(&slot.name).or_default().push(index);
            if let SlotKind::Status { .. } = slot.kind {
                parts.instances.push(slot.name.to_string());
            }
        }
        let mut lock_number = 0;
        for (index, slot) in slots.iter().enumerate() {
            if let Some(channel) = slot.channel_length() {
                let id = parts.channels.len();
                let part = ChannelPart::new(slots, &by_name, channel, index, &mut parts.roles);
                parts.channels.push(part);
                parts.roles[index] = SlotRole::Anchor(Part::Channel(id));
            } else if let Some(lock) = call_of(&slot.name, "owner") {
                let holds = by_name
                    .get(lock_holds_name(lock).as_str())
                    .and_then(|found| found.iter().find(|&&s| slots[s].element == slot.element))
                    .copied();
                let id = parts.locks.len();
                parts.locks.push(LockPart {
                    name: element_name(lock, slot),
                    owner: index,
                    holds,
                    number: lock_number,
                });
                lock_number += 1;
                parts.roles[index] = SlotRole::Anchor(Part::Lock(id));
                if let Some(holds) = holds {
                    parts.roles[holds] = SlotRole::Hidden;
                }
            } else if let Some(record) = call_of(&slot.name, "live") {
                if slot.element.unwrap_or(0) == 0 {
                    let live = by_name.get(slot.name.as_ref()).cloned().unwrap_or_default();
                    let part = HeapPart::new(slots, &by_name, record, live, &mut parts.roles);
                    let id = parts.heaps.len();
                    parts.heaps.push(part);
                    parts.roles[index] = SlotRole::Anchor(Part::Heap(id));
                }
            } else if call_of(&slot.name, "rendezvous").is_some() {
                parts.roles[index] = SlotRole::Hidden;
            } else if slot.name == WAIT_MARK_NAME || slot.name == WAIT_HOLDS_NAME {
                let list = if slot.name == WAIT_MARK_NAME {
                    &mut parts.wait_marks
                } else {
                    &mut parts.wait_holds
                };
                let instance = slot.element.unwrap_or(0) as usize;
                if list.len() <= instance {
                    list.resize(instance + 1, None);
                }
                list[instance] = Some(index);
                parts.roles[index] = SlotRole::Hidden;
            }
        }
        // The locks of objects are numbered after the declared locks' elements (one owner
        // slot each), record by record; an instance's `wait(R)` names the object whose lock
        // its mark names, shown with that lock.
        let mut next = parts.locks.len() as u32;
        for heap in &mut parts.heaps {
            next = heap.number_locks(next);
            let waiting = by_name
                .get(object_wait_name(&heap.record).as_str())
                .cloned()
                .unwrap_or_default();
            for slot in waiting {
                let instance = slots[slot].element.unwrap_or(0) as usize;
                if heap.waiting.len() <= instance {
                    heap.waiting.resize(instance + 1, None);
                }
                heap.waiting[instance] = Some(slot);
                parts.roles[slot] = SlotRole::Hidden;
            }
        }
        parts.lock_elements = next as usize;
        parts.stacks = StackPart::all(info, &mut parts.roles);
        for (id, stack) in parts.stacks.iter().enumerate() {
            parts.roles[stack.status] = SlotRole::Anchor(Part::Stack(id));
        }
        parts
    }

    /// True when the model has no channel, lock or call stack: every slot is plain.
    pub fn is_empty(&self) -> bool {
        self.roles.iter().all(|role| *role == SlotRole::Plain)
    }

    /// What slot `slot` is; a slot past the model's is plain.
    pub fn role(&self, slot: usize) -> SlotRole {
        self.roles.get(slot).copied().unwrap_or(SlotRole::Plain)
    }

    /// The buffered channels, in slot order (an array's elements by index).
    pub fn channels(&self) -> &[ChannelPart] {
        &self.channels
    }

    /// The locks, in slot order, which is the order of their numbers.
    pub fn locks(&self) -> &[LockPart] {
        &self.locks
    }

    /// The instances of the threads that call functions, in slot order.
    pub fn stacks(&self) -> &[StackPart] {
        &self.stacks
    }

    /// The objects of each record type, in declaration order.
    pub fn heaps(&self) -> &[HeapPart] {
        &self.heaps
    }

    /// Every part, in the order of the slots where each is shown.
    pub fn parts(&self) -> impl Iterator<Item = Part> + '_ {
        self.roles.iter().filter_map(|role| match role {
            SlotRole::Anchor(part) => Some(*part),
            _ => None,
        })
    }

    /// The number of thread instances of the model.
    pub fn instance_count(&self) -> usize {
        self.instances.len()
    }

    /// The name of the instance numbered `number` (threads in declaration order, instances
    /// by index: what a lock's owner holds), if there is one.
    pub fn instance_name(&self, number: i64) -> Option<&str> {
        let index = usize::try_from(number).ok()?;
        self.instances.get(index).map(String::as_str)
    }

    /// Lock `lock` in `values` (a decoded state): its owner and hold count, and the
    /// instances in its wait set and those it notified, by number.
    pub fn lock_state(&self, lock: usize, values: &[i64]) -> Option<LockState> {
        let part = self.locks.get(lock)?;
        Some(part.read(
            values,
            self.lock_elements,
            &self.wait_marks,
            &self.wait_holds,
        ))
    }

    /// Lock `lock` of `object`, an object of record type `heap` (its own or a lock
    /// field's, [`HeapObject::locks`]), in `values`: as [`Self::lock_state`], the instances
    /// in its wait set and those it notified being those whose wait mark names its number
    /// and whose `wait(R)` names this object.
    pub fn object_lock_state(
        &self,
        heap: usize,
        object: &HeapObject,
        lock: &ObjectLock,
        values: &[i64],
    ) -> LockState {
        let waiting = self.heaps.get(heap).map_or(&[][..], |h| &h.waiting[..]);
        let wait = WaitMarks {
            locks: self.lock_elements,
            marks: &self.wait_marks,
            holds: &self.wait_holds,
        };
        let here = |instance: usize| {
            waiting
                .get(instance)
                .copied()
                .flatten()
                .and_then(|slot| values.get(slot))
                .is_some_and(|&target| usize::try_from(target).ok() == Some(object.number))
        };
        read_lock(
            values,
            lock.owner,
            Some(lock.holds),
            lock.number,
            &wait,
            here,
        )
    }
}

/// The argument of `name` when it is `function(argument)`: `owner(m)` is `m` for `owner`.
fn call_of<'a>(name: &'a str, function: &str) -> Option<&'a str> {
    name.strip_prefix(function)?
        .strip_prefix('(')?
        .strip_suffix(')')
}

/// `c` for a single channel or lock, `c[2]` for element 2 of an array of them.
fn element_name(name: &str, slot: &SlotInfo) -> String {
    match slot.element {
        Some(element) => format!("{name}[{element}]"),
        None => name.to_string(),
    }
}

#[cfg(test)]
mod tests;
