//! What each step of a trace allocated and collected (LANGUAGE.md, "Records and the heap",
//! "What a step did to the heap"), through the generated checker and the interpreter: the
//! step's line ends `[allocated R#n; collected R#m; renumbered R#a as R#b]`, and a record
//! type whose objects were only renumbered is not listed among the step's changes.

use bir_interp::Interpreter;

mod common;
use common::trace;

/// Builds a list of two nodes, drops the pointer to the new head and then the head.
const LIST: &str = include_str!("models/list_drop.bir");

mod list {
    bir::bir!(file = "models/list_drop.bir");
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
    assert_eq!(trace(list::List), interpreted);
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
