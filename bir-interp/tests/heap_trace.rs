//! What each step of a trace allocated and collected (LANGUAGE.md, "Records and the heap",
//! "What a step did to the heap"), through the generated checker and the interpreter: the
//! step's line ends `[allocated R#n; collected R#m; renumbered R#a as R#b]`, and a record
//! type whose objects were only renumbered is not listed among the step's changes.

use bir::Checker;
use bir_interp::Interpreter;

/// Builds a list of two nodes, drops the pointer to the new head and then the head.
const LIST: &str = "system List {
  record Node { int (0, 3) v; Node next; }
  Node head;
  active thread A() {
    Node n;
    head := new Node; head.v := 1;
    n := new Node; n.v := 2; n.next := head; head := n;
    n := null;
    head := head.next;
    assert(false);
  }
}";

mod list {
    bir::bir! {
        system List {
          record Node { int (0, 3) v; Node next; }
          Node head;
          active thread A() {
            Node n;
            head := new Node; head.v := 1;
            n := new Node; n.v := 2; n.next := head; head := n;
            n := null;
            head := head.next;
            assert(false);
          }
        }
    }
}

/// The text of the first counterexample of a breadth-first search.
fn trace<M: bir::Model>(model: M) -> String {
    let report = Checker::new(model).bfs().progress(false).run();
    assert!(!report.findings().is_empty(), "{report}");
    format!("{:#}", report.findings()[0])
}

/// `text` without its `(line n)` notes.
fn without_lines(text: &str) -> String {
    text.split("(line ")
        .enumerate()
        .map(|(index, part)| match index {
            0 => part,
            _ => part.split_once(')').map_or(part, |(_, rest)| rest),
        })
        .collect()
}

/// The line of step `number`.
fn step(text: &str, number: usize) -> &str {
    let start = format!("  #{number:<2} ");
    text.lines()
        .find(|line| line.starts_with(&start))
        .unwrap_or_else(|| panic!("no step {number} in {text}"))
}

#[test]
fn both_engines_say_what_each_step_allocated_collected_and_renumbered() {
    let interpreted = trace(Interpreter::from_source(LIST).unwrap());
    // The same but for the line numbers, which the macro's source starts elsewhere.
    assert_eq!(
        without_lines(&trace(list::List)),
        without_lines(&interpreted)
    );
    let lines: Vec<&str> = interpreted.lines().collect();
    // `head := new Node`: the first object.
    assert!(
        step(&interpreted, 1).ends_with("[allocated Node#1]"),
        "{interpreted}"
    );
    // `n := new Node`: the walk reaches `head`'s first, so the new one is Node#2.
    assert!(
        step(&interpreted, 3).ends_with("[allocated Node#2]"),
        "{interpreted}"
    );
    // `head := n`: the new node becomes the first, the old one moves behind it; the heap
    // is shown unchanged, only renumbered.
    let relink = lines
        .iter()
        .position(|l| l.contains("head := n;"))
        .expect(&interpreted);
    assert!(
        lines[relink].ends_with("[renumbered Node#1 as Node#2, Node#2 as Node#1]"),
        "{interpreted}"
    );
    assert!(!lines[relink + 1].contains("Node:"), "{interpreted}");
    // `head := head.next`: the node of value 2 is garbage, the other is Node#1 again.
    let drop = lines
        .iter()
        .position(|l| l.contains("head := head.next"))
        .expect(&interpreted);
    assert!(
        lines[drop].ends_with("[collected Node#1; renumbered Node#2 as Node#1]"),
        "{interpreted}"
    );
    // Steps that leave the objects where they are say nothing.
    assert!(!step(&interpreted, 2).contains('['), "{interpreted}");
}

#[test]
fn the_handoff_models_messages_are_allocated_and_collected_in_its_trace() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../models/v3/heap_handoff.bir");
    let text = std::fs::read_to_string(path).unwrap();
    // A consumer that fails once it has taken and dropped three messages: one producer
    // has sent two, dropping the first, which the collector then removes.
    let buggy = text.replacen("r := null;", "r := null; assert(delivered < 3);", 1);
    assert_ne!(buggy, text);
    let trace = trace(Interpreter::from_source(&buggy).unwrap());
    assert!(trace.contains("[allocated Msg#1]"), "{trace}");
    // The consumer's drop of the message it took (the producer dropped it already).
    assert!(
        trace
            .lines()
            .any(|l| l.contains("do { r := null; }") && l.contains("[collected Msg#")),
        "{trace}"
    );
}
