//! The heap graphs of small heap models' states, walked on the interpreter.

use bir_interp::Interpreter;
use bir_runtime::model::{ModelInfo, Outcome, SlotKind, StateParts, Successor};
use bir_runtime::Model;

use super::*;

/// A stack of nodes: push 1, push 2, pop (the example of `bir explore`'s heap panel).
const LIST: &str = "
system List {
  record[3] Node { int (0, 3) value; Node next; }
  Node head;
  active thread T() {
    Node n;
    loc a: do { n := new Node; n.value := 1; head := n; } goto b;
    loc b: do { n := new Node; n.value := 2; n.next := head; head := n; } goto c;
    loc c: do { head := head.next; n := null; } goto d;
    loc d: do { assert(head.value == 2); } return;
  }
}";

/// A node that refers to itself, then two that refer to each other.
const CYCLE: &str = "
system Cycle {
  record[2] Node { Node next; }
  Node a;
  active thread T() {
    Node b;
    loc s: do { a := new Node; a.next := a; } goto t;
    loc t: do { b := new Node; b.next := a; a.next := b; b := null; } return;
  }
}";

/// The model of `source` and its decoded states along the run that always takes the first
/// enabled transition, the initial state first.
fn run(source: &str) -> (Interpreter, Vec<Vec<i64>>) {
    let model = Interpreter::from_source(source).expect("the model compiles");
    let mut state = model.initial_state();
    let mut values = Vec::new();
    model.decode(&state, &mut values);
    let mut states = vec![values.clone()];
    let mut out = Vec::new();
    loop {
        out.clear();
        model.successors(&state, &mut out);
        let Some(Successor {
            outcome: Outcome::Next(next),
            ..
        }) = out.first()
        else {
            break;
        };
        state = next.clone();
        model.decode(&state, &mut values);
        states.push(values.clone());
    }
    (model, states)
}

fn svg_of(model: &Interpreter, values: &[i64]) -> String {
    render(model.info(), &StateParts::new(model.info()), values)
}

#[test]
fn two_nodes_are_two_boxes_with_the_roots_and_the_references_as_arrows() {
    let (model, states) = run(LIST);
    // After pushing 1 and 2: head and T.n refer to the node of 2, whose next is the node of 1.
    let svg = svg_of(&model, &states[2]);
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"heap\""));
    assert_eq!(svg.matches("<g class=\"heap-object\"").count(), 2, "{svg}");
    assert_eq!(svg.matches("<g class=\"heap-root\"").count(), 2, "{svg}");
    assert!(svg.contains("data-root=\"head\""), "{svg}");
    assert!(svg.contains("data-root=\"T.n\""), "{svg}");
    assert!(
        svg.contains(">Node#1</text>") && svg.contains(">Node#2</text>"),
        "{svg}"
    );
    assert!(svg.contains(">value = 2</text>"), "{svg}");
    assert!(svg.contains(">value = 1</text>"), "{svg}");
    assert!(svg.contains(">next ●</text>"), "{svg}");
    assert!(svg.contains(">next = null</text>"), "{svg}");
    assert!(
        svg.contains("<title>Node#1 { value = 2, next ● }</title>"),
        "{svg}"
    );
    // Three arrows: from each root to Node#1, from Node#1's next to Node#2 (labelled).
    assert_eq!(svg.matches("class=\"heap-arrow\"").count(), 3, "{svg}");
    assert_eq!(svg.matches("data-to=\"Node#1\"").count(), 2, "{svg}");
    assert!(
        svg.contains("data-from=\"Node#1.next\" data-to=\"Node#2\""),
        "{svg}"
    );
    // Only the field's arrow is labelled: a root's box has its name.
    assert_eq!(svg.matches("class=\"heap-label\"").count(), 1, "{svg}");
    assert!(svg.contains(">next</text>"), "{svg}");
    // Node#2 is one column further right than Node#1, and nothing is unreachable.
    let x_of = |object: &str| {
        let at = svg
            .find(&format!("data-object=\"{object}\""))
            .expect("drawn");
        let rect = &svg[at..];
        let x = rect.split("<rect x=\"").nth(1).expect("a box");
        x[..x.find('"').expect("x")]
            .parse::<usize>()
            .expect("a number")
    };
    assert_eq!(x_of("Node#2") - x_of("Node#1"), BOX + GAP, "{svg}");
    assert!(!svg.contains("heap-object heap-unreachable"), "{svg}");
    // The same state draws the same graph.
    assert_eq!(svg, svg_of(&model, &states[2]));
}

#[test]
fn after_the_pop_one_node_is_left_and_the_null_local_is_no_root() {
    let (model, states) = run(LIST);
    let svg = svg_of(&model, &states[3]);
    assert_eq!(svg.matches("<g class=\"heap-object\"").count(), 1, "{svg}");
    assert!(svg.contains("data-root=\"head\""), "{svg}");
    assert!(!svg.contains("data-root=\"T.n\""), "{svg}");
    assert!(svg.contains(">value = 1</text>"), "{svg}");
}

#[test]
fn an_empty_heap_says_no_objects_and_a_model_without_records_draws_nothing() {
    let (model, states) = run(LIST);
    let svg = svg_of(&model, &states[0]);
    assert!(svg.contains(">no objects</text>"), "{svg}");
    assert!(svg.len() < 400, "short: {svg}");
    let plain =
        Interpreter::from_source(include_str!("../../../models/two_dining_philosophers.bir"))
            .expect("the model compiles");
    let mut values = Vec::new();
    plain.decode(&plain.initial_state(), &mut values);
    assert_eq!(svg_of(&plain, &values), "");
}

