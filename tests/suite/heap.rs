//! Records and the heap (version 3) through every engine of the runtime: the canonical
//! heap, the heap and null errors, and properties over fields, in every search and
//! storage, by replay and by random walks.

use bir::{Checker, FindingKind, Verdict};

use crate::v3::{every_search, replays_and_walks_find};

bir::bir! {
    // A stack of nodes: push 1, push 2, pop; the assertion expects the value pushed
    // first on top, which is wrong. Each node's `next` is the one below it.
    system PushPop {
        record[3] Node { int (0, 3) value; Node next; }
        Node head;
        reachable TwoOnTop: head != null && head.value == 2 && head.next != null;
        active thread T() {
            Node n;
            loc a: do { n := new Node; n.value := 1; head := n; } goto b;
            loc b: do { n := new Node; n.value := 2; n.next := head; head := n; } goto c;
            loc c: do { head := head.next; n := null; } goto d;
            loc d: do { assert(head.value == 2); } return;
        }
    }
}

bir::bir! {
    // Two threads each keep one object and allocate a second: three live objects of a
    // type bounded at two is a heap error, whichever thread comes second.
    system Bounded {
        record[2] Cell { boolean full; }
        active [2] thread T(int (0, 1) i) {
            Cell mine;
            Cell other;
            loc a: do { mine := new Cell; } goto b;
            loc b: do { other := new Cell; } goto c;
            loc c: do { other := null; } return;
        }
    }
}

bir::bir! {
    // The consumer reads the producer's object before it is made: a null error.
    system EarlyRead {
        record Box { int (0, 9) v; }
        Box shared;
        int (0, 9) seen;
        active thread P() {
            loc a: do { shared := new Box; shared.v := 7; } return;
        }
        active thread C() {
            loc a: do { seen := shared.v; } return;
        }
    }
}

#[test]
fn a_stack_of_objects_in_every_search() {
    let report = every_search(PushPop::checker());
    assert_eq!(
        (report.states(), report.transitions(), report.errors()),
        (4, 4, 1)
    );
    replays_and_walks_find(PushPop::checker(), FindingKind::Assertion);
    let reached = PushPop::checker()
        .reachable("TwoOnTop")
        .progress(false)
        .run();
    assert_eq!(reached.verdict(), Verdict::Reached, "{reached}");
}

#[test]
fn one_object_past_the_bound_is_a_heap_error() {
    let report = every_search(Bounded::checker());
    assert!(report.errors() >= 1, "{report}");
    replays_and_walks_find(Bounded::checker(), FindingKind::Heap);
    let found = Bounded::checker().progress(false).run();
    let text = found.to_string();
    assert!(
        text.contains("all 2 of `record[2] Cell` are live"),
        "{text}"
    );
}

#[test]
fn a_field_read_through_null_is_a_null_error() {
    replays_and_walks_find(EarlyRead::checker(), FindingKind::Null);
    let report = Checker::new(EarlyRead).progress(false).run();
    let text = report.to_string();
    assert!(
        text.contains("`shared.v` reads or writes a field of `null`"),
        "{text}"
    );
}
