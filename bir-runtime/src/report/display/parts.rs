//! The parts of a version-3 state printed in the model's terms (see
//! [`StateParts`](crate::model::StateParts)): a buffered channel as its messages, a lock as
//! its holder and who waits, an instance inside a call as its call stack.

use std::fmt;

use super::state::value_text;
use crate::model::{frame_name, LockState, ModelInfo, Part, StateParts};

/// The value of one part of a decoded state, as text:
/// - a buffered channel, its messages first in first and how many it holds of how many:
///   `[⟨1⟩, ⟨2⟩] (2 of 2)`, `[] (0 of 2)` (a channel without fields: `[⟨⟩, ⟨⟩]`, its
///   capacity being unknown);
/// - a lock, `free` or `held by W[0]`, then its hold count past 1, its wait set and the
///   instances it notified: `held by N (2 holds; waiting: W[0], W[1]; notified: W[2])`;
/// - an instance of a thread that calls functions, where it stands as a status reads
///   (`call#1`, `ended`) when it is in its body, and inside a call its stack, the running
///   frame first, each with its locals:
///   `sum@2 at if#1 (n = 2, t = 0) ← called from sum@1 at call#2 (n = 3, t = 0) ← called from T at call#1`.
#[derive(Clone, Copy, Debug)]
pub struct PartDisplay<'a> {
    /// The model's description (for slot kinds).
    pub info: &'a ModelInfo,
    /// Its parts.
    pub parts: &'a StateParts,
    /// The part printed.
    pub part: Part,
    /// One value per slot, as [`Model::decode`](crate::Model::decode) writes them.
    pub values: &'a [i64],
}

impl<'a> PartDisplay<'a> {
    /// Prints `part` of `values` (a decoded state of the model `info` describes).
    pub fn new(info: &'a ModelInfo, parts: &'a StateParts, part: Part, values: &'a [i64]) -> Self {
        PartDisplay {
            info,
            parts,
            part,
            values,
        }
    }

