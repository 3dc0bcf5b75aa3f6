//! The state graph of a small model: every reachable state, every step between them, found
//! by a breadth-first walk over the model's own successors; written as DOT
//! (`bir graph`), as JSON (`bir graph --json`), or drawn as SVG (`bir explore`). States are
//! labelled as the text report prints them (a version-3 model's channels, locks and call
//! stacks as what they hold), and a rendezvous step, one transition of two instances, as
//! the pairing: both instances' blocks, and the pair named apart.
//!
//! A graph is refused beyond a state limit: past a few thousand states a picture says
//! nothing, and the walk must not exhaust memory.

use std::collections::HashMap;
use std::fmt::Write as _;

use bir_runtime::model::{ModelInfo, Outcome, StateParts, TransitionId};
use bir_runtime::{Model, StateDisplay};
use serde::Serialize;

use crate::json::kind_name;
use bir_driver::msc::escape;

/// The default and the largest number of states `bir graph` draws.
pub const DEFAULT_MAX_STATES: usize = 2_000;

/// What a state is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NodeKind {
    /// The initial state.
    Initial,
    /// Some transition is enabled.
    Normal,
    /// Every started instance has ended.
    End,
    /// No transition is enabled and some instance has not ended.
    Deadlock,
    /// An invariant is false (or faults) here.
    Violation,
}

/// A reachable state.
#[derive(Clone, Debug, Serialize)]
pub struct Node {
    /// Its number: the order of the breadth-first walk, the initial state 0.
    pub id: usize,
    /// Steps from the initial state on a shortest path.
    pub depth: usize,
    /// What it is.
    pub kind: NodeKind,
    /// Its values in the model's terms, as one line.
    pub label: String,
}

/// A step between two states, or a failing step.
#[derive(Clone, Debug, Serialize)]
pub struct Edge {
    /// The state it leaves.
    pub from: usize,
    /// The state it enters; `None` for a failing step.
    pub to: Option<usize>,
    /// The transition.
    pub transition: TransitionId,
    /// The instance and the BIR text.
    pub label: String,
    /// For a failing step, what fails (`assertion`, `range`...).
    pub fails: Option<&'static str>,
    /// For a rendezvous, the pair of instances whose step it is (left out of the JSON
    /// otherwise, so that a model without rendezvous reads as before).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rendezvous: Option<Pairing>,
}

/// The two instances of a rendezvous step: one transition of both (LANGUAGE.md,
/// "Channels"), the sender's block first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Pairing {
    /// The instance that sends.
    pub sender: String,
    /// The instance that receives.
    pub receiver: String,
}

/// The whole graph.
#[derive(Clone, Debug, Serialize)]
pub struct StateGraph {
    /// The system's name.
    pub model: String,
    /// The states, by id.
    pub nodes: Vec<Node>,
    /// Every step, in the order found.
    pub edges: Vec<Edge>,
    /// The node of each decoded state.
    #[serde(skip)]
    index: HashMap<Vec<i64>, usize>,
}

/// Why no graph was drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TooLarge {
    /// The limit that was passed.
    pub max_states: usize,
}

impl std::fmt::Display for TooLarge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the model has more than {} reachable states, too many to draw; \
             raise --max-states, or shrink the model with --set",
            self.max_states
        )
    }
}

