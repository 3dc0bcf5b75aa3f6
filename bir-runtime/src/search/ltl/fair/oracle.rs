//! A second answer to the searches' question, for products too large for brute force: the
//! whole product built first, then decomposed into strongly connected components, each
//! tested for a fair accepting cycle as the definitions say (strong fairness by removing
//! the states where an instance that never steps is enabled, and decomposing again). It
//! shares the product with the searches and nothing else: no search order, no marks, no
//! search numbers. The tests hold the searches against it on random graphs, and the
//! differential tests on random models through [`crate::oracle`].

use std::collections::{HashMap, HashSet};
use std::fmt::Debug;
use std::hash::Hash;

use crate::model::{Model, Outcome, STUTTER};
use crate::plan::Fairness;
use crate::search::ltl::product::Product;

/// The reachable product of a model with one of its properties, as plain adjacency lists.
pub(crate) struct ProductGraph<S> {
    /// Each reachable product state.
    pub(crate) states: Vec<(S, u32)>,
    /// The edges leaving each state: the transition and the index of the target.
    pub(crate) edges: Vec<Vec<(u32, usize)>>,
    /// Whether each state is accepting.
    pub(crate) accepting: Vec<bool>,
    /// The instances enabled at each state (those with a step out of its model state).
    pub(crate) enabled: Vec<HashSet<u32>>,
    /// Every instance of the model.
    pub(crate) instances: HashSet<u32>,
    /// The instances each transition of the model is a step of (its own, and a rendezvous
    /// partner's, the same twice for a step of one instance).
    instance_of: Vec<(u32, u32)>,
}

