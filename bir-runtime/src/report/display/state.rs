//! Decoded states, values and the changes of a step, printed in the model's own terms.

use std::fmt;

use super::changes::{step_changes, StepChange};
use super::PartDisplay;
use crate::model::{ModelInfo, Operand, Part, SlotInfo, SlotKind, SlotRole, StateParts};
use crate::trace::Step;

/// A decoded state printed in the model's terms:
/// `fork = [true, false], x = 3, c = Color.Red, Philosopher[1] @ takeRight, Worker ended`.
///
/// Consecutive elements of one array are grouped (an array of more than 16 elements writes
/// each run of 4 or more equal values once, with its length: `a = [0 ×1499, 3]`), booleans
/// print as `true`/`false`, enums
/// as `Enum.Variant`, and thread statuses as `@ location`, `ended` or `not started`. A value
/// that does not fit its slot (which a correct model never produces) prints as `?value`.
///
/// A version-3 model's hidden state is printed as what it holds ([`PartDisplay`]): a
/// buffered channel as its messages, `c = [⟨1⟩, ⟨2⟩] (2 of 2)`; a lock as its holder,
/// `m = held by W[0] (waiting: W[1])`; an instance inside a call as its call stack,
/// `T: sum@2 at if#1 (n = 2) ← called from sum@1 at call#2 (n = 3) ← called from T at call#1`
/// (its frames' slots are not listed apart, and those of frames not on the stack, which
/// hold their initial values, nowhere); a rendezvous channel, which holds nothing, is not
/// printed. A model without channels, locks or functions prints slot by slot as above.
///
/// ```
/// use std::borrow::Cow;
/// use bir_runtime::model::{ModelInfo, SlotInfo, SlotKind};
/// use bir_runtime::StateDisplay;
///
/// let slot = |name: &'static str, element, kind| SlotInfo { name: name.into(), element, kind };
/// let info = ModelInfo {
///     name: "Table".into(),
///     slots: vec![
///         slot("fork", Some(0), SlotKind::Bool),
///         slot("fork", Some(1), SlotKind::Bool),
///         slot("x", None, SlotKind::Int),
///         slot("Worker", None, SlotKind::Status { locations: vec!["idle".into(), "busy".into()].into() }),
///     ]
///     .into(),
///     transitions: Cow::Borrowed(&[]),
///     fault_sites: Cow::Borrowed(&[]),
///     invariants: Cow::Borrowed(&[]),
/// };
/// let text = StateDisplay::new(&info, &[1, 0, 3, 1]).to_string();
/// assert_eq!(text, "fork = [true, false], x = 3, Worker @ busy");
/// assert_eq!(StateDisplay::new(&info, &[0, 0, -1, 2]).to_string(), "fork = [false, false], x = -1, Worker ended");
/// ```
#[derive(Clone, Copy, Debug)]
pub struct StateDisplay<'a> {
    /// The model's description (for slot names and kinds).
    pub info: &'a ModelInfo,
    /// One value per slot, as [`Model::decode`](crate::Model::decode) writes them.
    pub values: &'a [i64],
    /// The model's parts, when the caller has read them already (many states of one
    /// model); `None`: read from `info` when printed.
    pub parts: Option<&'a StateParts>,
}

impl<'a> StateDisplay<'a> {
    /// Prints `values` (a decoded state of the model `info` describes).
    pub fn new(info: &'a ModelInfo, values: &'a [i64]) -> Self {
        StateDisplay {
            info,
            values,
            parts: None,
        }
    }

    /// Prints `values` with the model's parts `parts` (its [`StateParts::new`]).
    pub fn with_parts(info: &'a ModelInfo, parts: &'a StateParts, values: &'a [i64]) -> Self {
        StateDisplay {
            info,
            values,
            parts: Some(parts),
        }
    }
}

/// The most elements of an array listed one by one; a longer array writes each run of at
/// least [`SHORTEST_REPEAT`] equal values once, with its length: `a = [0 ×1499, 3]`.
const LISTED_ELEMENTS: usize = 16;

