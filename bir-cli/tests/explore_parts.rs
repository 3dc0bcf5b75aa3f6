//! `bir explore`'s state view of version-3 models, through its API: a buffered channel is
//! listed as its messages, a lock as its holder and wait set, an instance inside a call as
//! its call stack, each in place of the hidden slots it is kept in; the steps list what
//! they changed in the same terms; a model with records serves the heap of its state as a
//! graph.

mod common;

use common::{json, model, request, run_bir, Explorer};
use serde_json::{json, Value};

/// Takes the enabled transition of `thread` at `from`; the state view after it.
fn take(address: &str, thread: &str, from: &str) -> Value {
    let state = json(address, "GET", "/api/state", None).json();
    let transition = state["choices"]
        .as_array()
        .and_then(|choices| {
            choices
                .iter()
                .find(|c| c["thread"] == thread && c["from"] == from)
        })
        .map(|c| c["transition"].clone())
        .unwrap_or_else(|| panic!("{thread} at {from} is not enabled: {state}"));
    json(
        address,
        "POST",
        "/api/take",
        Some(json!({ "transition": transition })),
    )
    .json()
}

/// The entry of the state view named `name`.
fn variable<'a>(state: &'a Value, name: &str) -> &'a Value {
    state["variables"]
        .as_array()
        .and_then(|all| all.iter().find(|v| v["name"] == name))
        .unwrap_or_else(|| panic!("no `{name}` in {state}"))
}