impl<S: Clone + Eq + Hash + Send + Sync + Debug + 'static> ProductGraph<S> {
    /// Explores the product of `model` with its property `property` from its initial
    /// states: `None` when it has more than `limit` states, or a step or a proposition
    /// that faults, or a state that fails an invariant (which a search reports before it
    /// answers about the property).
    pub(crate) fn new<M: Model<State = S>>(
        model: &M,
        property: usize,
        limit: usize,
    ) -> Option<ProductGraph<S>> {
        let product = Product::new(model, property);
        let instance_of: Vec<(u32, u32)> = model
            .info()
            .transitions
            .iter()
            .map(|t| (t.instance, t.partner.map_or(t.instance, |p| p.instance)))
            .collect();
        let mut index: HashMap<(S, u32), usize> = HashMap::new();
        let mut states: Vec<(S, u32)> = Vec::new();
        let mut intern = |state: (S, u32), states: &mut Vec<(S, u32)>| -> Option<usize> {
            if let Some(&i) = index.get(&state) {
                return Some(i);
            }
            if states.len() >= limit {
                return None;
            }
            index.insert(state.clone(), states.len());
            states.push(state);
            Some(states.len() - 1)
        };
        for state in product.initial_states().ok()? {
            intern(state, &mut states)?;
        }
        let (mut edges, mut enabled) = (Vec::new(), Vec::new());
        let (mut successors, mut steps) = (Vec::new(), Vec::new());
        while edges.len() < states.len() {
            let state = states[edges.len()].clone();
            if model.check_invariants(&state.0).is_err() {
                return None;
            }
            successors.clear();
            product.successors(&state, &mut successors);
            let mut out = Vec::new();
            for successor in successors.drain(..) {
                match successor.outcome {
                    Outcome::Next(next) => {
                        out.push((successor.transition, intern(next, &mut states)?));
                    }
                    Outcome::Fault(_) => return None,
                }
            }
            edges.push(out);
            steps.clear();
            model.successors(&state.0, &mut steps);
            enabled.push(
                steps
                    .iter()
                    .flat_map(|s| {
                        let (instance, partner) = instance_of[s.transition as usize];
                        [instance, partner]
                    })
                    .collect(),
            );
        }
        Some(ProductGraph {
            accepting: states.iter().map(|s| product.is_accepting(s)).collect(),
            states,
            edges,
            enabled,
            instances: instance_of.iter().flat_map(|&(i, p)| [i, p]).collect(),
            instance_of,
        })
    }

    /// The instances that take `transition` (none for a stutter step; two for a
    /// rendezvous).
    pub(crate) fn instances_of(&self, transition: u32) -> impl Iterator<Item = u32> {
        let pair = (transition != STUTTER).then(|| self.instance_of[transition as usize]);
        pair.into_iter()
            .flat_map(|(instance, partner)| [instance, partner])
    }

    /// Whether the product holds a fair accepting cycle under `fairness`.
    pub(crate) fn has_fair_accepting_cycle(&self, fairness: Fairness) -> bool {
        let all: Vec<usize> = (0..self.states.len()).collect();
        self.fair_within(&all, fairness)
    }

    /// Whether the states `within` hold a fair accepting cycle through their own edges.
    fn fair_within(&self, within: &[usize], fairness: Fairness) -> bool {
        self.components(within).into_iter().any(|component| {
            let mut inside = vec![false; self.states.len()];
            for &i in &component {
                inside[i] = true;
            }
            let internal: Vec<u32> = component
                .iter()
                .flat_map(|&i| self.edges[i].iter().filter(|&&(_, k)| inside[k]))
                .map(|&(t, _)| t)
                .collect();
            if internal.is_empty() || !component.iter().any(|&i| self.accepting[i]) {
                return false;
            }
            let steps: HashSet<u32> = internal
                .iter()
                .flat_map(|&t| self.instances_of(t))
                .collect();
            match fairness {
                Fairness::None => true,
                // The whole component is the best candidate: every cycle inside it passes
                // through fewer steps and fewer states where an instance is disabled.
                Fairness::Weak => self.instances.iter().all(|instance| {
                    steps.contains(instance)
                        || component
                            .iter()
                            .any(|&i| !self.enabled[i].contains(instance))
                }),
                // No fair cycle passes through a state where an instance that never steps
                // in the component is enabled: without those states, decompose again.
                Fairness::Strong => {
                    let starved: Vec<u32> = self
                        .instances
                        .iter()
                        .copied()
                        .filter(|instance| {
                            !steps.contains(instance)
                                && component
                                    .iter()
                                    .any(|&i| self.enabled[i].contains(instance))
                        })
                        .collect();
                    if starved.is_empty() {
                        return true;
                    }
                    let rest: Vec<usize> = component
                        .iter()
                        .copied()
                        .filter(|&i| starved.iter().all(|s| !self.enabled[i].contains(s)))
                        .collect();
                    self.fair_within(&rest, fairness)
                }
            }
        })
    }

    /// The strongly connected components of the states `within`, through their own edges
    /// (Kosaraju: the states in the order a depth-first search along the edges finishes
    /// them, then, latest first, what each reaches against the edges).
    fn components(&self, within: &[usize]) -> Vec<Vec<usize>> {
        let n = self.states.len();
        let mut member = vec![false; n];
        for &i in within {
            member[i] = true;
        }
        let mut reverse: Vec<Vec<usize>> = vec![Vec::new(); n];
        for &u in within {
            for &(_, v) in &self.edges[u] {
                if member[v] {
                    reverse[v].push(u);
                }
            }
        }
        let mut visited = vec![false; n];
        let mut finished = Vec::with_capacity(within.len());
        for &root in within {
            if visited[root] {
                continue;
            }
            visited[root] = true;
            let mut stack = vec![(root, 0)];
            while let Some(&mut (u, ref mut next)) = stack.last_mut() {
                match self.edges[u].get(*next) {
                    Some(&(_, v)) => {
                        *next += 1;
                        if member[v] && !visited[v] {
                            visited[v] = true;
                            stack.push((v, 0));
                        }
                    }
                    None => {
                        finished.push(u);
                        stack.pop();
                    }
                }
            }
        }
        let mut assigned = vec![false; n];
        let mut components = Vec::new();
        for &root in finished.iter().rev() {
            if assigned[root] {
                continue;
            }
            assigned[root] = true;
            let (mut component, mut work) = (vec![root], vec![root]);
            while let Some(u) = work.pop() {
                for &v in &reverse[u] {
                    if !assigned[v] {
                        assigned[v] = true;
                        component.push(v);
                        work.push(v);
                    }
                }
            }
            components.push(component);
        }
        components
    }
}
