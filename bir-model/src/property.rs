//! Properties beyond safety (LANGUAGE.md, "Properties (version 2)"): LTL formulas, checked
//! through the Büchi automaton of their negation, and reachability checks. A model lists
//! them in [`Model::properties`](crate::Model::properties) and evaluates their predicates
//! with [`Model::propositions`](crate::Model::propositions).

use std::borrow::Cow;

/// A property the model declares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PropertyInfo {
    /// Its name (`Starvation`).
    pub name: Cow<'static, str>,
    /// The formula or predicate as written.
    pub text: Cow<'static, str>,
    /// The line of the model source (0 when unknown).
    pub line: u32,
    /// The BIR text of each predicate the formula's propositions stand for, in proposition
    /// order (proposition `n` is bit `n` of [`Model::propositions`](crate::Model::propositions));
    /// one for a reachability check.
    pub propositions: Cow<'static, [Cow<'static, str>]>,
    /// What kind of property it is.
    pub kind: PropertyKind,
}

/// A heuristic the model declares (`heuristic Name: expr;`, version 3): an int expression
/// over the state that orders a best-first search (lower values first). It changes no
/// count and no verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeuristicInfo {
    /// Its name (`Closest`).
    pub name: Cow<'static, str>,
    /// The expression as written.
    pub text: Cow<'static, str>,
    /// The line of the model source (0 when unknown).
    pub line: u32,
}

/// What kind of property.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PropertyKind {
    /// `ltl Name: formula;`: holds when every run satisfies the formula.
    Ltl {
        /// The automaton accepting the runs that violate the formula.
        automaton: Automaton,
        /// True when the formula has no `X` (partial-order reduction preserves such
        /// properties).
        next_free: bool,
    },
    /// `reachable Name: predicate;`: some reachable state satisfies the predicate.
    Reachable,
}

/// A Büchi automaton as a table: state 0 is the start, which the automaton is in before
/// the run's first state; a run is accepted when it passes through accepting states
/// infinitely often. Its `Debug` shows every state and edge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Automaton {
    /// The states, by number.
    pub states: Cow<'static, [AutomatonState]>,
}

/// One state of an [`Automaton`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AutomatonState {
    /// Whether a run passing through it infinitely often is accepted.
    pub accepting: bool,
    /// Its edges.
    pub edges: Cow<'static, [AutomatonEdge]>,
}

/// An edge of an [`Automaton`]: taken when the state the run enters makes every proposition
/// of `positive` true and every one of `negative` false (bit `n` for proposition `n`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AutomatonEdge {
    /// The automaton state entered.
    pub to: u32,
    /// Propositions that must be true.
    pub positive: u64,
    /// Propositions that must be false.
    pub negative: u64,
}

impl Automaton {
    /// Appends the states entered from `from` when the run enters a state whose
    /// propositions are `props`.
    pub fn step(&self, from: u32, props: u64, out: &mut Vec<u32>) {
        if let Some(state) = self.states.get(from as usize) {
            for edge in state.edges.iter() {
                if props & edge.positive == edge.positive && props & edge.negative == 0 {
                    out.push(edge.to);
                }
            }
        }
    }

    /// Whether state `state` is accepting.
    pub fn is_accepting(&self, state: u32) -> bool {
        self.states
            .get(state as usize)
            .is_some_and(|state| state.accepting)
    }

    /// Whether the automaton is weak: each of its strongly connected parts is accepting
    /// throughout or nowhere, so that a run is accepted exactly when it ends in an accepting
    /// part (Bloem, Ravi and Somenzi, 1999). The negations of the common properties, `[]<>p`
    /// and `[](p -> <>q)` among them, have weak automata; for them an accepting cycle of a
    /// product is any cycle through an accepting state, and one depth-first search finds it
    /// (no nested search). Edges that no state can take are left out.
    pub fn is_weak(&self) -> bool {
        let reach = self.reachability();
        (0..self.states.len()).all(|a| {
            (0..self.states.len()).all(|b| {
                !(reach[a][b] && reach[b][a])
                    || self.states[a].accepting == self.states[b].accepting
            })
        })
    }

    /// For each state, the states reached from it by one edge or more.
    fn reachability(&self) -> Vec<Vec<bool>> {
        let n = self.states.len();
        (0..n)
            .map(|from| {
                let mut reached = vec![false; n];
                let mut stack = vec![from];
                while let Some(state) = stack.pop() {
                    for edge in self.states[state].edges.iter() {
                        let to = edge.to as usize;
                        let possible = edge.positive & edge.negative == 0;
                        if possible && to < n && !reached[to] {
                            reached[to] = true;
                            stack.push(to);
                        }
                    }
                }
                reached
            })
            .collect()
    }
}