impl StateGraph {
    /// Walks every reachable state of `model`, up to `max_states`.
    pub fn build<M: Model>(model: &M, max_states: usize) -> Result<StateGraph, TooLarge> {
        let info = model.info();
        let mut seen: HashMap<M::State, usize> = HashMap::new();
        let mut states = vec![model.initial_state()];
        let mut graph = StateGraph {
            model: info.name.to_string(),
            nodes: Vec::new(),
            edges: Vec::new(),
            index: HashMap::new(),
        };
        // Read once: every node's label prints the model's channels, locks and stacks.
        let parts = StateParts::new(info);
        seen.insert(states[0].clone(), 0);
        graph.push_node(model, &parts, &states[0], 0);
        let mut successors = Vec::new();
        let mut next = 0;
        while next < states.len() {
            let state = states[next].clone();
            let depth = graph.nodes[next].depth;
            next += 1;
            if graph.nodes[next - 1].kind == NodeKind::Violation {
                continue;
            }
            successors.clear();
            model.successors(&state, &mut successors);
            for successor in successors.drain(..) {
                let label = transition_label(info, successor.transition);
                let (to, fails) = match successor.outcome {
                    Outcome::Next(target) => {
                        let id = match seen.get(&target) {
                            Some(&id) => id,
                            None => {
                                if states.len() >= max_states {
                                    return Err(TooLarge { max_states });
                                }
                                let id = states.len();
                                seen.insert(target.clone(), id);
                                graph.push_node(model, &parts, &target, depth + 1);
                                states.push(target);
                                id
                            }
                        };
                        (Some(id), None)
                    }
                    Outcome::Fault(fault) => {
                        let kind = info
                            .fault_sites
                            .get(fault.site as usize)
                            .map(|site| kind_name(site.kind.into()));
                        (None, Some(kind.unwrap_or("assertion")))
                    }
                };
                graph.edges.push(Edge {
                    from: next - 1,
                    to,
                    transition: successor.transition,
                    label,
                    fails,
                    rendezvous: pairing(info, successor.transition),
                });
            }
        }
        Ok(graph)
    }

    fn push_node<M: Model>(
        &mut self,
        model: &M,
        parts: &StateParts,
        state: &M::State,
        depth: usize,
    ) {
        let mut values = Vec::new();
        model.decode(state, &mut values);
        let mut successors = Vec::new();
        model.successors(state, &mut successors);
        let kind = if model.check_invariants(state).is_err() {
            NodeKind::Violation
        } else if self.nodes.is_empty() {
            NodeKind::Initial
        } else if !successors.is_empty() {
            NodeKind::Normal
        } else if model.is_end_state(state) {
            NodeKind::End
        } else {
            NodeKind::Deadlock
        };
        let id = self.nodes.len();
        let label = StateDisplay::with_parts(model.info(), parts, &values).to_string();
        self.index.insert(values, id);
        self.nodes.push(Node {
            id,
            depth,
            kind,
            label,
        });
    }

    /// The node of a decoded state, if it is in the graph.
    pub fn node_of(&self, values: &[i64]) -> Option<usize> {
        self.index.get(values).copied()
    }