    /// The part's name: the channel's or lock's (`c`, `c[1]`), the instance's (`T`, `P[2]`).
    pub fn name(&self) -> &'a str {
        let parts = self.parts;
        let name = match self.part {
            Part::Channel(id) => parts.channels().get(id).map(|c| c.name.as_str()),
            Part::Lock(id) => parts.locks().get(id).map(|l| l.name.as_str()),
            Part::Stack(id) => parts.stacks().get(id).map(|s| s.instance.as_str()),
            Part::Heap(id) => parts.heaps().get(id).map(|h| h.record.as_str()),
        };
        name.unwrap_or("?")
    }

    /// True for an instance inside a call: its value is a stack, not a location.
    pub fn is_call(&self) -> bool {
        match self.part {
            Part::Stack(id) => self
                .parts
                .stacks()
                .get(id)
                .is_some_and(|stack| stack.in_call(self.values)),
            _ => false,
        }
    }

    /// Writes the value of slot `slot` in the model's terms.
    fn value(&self, f: &mut fmt::Formatter<'_>, slot: usize) -> fmt::Result {
        match (self.info.slots.get(slot), self.values.get(slot)) {
            (Some(info), Some(&value)) => write!(f, "{}", value_text(&info.kind, value)),
            _ => f.write_str("?"),
        }
    }

    fn channel(&self, f: &mut fmt::Formatter<'_>, id: usize) -> fmt::Result {
        let Some(channel) = self.parts.channels().get(id) else {
            return f.write_str("?");
        };
        f.write_str("[")?;
        for (index, message) in channel.messages(self.values).enumerate() {
            if index > 0 {
                f.write_str(", ")?;
            }
            f.write_str("⟨")?;
            for (field, &slot) in message.iter().enumerate() {
                if field > 0 {
                    f.write_str(", ")?;
                }
                self.value(f, slot)?;
            }
            f.write_str("⟩")?;
        }
        f.write_str("]")?;
        match channel.capacity {
            Some(capacity) => write!(f, " ({} of {capacity})", channel.len(self.values)),
            None => Ok(()),
        }
    }

    fn lock(&self, f: &mut fmt::Formatter<'_>, id: usize) -> fmt::Result {
        let Some(lock) = self.parts.lock_state(id, self.values) else {
            return f.write_str("?");
        };
        self.lock_state(f, &lock)
    }

    /// The text of a lock in the state `lock` of a model whose parts are `parts`, as a
    /// lock part reads (`held by N (waiting: W[1])`): for the locks of objects, which are
    /// no parts of their own.
    pub fn lock_text(parts: &StateParts, lock: &LockState) -> String {
        struct Text<'a>(&'a StateParts, &'a LockState);
        impl fmt::Display for Text<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write_lock(f, self.0, self.1)
            }
        }
        Text(parts, lock).to_string()
    }

    fn lock_state(&self, f: &mut fmt::Formatter<'_>, lock: &LockState) -> fmt::Result {
        write_lock(f, self.parts, lock)
    }

    /// The live objects of a record type, `Node#1 { value = 3, next = Node#2 }, Node#2 {
    /// value = 1, next = null }`, or `no Node` when none is; an object's locks after its
    /// values, each as a lock reads (`lock = held by T`, `l = [free, held by W[1]]`).
    fn heap(&self, f: &mut fmt::Formatter<'_>, id: usize) -> fmt::Result {
        let Some(heap) = self.parts.heaps().get(id) else {
            return f.write_str("?");
        };
        let mut none = true;
        for object in heap.objects(self.values) {
            if !none {
                f.write_str(", ")?;
            }
            none = false;
            write!(f, "{}#{} {{", heap.record, object.number)?;
            // The elements of an array field (`x[0]`, `x[1]`, ...) as one list, `x = [0, 2]`,
            // as a global array reads; an array of lock fields likewise.
            let mut n = 0;
            let values: Vec<(&str, usize)> = object.values().copied().collect();
            let locks: Vec<(&str, LockState)> = object
                .locks
                .iter()
                .map(|lock| {
                    let state = self.parts.object_lock_state(id, &object, lock, self.values);
                    (lock.name, state)
                })
                .collect();
            let mut write_list = |f: &mut fmt::Formatter<'_>,
                                  names: &[&str],
                                  write: &dyn Fn(&mut fmt::Formatter<'_>, usize) -> fmt::Result|
             -> fmt::Result {
                let mut at = 0;
                while at < names.len() {
                    f.write_str(if n == 0 { " " } else { ", " })?;
                    n += 1;
                    let Some(array) = names[at].strip_suffix("[0]") else {
                        write!(f, "{} = ", names[at])?;
                        write(f, at)?;
                        at += 1;
                        continue;
                    };
                    write!(f, "{array} = [")?;
                    write(f, at)?;
                    at += 1;
                    let mut next = 1;
                    while names.get(at) == Some(&format!("{array}[{next}]").as_str()) {
                        f.write_str(", ")?;
                        write(f, at)?;
                        at += 1;
                        next += 1;
                    }
                    f.write_str("]")?;
                }
                Ok(())
            };
            let names: Vec<&str> = values.iter().map(|(name, _)| *name).collect();
            write_list(f, &names, &|f, at| self.value(f, values[at].1))?;
            let names: Vec<&str> = locks.iter().map(|(name, _)| *name).collect();
            write_list(f, &names, &|f, at| self.lock_state(f, &locks[at].1))?;
            f.write_str(if object.fields.is_empty() { "}" } else { " }" })?;
        }
        if none {
            write!(f, "no {}", heap.record)?;
        }
        Ok(())
    }

    fn stack(&self, f: &mut fmt::Formatter<'_>, id: usize) -> fmt::Result {
        let Some(stack) = self.parts.stacks().get(id) else {
            return f.write_str("?");
        };
        if !stack.in_call(self.values) {
            // In its body, ended or not started: as its status reads.
            return self.value(f, stack.status);
        }
        for (index, frame) in stack.frames(self.values).iter().enumerate() {
            if index > 0 {
                f.write_str(" ← called from ")?;
            }
            match frame.function {
                Some(function) => write!(
                    f,
                    "{} at {}",
                    frame_name(function, frame.number),
                    frame.location
                )?,
                None => write!(f, "{} at {}", stack.instance, frame.location)?,
            }
            if !frame.locals.is_empty() {
                f.write_str(" (")?;
                for (n, local) in frame.locals.iter().enumerate() {
                    if n > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{} = ", local.name)?;
                    self.value(f, local.slot)?;
                }
                f.write_str(")")?;
            }
        }
        Ok(())
    }
}

impl fmt::Display for PartDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.part {
            Part::Channel(id) => self.channel(f, id),
            Part::Lock(id) => self.lock(f, id),
            Part::Stack(id) => self.stack(f, id),
            Part::Heap(id) => self.heap(f, id),
        }
    }
}

/// The instance numbered `number` (what a lock's owner holds), by name.
fn write_instance(f: &mut fmt::Formatter<'_>, parts: &StateParts, number: i64) -> fmt::Result {
    match parts.instance_name(number) {
        Some(name) => f.write_str(name),
        // The owner of a lock that a freed pool instance held (`ir::System::freeing`).
        None if usize::try_from(number).ok() == Some(parts.instance_count()) => {
            f.write_str("a freed instance")
        }
        None => write!(f, "instance ?{number}"),
    }
}

