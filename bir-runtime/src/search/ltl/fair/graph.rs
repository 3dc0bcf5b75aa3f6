//! The product as the fair-cycle search sees it: its edges, each with the marks it collects
//! (the property's acceptance and the instance that steps), and the searches within a set
//! of its states that find a component's fair cycle: strongly connected components,
//! breadth-first paths, a cycle through every mark needed.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet, VecDeque};

use crate::model::{Model, Outcome, Successor, TransitionId, STUTTER};
use crate::plan::Fairness;
use crate::search::ltl::product::{Product, Scratch};
use crate::store::FixedHasher;

use super::marks::Marks;
use super::ProductState;

/// The edges and marks of the product, for one fairness.
pub(super) struct Graph<'a, M: Model> {
    pub(super) product: &'a Product<'a, M>,
    pub(super) fairness: Fairness,
    /// Instances of the model, and the instance of each transition.
    pub(super) instances: usize,
    /// The instances each transition is a step of: its own, and a rendezvous partner's
    /// (the same twice for a step of one instance).
    pub(super) instance_of: Vec<(usize, usize)>,
    /// The mark of every instance.
    pub(super) every_instance: Marks,
    /// The buffers of one expansion, reused: the product's own sit behind a lock, and the
    /// enabled transitions would be a new `Vec` per state.
    pub(super) buffers: RefCell<(Scratch<M::State>, Vec<TransitionId>)>,
}

impl<M: Model> Graph<'_, M> {
    pub(super) fn bits(&self) -> usize {
        1 + self.instances
    }

    /// The steps of `state` and what every edge from it carries besides the instance that
    /// steps: the property's mark if `state` is accepting; under weak fairness the marks of
    /// the instances disabled in `state`. Also the instances enabled there.
    pub(super) fn expand(
        &self,
        state: &ProductState<M>,
        out: &mut Vec<Successor<ProductState<M>>>,
    ) -> (Marks, Marks) {
        let mut buffers = self.buffers.borrow_mut();
        let (scratch, enabled_transitions) = &mut *buffers;
        enabled_transitions.clear();
        self.product
            .successors_and_enabled(state, out, enabled_transitions, scratch);
        let mut enabled = Marks::empty(self.bits());
        for &transition in enabled_transitions.iter() {
            if let Some(&(instance, partner)) = self.instance_of.get(transition as usize) {
                enabled.set(1 + instance);
                enabled.set(1 + partner);
            }
        }
        let mut base = match self.fairness {
            Fairness::Weak => {
                let mut disabled = self.every_instance.clone();
                disabled.remove(&enabled);
                disabled
            }
            _ => Marks::empty(self.bits()),
        };
        if self.product.is_accepting(state) {
            base.set(0);
        }
        (base, enabled)
    }

    /// The steps of `state`, without their marks: those of a frame whose marks are known.
    pub(super) fn steps(&self, state: &ProductState<M>, out: &mut Vec<Successor<ProductState<M>>>) {
        let mut buffers = self.buffers.borrow_mut();
        self.product.successors_with(state, out, &mut buffers.0);
    }

    /// The marks of the edge by `transition` from a state whose edges carry `base`.
    pub(super) fn edge(&self, base: &Marks, transition: TransitionId) -> Marks {
        let mut marks = base.clone();
        self.mark_step(&mut marks, transition);
        marks
    }

    /// Adds to `marks` the mark of the instance that `transition` is a step of (none for a
    /// stutter).
    #[inline]
    pub(super) fn mark_step(&self, marks: &mut Marks, transition: TransitionId) {
        if transition != STUTTER {
            if let Some(&(instance, partner)) = self.instance_of.get(transition as usize) {
                marks.set(1 + instance);
                marks.set(1 + partner);
            }
        }
    }

    /// The edges from `state` that stay in `inside`, with their marks.
    pub(super) fn edges_within(
        &self,
        state: &ProductState<M>,
        inside: &HashSet<ProductState<M>, FixedHasher>,
    ) -> Vec<(TransitionId, ProductState<M>, Marks)> {
        let mut successors = Vec::new();
        let (base, _) = self.expand(state, &mut successors);
        successors
            .into_iter()
            .filter_map(|s| match s.outcome {
                Outcome::Next(next) if inside.contains(&next) => {
                    let marks = self.edge(&base, s.transition);
                    Some((s.transition, next, marks))
                }
                _ => None,
            })
            .collect()
    }

    /// A path inside `inside` from `from` through an edge of every mark of `needed`, back
    /// to `from`, of at least one step: the cycle of a lasso. Breadth-first searches, one
    /// per mark still needed.
    pub(super) fn cycle(
        &self,
        inside: &HashSet<ProductState<M>, FixedHasher>,
        from: &ProductState<M>,
        needed: &Marks,
    ) -> Option<Vec<(TransitionId, ProductState<M>)>> {
        let mut needed = needed.clone();
        let mut path = Vec::new();
        let mut current = from.clone();
        while !needed.is_empty() {
            let (steps, marks) = self.search(inside, &current, |_, marks| marks.meets(&needed))?;
            needed.remove(&marks);
            current = steps.last()?.1.clone();
            path.extend(steps);
        }
        if path.is_empty() || current != *from {
            let (steps, _) = self.search(inside, &current, |next, _| next == from)?;
            path.extend(steps);
        }
        Some(path)
    }

    /// The shortest path of at least one edge inside `inside` from `from` whose last edge
    /// (into a state, with its marks) satisfies `goal`, with the marks of all its edges.
    #[allow(clippy::type_complexity)]
    pub(super) fn search(
        &self,
        inside: &HashSet<ProductState<M>, FixedHasher>,
        from: &ProductState<M>,
        goal: impl Fn(&ProductState<M>, &Marks) -> bool,
    ) -> Option<(Vec<(TransitionId, ProductState<M>)>, Marks)> {
        let mut parent: HashMap<
            ProductState<M>,
            (ProductState<M>, TransitionId, Marks),
            FixedHasher,
        > = HashMap::with_hasher(FixedHasher);
        let mut queue = VecDeque::from([from.clone()]);
        let mut visited: HashSet<ProductState<M>, FixedHasher> = HashSet::with_hasher(FixedHasher);
        visited.insert(from.clone());
        while let Some(state) = queue.pop_front() {
            for (transition, next, marks) in self.edges_within(&state, inside) {
                if goal(&next, &marks) {
                    // Walk back from `state` to `from`.
                    let mut steps = vec![(transition, next)];
                    let mut all = marks;
                    let mut at = state.clone();
                    while at != *from {
                        let Some((before, via, edge_marks)) = parent.get(&at) else {
                            break;
                        };
                        steps.push((*via, at.clone()));
                        all.add(edge_marks);
                        at = before.clone();
                    }
                    steps.reverse();
                    return Some((steps, all));
                }
                if visited.insert(next.clone()) {
                    parent.insert(next.clone(), (state.clone(), transition, marks));
                    queue.push_back(next);
                }
            }
        }
        None
    }
}

