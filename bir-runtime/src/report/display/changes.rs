//! What a step changed, in the terms the state is printed in: slot by slot for what is
//! shown as itself, and a version-3 model's channels and locks as what they held before and
//! after ([`PartDisplay`]).

use super::PartDisplay;
use crate::model::heap::steps::HeapStep;
use crate::model::{ModelInfo, Part, SlotRole, StateParts};
use crate::trace::{Change, Step};

/// One change of a step, as the reports list it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StepChange {
    /// A slot shown as itself: a variable, an instance's status, or a local of a frame on
    /// its instance's stack after the step.
    Slot(Change),
    /// A channel or a lock whose contents changed: its text before and after the step.
    Part {
        /// Which one.
        part: Part,
        /// Its name (`c`, `m[1]`).
        name: String,
        /// Its value before the step, as [`PartDisplay`] prints it.
        old: String,
        /// Its value after the step.
        new: String,
    },
}

/// The changes of `step`, which starts in the decoded state `before`, in slot order (a
/// channel or lock at the slot where the state shows it).
///
/// Rules: a model without parts lists every change of the step as it is; a channel or a
/// lock is listed once when its text changes (a send, a receive, a `lock`, a `notify` that
/// only moves a wait mark); a frame's local is listed when its frame is on the stack after
/// the step (a call's arguments, a running frame's writes), not when the step pops its
/// frame (which gives it its initial value again); a record type's objects are listed when
/// their text changes, unless the step only renumbered them ([`HeapStep::renames_only`]);
/// the cells, counts and marks read only
/// as part of a channel or lock are never listed apart.
pub fn step_changes(
    info: &ModelInfo,
    parts: &StateParts,
    before: &[i64],
    step: &Step,
) -> Vec<StepChange> {
    if parts.is_empty() {
        return step.changes.iter().copied().map(StepChange::Slot).collect();
    }
    let mut after = before.to_vec();
    for change in &step.changes {
        if let Some(value) = after.get_mut(change.slot as usize) {
            *value = change.new;
        }
    }
    let running: Vec<usize> = parts
        .stacks()
        .iter()
        .flat_map(|stack| stack.frames(&after))
        .flat_map(|frame| frame.locals.iter().map(|local| local.slot))
        .collect();
    let mut listed: Vec<(usize, StepChange)> = step
        .changes
        .iter()
        .filter(|change| {
            let slot = change.slot as usize;
            match parts.role(slot) {
                SlotRole::Plain | SlotRole::Anchor(Part::Stack(_)) => true,
                SlotRole::Hidden => running.contains(&slot),
                SlotRole::Anchor(_) => false,
            }
        })
        .map(|change| (change.slot as usize, StepChange::Slot(*change)))
        .collect();
    for (slot, part) in (0..info.slots.len()).filter_map(|slot| match parts.role(slot) {
        SlotRole::Anchor(part @ (Part::Channel(_) | Part::Lock(_) | Part::Heap(_))) => {
            Some((slot, part))
        }
        _ => None,
    }) {
        let old = PartDisplay::new(info, parts, part, before);
        let (old, new, name) = (
            old.to_string(),
            PartDisplay::new(info, parts, part, &after).to_string(),
            old.name().to_string(),
        );
        // A type whose objects the step only renumbered is shown unchanged.
        let renamed = match (part, &step.heap) {
            (Part::Heap(id), Some(heap)) => heap.renames_only(info, parts, id, before, &after),
            _ => false,
        };
        if old != new && !renamed {
            listed.push((
                slot,
                StepChange::Part {
                    part,
                    name,
                    old,
                    new,
                },
            ));
        }
    }
    // Stable: a part's line stands where its slot is, among the slots' in order.
    listed.sort_by_key(|(slot, _)| *slot);
    listed.into_iter().map(|(_, change)| change).collect()
}

/// What a step did to the heap, as the step's line in a trace ends: `allocated Node#2;
/// collected Node#1; renumbered Node#2 as Node#1` (each part only when not empty, the
/// objects by type then number: allocated ones by their numbers after the step, collected
/// ones by theirs before, renumbered ones before and after). `None` when there is nothing
/// to say.
pub fn heap_step_text(parts: &StateParts, heap: &HeapStep) -> Option<String> {
    let name = |record: usize, number: u32| {
        let record = parts.heaps().get(record).map_or("?", |h| h.record.as_str());
        format!("{record}#{number}")
    };
    let mut said = Vec::new();
    let list = |objects: Vec<String>| objects.join(", ");
    if !heap.allocated.is_empty() {
        let objects = heap.allocated.iter().map(|o| name(o.record, o.number));
        said.push(format!("allocated {}", list(objects.collect())));
    }
    if !heap.collected.is_empty() {
        let objects = heap.collected.iter().map(|o| name(o.record, o.number));
        said.push(format!("collected {}", list(objects.collect())));
    }
    let renumbered: Vec<String> = heap
        .kept
        .iter()
        .filter(|k| k.before != k.after)
        .map(|k| {
            format!(
                "{} as {}",
                name(k.record, k.before),
                name(k.record, k.after)
            )
        })
        .collect();
    if !renumbered.is_empty() {
        said.push(format!("renumbered {}", list(renumbered)));
    }
    (!said.is_empty()).then(|| said.join("; "))
}
