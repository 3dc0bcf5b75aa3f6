//! The rules of reading parts, on hand-made descriptions (the real models' are read in
//! `bir-driver`'s tests, which can build them with the interpreter).

use std::borrow::Cow;

use super::*;
use crate::info::TransitionInfo;

fn slot(name: &str, element: Option<u32>, kind: SlotKind) -> SlotInfo {
    SlotInfo {
        name: name.to_string().into(),
        element,
        kind,
    }
}

fn array(name: &str, len: u32) -> impl Iterator<Item = SlotInfo> + '_ {
    (0..len).map(move |e| slot(name, Some(e), SlotKind::Int))
}

fn status(name: &str, locations: &[&str]) -> SlotInfo {
    let locations: Vec<Cow<'static, str>> = locations
        .iter()
        .map(|l| Cow::Owned(l.to_string()))
        .collect();
    slot(
        name,
        None,
        SlotKind::Status {
            locations: locations.into(),
        },
    )
}

fn info(slots: Vec<SlotInfo>, transitions: Vec<TransitionInfo>) -> ModelInfo {
    ModelInfo {
        name: "M".into(),
        slots: slots.into(),
        transitions: transitions.into(),
        fault_sites: Cow::Borrowed(&[]),
        invariants: Cow::Borrowed(&[]),
    }
}

fn step(thread: &str, from: &str, to: &str) -> TransitionInfo {
    TransitionInfo {
        thread: thread.to_string().into(),
        instance: 0,
        from: from.to_string().into(),
        to: to.to_string().into(),
        text: "".into(),
        line: 0,
        partner: None,
    }
}

#[test]
fn a_model_without_channels_locks_or_calls_has_no_parts() {
    let model = info(
        vec![
            slot("x", None, SlotKind::Int),
            slot("fork", Some(0), SlotKind::Bool),
            status("T", &["a", "b"]),
            slot("T.y", None, SlotKind::Int),
        ],
        vec![step("T", "a", "b")],
    );
    let parts = StateParts::new(&model);
    assert!(parts.is_empty());
    assert!((0..4).all(|slot| parts.role(slot) == SlotRole::Plain));
    assert_eq!(parts.parts().count(), 0);
}

#[test]
fn a_channel_is_its_messages_first_in_first_and_its_cells_past_the_length_are_none() {
    let mut slots = vec![
        slot("r", None, SlotKind::Int),
        slot("len(c)", None, SlotKind::Int),
    ];
    slots.extend(array("c.0", 2)); // slots 2, 3
    slots.extend(array("len(d)", 2)); // 4, 5: two channels of capacity 2, two fields
    slots.extend(array("d.0", 4)); // 6..10
    slots.extend(array("d.1", 4)); // 10..14
    slots.push(slot("len(s)", None, SlotKind::Int)); // 14: no fields
    slots.push(slot("rendezvous(z)", None, SlotKind::Int)); // 15
    let parts = StateParts::new(&info(slots, Vec::new()));
    assert!(!parts.is_empty());
    let names: Vec<_> = parts.channels().iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["c", "d[0]", "d[1]", "s"]);
    assert_eq!(parts.role(1), SlotRole::Anchor(Part::Channel(0)));
    assert_eq!(parts.role(3), SlotRole::Hidden);
    assert_eq!(
        parts.role(15),
        SlotRole::Hidden,
        "a rendezvous holds nothing"
    );
    assert_eq!(parts.role(0), SlotRole::Plain);
    let values = [0, 1, 7, 0, 0, 2, 1, 2, 3, 4, 11, 12, 13, 14, 3, 0];
    let c = &parts.channels()[0];
    assert_eq!(c.capacity, Some(2));
    assert_eq!(c.messages(&values).collect::<Vec<_>>(), [&[2][..]]);
    // d[1] is elements 2 and 3 of each field's array; it holds two messages.
    let d1 = &parts.channels()[2];
    assert_eq!(
        d1.messages(&values).collect::<Vec<_>>(),
        [&[8, 12][..], &[9, 13][..]]
    );
    assert!(parts.channels()[1].is_empty(&values));
    // Without fields: as many messages as the length says, of no slots, capacity unknown.
    let s = &parts.channels()[3];
    assert_eq!((s.capacity, s.len(&values)), (None, 3));
    assert!(s.messages(&values).all(|m| m.is_empty()));
    // A length past the cells (which a correct model never has) reads as full.
    let mut wrong = values;
    wrong[1] = 9;
    assert_eq!(c.len(&wrong), 2);
}

