//! The parts of the version-3 reference models read from the interpreter's states: the
//! decoding (`StateParts`), its text (`StateDisplay`, the trace's changes) and its JSON.

use bir_interp::Interpreter;
use bir_runtime::model::{Outcome, Part, SlotRole, StateParts, Successor};
use bir_runtime::{Checker, Model, StateDisplay};
use serde_json::json;

use super::*;

/// The decoded state after taking, from the initial state, the transitions of each
/// `(instance, location)` in turn (the first one of that instance enabled there).
fn walk(model: &Interpreter, path: &[(&str, &str)]) -> Vec<i64> {
    let info = model.info();
    let mut state = model.initial_state();
    let mut out = Vec::new();
    for &(thread, from) in path {
        out.clear();
        model.successors(&state, &mut out);
        let next = out.iter().find_map(
            |Successor {
                 transition,
                 outcome,
             }| {
                let t = &info.transitions[*transition as usize];
                match outcome {
                    Outcome::Next(next) if t.thread == thread && t.from == from => {
                        Some(next.clone())
                    }
                    _ => None,
                }
            },
        );
        state = next.unwrap_or_else(|| panic!("{thread} at {from} is not enabled"));
    }
    let mut values = Vec::new();
    model.decode(&state, &mut values);
    values
}

fn model(source: &str) -> Interpreter {
    Interpreter::from_source(source).expect("the model compiles")
}

const CHAN_FIFO: &str = include_str!("../../../models/v3/chan_fifo.bir");
const LOCK_NOTIFY: &str = include_str!("../../../models/v3/lock_notify.bir");
const FUNC_REC_STACK: &str = include_str!("../../../models/v3/func_rec_stack.bir");
const LOCK_FIELD: &str = include_str!("../../../models/v3/lock_field.bir");

#[test]
fn a_buffered_channel_is_its_messages_in_fifo_order() {
    let model = model(CHAN_FIFO);
    let info = model.info();
    let parts = StateParts::new(info);
    assert_eq!(parts.channels().len(), 1);
    let channel = &parts.channels()[0];
    assert_eq!((channel.name.as_str(), channel.capacity), ("c", Some(2)));
    // The length and the two cells: the length shows the channel, the cells nothing.
    let roles: Vec<(String, SlotRole)> = info
        .slots
        .iter()
        .enumerate()
        .filter(|(_, slot)| slot.name.contains('c') && !slot.name.starts_with('r'))
        .map(|(i, slot)| (crate::json::slot_name(slot), parts.role(i)))
        .collect();
    assert_eq!(
        roles,
        [
            ("len(c)".to_string(), SlotRole::Anchor(Part::Channel(0))),
            ("c.0[0]".to_string(), SlotRole::Hidden),
            ("c.0[1]".to_string(), SlotRole::Hidden),
        ]
    );
    let full = walk(&model, &[("P", "send#1"), ("P", "send#2")]);
    assert_eq!(
        StateDisplay::new(info, &full).to_string(),
        "r1 = 0, r2 = 0, c = [⟨1⟩, ⟨2⟩] (2 of 2), P @ send#3, Q @ receive#1"
    );
    assert_eq!(
        parts_json(info, &parts, &full),
        [
            json!({"name": "c", "kind": "channel", "value": "[⟨1⟩, ⟨2⟩] (2 of 2)",
                "messages": [[1], [2]], "capacity": 2})
        ]
    );
    // After a receive the queue moved up: 2 is first, and P's 3 goes in after it.
    let moved = walk(
        &model,
        &[
            ("P", "send#1"),
            ("P", "send#2"),
            ("Q", "receive#1"),
            ("P", "send#3"),
        ],
    );
    assert_eq!(
        PartDisplay::new(info, &parts, Part::Channel(0), &moved).to_string(),
        "[⟨2⟩, ⟨3⟩] (2 of 2)"
    );
    let empty = walk(&model, &[]);
    assert_eq!(
        PartDisplay::new(info, &parts, Part::Channel(0), &empty).to_string(),
        "[] (0 of 2)"
    );
}

#[test]
fn a_lock_is_its_holder_and_its_wait_set() {
    let model = model(LOCK_NOTIFY);
    let info = model.info();
    let parts = StateParts::new(info);
    let names: Vec<&str> = parts.locks().iter().map(|l| l.name.as_str()).collect();
    assert_eq!(names, ["m"]);
    let lock = |values: &[i64]| PartDisplay::new(info, &parts, Part::Lock(0), values).to_string();
    let both_wait = [
        ("W[0]", "atomic#1"),
        ("W[0]", "wait#2"),
        ("W[1]", "atomic#1"),
        ("W[1]", "wait#2"),
    ];
    assert_eq!(lock(&walk(&model, &both_wait[..1])), "held by W[0]");
    assert_eq!(
        lock(&walk(&model, &both_wait)),
        "free (waiting: W[0], W[1])"
    );
    let mut notified = both_wait.to_vec();
    notified.extend([("N", "choose#1"), ("N", "notify#2")]);
    let values = walk(&model, &notified);
    assert_eq!(lock(&values), "held by N (waiting: W[1]; notified: W[0])");
    let state = parts.lock_state(0, &values).unwrap();
    assert_eq!(state.owner.and_then(|o| parts.instance_name(o)), Some("N"));
    assert_eq!(
        part_json(info, &parts, Part::Lock(0), &values),
        json!({"name": "m", "kind": "lock", "value": "held by N (waiting: W[1]; notified: W[0])",
               "owner": "N", "holds": 1,
               "waiting": [{"instance": "W[1]", "holds": 1}],
               "notified": [{"instance": "W[0]", "holds": 1}]})
    );
    // The wait marks and counts show nowhere but in the lock.
    assert_eq!(
        StateDisplay::new(info, &values).to_string(),
        "n = 2, m = held by N (waiting: W[1]; notified: W[0]), W[0] @ unwait#3, \
         W[1] @ unwait#3, N @ unlock#3"
    );
}