/// The shortest run of equal values a long array writes once.
const SHORTEST_REPEAT: usize = 4;

impl fmt::Display for StateDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let slots = &self.info.slots;
        let read;
        let parts = match self.parts {
            Some(parts) => parts,
            None => {
                read = StateParts::new(self.info);
                &read
            }
        };
        let count = slots.len().min(self.values.len());
        let mut i = 0;
        let mut first = true;
        while i < count {
            let role = parts.role(i);
            if role == SlotRole::Hidden {
                i += 1;
                continue;
            }
            if !first {
                f.write_str(", ")?;
            }
            first = false;
            let slot = &slots[i];
            if let SlotRole::Anchor(part) = role {
                let shown = PartDisplay::new(self.info, parts, part, self.values);
                match part {
                    // An instance in its body reads as any status does, below.
                    Part::Stack(_) if !shown.is_call() => {}
                    Part::Stack(_) => {
                        write!(f, "{}: {shown}", shown.name())?;
                        i += 1;
                        continue;
                    }
                    Part::Heap(_) => {
                        write!(f, "{shown}")?;
                        i += 1;
                        continue;
                    }
                    _ => {
                        write!(f, "{} = {shown}", shown.name())?;
                        i += 1;
                        continue;
                    }
                }
            }
            if let SlotKind::Status { .. } = slot.kind {
                write_slot_name(f, slot)?;
                match value_text(&slot.kind, self.values[i]) {
                    ValueText::Location(location) => write!(f, " @ {location}")?,
                    other => write!(f, " {other}")?,
                }
                i += 1;
            } else if slot.element.is_some() {
                // The run of consecutive elements of this array.
                let end = (i..count)
                    .find(|&j| slots[j].name != slot.name || slots[j].element.is_none())
                    .unwrap_or(count);
                write!(f, "{} = [", slot.name)?;
                let long = end - i > LISTED_ELEMENTS;
                let mut j = i;
                while j < end {
                    if j > i {
                        f.write_str(", ")?;
                    }
                    let value = value_text(&slots[j].kind, self.values[j]);
                    let repeats = if long {
                        self.values[j..end]
                            .iter()
                            .take_while(|&&v| v == self.values[j])
                            .count()
                    } else {
                        1
                    };
                    if repeats >= SHORTEST_REPEAT {
                        write!(f, "{value} ×{repeats}")?;
                        j += repeats;
                    } else {
                        write!(f, "{value}")?;
                        j += 1;
                    }
                }
                f.write_str("]")?;
                i = end;
            } else {
                write!(
                    f,
                    "{} = {}",
                    slot.name,
                    value_text(&slot.kind, self.values[i])
                )?;
                i += 1;
            }
        }
        Ok(())
    }
}

/// The operands of a failing check, `buf[2] = 0, expect = 1, P[0] @ cs`: each slot with
/// its value in the model's terms, as in [`StateDisplay`] but element by element (see
/// [`Counterexample::operands`](crate::Counterexample::operands)).
#[derive(Clone, Copy, Debug)]
pub struct OperandsDisplay<'a> {
    /// The model's description (for slot names and kinds).
    pub info: &'a ModelInfo,
    /// The operands, in the order printed.
    pub operands: &'a [Operand],
}

impl<'a> OperandsDisplay<'a> {
    /// Prints `operands` (of a check of the model `info` describes).
    pub fn new(info: &'a ModelInfo, operands: &'a [Operand]) -> Self {
        OperandsDisplay { info, operands }
    }
}

impl fmt::Display for OperandsDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, operand) in self.operands.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            let Some(slot) = self.info.slots.get(operand.slot as usize) else {
                write!(f, "slot {} = {}", operand.slot, operand.value)?;
                continue;
            };
            write_slot_name(f, slot)?;
            match value_text(&slot.kind, operand.value) {
                ValueText::Location(location) => write!(f, " @ {location}")?,
                other @ (ValueText::Ended | ValueText::NotStarted) => write!(f, " {other}")?,
                other => write!(f, " = {other}")?,
            }
        }
        Ok(())
    }
}

