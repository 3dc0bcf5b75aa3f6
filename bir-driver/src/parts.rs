//! A version-3 state's channels, locks and call stacks as JSON (read by
//! [`StateParts`]): what the JSON report's `initial_parts` and `final_parts` and the
//! explorer's state view show in place of the hidden slots they are kept in.
//!
//! Each part is one object with its `name`, its `kind` (`channel`, `lock` or `stack`), its
//! `value` as the text report prints it, and what it holds:
//! - a channel: `messages` (first in first, each the list of its fields' values) and
//!   `capacity` (null for a channel without fields);
//! - a lock: `owner` (an instance's name, or null when free), `holds`, and `waiting` and
//!   `notified`, each a list of `{"instance", "holds"}` (the count its `unwait` takes back);
//! - a heap (the objects of one record type): `record` and `objects`, each with its
//!   `object` (`Node#1`, what references to it read), `fields` (name → value, a
//!   reference as `Node#2` or null) and, for an object that carries locks, `locks` (its
//!   own lock `lock` and its lock fields, `f` or `f[1]`, each → what a lock part holds,
//!   with its `value` as text, but no `name` and `kind`);
//! - a stack: `frames`, the running one first and the thread's body last, each with its
//!   `function` (null for the body), `frame` (its number, 0 for the body), `location` (as
//!   the function's body names it) and `locals` (name → value; none listed for the body,
//!   whose locals are the instance's own variables); empty once the instance has ended.

use bir_runtime::model::{LockState, ModelInfo, Part, StateParts, Waiter};
use bir_runtime::PartDisplay;
use serde_json::{json, Map, Value};

use crate::json::value;

/// Every part of `values` (a decoded state of the model `info` describes), in the order the
/// state shows them; empty for a model without channels, locks or functions.
pub fn parts_json(info: &ModelInfo, parts: &StateParts, values: &[i64]) -> Vec<Value> {
    parts
        .parts()
        .map(|part| part_json(info, parts, part, values))
        .collect()
}

/// One part of `values` as JSON (see the module's documentation).
pub fn part_json(info: &ModelInfo, parts: &StateParts, part: Part, values: &[i64]) -> Value {
    let shown = PartDisplay::new(info, parts, part, values);
    let slot_value = |slot: usize| match (info.slots.get(slot), values.get(slot)) {
        (Some(info), Some(&v)) => value(info, v),
        _ => Value::Null,
    };
    let mut object = json!({
        "name": shown.name(),
        "value": shown.to_string(),
    });
    let more = match part {
        Part::Channel(id) => parts.channels().get(id).map(|channel| {
            let messages: Vec<Value> = channel
                .messages(values)
                .map(|fields| Value::Array(fields.iter().map(|&s| slot_value(s)).collect()))
                .collect();
            json!({ "kind": "channel", "messages": messages, "capacity": channel.capacity })
        }),
        Part::Lock(id) => parts.lock_state(id, values).map(|lock| {
            let mut lock = lock_json(parts, &lock);
            if let Value::Object(lock) = &mut lock {
                lock.insert("kind".to_string(), json!("lock"));
            }
            lock
        }),
        Part::Stack(id) => parts.stacks().get(id).map(|stack| {
            let frames: Vec<Value> = stack
                .frames(values)
                .iter()
                .map(|frame| {
                    let locals: Map<String, Value> = frame
                        .locals
                        .iter()
                        .map(|local| (local.name.clone(), slot_value(local.slot)))
                        .collect();
                    json!({
                        "function": frame.function,
                        "frame": frame.number,
                        "location": frame.location,
                        "locals": locals,
                    })
                })
                .collect();
            json!({ "kind": "stack", "frames": frames })
        }),
        Part::Heap(id) => parts.heaps().get(id).map(|heap| {
            let objects: Vec<Value> = heap
                .objects(values)
                .map(|object| {
                    let fields: Map<String, Value> = object
                        .values()
                        .map(|&(name, slot)| (name.to_string(), slot_value(slot)))
                        .collect();
                    // Each lock of the object as a lock part reads, with its text.
                    let locks: Map<String, Value> = object
                        .locks
                        .iter()
                        .map(|lock| {
                            let state = parts.object_lock_state(id, &object, lock, values);
                            let mut json = lock_json(parts, &state);
                            if let Value::Object(json) = &mut json {
                                let text = PartDisplay::lock_text(parts, &state);
                                json.insert("value".to_string(), json!(text));
                            }
                            (lock.name.to_string(), json)
                        })
                        .collect();
                    let mut json = json!({
                        "object": format!("{}#{}", heap.record, object.number),
                        "fields": fields,
                    });
                    if let (false, Value::Object(json)) = (locks.is_empty(), &mut json) {
                        json.insert("locks".to_string(), Value::Object(locks));
                    }
                    json
                })
                .collect();
            json!({ "kind": "heap", "record": heap.record, "objects": objects })
        }),
    };
    if let (Some(Value::Object(more)), Value::Object(object)) = (more, &mut object) {
        object.extend(more);
    }
    object
}

/// A lock's `owner` (an instance's name, or null when free), `holds`, and `waiting` and
/// `notified`, each a list of `{"instance", "holds"}`: a global lock's part and the lock of
/// an object alike.
fn lock_json(parts: &StateParts, lock: &LockState) -> Value {
    let waiters = |list: &[Waiter]| -> Vec<Value> {
        list.iter()
            .map(|w| {
                json!({
                    "instance": parts.instance_name(w.instance as i64),
                    "holds": w.holds,
                })
            })
            .collect()
    };
    json!({
        "owner": lock.owner.map(|owner| parts.instance_name(owner)),
        "holds": lock.holds,
        "waiting": waiters(&lock.waiting),
        "notified": waiters(&lock.notified),
    })
}

#[cfg(test)]
mod tests;