#[test]
fn an_instance_in_a_call_is_its_call_stack() {
    let model = model(FUNC_REC_STACK);
    let info = model.info();
    let parts = StateParts::new(info);
    assert_eq!(parts.stacks().len(), 1);
    let initial = walk(&model, &[]);
    // In its body, the instance reads as a status; the frames' slots are not listed.
    assert_eq!(
        StateDisplay::new(info, &initial).to_string(),
        "r = 0, T @ call#1"
    );
    let deep = walk(
        &model,
        &[
            ("T", "call#1"),
            ("T", "sum@1.if#1"),
            ("T", "sum@1.call#2"),
            ("T", "sum@2.if#1"),
        ],
    );
    assert_eq!(
        StateDisplay::new(info, &deep).to_string(),
        "r = 0, T: sum@2 at call#2 (n = 2, t = 0) ← called from sum@1 at call#2 (n = 3, t = 0) \
         ← called from T at call#1"
    );
    let frames = &part_json(info, &parts, Part::Stack(0), &deep)["frames"];
    assert_eq!(
        *frames,
        json!([
            {"function": "sum", "frame": 2, "location": "call#2", "locals": {"n": 2, "t": 0}},
            {"function": "sum", "frame": 1, "location": "call#2", "locals": {"n": 3, "t": 0}},
            {"function": null, "frame": 0, "location": "call#1", "locals": {}}
        ])
    );
    // The stack error's trace: the arguments of each call are listed as the frame's; the
    // final state is the deepest stack.
    let report = Checker::new(model.clone()).progress(false).run();
    let text = report.to_string();
    assert!(text.contains("        T.sum@3.n: 0 -> 1\n"), "{text}");
    assert!(
        text.contains(
            "final state: r = 0, T: sum@3 at call#2 (n = 1, t = 0) ← called from sum@2 at call#2"
        ),
        "{text}"
    );
    assert!(
        !text.contains("overflow") && !text.contains("return ="),
        "{text}"
    );
}

#[test]
fn the_json_report_has_the_parts_of_a_version_3_model_only() {
    let report = Checker::new(model(LOCK_NOTIFY)).progress(false).run();
    let json = serde_json::to_value(crate::json::JsonReport::new(&report, "l.bir")).unwrap();
    let found = &json["counterexamples"][0];
    assert_eq!(found["final_parts"][0]["value"], "free (waiting: W[1])");
    assert_eq!(found["initial_parts"][0]["value"], "free");
    // The raw slots stay in the states, for tools that read them.
    assert_eq!(found["final_state"]["owner(m)"], -1);
    let two = include_str!("../../../models/two_dining_philosophers.bir");
    let report = Checker::new(model(two)).progress(false).run();
    let json = serde_json::to_value(crate::json::JsonReport::new(&report, "t.bir")).unwrap();
    let found = json["counterexamples"][0].as_object().unwrap();
    assert!(!found.contains_key("final_parts") && !found.contains_key("initial_parts"));
}

#[test]
fn the_locks_of_an_object_read_as_locks_in_its_text_and_json() {
    let model = model(LOCK_FIELD);
    let info = model.info();
    let parts = StateParts::new(info);
    let heap = |values: &[i64]| PartDisplay::new(info, &parts, Part::Heap(0), values).to_string();
    let made = walk(&model, &[("N", "s")]);
    assert_eq!(
        heap(&made),
        "Box#1 { n = 0, guard = free, l = [free, free] }"
    );
    let counted = walk(&model, &[("N", "s"), ("W[1]", "a")]);
    assert_eq!(
        heap(&counted),
        "Box#1 { n = 1, guard = held by W[1], l = [free, free] }"
    );
    let waits = [
        ("N", "s"),
        ("W[1]", "a"),
        ("W[1]", "u"),
        ("W[1]", "w"),
        ("W[1]", "x"),
    ];
    let values = walk(&model, &waits);
    assert_eq!(
        heap(&values),
        "Box#1 { n = 1, guard = free, l = [free, free (waiting: W[1])] }"
    );
    // The owners, counts and the instances' objects show nowhere but in the heap.
    assert_eq!(
        StateDisplay::new(info, &values).to_string(),
        "b = Box#1, Box#1 { n = 1, guard = free, l = [free, free (waiting: W[1])] }, \
         W[0] @ a, W[1] @ y, N @ a"
    );
    let json = part_json(info, &parts, Part::Heap(0), &values);
    let free = json!({"owner": null, "holds": 0, "waiting": [], "notified": [], "value": "free"});
    assert_eq!(
        json["objects"][0],
        json!({
            "object": "Box#1",
            "fields": {"n": 1},
            "locks": {
                "guard": free,
                "l[0]": free,
                "l[1]": {"owner": null, "holds": 0, "notified": [],
                         "waiting": [{"instance": "W[1]", "holds": 1}],
                         "value": "free (waiting: W[1])"},
            },
        })
    );
    // The heap's drawing has a row per lock, and the waiting instance as a root.
    let svg = crate::heap_svg::render(info, &parts, &values);
    assert!(
        svg.contains("guard = free") && svg.contains("l[1] = free (waiting: W[1])"),
        "{svg}"
    );
    assert!(svg.contains("W[1] waits"), "{svg}");
}