fn names(state: &Value) -> Vec<String> {
    state["variables"]
        .as_array()
        .map(|all| {
            all.iter()
                .filter_map(|v| v["name"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn a_buffered_channel_is_listed_as_its_messages_first_in_first() {
    let server = Explorer::start(&model("v3/chan_fifo.bir"));
    let a = &server.address;
    let state = json(a, "GET", "/api/state", None).json();
    // The channel in place of its length and cells.
    assert_eq!(names(&state), ["r1", "r2", "c", "P", "Q"]);
    assert_eq!(variable(&state, "c")["value"], "[] (0 of 2)");
    take(a, "P", "send#1");
    let state = take(a, "P", "send#2");
    let c = variable(&state, "c");
    assert_eq!(
        (&c["kind"], &c["value"], &c["messages"], &c["capacity"]),
        (
            &json!("channel"),
            &json!("[⟨1⟩, ⟨2⟩] (2 of 2)"),
            &json!([[1], [2]]),
            &json!(2)
        )
    );
    assert_eq!(c["changed"], true);
    let state = take(a, "Q", "receive#1");
    assert_eq!(variable(&state, "c")["value"], "[⟨2⟩] (1 of 2)");
    assert_eq!(variable(&state, "r1")["value"], 1);
    // The step's changes in the same terms.
    let changes = &state["steps"][2]["changes"];
    assert_eq!(
        *changes,
        json!([
            {"variable": "r1", "old": 0, "new": 1},
            {"variable": "c", "old": "[⟨1⟩, ⟨2⟩] (2 of 2)", "new": "[⟨2⟩] (1 of 2)"},
            {"variable": "Q", "old": "receive#1", "new": "receive#2"}
        ])
    );
}

#[test]
fn an_instance_in_a_call_is_listed_as_its_call_stack() {
    let server = Explorer::start(&model("v3/func_rec_stack.bir"));
    let a = &server.address;
    let state = json(a, "GET", "/api/state", None).json();
    // No frame's locals: the instance is in its body.
    assert_eq!(names(&state), ["r", "T"]);
    assert_eq!(variable(&state, "T")["value"], "call#1");
    take(a, "T", "call#1");
    take(a, "T", "sum@1.if#1");
    let state = take(a, "T", "sum@1.call#2");
    let t = variable(&state, "T");
    assert_eq!(t["kind"], "stack");
    assert_eq!(
        t["value"],
        "sum@2 at if#1 (n = 2, t = 0) ← called from sum@1 at call#2 (n = 3, t = 0) \
         ← called from T at call#1"
    );
    assert_eq!(
        t["frames"],
        json!([
            {"function": "sum", "frame": 2, "location": "if#1", "locals": {"n": 2, "t": 0}},
            {"function": "sum", "frame": 1, "location": "call#2", "locals": {"n": 3, "t": 0}},
            {"function": null, "frame": 0, "location": "call#1", "locals": {}}
        ])
    );
    // The call's argument is the new frame's local; the instance's move is its status.
    assert_eq!(
        state["steps"][2]["changes"],
        json!([
            {"variable": "T", "old": "sum@1.call#2", "new": "sum@2.if#1"},
            {"variable": "T.sum@2.n", "old": 0, "new": 2}
        ])
    );
}

#[test]
fn a_lock_is_listed_as_its_holder_and_who_waits() {
    let server = Explorer::start(&model("v3/lock_notify.bir"));
    let a = &server.address;
    let state = json(a, "GET", "/api/state", None).json();
    assert_eq!(names(&state), ["n", "m", "W[0]", "W[1]", "N"]);
    take(a, "W[0]", "atomic#1");
    let state = take(a, "W[0]", "wait#2");
    let m = variable(&state, "m");
    assert_eq!(
        (&m["value"], &m["owner"], &m["waiting"]),
        (
            &json!("free (waiting: W[0])"),
            &Value::Null,
            &json!([{"instance": "W[0]", "holds": 1}])
        )
    );
}

/// A stack of nodes: push 1, push 2, pop (README, "Seeing the state space").
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

#[test]
fn the_heap_of_the_current_state_is_served_as_a_graph() {
    let file = concat!(env!("CARGO_TARGET_TMPDIR"), "/explore_heap_list.bir");
    std::fs::write(file, LIST).expect("the model written");
    let server = Explorer::start(file);
    let a = &server.address;
    assert_eq!(json(a, "GET", "/api/model", None).json()["heap"], true);
    let state = json(a, "GET", "/api/state", None).json();
    assert!(state["heap"]
        .as_str()
        .unwrap()
        .contains(">no objects</text>"));
    take(a, "T", "a");
    let state = take(a, "T", "b");
    let heap = state["heap"].as_str().expect("the heap's SVG");
    assert!(heap.starts_with("<svg"), "{heap}");
    assert_eq!(
        heap.matches("<g class=\"heap-object\"").count(),
        2,
        "{heap}"
    );
    assert!(heap.contains("data-root=\"head\"") && heap.contains("data-root=\"T.n\""));
    assert!(heap.contains(">Node#1</text>") && heap.contains(">value = 2</text>"));
    assert!(
        heap.contains("data-from=\"Node#1.next\" data-to=\"Node#2\""),
        "{heap}"
    );
    assert!(heap.contains(">next</text>"), "{heap}");
    let svg = request(a, "GET", "/api/heap.svg", &[], None);
    assert_eq!(svg.header("content-type"), Some("image/svg+xml"));
    assert_eq!(svg.text(), heap);
    // The page has the panel, which its script shows for a model with records.
    let page = request(a, "GET", "/", &[], None).text();
    assert!(page.contains("<div id=\"heap-panel\" hidden>"), "{page}");
    let script = request(a, "GET", "/page.js", &[], None).text();
    assert!(script.contains("$(\"heap-panel\").hidden = !model.heap;"));
    // Each step says what it did to the heap, as a trace does.
    let steps = &state["steps"];
    assert_eq!(steps[0]["allocated"], json!(["Node#1"]), "{steps}");
    assert_eq!(steps[1]["allocated"], json!(["Node#1"]), "{steps}");
    assert_eq!(
        steps[1]["renumbered"],
        json!([{"from": "Node#1", "to": "Node#2"}]),
        "{steps}"
    );
    let state = take(a, "T", "c");
    let steps = &state["steps"];
    assert_eq!(steps[2]["collected"], json!(["Node#1"]), "{steps}");
    assert_eq!(steps[2]["allocated"], json!([]), "{steps}");
    assert!(script.contains("\"collected \""), "the page lists them");
}

#[test]
fn a_model_without_records_has_no_heap() {
    let server = Explorer::start(&model("two_dining_philosophers.bir"));
    let a = &server.address;
    assert_eq!(json(a, "GET", "/api/model", None).json()["heap"], false);
    assert_eq!(json(a, "GET", "/api/state", None).json()["heap"], "");
    let svg = json(a, "GET", "/api/heap.svg", None);
    assert_eq!(svg.status, 404);
    assert!(svg.json()["error"].as_str().unwrap().contains("no records"));
}

#[test]
fn the_help_of_explore_names_the_heap_panel() {
    let (status, out, _) = run_bir(&["explore", "--help"], &[]);
    assert_eq!(status, 0);
    assert!(out.contains("the heap of the current state"), "{out}");
}