/// The strongly connected components of the product restricted to `states` that hold a
/// cycle (more than one state, or a state with a step to itself): Tarjan's, iteratively.
pub(super) fn components<M: Model>(
    product: &Product<'_, M>,
    states: &[ProductState<M>],
) -> Vec<Vec<ProductState<M>>> {
    let number: HashMap<&ProductState<M>, usize, FixedHasher> = states
        .iter()
        .enumerate()
        .map(|(i, s)| (s, i))
        .collect::<HashMap<_, _, _>>();
    let edges: Vec<Vec<usize>> = states
        .iter()
        .map(|state| {
            let mut successors = Vec::new();
            product.successors(state, &mut successors);
            successors
                .iter()
                .filter_map(|s| match &s.outcome {
                    Outcome::Next(next) => number.get(next).copied(),
                    Outcome::Fault(_) => None,
                })
                .collect()
        })
        .collect();
    let count = states.len();
    const NONE: usize = usize::MAX;
    let (mut index, mut low) = (vec![NONE; count], vec![0; count]);
    let (mut stack, mut on_stack) = (Vec::new(), vec![false; count]);
    let mut next_index = 0;
    let mut found = Vec::new();
    for root in 0..count {
        if index[root] != NONE {
            continue;
        }
        let mut frames = vec![(root, 0)];
        index[root] = next_index;
        low[root] = next_index;
        next_index += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (node, ref mut position)) = frames.last_mut() {
            if let Some(&next) = edges[node].get(*position) {
                *position += 1;
                if index[next] == NONE {
                    index[next] = next_index;
                    low[next] = next_index;
                    next_index += 1;
                    stack.push(next);
                    on_stack[next] = true;
                    frames.push((next, 0));
                } else if on_stack[next] {
                    low[node] = low[node].min(index[next]);
                }
                continue;
            }
            frames.pop();
            if let Some(&(parent, _)) = frames.last() {
                low[parent] = low[parent].min(low[node]);
            }
            if low[node] == index[node] {
                let mut members = Vec::new();
                while let Some(member) = stack.pop() {
                    on_stack[member] = false;
                    members.push(member);
                    if member == node {
                        break;
                    }
                }
                let cyclic = members.len() > 1 || edges[node].contains(&node);
                if cyclic {
                    found.push(members.into_iter().map(|m| states[m].clone()).collect());
                }
            }
        }
    }
    found
}
