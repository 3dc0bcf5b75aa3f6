//! A second answer to the searches' question, for graphs too large for brute force: the
//! whole product built first, then decomposed into strongly connected components, each
//! tested for a fair accepting cycle as the definitions say (strong fairness by removing
//! the states where an instance that never steps is enabled, and decomposing again). It
//! shares the product with the searches and nothing else: no search order, no marks, no
//! search numbers.

use std::collections::HashSet;

use super::super::product::Product;
use crate::model::{Model, Outcome, STUTTER};
use crate::property::Fairness;
use crate::test_models::Graph;

/// The reachable product of a graph with its property 0, as plain adjacency lists.
pub(super) struct ProductGraph {
    /// Each reachable product state.
    pub(super) states: Vec<(u8, u32)>,
    /// The edges leaving each state: the transition and the index of the target.
    pub(super) edges: Vec<Vec<(u32, usize)>>,
    /// Whether each state is accepting.
    pub(super) accepting: Vec<bool>,
    /// The instances enabled at each state (those with a step out of its graph node).
    pub(super) enabled: Vec<HashSet<u32>>,
    /// Every instance of the graph.
    pub(super) instances: HashSet<u32>,
    /// The instance of each transition of the graph.
    instance_of: Vec<u32>,
}

impl ProductGraph {
    /// Explores the product of `graph` with its property 0 from its initial states.
    pub(super) fn new(graph: &Graph) -> ProductGraph {
        let product = Product::new(graph, 0);
        let instance_of: Vec<u32> = graph
            .info()
            .transitions
            .iter()
            .map(|t| t.instance)
            .collect();
        let mut states: Vec<(u8, u32)> = Vec::new();
        let mut work = product.initial_states().unwrap_or_default();
        let mut successors = Vec::new();
        while let Some(state) = work.pop() {
            if states.contains(&state) {
                continue;
            }
            successors.clear();
            product.successors(&state, &mut successors);
            work.extend(successors.iter().filter_map(|s| match s.outcome {
                Outcome::Next(next) => Some(next),
                Outcome::Fault(_) => None,
            }));
            states.push(state);
        }
        let edges = states
            .iter()
            .map(|state| {
                successors.clear();
                product.successors(state, &mut successors);
                successors
                    .iter()
                    .filter_map(|s| match s.outcome {
                        Outcome::Next(next) => {
                            Some((s.transition, states.iter().position(|x| *x == next)?))
                        }
                        Outcome::Fault(_) => None,
                    })
                    .collect()
            })
            .collect();
        let enabled = states
            .iter()
            .map(|(node, _)| {
                let mut steps = Vec::new();
                graph.successors(node, &mut steps);
                steps
                    .iter()
                    .map(|s| instance_of[s.transition as usize])
                    .collect()
            })
            .collect();
        ProductGraph {
            accepting: states.iter().map(|s| product.is_accepting(s)).collect(),
            states,
            edges,
            enabled,
            instances: instance_of.iter().copied().collect(),
            instance_of,
        }
    }

    /// The instance that takes `transition` (`None` for a stutter step).
    pub(super) fn instance(&self, transition: u32) -> Option<u32> {
        (transition != STUTTER).then(|| self.instance_of[transition as usize])
    }

    /// Whether the product holds a fair accepting cycle under `fairness`.
    pub(super) fn has_fair_accepting_cycle(&self, fairness: Fairness) -> bool {
        let all: Vec<usize> = (0..self.states.len()).collect();
        self.fair_within(&all, fairness)
    }

    /// Whether the states `within` hold a fair accepting cycle through their own edges.
    fn fair_within(&self, within: &[usize], fairness: Fairness) -> bool {
        self.components(within).into_iter().any(|component| {
            let inside = |i: usize| component.contains(&i);
            let internal: Vec<u32> = component
                .iter()
                .flat_map(|&i| self.edges[i].iter().filter(|&&(_, k)| inside(k)))
                .map(|&(t, _)| t)
                .collect();
            if internal.is_empty() || !component.iter().any(|&i| self.accepting[i]) {
                return false;
            }
            let steps: HashSet<u32> = internal.iter().filter_map(|&t| self.instance(t)).collect();
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

    /// The strongly connected components of the states `within`, through their own edges:
    /// two states are in one component when each reaches the other (by reachability sets;
    /// the graphs are small).
    fn components(&self, within: &[usize]) -> Vec<Vec<usize>> {
        let reach = |from: usize, forward: bool| -> HashSet<usize> {
            let mut seen = HashSet::from([from]);
            let mut work = vec![from];
            while let Some(at) = work.pop() {
                for &u in within {
                    for &(_, v) in &self.edges[u] {
                        let (source, target) = if forward { (u, v) } else { (v, u) };
                        if source == at && within.contains(&target) && seen.insert(target) {
                            work.push(target);
                        }
                    }
                }
            }
            seen
        };
        let mut assigned = HashSet::new();
        let mut components = Vec::new();
        for &state in within {
            if assigned.contains(&state) {
                continue;
            }
            let (forward, backward) = (reach(state, true), reach(state, false));
            let component: Vec<usize> = within
                .iter()
                .copied()
                .filter(|i| forward.contains(i) && backward.contains(i))
                .collect();
            assigned.extend(component.iter().copied());
            components.push(component);
        }
        components
    }
}