    /// The graph in Graphviz's DOT language: states labelled by their values, steps by
    /// instance and BIR text; deadlocks, end states and violations shaped apart, a failing
    /// step leading to a red `fails` node of its own.
    pub fn dot(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "digraph {} {{", dot_id(&self.model));
        out.push_str("  rankdir=TB;\n  node [shape=box, fontname=\"monospace\", fontsize=10];\n");
        out.push_str("  edge [fontname=\"monospace\", fontsize=9];\n");
        for node in &self.nodes {
            let style = match node.kind {
                NodeKind::Initial => ", style=bold",
                NodeKind::Normal => "",
                NodeKind::End => ", peripheries=2",
                NodeKind::Deadlock => ", color=red, style=filled, fillcolor=\"#fee2e2\"",
                NodeKind::Violation => ", color=red, shape=octagon",
            };
            let kind = match node.kind {
                NodeKind::Deadlock => "\\n(deadlock)",
                NodeKind::Violation => "\\n(invariant violated)",
                NodeKind::End => "\\n(end)",
                _ => "",
            };
            let _ = writeln!(
                out,
                "  s{} [label=\"{}: {}{kind}\"{style}];",
                node.id,
                node.id,
                dot_escape(&node.label)
            );
        }
        for (index, edge) in self.edges.iter().enumerate() {
            let label = dot_escape(&edge.label);
            // A rendezvous is drawn as the pairing it is: bold, in the chart's message green.
            let style = match edge.rendezvous {
                Some(_) => ", style=bold, color=\"#059669\"",
                None => "",
            };
            match (edge.to, edge.fails) {
                (Some(to), _) => {
                    let _ = writeln!(out, "  s{} -> s{to} [label=\"{label}\"{style}];", edge.from);
                }
                (None, fails) => {
                    let _ = writeln!(
                        out,
                        "  f{index} [label=\"fails: {}\", color=red, shape=octagon];\n  \
                         s{} -> f{index} [label=\"{label}\", color=red];",
                        fails.unwrap_or("error"),
                        edge.from
                    );
                }
            }
        }
        out.push_str("}\n");
        out
    }

    /// The graph drawn as SVG: states in rows by their depth, ordered within a row by
    /// where their parents stand; each `g.node` has `data-node` (its id) and the state's
    /// values as tooltip, each `path.edge` has `data-from`, `data-to` and `data-transition`.
    pub fn svg(&self) -> String {
        let positions = self.layout();
        let width = positions.iter().map(|p| p.0).fold(0.0, f64::max) + 60.0;
        let height = positions.iter().map(|p| p.1).fold(0.0, f64::max) + 60.0;
        let mut out = String::new();
        let _ = write!(
            out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"state-graph\" width=\"{width:.0}\" \
             height=\"{height:.0}\" viewBox=\"0 0 {width:.0} {height:.0}\" data-states=\"{}\">\
             <style>.edge{{stroke:#9ca3af;fill:none;stroke-width:1;marker-end:url(#g-tip)}}\
             .edge.fails{{stroke:#dc2626}}.edge.rendezvous{{stroke:#059669;stroke-width:1.6}}.edge.on-path{{stroke:#2563eb;stroke-width:2.5}}\
             .node circle{{fill:#f9fafb;stroke:#4b5563;stroke-width:1.2}}\
             .node.initial circle{{stroke-width:2.5}}.node.deadlock circle,.node.violation circle{{fill:#fecaca;stroke:#dc2626}}\
             .node.end circle{{fill:#dcfce7;stroke:#16a34a}}\
             .node.on-path circle{{fill:#bfdbfe;stroke:#2563eb}}.node.current circle{{fill:#2563eb;stroke:#1e3a8a;stroke-width:3}}\
             .node text{{font:9px sans-serif;text-anchor:middle;pointer-events:none}}.node.current text{{fill:#fff}}</style>\
             <defs><marker id=\"g-tip\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"5\" \
             markerHeight=\"5\" orient=\"auto\"><path d=\"M0,0L10,5L0,10z\" fill=\"#9ca3af\"/></marker></defs>",
            self.nodes.len()
        );
        for (index, edge) in self.edges.iter().enumerate() {
            let (x1, y1) = positions[edge.from];
            let (x2, y2, class) = match (edge.to, &edge.rendezvous) {
                (Some(to), Some(_)) => (positions[to].0, positions[to].1, "edge rendezvous"),
                (Some(to), None) => (positions[to].0, positions[to].1, "edge"),
                (None, _) => (x1 + 18.0, y1 + 30.0, "edge fails"),
            };
            let d = if edge.to == Some(edge.from) {
                format!("M{:.1},{:.1}c24,-24 24,24 6,10", x1 + 8.0, y1 - 4.0)
            } else {
                // Shorten to the circles' rims; bend edges that go up or sideways.
                let (dx, dy) = (x2 - x1, y2 - y1);
                let len = (dx * dx + dy * dy).sqrt().max(1.0);
                let (sx, sy) = (x1 + dx / len * 10.0, y1 + dy / len * 10.0);
                let (ex, ey) = (x2 - dx / len * 11.0, y2 - dy / len * 11.0);
                if dy > 0.0 {
                    format!("M{sx:.1},{sy:.1}L{ex:.1},{ey:.1}")
                } else {
                    let (cx, cy) = ((sx + ex) / 2.0 + 40.0, (sy + ey) / 2.0);
                    format!("M{sx:.1},{sy:.1}Q{cx:.1},{cy:.1} {ex:.1},{ey:.1}")
                }
            };
            let _ = write!(
                out,
                "<path class=\"{class}\" data-edge=\"{index}\" data-from=\"{}\" data-to=\"{}\" \
                 data-transition=\"{}\" d=\"{d}\"><title>{}</title></path>",
                edge.from,
                edge.to.map_or(String::from("fails"), |to| to.to_string()),
                edge.transition,
                escape(&edge.label)
            );
        }
        for node in &self.nodes {
            let (x, y) = positions[node.id];
            let kind = match node.kind {
                NodeKind::Initial => "initial",
                NodeKind::Normal => "normal",
                NodeKind::End => "end",
                NodeKind::Deadlock => "deadlock",
                NodeKind::Violation => "violation",
            };
            let _ = write!(
                out,
                "<g class=\"node {kind}\" data-node=\"{}\"><title>{}: {}</title>\
                 <circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"10\"/><text x=\"{x:.1}\" y=\"{:.1}\">{}</text></g>",
                node.id,
                node.id,
                escape(&node.label),
                y + 3.0,
                node.id
            );
        }
        out.push_str("</svg>");
        out
    }

    /// A layered layout: row by depth, and within a row the states ordered by the mean
    /// position of their parents in the row above (one pass down), then spread evenly.
    fn layout(&self) -> Vec<(f64, f64)> {
        const DX: f64 = 34.0;
        const DY: f64 = 56.0;
        let depth = self.nodes.iter().map(|n| n.depth).max().unwrap_or(0);
        let mut rows: Vec<Vec<usize>> = vec![Vec::new(); depth + 1];
        for node in &self.nodes {
            rows[node.depth].push(node.id);
        }
        let mut parents: Vec<Vec<usize>> = vec![Vec::new(); self.nodes.len()];
        for edge in &self.edges {
            if let Some(to) = edge.to {
                if self.nodes[edge.from].depth + 1 == self.nodes[to].depth {
                    parents[to].push(edge.from);
                }
            }
        }
        let widest = rows.iter().map(Vec::len).max().unwrap_or(1) as f64;
        let mut x = vec![0.0; self.nodes.len()];
        for row in &mut rows {
            let key = |id: &usize| {
                let p = &parents[*id];
                if p.is_empty() {
                    0.0
                } else {
                    p.iter().map(|&p| x[p]).sum::<f64>() / p.len() as f64
                }
            };
            row.sort_by(|a, b| key(a).total_cmp(&key(b)).then(a.cmp(b)));
            let offset = (widest - row.len() as f64) * DX / 2.0;
            for (i, &id) in row.iter().enumerate() {
                x[id] = 30.0 + offset + i as f64 * DX;
            }
        }
        self.nodes
            .iter()
            .map(|n| (x[n.id], 30.0 + n.depth as f64 * DY))
            .collect()
    }
}