#[test]
fn a_lock_is_its_owner_count_and_the_wait_marks_that_name_it() {
    let mut slots = vec![
        slot("owner(m)", None, SlotKind::Int),
        slot("holds(m)", None, SlotKind::Int),
    ];
    slots.extend(array("owner(k)", 2)); // 2, 3
    slots.extend(array("holds(k)", 2)); // 4, 5
    slots.extend(array(WAIT_MARK_NAME, 3)); // 6..9
    slots.extend(array(WAIT_HOLDS_NAME, 3)); // 9..12
    slots.push(status("A", &["a"]));
    slots.push(status("B[0]", &["b"]));
    slots.push(status("B[1]", &["b"]));
    let parts = StateParts::new(&info(slots, Vec::new()));
    let names: Vec<_> = parts
        .locks()
        .iter()
        .map(|l| (l.name.as_str(), l.number))
        .collect();
    assert_eq!(names, [("m", 0), ("k[0]", 1), ("k[1]", 2)]);
    assert_eq!(parts.role(2), SlotRole::Anchor(Part::Lock(1)));
    assert!((4..12).all(|slot| parts.role(slot) == SlotRole::Hidden));
    // A holds m twice; B[0] waits on k[0] (mark 1 + 1), having released 2 holds; B[1] was
    // notified by m (mark 1 + 3 locks + 0).
    let values = [0, 2, -1, -1, 0, 0, 0, 2, 4, 0, 2, 1, 0, 0, 0];
    let m = parts.lock_state(0, &values).unwrap();
    assert_eq!((m.owner, m.holds), (Some(0), 2));
    assert_eq!(m.waiting, []);
    assert_eq!(
        m.notified,
        [Waiter {
            instance: 2,
            holds: 1
        }]
    );
    let k0 = parts.lock_state(1, &values).unwrap();
    assert_eq!((k0.owner, k0.holds), (None, 0));
    assert_eq!(
        k0.waiting,
        [Waiter {
            instance: 1,
            holds: 2
        }]
    );
    assert_eq!(parts.instance_name(2), Some("B[1]"));
    assert_eq!(parts.instance_name(-1), None);
    assert_eq!(parts.lock_state(3, &values), None);
}

#[test]
fn a_call_stack_is_the_running_frame_then_its_callers_down_to_the_body() {
    let locations = [
        "call#1",
        "assert#2",
        "sum@1.if#1",
        "sum@1.call#2",
        "sum@2.if#1",
        "sum@2.call#2",
    ];
    let slots = vec![
        slot("r", None, SlotKind::Int),
        status("T", &locations), // 1
        slot("T.x", None, SlotKind::Int),
        slot("T.sum@1.n", None, SlotKind::Int), // 3
        slot("T.sum@1.return", None, SlotKind::Int),
        slot("T.sum@2.n", None, SlotKind::Int), // 5
        slot("T.sum@2.return", None, SlotKind::Int),
        slot("T.sum@overflow.0", None, SlotKind::Int), // 7
    ];
    let transitions = vec![
        step("T", "call#1", "sum@1.if#1"),
        step("T", "sum@1.if#1", "assert#2"), // a return to the body
        step("T", "sum@1.if#1", "sum@1.call#2"),
        step("T", "sum@1.call#2", "sum@2.if#1"), // the call that makes frame 2
        step("T", "sum@2.if#1", "sum@1.if#1"),   // a return into frame 1's first location
        step("T", "sum@2.call#2", "return"),
        step("T", "assert#2", "return"),
    ];
    let parts = StateParts::new(&info(slots, transitions));
    assert_eq!(parts.stacks().len(), 1);
    assert_eq!(parts.role(1), SlotRole::Anchor(Part::Stack(0)));
    assert_eq!(
        parts.role(2),
        SlotRole::Plain,
        "the body's locals are the instance's"
    );
    assert!((3..8).all(|slot| parts.role(slot) == SlotRole::Hidden));
    let stack = &parts.stacks()[0];
    let values = [0, 4, 9, 3, 0, 2, 0, 0];
    assert!(stack.in_call(&values));
    let frames = stack.frames(&values);
    let shown: Vec<_> = frames
        .iter()
        .map(|f| (f.function, f.number, f.location, f.locals.len()))
        .collect();
    assert_eq!(
        shown,
        [
            (Some("sum"), 2, "if#1", 1),
            (Some("sum"), 1, "call#2", 1),
            (None, 0, "call#1", 0)
        ]
    );
    assert_eq!(
        frames[0].locals[0],
        Local {
            name: "n".into(),
            slot: 5
        }
    );
    // In its body the stack is the body alone; ended (status past the locations), none.
    assert_eq!(stack.frames(&[0, 1, 0, 0, 0, 0, 0, 0]).len(), 1);
    assert!(!stack.in_call(&[0, 1, 0, 0, 0, 0, 0, 0]));
    assert!(stack.frames(&[0, 6, 0, 0, 0, 0, 0, 0]).is_empty());
}

