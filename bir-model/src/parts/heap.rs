//! The objects of one record type read from its slots (LANGUAGE.md, "Records and the
//! heap"; the encoding in [`heap_live_name`](super::heap_live_name)): object `j` is live
//! when element `j` of `live(R)` is true, and its fields are element `j` of each `R#f`.
//! A reference to it holds `j + 1` and reads `R#(j + 1)`.
//!
//! The locks of an object (its own, `lock`, and its record's lock fields, `f` or `f[i]`) are
//! fields too, an owner and a hold count each (`lock` and `lock.count`,
//! [`heap_lock_holds_field`](super::heap_lock_holds_field)): [`HeapObject::locks`] pairs
//! them, and [`HeapObject::values`] are the other fields, which hold the object's values.

use std::collections::HashMap;

use super::{heap_field_name, heap_lock_of_holds_field, SlotRole};
use crate::info::SlotInfo;

/// The objects of one record type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeapPart {
    /// The record type: `Node`.
    pub record: String,
    /// Per object, the slot of its live flag.
    live: Vec<usize>,
    /// Per field in declaration order, its name and its slot in each object.
    fields: Vec<(String, Vec<usize>)>,
    /// The locks of each object: per lock, the indices in `fields` of its owner and its
    /// hold count, and its number among the model's lock elements (the same for every
    /// object), in slot order.
    locks: Vec<(usize, usize, u32)>,
    /// Per instance (by global number), the slot of the object whose lock it waits on or
    /// was notified by (`wait(R)`), when some instance can wait on an object's lock.
    pub(super) waiting: Vec<Option<usize>>,
}

/// One lock of a live object: its own (`lock`) or a lock field's (`f`, `f[1]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ObjectLock<'a> {
    /// The field's name: `lock` for the object's own lock, `f` or `f[1]` for a lock field.
    pub name: &'a str,
    /// The slot of its owner in this object.
    pub owner: usize,
    /// The slot of its hold count in this object.
    pub holds: usize,
    /// Its number among the model's lock elements, which the wait marks name.
    pub number: u32,
}

/// One live object in a state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeapObject<'a> {
    /// Its number: a reference to it holds this value (`Node#2`).
    pub number: usize,
    /// Its fields in declaration order: the name and the slot (its locks' owners and
    /// counts included, after the record's own fields).
    pub fields: Vec<(&'a str, usize)>,
    /// Its locks, in slot order.
    pub locks: Vec<ObjectLock<'a>>,
}

impl HeapObject<'_> {
    /// Its fields that hold values, in declaration order: every field but its locks'
    /// owners and counts.
    pub fn values(&self) -> impl Iterator<Item = &(&str, usize)> + '_ {
        self.fields.iter().filter(|(_, slot)| {
            !self
                .locks
                .iter()
                .any(|lock| lock.owner == *slot || lock.holds == *slot)
        })
    }
}

impl HeapPart {
    /// The objects of `record`, whose live flags are the slots `live`; every slot of
    /// their flags and fields is marked hidden in `roles`. The fields are the slots named
    /// `R#f`, in slot order, which is their declaration order.
    pub(super) fn new(
        slots: &[SlotInfo],
        by_name: &HashMap<&str, Vec<usize>>,
        record: &str,
        live: Vec<usize>,
        roles: &mut [SlotRole],
    ) -> HeapPart {
        let prefix = heap_field_name(record, "");
        let mut fields: Vec<(String, Vec<usize>)> = Vec::new();
        for (index, slot) in slots.iter().enumerate() {
            let Some(field) = slot.name.strip_prefix(prefix.as_str()) else {
                continue;
            };
            if fields.iter().any(|(name, _)| name == field) {
                continue;
            }
            let elements = by_name.get(slot.name.as_ref()).cloned().unwrap_or_default();
            // Rule: a field has one slot per object; one that does not is no field of
            // these objects (and is shown as itself).
            if elements.len() == live.len() && elements.first() == Some(&index) {
                fields.push((field.to_string(), elements));
            }
        }
        for &slot in live.iter().chain(fields.iter().flat_map(|(_, s)| s)) {
            roles[slot] = SlotRole::Hidden;
        }
        // Rule: a field `X.count` is the hold count of the lock whose owner is field `X`
        // (no field of a model has a `.` in its name). Numbered later, by `number_locks`.
        let locks = fields
            .iter()
            .enumerate()
            .filter_map(|(holds, (name, _))| {
                let owner = heap_lock_of_holds_field(name)?;
                let owner = fields.iter().position(|(name, _)| *name == owner)?;
                Some((owner, holds, 0))
            })
            .collect();
        HeapPart {
            record: record.to_string(),
            live,
            fields,
            locks,
            waiting: Vec::new(),
        }
    }

    /// Numbers the objects' locks from `first`, in slot order (LANGUAGE.md's numbering of
    /// lock elements, which the checker follows: the declared locks, then per record type
    /// its objects' own lock and its lock fields, an array's elements by index); returns
    /// the next number.
    pub(super) fn number_locks(&mut self, first: u32) -> u32 {
        let mut next = first;
        self.locks.sort_by_key(|&(owner, _, _)| owner);
        for lock in &mut self.locks {
            lock.2 = next;
            next += 1;
        }
        next
    }

    /// Per instance (by global number), the slot of the reference to the object whose lock
    /// it waits on or was notified by (`null` when none), when some instance can wait on
    /// an object's lock: roots of the heap's walk after the instances' own references.
    pub fn waiting(&self) -> &[Option<usize>] {
        &self.waiting
    }

    /// The number of lock elements its objects carry (one number per lock, for all
    /// objects).
    pub fn lock_count(&self) -> usize {
        self.locks.len()
    }

    /// The slot where the type's objects are shown: its first live flag.
    pub fn anchor(&self) -> Option<usize> {
        self.live.first().copied()
    }

    /// Its live objects in `values` (a decoded state), by number.
    pub fn objects<'a>(&'a self, values: &'a [i64]) -> impl Iterator<Item = HeapObject<'a>> + 'a {
        self.live
            .iter()
            .enumerate()
            .filter(move |(_, &slot)| values.get(slot).is_some_and(|&v| v != 0))
            .map(move |(object, _)| HeapObject {
                number: object + 1,
                fields: self
                    .fields
                    .iter()
                    .filter_map(|(name, slots)| Some((name.as_str(), *slots.get(object)?)))
                    .collect(),
                locks: self
                    .locks
                    .iter()
                    .filter_map(|&(owner, holds, number)| {
                        let (name, owners) = self.fields.get(owner)?;
                        Some(ObjectLock {
                            name,
                            owner: *owners.get(object)?,
                            holds: *self.fields.get(holds)?.1.get(object)?,
                            number,
                        })
                    })
                    .collect(),
            })
    }
}