/// The pair of instances of transition `id` when it is a rendezvous: the sender's and the
/// receiver's names, read from the transitions of their transformations alone.
fn pairing(info: &ModelInfo, id: TransitionId) -> Option<Pairing> {
    let partner = info.transitions.get(id as usize)?.partner?;
    let name = |side: TransitionId| {
        info.transitions
            .get(side as usize)
            .map(|t| t.thread.to_string())
    };
    Some(Pairing {
        sender: name(partner.sides[0])?,
        receiver: name(partner.sides[1])?,
    })
}

/// `Philosopher1: when !fork1 do { fork1 := true; } goto loc1;`
fn transition_label(info: &ModelInfo, id: TransitionId) -> String {
    match info.transitions.get(id as usize) {
        Some(t) => format!("{}: {}", t.thread, t.text),
        None => format!("transition {id}"),
    }
}

/// A DOT identifier: the name if it is one, quoted otherwise.
fn dot_id(name: &str) -> String {
    if !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        name.to_string()
    } else {
        format!("\"{}\"", dot_escape(name))
    }
}

/// Text inside a DOT string.
fn dot_escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

#[cfg(test)]
mod tests {
    use bir_interp::Interpreter;

    use super::*;

    const TWO: &str = include_str!("../../models/two_dining_philosophers.bir");

    #[test]
    fn two_philosophers_have_ten_states_and_one_deadlock() {
        let model = Interpreter::from_source(TWO).unwrap();
        let graph = StateGraph::build(&model, 100).unwrap();
        assert_eq!(graph.nodes.len(), 10);
        assert_eq!(graph.edges.len(), 14);
        let deadlocks: Vec<_> = graph
            .nodes
            .iter()
            .filter(|n| n.kind == NodeKind::Deadlock)
            .collect();
        assert_eq!(deadlocks.len(), 1);
        let found = bir_runtime::Checker::new(model.clone())
            .replay("bir1:0.4")
            .unwrap();
        assert_eq!(graph.node_of(found.final_state()), Some(deadlocks[0].id));
        let dot = graph.dot();
        assert!(dot.starts_with("digraph TwoDiningPhilosophers {"), "{dot}");
        assert_eq!(dot.matches(" -> ").count(), 14, "{dot}");
        assert!(dot.contains("(deadlock)"), "{dot}");
        assert!(dot.contains("Philosopher1: when !fork1 do { fork1 := true; } goto loc1;"));
        let svg = graph.svg();
        assert_eq!(svg.matches("<g class=\"node").count(), 10);
        assert_eq!(svg.matches("<path class=\"edge").count(), 14);
        assert_eq!(
            StateGraph::build(&model, 9).unwrap_err(),
            TooLarge { max_states: 9 }
        );
    }