#[test]
fn the_locks_of_objects_are_numbered_after_the_declared_ones_and_wait_by_object() {
    let mut slots = vec![
        slot("owner(m)", None, SlotKind::Int), // 0
        slot("holds(m)", None, SlotKind::Int),
    ];
    slots.extend((0..2).map(|j| slot("live(Box)", Some(j), SlotKind::Bool))); // 2, 3
    slots.extend(array("Box#n", 2)); // 4, 5
    slots.extend(array("Box#lock", 2)); // 6, 7
    slots.extend(array("Box#lock.count", 2)); // 8, 9
                                              // `lock l[2];`: element i of object j at j * 2 + i, named `Box#l[i]`, element j.
    for name in ["Box#l", "Box#l.count"] {
        for j in 0..2 {
            for i in 0..2 {
                slots.push(slot(&format!("{name}[{i}]"), Some(j), SlotKind::Int));
            }
        }
    } // 10..14 owners, 14..18 counts
    slots.extend(array(WAIT_MARK_NAME, 2)); // 18, 19
    slots.extend(array(WAIT_HOLDS_NAME, 2)); // 20, 21
    let reference = SlotKind::Reference {
        record: "Box".into(),
    };
    slots.extend((0..2).map(|i| slot(&object_wait_name("Box"), Some(i), reference.clone()))); // 22, 23
    slots.push(status("A", &["a"]));
    slots.push(status("B", &["b"]));
    let parts = StateParts::new(&info(slots, Vec::new()));
    let heap = &parts.heaps()[0];
    assert_eq!(heap.lock_count(), 3);
    assert_eq!(heap.waiting(), [Some(22), Some(23)]);
    assert_eq!(parts.role(22), SlotRole::Hidden);
    // Object 2 is live: A holds its own lock twice and B waits on its `l[1]` (lock 3:
    // mark 1 + 3), having released one hold; A was notified by `m` (mark 1 + 4 locks + 0).
    let mut values = vec![0; 26];
    values[3] = 1; // live(Box)[1]
    values[5] = 2; // Box#2.n
    values[6] = -1;
    (values[7], values[9]) = (0, 2); // Box#2.lock: A, twice
    values[10..14].copy_from_slice(&[-1, -1, -1, -1]);
    (values[18], values[19]) = (5, 4);
    values[21] = 1;
    values[23] = 2; // B waits on an object of Box: Box#2
    let object = heap.objects(&values).next().expect("Box#2 is live");
    assert_eq!(object.number, 2);
    let names: Vec<(&str, u32)> = object.locks.iter().map(|l| (l.name, l.number)).collect();
    assert_eq!(names, [("lock", 1), ("l[0]", 2), ("l[1]", 3)]);
    let values_shown: Vec<&str> = object.values().map(|(name, _)| *name).collect();
    assert_eq!(values_shown, ["n"]);
    let state = |lock: usize| parts.object_lock_state(0, &object, &object.locks[lock], &values);
    assert_eq!((state(0).owner, state(0).holds), (Some(0), 2));
    assert_eq!(state(0).waiting, []);
    assert_eq!(state(1), LockState::default());
    assert_eq!(
        state(2).waiting,
        [Waiter {
            instance: 1,
            holds: 1
        }]
    );
    // The same mark on another object's lock names no waiter of this one.
    let mut elsewhere = values.clone();
    elsewhere[23] = 1;
    let lock = &object.locks[2];
    assert_eq!(
        parts
            .object_lock_state(0, &object, lock, &elsewhere)
            .waiting,
        []
    );
    // `m`'s notified mark counts every lock element, the objects' included.
    let m = parts.lock_state(0, &values).expect("m");
    assert_eq!(
        m.notified,
        [Waiter {
            instance: 0,
            holds: 0
        }]
    );
}