/// A lock's state: `free` or `held by W[0]`, then its hold count past 1, its wait set and
/// the instances it notified, a global lock and the lock of an object alike.
fn write_lock(f: &mut fmt::Formatter<'_>, parts: &StateParts, lock: &LockState) -> fmt::Result {
    match lock.owner {
        Some(owner) => {
            f.write_str("held by ")?;
            write_instance(f, parts, owner)?;
        }
        None => f.write_str("free")?,
    }
    let mut notes = Vec::new();
    if lock.owner.is_some() && lock.holds != 1 {
        notes.push(format!("{} holds", lock.holds));
    }
    for (what, waiters) in [("waiting", &lock.waiting), ("notified", &lock.notified)] {
        if waiters.is_empty() {
            continue;
        }
        let names: Vec<String> = waiters
            .iter()
            .map(|waiter| {
                let name = parts
                    .instance_name(waiter.instance as i64)
                    .map_or_else(|| format!("instance ?{}", waiter.instance), str::to_string);
                // The count its `unwait` takes back, when it is more than one lock.
                match waiter.holds {
                    holds if holds > 1 => format!("{name} with {holds} holds"),
                    _ => name,
                }
            })
            .collect();
        notes.push(format!("{what}: {}", names.join(", ")));
    }
    if !notes.is_empty() {
        write!(f, " ({})", notes.join("; "))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use super::*;
    use crate::model::{SlotInfo, SlotKind};

    fn slot(name: &'static str, element: Option<u32>, kind: SlotKind) -> SlotInfo {
        SlotInfo {
            name: name.into(),
            element,
            kind,
        }
    }

    fn status(name: &'static str) -> SlotInfo {
        slot(
            name,
            None,
            SlotKind::Status {
                locations: vec!["a".into()].into(),
            },
        )
    }

    /// A channel of booleans and enums, one without fields, a lock, and their instances.
    fn info() -> ModelInfo {
        let color = SlotKind::Enum {
            name: "C".into(),
            variants: vec!["R".into(), "G".into()].into(),
        };
        ModelInfo {
            name: "Parts".into(),
            slots: vec![
                slot("len(c)", None, SlotKind::Int),
                slot("c.0", Some(0), SlotKind::Bool),
                slot("c.1", Some(0), color),
                slot("len(s)", None, SlotKind::Int),
                slot("owner(m)", None, SlotKind::Int),
                slot("holds(m)", None, SlotKind::Int),
                slot("wait mark", Some(0), SlotKind::Int),
                slot("wait mark", Some(1), SlotKind::Int),
                slot("wait holds", Some(0), SlotKind::Int),
                slot("wait holds", Some(1), SlotKind::Int),
                status("A"),
                status("B"),
            ]
            .into(),
            transitions: Cow::Borrowed(&[]),
            fault_sites: Cow::Borrowed(&[]),
            invariants: Cow::Borrowed(&[]),
        }
    }

    #[test]
    fn messages_fields_and_holds_print_in_model_terms() {
        let info = info();
        let parts = StateParts::new(&info);
        // c holds ⟨true, C.G⟩; s two messages without fields; A holds m twice; B waits
        // on it, having released 3 holds (mark 1 + lock 0).
        let values = [1, 1, 1, 2, 0, 2, 0, 1, 0, 3, 0, 0];
        let text = |part| PartDisplay::new(&info, &parts, part, &values).to_string();
        assert_eq!(text(Part::Channel(0)), "[⟨true, C.G⟩] (1 of 1)");
        assert_eq!(text(Part::Channel(1)), "[⟨⟩, ⟨⟩]");
        assert_eq!(
            text(Part::Lock(0)),
            "held by A (2 holds; waiting: B with 3 holds)"
        );
        assert_eq!(
            crate::StateDisplay::new(&info, &values).to_string(),
            "c = [⟨true, C.G⟩] (1 of 1), s = [⟨⟩, ⟨⟩], m = held by A (2 holds; waiting: B \
             with 3 holds), A @ a, B @ a"
        );
        // An owner that is no instance (which a correct model never has).
        let wrong = [0, 0, 0, 0, 7, 1, 0, 0, 0, 0, 0, 0];
        assert_eq!(
            PartDisplay::new(&info, &parts, Part::Lock(0), &wrong).to_string(),
            "held by instance ?7"
        );
    }
}
