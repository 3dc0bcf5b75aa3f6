//! Hand-written models, so that the checker is tested without the macro. Each encodes a
//! reference model of `/work/shared/models` (same transition order, same slots) or a tiny
//! graph built for one test.

use std::borrow::Cow;

use crate::model::{Automaton, AutomatonEdge, AutomatonState, PropertyInfo, PropertyKind};
use crate::model::{
    Fault, FaultKind, FaultSite, InvariantFailure, InvariantInfo, Model, ModelInfo, Outcome,
    SlotInfo, SlotKind, Successor, TransitionInfo,
};
use crate::Checker;

fn slot(name: impl Into<String>, element: Option<u32>, kind: SlotKind) -> SlotInfo {
    SlotInfo {
        name: Cow::Owned(name.into()),
        element,
        kind,
    }
}

fn status(locations: &[&'static str]) -> SlotKind {
    SlotKind::Status {
        locations: locations.iter().map(|&l| Cow::Borrowed(l)).collect(),
    }
}

fn transition(
    thread: impl Into<Cow<'static, str>>,
    instance: u32,
    from: impl Into<Cow<'static, str>>,
    to: impl Into<Cow<'static, str>>,
    text: impl Into<Cow<'static, str>>,
    line: u32,
) -> TransitionInfo {
    TransitionInfo {
        thread: thread.into(),
        instance,
        from: from.into(),
        to: to.into(),
        text: text.into(),
        line,
        partner: None,
    }
}

/// `dining_philosophers.bir` (and `_fixed`) for `n` philosophers; with `n = 2` and the
/// textbook names, `two_dining_philosophers.bir`. State: fork bits, then 2 bits of location
/// per philosopher. Philosopher `i`'s transition at location `l` has id `4 i + l`.
#[derive(Clone, Debug)]
pub(crate) struct Philosophers {
    n: u32,
    fixed: bool,
    info: ModelInfo,
}

impl Philosophers {
    const LOCATIONS: [&'static str; 4] = ["takeLeft", "takeRight", "putRight", "putLeft"];

    pub(crate) fn new(n: u32, fixed: bool) -> Self {
        assert!((2..=16).contains(&n));
        let mut slots: Vec<SlotInfo> = (0..n)
            .map(|i| slot("fork", Some(i), SlotKind::Bool))
            .collect();
        let mut transitions = Vec::new();
        for i in 0..n {
            slots.push(slot(
                format!("Philosopher[{i}]"),
                None,
                status(&Self::LOCATIONS),
            ));
            for l in 0..4 {
                let to = Self::LOCATIONS[(l + 1) % 4];
                let text = format!("... goto {to};");
                let name = format!("Philosopher[{i}]");
                transitions.push(transition(
                    name,
                    i,
                    Self::LOCATIONS[l],
                    to,
                    text,
                    10 + l as u32,
                ));
            }
        }
        let name = if fixed {
            "DiningPhilosophersFixed"
        } else {
            "DiningPhilosophers"
        };
        Philosophers {
            n,
            fixed,
            info: ModelInfo {
                name: name.into(),
                slots: slots.into(),
                transitions: transitions.into(),
                fault_sites: Cow::Borrowed(&[]),
                invariants: Cow::Borrowed(&[]),
            },
        }
    }

    /// `two_dining_philosophers.bir`, with its names and texts.
    pub(crate) fn two() -> Self {
        let mut model = Philosophers::new(2, false);
        let locations: &[&'static str] = &["loc0", "loc1", "loc2", "loc3"];
        let forks = [["fork1", "fork2"], ["fork2", "fork1"]];
        let mut slots = vec![
            slot("fork1", None, SlotKind::Bool),
            slot("fork2", None, SlotKind::Bool),
        ];
        let mut transitions = Vec::new();
        for (i, [first, second]) in forks.iter().enumerate() {
            let thread = format!("Philosopher{}", i + 1);
            slots.push(slot(thread.clone(), None, status(locations)));
            let texts = [
                format!("when !{first} do {{ {first} := true; }} goto loc1;"),
                format!("when !{second} do {{ {second} := true; }} goto loc2;"),
                format!("do {{ {second} := false; }} goto loc3;"),
                format!("do {{ {first} := false; }} goto loc0;"),
            ];
            for (l, text) in texts.into_iter().enumerate() {
                let line = 7 + 4 * l as u32 + 20 * i as u32;
                let to = locations[(l + 1) % 4];
                transitions.push(transition(
                    thread.clone(),
                    i as u32,
                    locations[l],
                    to,
                    text,
                    line,
                ));
            }
        }
        model.info.name = "TwoDiningPhilosophers".into();
        model.info.slots = slots.into();
        model.info.transitions = transitions.into();
        model
    }

    fn forks_of(&self, i: u32) -> (u32, u32) {
        let right = (i + 1) % self.n;
        if self.fixed && i == self.n - 1 {
            (right, i)
        } else {
            (i, right)
        }
    }

    fn location(&self, state: u64, i: u32) -> u64 {
        (state >> (self.n + 2 * i)) & 3
    }
}

impl Model for Philosophers {
    type State = u64;

    fn write_state_words(&self, state: &u64, out: &mut Vec<u64>) -> bool {
        out.push(*state);
        true
    }

    fn state_from_words(&self, words: &[u64]) -> Option<u64> {
        match words {
            [word] => Some(*word),
            _ => None,
        }
    }

    fn info(&self) -> &ModelInfo {
        &self.info
    }

    fn initial_state(&self) -> u64 {
        0
    }

    fn successors(&self, &state: &u64, out: &mut Vec<Successor<u64>>) {
        for i in 0..self.n {
            let location = self.location(state, i);
            let (first, second) = self.forks_of(i);
            let fork = if matches!(location, 0 | 3) {
                first
            } else {
                second
            };
            let taken = state & (1 << fork) != 0;
            let next = match location {
                0 | 1 if taken => continue,
                0 | 1 => state | (1 << fork),
                _ => state & !(1 << fork),
            };
            let shift = self.n + 2 * i;
            let next = (next & !(3 << shift)) | (((location + 1) % 4) << shift);
            out.push(Successor {
                transition: 4 * i + location as u32,
                outcome: Outcome::Next(next),
            });
        }
    }

    fn check_invariants(&self, _: &u64) -> Result<(), InvariantFailure> {
        Ok(())
    }

    fn is_end_state(&self, _: &u64) -> bool {
        false
    }

    fn decode(&self, &state: &u64, values: &mut Vec<i64>) {
        values.clear();
        values.extend((0..self.n).map(|i| ((state >> i) & 1) as i64));
        values.extend((0..self.n).map(|i| self.location(state, i) as i64));
    }
}

/// `sum_to_n.bir` with N = 2: bytes `x := 1`, `t1`, `t2`; Thread0 asserts `x != 2` once;
/// Thread1 and Thread2 copy x into the temporaries and write their sum back. State: x, t1, t2
/// in the low three bytes, then the locations (Thread0: 1 bit, the others 2 bits).
#[derive(Clone, Copy, Debug)]
pub(crate) struct SumToN;

static SUM_TO_N_SLOTS: [SlotInfo; 6] = {
    const LOC0: &[Cow<'static, str>] = &[Cow::Borrowed("loc0")];
    const LOCS: &[Cow<'static, str>] = &[
        Cow::Borrowed("loc0"),
        Cow::Borrowed("loc1"),
        Cow::Borrowed("loc2"),
    ];
    const fn slot(name: &'static str, kind: SlotKind) -> SlotInfo {
        SlotInfo {
            name: Cow::Borrowed(name),
            element: None,
            kind,
        }
    }
    [
        slot("x", SlotKind::Int),
        slot("t1", SlotKind::Int),
        slot("t2", SlotKind::Int),
        slot(
            "Thread0",
            SlotKind::Status {
                locations: Cow::Borrowed(LOC0),
            },
        ),
        slot(
            "Thread1",
            SlotKind::Status {
                locations: Cow::Borrowed(LOCS),
            },
        ),
        slot(
            "Thread2",
            SlotKind::Status {
                locations: Cow::Borrowed(LOCS),
            },
        ),
    ]
};

impl SumToN {
    const ASSERT: Fault = Fault { site: 0, value: 0 };

    fn info_owned() -> ModelInfo {
        let mut transitions = vec![transition(
            "Thread0",
            0,
            "loc0",
            "return",
            "do { assert (x != Param.N); } return;",
            14,
        )];
        for (i, thread) in ["Thread1", "Thread2"].into_iter().enumerate() {
            let base = 19 + 9 * i as u32;
            transitions.extend([
                transition(
                    thread,
                    1 + i as u32,
                    "loc0",
                    "loc1",
                    "when x != 0 do { t1 := x; } goto loc1;",
                    base,
                ),
                transition(
                    thread,
                    1 + i as u32,
                    "loc1",
                    "loc2",
                    "do { t2 := x; } goto loc2;",
                    base + 2,
                ),
                transition(
                    thread,
                    1 + i as u32,
                    "loc2",
                    "loc0",
                    "do { x := t1 + t2; } goto loc0;",
                    base + 4,
                ),
            ]);
        }
        ModelInfo {
            name: "SumToN".into(),
            slots: Cow::Borrowed(&SUM_TO_N_SLOTS),
            transitions: transitions.into(),
            fault_sites: vec![FaultSite {
                kind: FaultKind::Assertion,
                message: "assertion failed: x != Param.N".into(),
                line: 14,
            }]
            .into(),
            invariants: Cow::Borrowed(&[]),
        }
    }

    fn field(state: u32, shift: u32, bits: u32) -> u32 {
        (state >> shift) & ((1 << bits) - 1)
    }
}

impl Model for SumToN {
    type State = u32;

    fn write_state_words(&self, state: &u32, out: &mut Vec<u64>) -> bool {
        out.push(u64::from(*state));
        true
    }

    fn state_from_words(&self, words: &[u64]) -> Option<u32> {
        match words {
            [word] => u32::try_from(*word).ok(),
            _ => None,
        }
    }

    fn info(&self) -> &ModelInfo {
        static INFO: std::sync::OnceLock<ModelInfo> = std::sync::OnceLock::new();
        INFO.get_or_init(SumToN::info_owned)
    }

    fn initial_state(&self) -> u32 {
        1
    }

    fn successors(&self, &state: &u32, out: &mut Vec<Successor<u32>>) {
        let x = Self::field(state, 0, 8);
        if Self::field(state, 24, 1) == 0 {
            let outcome = if x == 2 {
                Outcome::Fault(Self::ASSERT)
            } else {
                Outcome::Next(state | 1 << 24)
            };
            out.push(Successor {
                transition: 0,
                outcome,
            });
        }
        for i in 0..2 {
            let shift = 25 + 2 * i;
            let location = Self::field(state, shift, 2);
            let (t1, t2) = (Self::field(state, 8, 8), Self::field(state, 16, 8));
            let (field, value) = match location {
                0 if x == 0 => continue,
                0 => (8, x),
                1 => (16, x),
                _ => (0, (t1 + t2) % 256),
            };
            let next = (state & !(0xff << field)) | (value << field);
            let next = (next & !(3 << shift)) | (((location + 1) % 3) << shift);
            out.push(Successor {
                transition: 1 + 3 * i + location,
                outcome: Outcome::Next(next),
            });
        }
    }

    fn check_invariants(&self, _: &u32) -> Result<(), InvariantFailure> {
        Ok(())
    }

    fn is_end_state(&self, _: &u32) -> bool {
        false
    }

    fn decode(&self, &state: &u32, values: &mut Vec<i64>) {
        values.clear();
        let fields = [(0, 8), (8, 8), (16, 8), (24, 1), (25, 2), (27, 2)];
        values.extend(
            fields
                .iter()
                .map(|&(s, b)| i64::from(Self::field(state, s, b))),
        );
    }
}

/// `readers_writers.bir` (2 readers, 1 writer) with its invariant declared
/// (`RW: (nr == 0 || nw == 0) && nw <= 1`). `broken` drops the writer's `nr == 0` guard, so
/// the invariant fails. State: `[nr, nw, Reader[0], Reader[1], Writer[0]]`.
#[derive(Clone, Debug)]
pub(crate) struct ReadersWriters {
    broken: bool,
    info: ModelInfo,
}

impl ReadersWriters {
    pub(crate) fn new(broken: bool) -> Self {
        let locations = ["loc0", "loc1", "loc2"];
        let mut slots = vec![
            slot("nr", None, SlotKind::Int),
            slot("nw", None, SlotKind::Int),
        ];
        let mut transitions = Vec::new();
        for (instance, thread) in ["Reader[0]", "Reader[1]", "Writer[0]"]
            .into_iter()
            .enumerate()
        {
            slots.push(slot(thread, None, status(&locations)));
            for l in 0..3 {
                let to = locations[(l + 1) % 3];
                transitions.push(transition(
                    thread,
                    instance as u32,
                    locations[l],
                    to,
                    "...",
                    0,
                ));
            }
        }
        ReadersWriters {
            broken,
            info: ModelInfo {
                name: "ReadersWriters".into(),
                slots: slots.into(),
                transitions: transitions.into(),
                fault_sites: Cow::Borrowed(&[]),
                invariants: vec![InvariantInfo {
                    name: "RW".into(),
                    text: "(nr == 0 || nw == 0) && nw <= 1".into(),
                    line: 9,
                }]
                .into(),
            },
        }
    }

    /// What generated code provides as `Name::checker()`.
    pub(crate) fn checker(self) -> Checker<Self> {
        Checker::new(self)
    }
}

impl Model for ReadersWriters {
    type State = [i8; 5];

    fn info(&self) -> &ModelInfo {
        &self.info
    }

    fn initial_state(&self) -> [i8; 5] {
        [0; 5]
    }

    fn successors(&self, state: &[i8; 5], out: &mut Vec<Successor<[i8; 5]>>) {
        let [nr, nw, ..] = *state;
        for instance in 0..3 {
            let location = state[2 + instance];
            let writer = instance == 2;
            let (counter, enabled) = match (writer, location) {
                (false, 0) => (0, nw == 0),
                (true, 0) => (1, (self.broken || nr == 0) && nw < 1),
                (_, _) => (usize::from(writer), true),
            };
            if !enabled {
                continue;
            }
            let mut next = *state;
            match location {
                0 => next[counter] += 1,
                2 => next[counter] -= 1,
                _ => {}
            }
            next[2 + instance] = (location + 1) % 3;
            out.push(Successor {
                transition: 3 * instance as u32 + location as u32,
                outcome: Outcome::Next(next),
            });
        }
    }

    fn check_invariants(&self, state: &[i8; 5]) -> Result<(), InvariantFailure> {
        let [nr, nw, ..] = *state;
        if (nr == 0 || nw == 0) && nw <= 1 {
            Ok(())
        } else {
            Err(InvariantFailure::Violated(0))
        }
    }

    fn is_end_state(&self, _: &[i8; 5]) -> bool {
        false
    }

    fn decode(&self, state: &[i8; 5], values: &mut Vec<i64>) {
        values.clear();
        values.extend(state.iter().map(|&v| i64::from(v)));
    }
}

/// A tiny explicit graph, for tests that need one precise shape. Nodes are states; edge `k`
/// of the list is transition `k` (listed in successor order), going to `Some(node)` or
/// faulting (an assertion) when the target is `None`. `bad` nodes violate the invariant,
/// `end` nodes are valid end states.
#[derive(Clone, Debug)]
pub(crate) struct Graph {
    edges: Vec<(u8, Option<u8>)>,
    bad: Vec<u8>,
    end: Vec<u8>,
    info: ModelInfo,
    /// Per node, the propositions that hold there (bit `n` for proposition `n`).
    labels: Vec<u64>,
    properties: Vec<PropertyInfo>,
    /// Whether states are words (as a generated model's are), or only values.
    words: bool,
    /// Whether the model writes its states as words (`Model::write_state_words`) while
    /// not keying them by word: a product with it stores wide states as trees.
    written: bool,
}

impl Graph {
    /// The same graph whose states are words of 8 bits (a product with it then keys its
    /// states by word).
    pub(crate) fn with_words(mut self) -> Self {
        self.words = true;
        self
    }

    /// The same graph, writing its states as words ([`Model::write_state_words`]) but
    /// keyed by state, as a generated model with states wider than a word is.
    pub(crate) fn with_written_words(mut self) -> Self {
        self.written = true;
        self
    }

    pub(crate) fn new(nodes: u8, edges: &[(u8, Option<u8>)]) -> Self {
        let transitions = edges
            .iter()
            .map(|&(from, to)| {
                let text = match to {
                    Some(to) => format!("goto n{to};"),
                    None => "do { assert (false); } return;".to_owned(),
                };
                let to_name = to.map_or("return".to_owned(), |to| format!("n{to}"));
                transition("T", 0, format!("n{from}"), to_name, text, 0)
            })
            .collect::<Vec<_>>();
        let in_range = |node: u8| node < nodes;
        assert!(edges
            .iter()
            .all(|&(f, t)| in_range(f) && t.is_none_or(in_range)));
        Graph {
            edges: edges.to_vec(),
            bad: Vec::new(),
            end: Vec::new(),
            labels: vec![0; usize::from(nodes)],
            properties: Vec::new(),
            words: false,
            written: false,
            info: ModelInfo {
                name: "Graph".into(),
                // The node is the location of the one thread, so that a deadlock's message
                // says where it is blocked.
                slots: vec![slot(
                    "T",
                    None,
                    SlotKind::Status {
                        locations: (0..nodes).map(|n| Cow::Owned(format!("n{n}"))).collect(),
                    },
                )]
                .into(),
                transitions: transitions.into(),
                fault_sites: vec![FaultSite {
                    kind: FaultKind::Assertion,
                    message: "assertion failed: false".into(),
                    line: 0,
                }]
                .into(),
                invariants: vec![InvariantInfo {
                    name: "Good".into(),
                    text: "!bad".into(),
                    line: 0,
                }]
                .into(),
            },
        }
    }

    /// Makes these nodes violate the invariant.
    pub(crate) fn bad(mut self, nodes: &[u8]) -> Self {
        self.bad = nodes.to_vec();
        self
    }

    /// Makes these nodes (and only these) valid end states.
    pub(crate) fn end(mut self, nodes: &[u8]) -> Self {
        self.end = nodes.to_vec();
        self
    }

    /// Makes proposition `n` hold at these nodes.
    pub(crate) fn label(mut self, n: u32, nodes: &[u8]) -> Self {
        for &node in nodes {
            self.labels[usize::from(node)] |= 1 << n;
        }
        self
    }

    /// Gives edge `k` to thread instance `instances[k]` (named `T{i}`), for fairness.
    pub(crate) fn instances(mut self, instances: &[u32]) -> Self {
        let mut transitions = self.info.transitions.to_vec();
        for (transition, &instance) in transitions.iter_mut().zip(instances) {
            transition.instance = instance;
            transition.thread = format!("T{instance}").into();
        }
        self.info.transitions = transitions.into();
        self
    }

    /// Declares an LTL property whose negation's automaton has these states: per state,
    /// whether it is accepting and its edges `(to, positive, negative)`.
    pub(crate) fn ltl(mut self, name: &'static str, states: AutomatonTable) -> Self {
        self.properties.push(PropertyInfo {
            name: name.into(),
            text: name.into(),
            line: 0,
            propositions: vec!["p".into(), "q".into()].into(),
            kind: PropertyKind::Ltl {
                automaton: automaton(states),
                next_free: true,
            },
        });
        self
    }

    /// Declares a reachability check of proposition 0.
    pub(crate) fn reachable(mut self, name: &'static str) -> Self {
        self.properties.push(PropertyInfo {
            name: name.into(),
            text: "p".into(),
            line: 0,
            propositions: vec!["p".into()].into(),
            kind: PropertyKind::Reachable,
        });
        self
    }

    /// `0 -a-> 1, 0 -b-> 2, 1 -c-> 2, 2 -d-> fault`: the recursive DFS reports a, c, d;
    /// BFS reports b, d.
    pub(crate) fn diamond_with_fault() -> Self {
        Graph::new(3, &[(0, Some(1)), (0, Some(2)), (1, Some(2)), (2, None)])
    }

    /// `0 -> 1 -> ... -> length`, whose last node faults: the error is `length + 1` steps away.
    pub(crate) fn chain_to_fault(length: u8) -> Self {
        let mut edges: Vec<_> = (0..length).map(|n| (n, Some(n + 1))).collect();
        edges.push((length, None));
        Graph::new(length + 1, &edges)
    }

    /// `0 -> fault`, `0 -> 1`, with `1` an end state.
    pub(crate) fn fault_then_more() -> Self {
        Graph::new(2, &[(0, None), (0, Some(1))]).end(&[1])
    }
}

impl Model for Graph {
    type State = u8;

    fn info(&self) -> &ModelInfo {
        &self.info
    }

    fn initial_state(&self) -> u8 {
        0
    }

    fn successors(&self, &state: &u8, out: &mut Vec<Successor<u8>>) {
        for (id, &(from, to)) in self.edges.iter().enumerate() {
            if from == state {
                out.push(Successor {
                    transition: id as u32,
                    outcome: match to {
                        Some(to) => Outcome::Next(to),
                        None => Outcome::Fault(Fault { site: 0, value: 0 }),
                    },
                });
            }
        }
    }

    fn check_invariants(&self, state: &u8) -> Result<(), InvariantFailure> {
        if self.bad.contains(state) {
            Err(InvariantFailure::Violated(0))
        } else {
            Ok(())
        }
    }

    fn is_end_state(&self, state: &u8) -> bool {
        self.end.contains(state)
    }

    fn state_word(&self, &state: &u8) -> Option<u64> {
        self.words.then_some(u64::from(state))
    }

    fn state_word_bits(&self) -> Option<u32> {
        self.words.then_some(u8::BITS)
    }

    fn write_state_words(&self, &state: &u8, out: &mut Vec<u64>) -> bool {
        if self.written {
            out.push(u64::from(state));
        }
        self.written
    }

    fn state_from_words(&self, words: &[u64]) -> Option<u8> {
        match words {
            [word] if self.written => u8::try_from(*word).ok(),
            _ => None,
        }
    }

    fn decode(&self, &state: &u8, values: &mut Vec<i64>) {
        values.clear();
        values.push(i64::from(state));
    }

    fn properties(&self) -> &[PropertyInfo] {
        &self.properties
    }

    fn propositions(&self, property: usize, &state: &u8) -> Result<u64, Fault> {
        let labels = self.labels[usize::from(state)];
        Ok(match self.properties[property].kind {
            // A reachability check reads proposition 0 as its predicate.
            PropertyKind::Reachable => labels & 1,
            PropertyKind::Ltl { .. } => labels,
        })
    }
}

/// An automaton as a table: per state, whether it is accepting and its edges
/// `(to, positive, negative)`.
pub(crate) type AutomatonTable = &'static [(bool, &'static [(u32, u64, u64)])];

/// The automaton of `<>[]!p`, the negation of `[]<>p` ("p infinitely often").
pub(crate) const NOT_INFINITELY_OFTEN_P: AutomatonTable =
    &[(false, &[(0, 0, 0), (1, 0, 1)]), (true, &[(1, 0, 1)])];

/// The automaton of `<>(p && []!q)`, the negation of `[](p -> <>q)`.
pub(crate) const NOT_P_LEADS_TO_Q: AutomatonTable =
    &[(false, &[(0, 0, 0), (1, 1, 2)]), (true, &[(1, 0, 2)])];

/// An automaton of `<>[]!p` that is not weak: once `p` is false for good it alternates
/// between an accepting and a rejecting state. Its products need the nested search.
pub(crate) const NOT_INFINITELY_OFTEN_P_NOT_WEAK: AutomatonTable = &[
    (false, &[(0, 0, 0), (1, 0, 1)]),
    (true, &[(2, 0, 1)]),
    (false, &[(1, 0, 1)]),
];

/// A weak automaton whose accepting part leads to a rejecting one: it accepts the runs on
/// which `p` is false from the first state on, for good (`[]!p`), and leaves for a
/// rejecting sink where `p` holds. Its products have steps from accepting states to states
/// that are not, which can close no accepting cycle.
pub(crate) const NEVER_P_THEN_SINK: AutomatonTable = &[
    (false, &[(1, 0, 1), (2, 1, 0)]),
    (true, &[(1, 0, 1), (2, 1, 0)]),
    (false, &[(2, 0, 0)]),
];

/// The automaton of `table`.
pub(crate) fn automaton(table: AutomatonTable) -> Automaton {
    let states: Vec<AutomatonState> = table
        .iter()
        .map(|&(accepting, edges)| AutomatonState {
            accepting,
            edges: edges
                .iter()
                .map(|&(to, positive, negative)| AutomatonEdge {
                    to,
                    positive,
                    negative,
                })
                .collect::<Vec<_>>()
                .into(),
        })
        .collect();
    Automaton {
        states: states.into(),
    }
}

/// `n` instances, each counting its own counter from 0 to `k` (transition `2 i`), all at
/// safe locations (only the instance's own counter is touched): a model partial-order
/// reduction shrinks. With `trap`, instance `n - 1` (at an unsafe location) may fail an
/// assertion at any time (transition `2 n - 1`), and instance 0 loops forever once done
/// (transition 1, safe): the ignoring trap, which a reduction without its proviso would
/// never leave.
#[derive(Clone, Debug)]
pub(crate) struct Counters {
    n: u32,
    k: u32,
    trap: bool,
    info: ModelInfo,
    safe: Vec<bool>,
}

impl Counters {
    pub(crate) fn new(n: u32, k: u32, trap: bool) -> Self {
        assert!(n <= 8 && k < 16);
        let mut transitions = Vec::new();
        let mut safe = Vec::new();
        for i in 0..n {
            let name = format!("C[{i}]");
            transitions.push(transition(
                name.clone(),
                i,
                "count",
                "count",
                "do { c := c + 1; } goto count;",
                0,
            ));
            let (text, is_safe) = if trap && i + 1 == n {
                ("do { assert (false); } goto count;", false)
            } else {
                ("do {} goto count;", true)
            };
            transitions.push(transition(name, i, "count", "count", text, 0));
            // The counting step is safe unless this is the trap's instance.
            safe.push(is_safe);
            safe.push(is_safe);
        }
        Counters {
            n,
            k,
            trap,
            info: ModelInfo {
                name: "Counters".into(),
                slots: (0..n)
                    .map(|i| slot(format!("C[{i}].c"), None, SlotKind::Int))
                    .collect::<Vec<_>>()
                    .into(),
                transitions: transitions.into(),
                fault_sites: vec![FaultSite {
                    kind: FaultKind::Assertion,
                    message: "assertion failed: false".into(),
                    line: 0,
                }]
                .into(),
                invariants: Cow::Borrowed(&[]),
            },
            safe,
        }
    }

    fn counter(&self, state: u32, i: u32) -> u32 {
        (state >> (4 * i)) & 15
    }
}

impl Model for Counters {
    type State = u32;

    fn info(&self) -> &ModelInfo {
        &self.info
    }

    fn initial_state(&self) -> u32 {
        0
    }

    fn successors(&self, &state: &u32, out: &mut Vec<Successor<u32>>) {
        for i in 0..self.n {
            let c = self.counter(state, i);
            if c < self.k {
                out.push(Successor {
                    transition: 2 * i,
                    outcome: Outcome::Next(state + (1 << (4 * i))),
                });
            }
            if self.trap && i + 1 == self.n {
                out.push(Successor {
                    transition: 2 * i + 1,
                    outcome: Outcome::Fault(Fault { site: 0, value: 0 }),
                });
            } else if self.trap && i == 0 && c == self.k {
                out.push(Successor {
                    transition: 2 * i + 1,
                    outcome: Outcome::Next(state),
                });
            }
        }
    }

    fn check_invariants(&self, _: &u32) -> Result<(), InvariantFailure> {
        Ok(())
    }

    fn is_end_state(&self, _: &u32) -> bool {
        true
    }

    fn decode(&self, &state: &u32, values: &mut Vec<i64>) {
        values.clear();
        values.extend((0..self.n).map(|i| i64::from(self.counter(state, i))));
    }

    fn ample_safe(&self) -> &[bool] {
        &self.safe
    }
}

/// `n` instances `N[i]` counting their own counters up from 0 to at most `k` (transition
/// `i`), with a needle: where every counter is at `k - 1`, instance 0 may fail an
/// assertion (transition `n`). Every state is a valid end state. Its heuristics:
/// `Distance`, the steps left to the needle (`sum |c - (k - 1)|`), and `Broken`, which
/// faults (a division by zero, site 1) where counter 0 is odd and is 0 elsewhere. State:
/// counter `i` in bits `4 i..4 i + 4`.
#[derive(Clone, Debug)]
pub(crate) struct Needle {
    n: u32,
    k: u32,
    info: ModelInfo,
    heuristics: Vec<crate::model::HeuristicInfo>,
}

impl Needle {
    pub(crate) fn new(n: u32, k: u32) -> Self {
        assert!(n <= 8 && (2..16).contains(&k));
        let mut transitions: Vec<TransitionInfo> = (0..n)
            .map(|i| {
                let text = "when c < K do { c := c + 1; } goto count;";
                transition(format!("N[{i}]"), i, "count", "count", text, 0)
            })
            .collect();
        let needle = "when needle do { assert (false); } goto count;";
        transitions.push(transition("N[0]", 0, "count", "count", needle, 0));
        let heuristic = |name: &'static str, text: &'static str| crate::model::HeuristicInfo {
            name: name.into(),
            text: text.into(),
            line: 0,
        };
        Needle {
            n,
            k,
            info: ModelInfo {
                name: "Needle".into(),
                slots: (0..n)
                    .map(|i| slot(format!("N[{i}].c"), None, SlotKind::Int))
                    .collect::<Vec<_>>()
                    .into(),
                transitions: transitions.into(),
                fault_sites: vec![
                    FaultSite {
                        kind: FaultKind::Assertion,
                        message: "assertion failed: false".into(),
                        line: 0,
                    },
                    FaultSite {
                        kind: FaultKind::Division,
                        message: "division by zero".into(),
                        line: 0,
                    },
                ]
                .into(),
                invariants: Cow::Borrowed(&[]),
            },
            heuristics: vec![
                heuristic("Distance", "sum of |c - (K - 1)|"),
                heuristic("Broken", "1 / (1 - N[0].c % 2) - 1"),
            ],
        }
    }

    /// Counter `i` of `state`.
    pub(crate) fn counter(&self, state: u32, i: u32) -> u32 {
        (state >> (4 * i)) & 15
    }

    /// The steps from `state` to the needle.
    pub(crate) fn distance(&self, state: u32) -> i64 {
        let target = i64::from(self.k - 1);
        (0..self.n)
            .map(|i| (i64::from(self.counter(state, i)) - target).abs())
            .sum()
    }
}

impl Model for Needle {
    type State = u32;

    fn write_state_words(&self, state: &u32, out: &mut Vec<u64>) -> bool {
        out.push(u64::from(*state));
        true
    }

    fn state_from_words(&self, words: &[u64]) -> Option<u32> {
        match words {
            [word] => u32::try_from(*word).ok(),
            _ => None,
        }
    }

    fn info(&self) -> &ModelInfo {
        &self.info
    }

    fn initial_state(&self) -> u32 {
        0
    }

    fn successors(&self, &state: &u32, out: &mut Vec<Successor<u32>>) {
        for i in 0..self.n {
            if self.counter(state, i) < self.k {
                out.push(Successor {
                    transition: i,
                    outcome: Outcome::Next(state + (1 << (4 * i))),
                });
            }
        }
        if self.distance(state) == 0 {
            out.push(Successor {
                transition: self.n,
                outcome: Outcome::Fault(Fault { site: 0, value: 0 }),
            });
        }
    }

    fn check_invariants(&self, _: &u32) -> Result<(), InvariantFailure> {
        Ok(())
    }

    fn is_end_state(&self, _: &u32) -> bool {
        true
    }

    fn decode(&self, &state: &u32, values: &mut Vec<i64>) {
        values.clear();
        values.extend((0..self.n).map(|i| i64::from(self.counter(state, i))));
    }

    fn heuristics(&self) -> &[crate::model::HeuristicInfo] {
        &self.heuristics
    }

    fn heuristic(&self, heuristic: usize, &state: &u32) -> Result<i64, Fault> {
        match heuristic {
            0 => Ok(self.distance(state)),
            _ if self.counter(state, 0) % 2 == 1 => Err(Fault { site: 1, value: 0 }),
            _ => Ok(0),
        }
    }
}