#[test]
fn a_self_loop_and_a_cycle_curve_into_the_top_of_their_target() {
    let (model, states) = run(CYCLE);
    let svg = svg_of(&model, &states[1]);
    assert_eq!(svg.matches("<g class=\"heap-object\"").count(), 1, "{svg}");
    assert!(
        svg.contains("data-from=\"Node#1.next\" data-to=\"Node#1\""),
        "{svg}"
    );
    // Into the top of its own box, not its left side.
    let top = format!("{},{}\"", column_x(1) + BOX / 2, TOP - 2);
    assert!(svg.contains(&top), "{top} in {svg}");
    let svg = svg_of(&model, &states[2]);
    assert_eq!(svg.matches("<g class=\"heap-object\"").count(), 2, "{svg}");
    assert!(
        svg.contains("data-from=\"Node#1.next\" data-to=\"Node#2\""),
        "{svg}"
    );
    assert!(
        svg.contains("data-from=\"Node#2.next\" data-to=\"Node#1\""),
        "{svg}"
    );
    assert!(svg.contains(&top), "the way back into Node#1's top: {svg}");
    assert!(!svg.contains("heap-object heap-unreachable"), "{svg}");
}

#[test]
fn objects_no_drawn_root_reaches_are_drawn_in_a_last_column() {
    let (model, states) = run(LIST);
    let info = model.info();
    let mut values = states[2].clone();
    // The roots nulled by hand (no state of the model): both objects are still drawn.
    for (slot, info) in info.slots.iter().enumerate() {
        if info.name == "head" || info.name == "T.n" {
            values[slot] = 0;
        }
    }
    let svg = svg_of(&model, &values);
    assert_eq!(
        svg.matches("heap-object heap-unreachable").count(),
        2,
        "{svg}"
    );
    assert!(svg.contains(">unreachable from the roots</text>"), "{svg}");
    assert!(!svg.contains("class=\"heap-root\""), "{svg}");
    assert_eq!(svg.matches("class=\"heap-arrow\"").count(), 1, "{svg}");
}

/// A node sent in a message, and a node kept in a function's local.
const MESSAGE: &str = "
system ChanHeap {
  record[2] Node { int (0, 3) value; }
  channel (Node, int (0, 3)) buffer 2 c;
  active thread P() {
    Node n;
    loc a: do { n := new Node; n.value := 3; } goto b;
    loc b: do { c!(n, 1); n := null; } goto e;
    loc e: do { } return;
  }
}";

const LOCAL: &str = "
system FunHeap {
  record[2] Node { int (0, 3) value; }
  int (0, 3) r;
  function[1] make(int (0, 3) v) returns int (0, 3) {
    Node m;
    m := new Node;
    m.value := v;
    return m.value;
  }
  active thread T() {
    r := make(2);
  }
}";

#[test]
fn a_message_in_a_channel_and_a_local_of_a_running_frame_are_roots() {
    let (model, states) = run(MESSAGE);
    let svg = svg_of(&model, &states[2]);
    assert!(svg.contains("data-root=\"c⟨1⟩.0\">"), "{svg}");
    assert!(
        svg.contains("data-from=\"c⟨1⟩.0\" data-to=\"Node#1\""),
        "{svg}"
    );
    assert!(!svg.contains("data-root=\"P.n\""), "{svg}");
    assert!(!svg.contains("heap-object heap-unreachable"), "{svg}");
    let (model, states) = run(LOCAL);
    let svg = states
        .iter()
        .map(|values| svg_of(&model, values))
        .find(|svg| svg.contains("class=\"heap-object\""))
        .expect("a state with the node");
    assert!(svg.contains("data-root=\"T.make@1.m\""), "{svg}");
    assert!(!svg.contains("heap-object heap-unreachable"), "{svg}");
}

#[test]
fn every_label_is_escaped() {
    // Names no model has, in a model description made by hand: a record `A<B` with one
    // object whose field `f'` is 1, and a root `x&y` that refers to it.
    let slot = |name: &'static str, kind: SlotKind| bir_runtime::model::SlotInfo {
        name: name.into(),
        element: Some(0).filter(|_| name.starts_with("live") || name.contains('#')),
        kind,
    };
    let reference = SlotKind::Reference {
        record: "A<B".into(),
    };
    let slots = vec![
        slot("x&y", reference.clone()),
        slot("live(A<B)", SlotKind::Bool),
        slot("A<B#f'", SlotKind::Int),
        slot("A<B#\"g\"", reference),
    ];
    let info = ModelInfo {
        name: "Escaped".into(),
        slots: slots.into(),
        transitions: Vec::new().into(),
        fault_sites: Vec::new().into(),
        invariants: Vec::new().into(),
    };
    let parts = StateParts::new(&info);
    let svg = render(&info, &parts, &[1, 1, 1, 1]);
    assert!(svg.contains("data-root=\"x&amp;y\""), "{svg}");
    assert!(svg.contains(">A&lt;B#1</text>"), "{svg}");
    assert!(svg.contains(">f&#39; = 1</text>"), "{svg}");
    assert!(
        svg.contains(">&quot;g&quot;</text>"),
        "the self-loop's label: {svg}"
    );
    assert!(!svg.contains("A<B") && !svg.contains("x&y"), "{svg}");
}

#[test]
fn labels_are_cut_to_the_box() {
    assert_eq!(cut("abcdefghij", 5), "abcd…");
    assert_eq!(cut("abc", 5), "abc");
}
