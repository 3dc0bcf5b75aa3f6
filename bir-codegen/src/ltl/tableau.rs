//! The tableau of Gerth, Peled, Vardi and Wolper ("Simple on-the-fly automatic verification
//! of linear temporal logic", 1995): a formula in negation normal form becomes a generalized
//! Büchi automaton whose states are sets of subformulas that hold now (`old`) and in the
//! next state (`next`). A state is labelled with the propositions its `old` set requires;
//! each `f U g` gives one acceptance set, the states that do not postpone `g`. Two finished
//! nodes with one label, one acceptance and one `next` are one state (they accept the same
//! runs), and a disjunction that already holds is not split: the refinements that keep
//! the tableau small.

use std::collections::{BTreeSet, HashMap};

use super::nnf::Nnf;
use super::{TranslateError, MAX_STATES};

/// A subformula, by its number in the [`Closure`].
type Sub = usize;

/// The subformulas of a formula, each numbered once.
struct Closure {
    nodes: Vec<Node>,
    numbers: HashMap<Node, Sub>,
}

/// One subformula, over the numbers of its operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Node {
    True,
    False,
    Lit(u32, bool),
    And(Sub, Sub),
    Or(Sub, Sub),
    Next(Sub),
    Until(Sub, Sub),
    Release(Sub, Sub),
}

impl Closure {
    fn number(&mut self, formula: &Nnf) -> Sub {
        let node = match formula {
            Nnf::True => Node::True,
            Nnf::False => Node::False,
            Nnf::Lit(n, positive) => Node::Lit(*n, *positive),
            Nnf::And(f, g) => Node::And(self.number(f), self.number(g)),
            Nnf::Or(f, g) => Node::Or(self.number(f), self.number(g)),
            Nnf::Next(f) => Node::Next(self.number(f)),
            Nnf::Until(f, g) => Node::Until(self.number(f), self.number(g)),
            Nnf::Release(f, g) => Node::Release(self.number(f), self.number(g)),
        };
        if let Some(&number) = self.numbers.get(&node) {
            return number;
        }
        self.nodes.push(node);
        self.numbers.insert(node, self.nodes.len() - 1);
        self.nodes.len() - 1
    }
}

/// A generalized Büchi automaton with labelled states.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gba {
    /// Per state: the propositions that must be true (bit `n` for proposition `n`) and those
    /// that must be false where the run is in that state.
    pub labels: Vec<(u64, u64)>,
    /// Per state, the states that may follow it.
    pub successors: Vec<Vec<usize>>,
    /// The states a run may start in.
    pub initial: Vec<usize>,
    /// Per acceptance set, its states: an accepting run visits every set infinitely often.
    pub acceptance: Vec<Vec<bool>>,
}

/// A tableau node being expanded.
#[derive(Clone, Debug)]
struct Pending {
    /// States it may follow; `None` stands for the start.
    incoming: BTreeSet<Option<usize>>,
    new: BTreeSet<Sub>,
    old: BTreeSet<Sub>,
    next: BTreeSet<Sub>,
}

/// A finished tableau state: where it may follow from, its label and acceptance (see
/// [`summary`]).
struct State {
    incoming: BTreeSet<Option<usize>>,
    label: (u64, u64),
    accepting: Vec<bool>,
}

/// What identifies a finished state: two nodes with the same label, acceptance and
/// obligations for the next state accept the same runs, whatever else they hold now.
type Key = ((u64, u64), Vec<bool>, BTreeSet<Sub>);

impl Gba {
    /// The automaton of the runs that satisfy `formula`, or [`TranslateError::TooLarge`] past
    /// [`MAX_STATES`] states.
    pub fn from_nnf(formula: &Nnf) -> Result<Gba, TranslateError> {
        let mut closure = Closure {
            nodes: Vec::new(),
            numbers: HashMap::new(),
        };
        let root = closure.number(formula);
        let states = expand(&closure, root)?;
        Ok(Gba::from_states(states))
    }

    fn from_states(states: Vec<State>) -> Gba {
        let mut labels = Vec::with_capacity(states.len());
        let mut successors = vec![Vec::new(); states.len()];
        let mut initial = Vec::new();
        let sets = states.first().map_or(0, |s| s.accepting.len());
        let mut acceptance = vec![Vec::with_capacity(states.len()); sets];
        for (number, state) in states.into_iter().enumerate() {
            labels.push(state.label);
            for (set, &member) in acceptance.iter_mut().zip(&state.accepting) {
                set.push(member);
            }
            for from in state.incoming {
                match from {
                    Some(from) => successors[from].push(number),
                    None => initial.push(number),
                }
            }
        }
        for list in &mut successors {
            list.sort_unstable();
            list.dedup();
        }
        Gba {
            labels,
            successors,
            initial,
            acceptance,
        }
    }
}