/// Writes `fork[3]` for an array element, the name otherwise; a field of an object
/// (element `j` of `Node#value`) as the object's, `Node#1.value`.
fn write_slot_name(f: &mut fmt::Formatter<'_>, slot: &SlotInfo) -> fmt::Result {
    match (slot.element, slot.name.split_once('#')) {
        (Some(index), Some((record, field))) => write!(f, "{record}#{}.{field}", index + 1),
        (Some(index), None) => write!(f, "{}[{}]", slot.name, index),
        (None, _) => f.write_str(&slot.name),
    }
}

/// A slot's value in the model's terms.
pub(super) enum ValueText<'a> {
    Bool(bool),
    Int(i64),
    Enum(&'a str, &'a str),
    /// A reference to an object (`Node#2`).
    Object(&'a str, i64),
    Location(&'a str),
    Ended,
    NotStarted,
    /// A `tid` that names an instance (`W[0]`).
    Instance(&'a str),
    /// A reference to no object, or a `tid` that names no instance.
    Null,
    Invalid(i64),
}

pub(super) fn value_text(kind: &SlotKind, value: i64) -> ValueText<'_> {
    let index = usize::try_from(value).ok();
    match kind {
        SlotKind::Bool => match value {
            0 => ValueText::Bool(false),
            1 => ValueText::Bool(true),
            _ => ValueText::Invalid(value),
        },
        SlotKind::Int => ValueText::Int(value),
        SlotKind::Enum { name, variants } => match index.and_then(|i| variants.get(i)) {
            Some(variant) => ValueText::Enum(name, variant),
            None => ValueText::Invalid(value),
        },
        SlotKind::Reference { record } => match value {
            0 => ValueText::Null,
            v if v > 0 => ValueText::Object(record, v),
            _ => ValueText::Invalid(value),
        },
        SlotKind::Status { locations } => match (kind.location(value), index) {
            (Some(location), _) => ValueText::Location(location),
            (None, Some(i)) if i == locations.len() => ValueText::Ended,
            (None, Some(i)) if i == locations.len() + 1 => ValueText::NotStarted,
            _ => ValueText::Invalid(value),
        },
        SlotKind::Tid { .. } => match (value, kind.instance(value)) {
            (0, _) => ValueText::Null,
            (_, Some(instance)) => ValueText::Instance(instance),
            _ => ValueText::Invalid(value),
        },
    }
}

impl fmt::Display for ValueText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ValueText::Bool(value) => write!(f, "{value}"),
            ValueText::Int(value) => write!(f, "{value}"),
            ValueText::Enum(name, variant) => write!(f, "{name}.{variant}"),
            ValueText::Null => f.write_str("null"),
            ValueText::Object(record, number) => write!(f, "{record}#{number}"),
            ValueText::Location(location) => f.write_str(location),
            ValueText::Ended => f.write_str("ended"),
            ValueText::NotStarted => f.write_str("not started"),
            ValueText::Instance(instance) => f.write_str(instance),
            ValueText::Invalid(value) => write!(f, "?{value}"),
        }
    }
}

/// The variables a step changed, `fork2: false -> true, x: 0 -> 1`, and a version-3
/// model's channels and locks as they were and became (see [`step_changes`]). The
/// executing instance's own move is left out: the step's heading already shows it.
pub(crate) struct ChangeDisplay<'a> {
    info: &'a ModelInfo,
    shown: Vec<StepChange>,
}

impl<'a> ChangeDisplay<'a> {
    /// The changes of `step`, which starts in `before` (read only for a model with parts);
    /// None when the step changed nothing worth a line.
    pub(crate) fn new(
        info: &'a ModelInfo,
        parts: &StateParts,
        before: &[i64],
        step: &Step,
    ) -> Option<Self> {
        let mover = info
            .transitions
            .get(step.transition as usize)
            .map(|t| &*t.thread);
        let shown: Vec<StepChange> = step_changes(info, parts, before, step)
            .into_iter()
            .filter(|change| match change {
                StepChange::Slot(change) => {
                    info.slots.get(change.slot as usize).is_some_and(|slot| {
                        let own_move = matches!(slot.kind, SlotKind::Status { .. })
                            && Some(&*slot.name) == mover;
                        !own_move
                    })
                }
                StepChange::Part { .. } => true,
            })
            .collect();
        (!shown.is_empty()).then_some(ChangeDisplay { info, shown })
    }
}

