//! The objects of one record type read from its slots (LANGUAGE.md, "Records and the
//! heap"; the encoding in [`heap_live_name`](super::heap_live_name)): object `j` is live
//! when element `j` of `live(R)` is true, and its fields are element `j` of each `R#f`.
//! A reference to it holds `j + 1` and reads `R#(j + 1)`.

use std::collections::HashMap;

use super::{heap_field_name, SlotRole};
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
}

/// One live object in a state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeapObject<'a> {
    /// Its number: a reference to it holds this value (`Node#2`).
    pub number: usize,
    /// Its fields in declaration order: the name and the slot.
    pub fields: Vec<(&'a str, usize)>,
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
        HeapPart {
            record: record.to_string(),
            live,
            fields,
        }
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
            })
    }
}
