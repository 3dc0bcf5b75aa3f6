//! What a closure heuristic sees of a state: its values, by slot and by name.

use std::collections::HashMap;

use crate::model::{ModelInfo, SlotKind};

/// What a [`Heuristic::custom`](crate::Heuristic::custom) closure sees of a state: its values, in the order of the
/// model's slots ([`ModelInfo::slots`]), and each by the name the report prints.
pub struct StateView<'a> {
    pub(crate) values: &'a [i64],
    pub(crate) names: &'a SlotNames,
}

impl<'a> StateView<'a> {
    /// Every value of the state, in slot order (as [`Model::decode`](crate::Model::decode) writes them).
    pub fn values(&self) -> &'a [i64] {
        self.values
    }

    /// The value of the slot named `name` as the report prints it: `x`, `fork[3]`,
    /// `Philosopher[1]` (an instance's status: the index of its location, with
    /// [`Self::at`] to test one by name), `P[2].level`; `None` when there is no such slot.
    pub fn get(&self, name: &str) -> Option<i64> {
        let &slot = self.names.slots.get(name)?;
        self.values.get(slot).copied()
    }

    /// True when instance `instance` (`Worker`, `P[2]`) stands at location `location`.
    pub fn at(&self, instance: &str, location: &str) -> bool {
        let Some(&slot) = self.names.slots.get(instance) else {
            return false;
        };
        let value = self.values.get(slot).copied();
        self.names
            .locations
            .get(&(slot, location.to_string()))
            .is_some_and(|&code| value == Some(code))
    }
}

/// The slots of a model by name, and the codes of its status slots' locations: what a
/// [`StateView`] looks names up in, built once per search.
pub(crate) struct SlotNames {
    slots: HashMap<String, usize>,
    locations: HashMap<(usize, String), i64>,
}

impl SlotNames {
    /// The names of `info`'s slots (an array element as `name[i]`).
    pub(crate) fn new(info: &ModelInfo) -> Self {
        let mut slots = HashMap::new();
        let mut locations = HashMap::new();
        for (index, slot) in info.slots.iter().enumerate() {
            let name = match slot.element {
                Some(element) => format!("{}[{element}]", slot.name),
                None => slot.name.to_string(),
            };
            if let SlotKind::Status { locations: names } = &slot.kind {
                for (code, location) in names.iter().enumerate() {
                    locations.insert((index, location.to_string()), code as i64);
                }
            }
            slots.entry(name).or_insert(index);
        }
        SlotNames { slots, locations }
    }
}