impl fmt::Display for ChangeDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, change) in self.shown.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            match change {
                StepChange::Slot(change) => {
                    let Some(slot) = self.info.slots.get(change.slot as usize) else {
                        continue;
                    };
                    write_slot_name(f, slot)?;
                    write!(
                        f,
                        ": {} -> {}",
                        value_text(&slot.kind, change.old),
                        value_text(&slot.kind, change.new)
                    )?;
                }
                StepChange::Part { name, old, new, .. } => write!(f, "{name}: {old} -> {new}")?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_models::Philosophers;
    use crate::trace::Change;
    use crate::Model;

    #[test]
    fn arrays_enums_and_statuses_print_in_model_terms() {
        let model = Philosophers::new(3, false);
        let mut values = Vec::new();
        model.decode(&model.initial_state(), &mut values);
        assert_eq!(
            StateDisplay::new(model.info(), &values).to_string(),
            "fork = [false, false, false], Philosopher[0] @ takeLeft, \
             Philosopher[1] @ takeLeft, Philosopher[2] @ takeLeft"
        );
        let enum_kind = SlotKind::Enum {
            name: "Color".into(),
            variants: vec!["Red".into(), "Green".into()].into(),
        };
        assert_eq!(value_text(&enum_kind, 1).to_string(), "Color.Green");
        assert_eq!(value_text(&enum_kind, 2).to_string(), "?2");
        let status = SlotKind::Status {
            locations: vec!["a".into()].into(),
        };
        assert_eq!(value_text(&status, 2).to_string(), "not started");
        assert_eq!(value_text(&SlotKind::Bool, 7).to_string(), "?7");
        let tid = SlotKind::Tid {
            instances: vec!["Main".into(), "W[0]".into(), "W[1]".into()].into(),
        };
        assert_eq!(value_text(&tid, 0).to_string(), "null");
        assert_eq!(value_text(&tid, 2).to_string(), "W[0]");
        assert_eq!(value_text(&tid, 4).to_string(), "?4");
    }

    #[test]
    fn long_arrays_write_runs_of_equal_values_once() {
        let info = |elements: u32| ModelInfo {
            name: "Long".into(),
            slots: (0..elements)
                .map(|k| SlotInfo {
                    name: "a".into(),
                    element: Some(k),
                    kind: SlotKind::Int,
                })
                .collect::<Vec<_>>()
                .into(),
            transitions: Default::default(),
            fault_sites: Default::default(),
            invariants: Default::default(),
        };
        let text = |values: &[i64]| {
            let info = info(values.len() as u32);
            StateDisplay::new(&info, values).to_string()
        };
        let mut values = vec![0; 20];
        values[19] = 3;
        values[4..7].copy_from_slice(&[1, 1, 1]);
        assert_eq!(text(&values), "a = [0 ×4, 1, 1, 1, 0 ×12, 3]");
        assert_eq!(text(&[7; 1500]), "a = [7 ×1500]");
        // Up to 16 elements, every one.
        assert_eq!(text(&[0; 16]), format!("a = [{}]", ["0"; 16].join(", ")));
    }

    #[test]
    fn changes_leave_out_the_executing_instance_move() {
        let model = Philosophers::new(3, false);
        let step = Step {
            transition: 4, // Philosopher[1] takeLeft
            changes: vec![
                Change {
                    slot: 1,
                    old: 0,
                    new: 1,
                },
                Change {
                    slot: 4,
                    old: 0,
                    new: 1,
                },
            ],
            fault: None,
            heap: None,
        };
        let shown = ChangeDisplay::new(model.info(), &StateParts::default(), &[], &step).unwrap();
        assert_eq!(shown.to_string(), "fork[1]: false -> true");
    }
}