    #[test]
    fn a_rendezvous_is_one_edge_labelled_as_the_pairing() {
        let model = Interpreter::from_source(include_str!("../../models/v3/rdv_pair.bir")).unwrap();
        let graph = StateGraph::build(&model, 100).unwrap();
        assert_eq!((graph.nodes.len(), graph.edges.len()), (3, 2));
        let pair = &graph.edges[0];
        assert_eq!(
            pair.rendezvous,
            Some(Pairing {
                sender: "S".into(),
                receiver: "R".into()
            })
        );
        assert_eq!(
            pair.label,
            "S <-> R: do { c!(5 + g); g := 1; } return; with R: do { c?(x); seen := g; } goto r1;"
        );
        assert_eq!(graph.edges[1].rendezvous, None);
        let dot = graph.dot();
        assert!(
            dot.contains("goto r1;\", style=bold, color=\"#059669\"];"),
            "{dot}"
        );
        // A rendezvous channel holds nothing: no node lists it.
        assert!(
            !dot.contains("rendezvous(c)") && !dot.contains("len(c)"),
            "{dot}"
        );
        let json = serde_json::to_value(&graph).unwrap();
        assert_eq!(json["edges"][0]["rendezvous"]["receiver"], "R");
        assert!(json["edges"][1].get("rendezvous").is_none());
        assert!(graph.svg().contains("class=\"edge rendezvous\""));
    }

    #[test]
    fn version_3_states_are_labelled_by_their_channels_locks_and_stacks() {
        let graph = |source: &str| {
            let model = Interpreter::from_source(source).unwrap();
            StateGraph::build(&model, DEFAULT_MAX_STATES).unwrap()
        };
        let fifo = graph(include_str!("../../models/v3/chan_fifo.bir"));
        assert_eq!((fifo.nodes.len(), fifo.edges.len()), (10, 12));
        assert_eq!(
            fifo.nodes[2].label,
            "r1 = 0, r2 = 0, c = [⟨1⟩, ⟨2⟩] (2 of 2), P @ send#3, Q @ receive#1"
        );
        let notify = graph(include_str!("../../models/v3/lock_notify.bir"));
        assert_eq!((notify.nodes.len(), notify.edges.len()), (17, 17));
        assert!(notify
            .nodes
            .iter()
            .any(|n| n.label.contains("m = held by N (waiting: W[0], W[1])")));
        let stack = graph(include_str!("../../models/v3/func_rec_stack.bir"));
        assert_eq!((stack.nodes.len(), stack.edges.len()), (7, 7));
        assert_eq!(stack.edges.last().map(|e| e.fails), Some(Some("stack")));
        assert!(stack.nodes[6]
            .label
            .starts_with("r = 0, T: sum@3 at call#2 (n = 1, t = 0)"));
        // BEEM's needham.1: the counts of `bir check`, most steps a pairing.
        let needham = graph(include_str!("../../models/beem/needham.1.bir"));
        assert_eq!((needham.nodes.len(), needham.edges.len()), (497, 753));
        let pairings = needham
            .edges
            .iter()
            .filter(|e| e.rendezvous.is_some())
            .count();
        assert_eq!(pairings, 211);
        let deadlocks = needham
            .nodes
            .iter()
            .filter(|n| n.kind == NodeKind::Deadlock);
        assert_eq!(deadlocks.count(), 93);
    }

    #[test]
    fn a_failing_step_is_an_edge_to_nowhere() {
        let source = "system S { int (0, 1) x;
            active thread T() { loc l: do { x := x + 1; } goto l; } }";
        let model = Interpreter::from_source(source).unwrap();
        let graph = StateGraph::build(&model, 10).unwrap();
        assert_eq!(graph.nodes.len(), 2);
        assert_eq!(graph.edges[1].fails, Some("range"));
        assert!(graph.dot().contains("fails: range"));
        assert_eq!(dot_id("a b"), "\"a b\"");
    }
}
