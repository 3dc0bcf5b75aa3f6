//! [`HeapStep`] on hand-made heaps of one record type `Node { int v; Node next; }` with two
//! reference globals `a` and `b`, three objects.

use std::borrow::Cow;

use super::*;
use crate::info::SlotInfo;

fn slot(name: &str, element: Option<u32>, kind: SlotKind) -> SlotInfo {
    SlotInfo {
        name: name.to_string().into(),
        element,
        kind,
    }
}

fn reference() -> SlotKind {
    SlotKind::Reference {
        record: "Node".into(),
    }
}

/// Slots: 0 `a`, 1 `b`, 2..5 `live(Node)`, 5..8 `Node#v`, 8..11 `Node#next`.
fn info() -> ModelInfo {
    let mut slots = vec![slot("a", None, reference()), slot("b", None, reference())];
    slots.extend((0..3).map(|e| slot("live(Node)", Some(e), SlotKind::Bool)));
    slots.extend((0..3).map(|e| slot("Node#v", Some(e), SlotKind::Int)));
    slots.extend((0..3).map(|e| slot("Node#next", Some(e), reference())));
    ModelInfo {
        name: "M".into(),
        slots: slots.into(),
        transitions: Cow::Borrowed(&[]),
        fault_sites: Cow::Borrowed(&[]),
        invariants: Cow::Borrowed(&[]),
    }
}

/// A state: `a`, `b`, then per object `None` (dead) or `Some((v, next))`.
fn state(a: i64, b: i64, objects: [Option<(i64, i64)>; 3]) -> Vec<i64> {
    let mut values = vec![a, b];
    values.extend(objects.iter().map(|o| i64::from(o.is_some())));
    values.extend(objects.iter().map(|o| o.map_or(0, |o| o.0)));
    values.extend(objects.iter().map(|o| o.map_or(0, |o| o.1)));
    values
}

fn node(number: u32) -> ObjectRef {
    ObjectRef { record: 0, number }
}

fn kept(before: u32, after: u32) -> Kept {
    Kept {
        record: 0,
        before,
        after,
    }
}

#[test]
fn a_dequeue_collects_the_head_and_renumbers_the_rest() {
    let info = info();
    let parts = StateParts::new(&info);
    // a -> Node#1 { v = 1, next = Node#2 } -> Node#2 { v = 2 }; then `a := a.next`.
    let before = state(1, 0, [Some((1, 2)), Some((2, 0)), None]);
    let raw = state(2, 0, [None, Some((2, 0)), None]);
    let after = state(1, 0, [Some((2, 0)), None, None]);
    let step = HeapStep::new(&info, &parts, &before, &raw, &after);
    assert_eq!(step.allocated, vec![]);
    assert_eq!(step.collected, vec![node(1)]);
    assert_eq!(step.kept, vec![kept(2, 1)]);
    assert!(!step.is_quiet());
    assert!(!step.renames_only(&info, &parts, 0, &before, &after));
}

#[test]
fn a_push_allocates_the_new_head_and_the_old_one_moves_behind_it() {
    let info = info();
    let parts = StateParts::new(&info);
    // a -> Node#1 { v = 1 }; then `n := new Node; n.next := a; a := n` in one step.
    let before = state(1, 0, [Some((1, 0)), None, None]);
    let raw = state(2, 0, [Some((1, 0)), Some((0, 1)), None]);
    let after = state(1, 0, [Some((0, 2)), Some((1, 0)), None]);
    let step = HeapStep::new(&info, &parts, &before, &raw, &after);
    assert_eq!(step.allocated, vec![node(1)]);
    assert_eq!(step.collected, vec![]);
    assert_eq!(step.kept, vec![kept(1, 2)]);
}

#[test]
fn swapping_the_roots_only_renumbers_and_shows_the_objects_unchanged() {
    let info = info();
    let parts = StateParts::new(&info);
    // a -> Node#1 { v = 1 }, b -> Node#2 { v = 2, next = Node#1 }; then swap a and b.
    let before = state(1, 2, [Some((1, 0)), Some((2, 1)), None]);
    let raw = state(2, 1, [Some((1, 0)), Some((2, 1)), None]);
    let after = state(1, 2, [Some((2, 2)), Some((1, 0)), None]);
    let step = HeapStep::new(&info, &parts, &before, &raw, &after);
    assert_eq!(step.kept, vec![kept(1, 2), kept(2, 1)]);
    assert!(step.allocated.is_empty() && step.collected.is_empty());
    assert!(!step.is_quiet());
    assert!(step.renames_only(&info, &parts, 0, &before, &after));
    // A field that really changed is no renaming.
    let changed = state(1, 2, [Some((3, 2)), Some((1, 0)), None]);
    assert!(!step.renames_only(&info, &parts, 0, &before, &changed));
}

#[test]
fn a_step_that_leaves_the_heap_alone_is_quiet_and_ill_formed_states_do_not_panic() {
    let info = info();
    let parts = StateParts::new(&info);
    let before = state(1, 0, [Some((1, 0)), None, None]);
    let step = HeapStep::new(&info, &parts, &before, &before, &before);
    assert!(step.is_quiet());
    assert_eq!(step.kept, vec![kept(1, 1)]);
    // References out of range, and states too short.
    let odd = state(7, -1, [Some((1, 9)), None, None]);
    let _ = HeapStep::new(&info, &parts, &odd, &odd[..4], &[]);
    let _ = step.renames_only(&info, &parts, 5, &odd, &[]);
}

#[test]
fn with_order_sets_the_order_for_its_thread_only_and_restores_it() {
    assert_eq!(overridden(), None);
    with_order(HeapOrder::Allocation, || {
        assert_eq!(effective(HeapOrder::Canonical), HeapOrder::Allocation);
        assert_eq!(super::super::order(), HeapOrder::Allocation);
        std::thread::spawn(|| assert_eq!(overridden(), None))
            .join()
            .unwrap();
    });
    assert_eq!(effective(HeapOrder::Canonical), HeapOrder::Canonical);
}