/// What a finished tableau node means for the automaton: its label (the propositions that
/// must be true, and false) and, per `f U g` of the closure, whether it is in that
/// acceptance set (`f U g` is not promised, or `g` holds).
fn summary(closure: &Closure, old: &BTreeSet<Sub>) -> ((u64, u64), Vec<bool>) {
    let (mut positive, mut negative) = (0u64, 0u64);
    for &sub in old {
        if let Node::Lit(n, is_positive) = closure.nodes[sub] {
            if is_positive {
                positive |= 1 << n;
            } else {
                negative |= 1 << n;
            }
        }
    }
    let accepting = closure
        .nodes
        .iter()
        .enumerate()
        .filter_map(|(sub, node)| match *node {
            Node::Until(_, g) => Some(!old.contains(&sub) || old.contains(&g)),
            _ => None,
        })
        .collect();
    ((positive, negative), accepting)
}

/// True when `node` (an `||`, `U` or `R` over `f` and `g`) holds in any state where the
/// subformulas `old` hold, without obligations on the next state.
fn satisfied(node: Node, f: Sub, g: Sub, old: &BTreeSet<Sub>) -> bool {
    match node {
        Node::Or(..) => old.contains(&f) || old.contains(&g),
        Node::Until(..) => old.contains(&g),
        Node::Release(..) => old.contains(&f) && old.contains(&g),
        _ => false,
    }
}

/// The GPVW expansion, with an explicit stack of pending nodes.
fn expand(closure: &Closure, root: Sub) -> Result<Vec<State>, TranslateError> {
    let mut states: Vec<State> = Vec::new();
    let mut known: HashMap<Key, usize> = HashMap::new();
    let mut pending = vec![Pending {
        incoming: BTreeSet::from([None]),
        new: BTreeSet::from([root]),
        old: BTreeSet::new(),
        next: BTreeSet::new(),
    }];
    let mut steps = 0usize;
    while let Some(mut node) = pending.pop() {
        steps += 1;
        if states.len() > MAX_STATES || steps > 64 * MAX_STATES {
            return Err(TranslateError::TooLarge);
        }
        let Some(&sub) = node.new.iter().next() else {
            // Fully expanded: merge with an equal state, or add it and expand its successor.
            let (label, accepting) = summary(closure, &node.old);
            let key = (label, accepting.clone(), node.next.clone());
            if let Some(&known) = known.get(&key) {
                states[known].incoming.extend(node.incoming);
                continue;
            }
            known.insert(key, states.len());
            states.push(State {
                incoming: node.incoming,
                label,
                accepting,
            });
            pending.push(Pending {
                incoming: BTreeSet::from([Some(states.len() - 1)]),
                new: node.next,
                old: BTreeSet::new(),
                next: BTreeSet::new(),
            });
            continue;
        };
        node.new.remove(&sub);
        if node.old.contains(&sub) {
            pending.push(node);
            continue;
        }
        let add_new = |node: &mut Pending, subs: &[Sub]| {
            for &s in subs {
                if !node.old.contains(&s) {
                    node.new.insert(s);
                }
            }
        };
        match closure.nodes[sub] {
            Node::False => {}
            Node::True => {
                node.old.insert(sub);
                pending.push(node);
            }
            Node::Lit(n, positive) => {
                let opposite = closure.numbers.get(&Node::Lit(n, !positive));
                if opposite.is_some_and(|o| node.old.contains(o)) {
                    continue;
                }
                node.old.insert(sub);
                pending.push(node);
            }
            Node::And(f, g) => {
                add_new(&mut node, &[f, g]);
                node.old.insert(sub);
                pending.push(node);
            }
            Node::Next(f) => {
                node.next.insert(f);
                node.old.insert(sub);
                pending.push(node);
            }
            Node::Or(f, g) | Node::Until(f, g) | Node::Release(f, g)
                if satisfied(closure.nodes[sub], f, g, &node.old) =>
            {
                // A branch holds already: no need to split (the GPVW+ refinement).
                node.old.insert(sub);
                pending.push(node);
            }
            Node::Or(f, g) | Node::Until(f, g) | Node::Release(f, g) => {
                let mut first = node.clone();
                let mut second = node;
                // Or: f now, or g now. Until: f now and f U g next, or g now.
                // Release: g now and f R g next, or f and g now.
                match closure.nodes[sub] {
                    Node::Or(..) => {
                        add_new(&mut first, &[f]);
                        add_new(&mut second, &[g]);
                    }
                    Node::Until(..) => {
                        add_new(&mut first, &[f]);
                        first.next.insert(sub);
                        add_new(&mut second, &[g]);
                    }
                    _ => {
                        add_new(&mut first, &[g]);
                        first.next.insert(sub);
                        add_new(&mut second, &[f, g]);
                    }
                }
                first.old.insert(sub);
                second.old.insert(sub);
                pending.push(second);
                pending.push(first);
            }
        }
    }
    Ok(states)
}
