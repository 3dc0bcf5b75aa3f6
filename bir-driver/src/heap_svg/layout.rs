//! Where the boxes of a heap graph go: the roots of a state, and the objects in columns by
//! their distance from them (the module's parent says how it is drawn).

use std::collections::{HashMap, VecDeque};

use bir_runtime::model::{ModelInfo, SlotKind, SlotRole, StateParts};

use super::{BOX, GAP, HEAD, ROOT, ROW, SPACE, TOP};
use crate::json::slot_name;

/// One object of the state: its record type's heap and its number.
pub(super) type ObjectId = (usize, usize);

/// A field of a drawn object: its text, and the object it refers to, if any.
pub(super) struct Field {
    /// The field's name (`next`), an arrow's label.
    pub(super) name: String,
    /// Its row: `value = 1`, `next = null`, `next ●`.
    pub(super) text: String,
    /// The live object it refers to.
    pub(super) target: Option<ObjectId>,
}

/// A drawn object.
pub(super) struct Object {
    /// As references read it: `Node#1`.
    pub(super) title: String,
    /// Its fields in declaration order.
    pub(super) fields: Vec<Field>,
    /// Its column (the roots' is 0) and the top left corner of its box, once laid out.
    pub(super) column: usize,
    /// The left side of its box.
    pub(super) x: usize,
    /// The top of its box.
    pub(super) y: usize,
}

impl Object {
    /// The height of its box: the title and a row per field.
    pub(super) fn height(&self) -> usize {
        HEAD + self.fields.len() * ROW + 6
    }
}

/// The roots of `values`, in slot order, each with its name and its slot (null or not).
pub(super) fn roots(info: &ModelInfo, parts: &StateParts, values: &[i64]) -> Vec<(String, usize)> {
    let reference = |slot: usize| {
        info.slots
            .get(slot)
            .is_some_and(|s| matches!(s.kind, SlotKind::Reference { .. }))
    };
    let mut roots: Vec<(String, usize)> = (0..info.slots.len())
        .filter(|&slot| parts.role(slot) == SlotRole::Plain && reference(slot))
        .map(|slot| (slot_name(&info.slots[slot]), slot))
        .collect();
    for stack in parts.stacks() {
        for frame in stack.frames(values) {
            for local in frame.locals.iter().filter(|l| reference(l.slot)) {
                roots.push((slot_name(&info.slots[local.slot]), local.slot));
            }
        }
    }
    for channel in parts.channels() {
        for (message, fields) in channel.messages(values).enumerate() {
            for (field, &slot) in fields.iter().enumerate().filter(|(_, &s)| reference(s)) {
                roots.push((format!("{}⟨{}⟩.{field}", channel.name, message + 1), slot));
            }
        }
    }
    // An object whose lock an instance waits on is reachable from that instance.
    for heap in parts.heaps() {
        for (instance, slot) in heap.waiting().iter().enumerate() {
            if let (Some(slot), Some(name)) = (slot, parts.instance_name(instance as i64)) {
                roots.push((format!("{name} waits"), *slot));
            }
        }
    }
    roots
}

/// Places every object (its column and position) and returns each column's objects, top
/// down, and whether the last column holds the objects the roots do not reach: breadth
/// first from the roots, each column in the order the walk met its objects.
pub(super) fn layout(
    objects: &mut [Object],
    roots: &[(String, usize)],
    index_of: &HashMap<ObjectId, usize>,
) -> (Vec<Vec<usize>>, bool) {
    let mut column: Vec<Option<usize>> = vec![None; objects.len()];
    let mut met = Vec::new();
    let mut queue = VecDeque::new();
    for &(_, object) in roots {
        if column[object].is_none() {
            column[object] = Some(1);
            queue.push_back(object);
        }
    }
    while let Some(object) = queue.pop_front() {
        met.push(object);
        let next = column[object].unwrap_or(1) + 1;
        for field in &objects[object].fields {
            if let Some(target) = field.target.and_then(|t| index_of.get(&t).copied()) {
                if column[target].is_none() {
                    column[target] = Some(next);
                    queue.push_back(target);
                }
            }
        }
    }
    let unreached: Vec<usize> = (0..objects.len())
        .filter(|&o| column[o].is_none())
        .collect();
    let deepest = column.iter().flatten().max().copied().unwrap_or(0);
    let columns = deepest.max(1) + usize::from(!unreached.is_empty() && deepest > 0);
    let mut order: Vec<Vec<usize>> = vec![Vec::new(); columns + 1];
    for object in met {
        order[column[object].unwrap_or(1)].push(object);
    }
    order[columns].extend(&unreached);
    for (c, members) in order.iter().enumerate() {
        let mut y = TOP;
        for &object in members {
            objects[object].column = c;
            objects[object].x = column_x(c);
            objects[object].y = y;
            y += objects[object].height() + SPACE;
        }
    }
    (order, !unreached.is_empty())
}

/// Where column `column` starts: the roots' column is 0.
pub(super) fn column_x(column: usize) -> usize {
    match column {
        0 => 8,
        c => 8 + ROOT + GAP + (c - 1) * (BOX + GAP),
    }
}
