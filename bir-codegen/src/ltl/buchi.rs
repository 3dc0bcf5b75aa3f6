//! From the generalized tableau to the Büchi automaton the checker runs: degeneralized with
//! a counter over the acceptance sets (advanced greedily), pruned of the states from which
//! no accepting cycle can be reached, and with bisimilar states merged. The result has a
//! start state 0 and edges guarded by the propositions of the state a run enters.

use std::collections::HashMap;

use super::tableau::Gba;
use super::{TranslateError, MAX_STATES};

/// An edge of an [`Automaton`]: taken into `to` when the model state the run enters makes
/// every proposition of `positive` true and every one of `negative` false (bit `n` for
/// proposition `n`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Edge {
    /// The state entered.
    pub to: u32,
    /// Propositions that must be true.
    pub positive: u64,
    /// Propositions that must be false.
    pub negative: u64,
}

impl Edge {
    /// True when the propositions `props` (bit `n` for proposition `n`) allow the edge.
    pub fn allows(&self, props: u64) -> bool {
        props & self.positive == self.positive && props & self.negative == 0
    }
}

/// A Büchi automaton over the states of a run: state 0 is the start (the automaton is in it
/// before the initial model state); a run is accepted when it can pass through accepting
/// states infinitely often. Without any edge from state 0 it accepts nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Automaton {
    /// Per state, whether it is accepting.
    pub accepting: Vec<bool>,
    /// Per state, its edges, by target.
    pub edges: Vec<Vec<Edge>>,
}

/// A state-labelled Büchi automaton: the degeneralized tableau.
struct Labelled {
    labels: Vec<(u64, u64)>,
    successors: Vec<Vec<usize>>,
    initial: Vec<usize>,
    accepting: Vec<bool>,
}

impl Automaton {
    /// The automaton of `gba`, degeneralized and reduced.
    pub fn from_gba(gba: &Gba) -> Result<Automaton, TranslateError> {
        let labelled = degeneralize(gba)?;
        let labelled = prune(&labelled);
        Ok(merge_edges(&merge(&labelled)))
    }

    /// The states entered from `state` when the run enters a model state with propositions
    /// `props`.
    pub fn step(&self, state: usize, props: u64) -> impl Iterator<Item = usize> + '_ {
        self.edges[state]
            .iter()
            .filter(move |edge| edge.allows(props))
            .map(|edge| edge.to as usize)
    }

    /// The number of states, the start included.
    pub fn len(&self) -> usize {
        self.accepting.len()
    }

    /// True when the automaton accepts nothing.
    pub fn is_empty(&self) -> bool {
        self.edges[0].is_empty()
    }
}

/// The counter construction: state `(n, j)` waits for acceptance set `j`; a state that
/// completes the round (it is in every set from `j` on) is accepting and resets the counter.
fn degeneralize(gba: &Gba) -> Result<Labelled, TranslateError> {
    let sets = gba.acceptance.len();
    let advance = |n: usize, mut j: usize| {
        while j < sets && gba.acceptance[j][n] {
            j += 1;
        }
        j
    };
    let mut numbers: HashMap<(usize, usize), usize> = HashMap::new();
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    let mut number = |pair: (usize, usize), pairs: &mut Vec<(usize, usize)>| {
        *numbers.entry(pair).or_insert_with(|| {
            pairs.push(pair);
            pairs.len() - 1
        })
    };
    let initial: Vec<usize> = gba
        .initial
        .iter()
        .map(|&n| number((n, 0), &mut pairs))
        .collect();
    let mut successors: Vec<Vec<usize>> = Vec::new();
    let mut accepting = Vec::new();
    let mut labels = Vec::new();
    let mut done = 0;
    while done < pairs.len() {
        if pairs.len() > MAX_STATES {
            return Err(TranslateError::TooLarge);
        }
        let (n, j) = pairs[done];
        let reached = advance(n, j);
        accepting.push(reached == sets);
        let counter = if reached == sets { 0 } else { reached };
        let next = gba.successors[n]
            .iter()
            .map(|&m| number((m, counter), &mut pairs))
            .collect();
        successors.push(next);
        labels.push(gba.labels[n]);
        done += 1;
    }
    Ok(Labelled {
        labels,
        successors,
        initial,
        accepting,
    })
}

/// Whether `state` lies on a cycle: it reaches itself by one edge or more.
fn on_cycle(successors: &[Vec<usize>], state: usize) -> bool {
    let mut reached = vec![false; successors.len()];
    let mut work = successors[state].clone();
    while let Some(next) = work.pop() {
        if next == state {
            return true;
        }
        if !reached[next] {
            reached[next] = true;
            work.extend(&successors[next]);
        }
    }
    false
}

/// Keeps the states from which an accepting cycle can be reached.
fn prune(automaton: &Labelled) -> Labelled {
    let count = automaton.successors.len();
    // An accepting cycle passes through an accepting state that reaches itself; the states
    // to keep are those that reach one (automata are small: a search from each accepting
    // state is cheap).
    let mut predecessors = vec![Vec::new(); count];
    for (state, list) in automaton.successors.iter().enumerate() {
        for &next in list {
            predecessors[next].push(state);
        }
    }
    let mut keep: Vec<bool> = (0..count)
        .map(|s| automaton.accepting[s] && on_cycle(&automaton.successors, s))
        .collect();
    let mut work: Vec<usize> = (0..count).filter(|&s| keep[s]).collect();
    while let Some(state) = work.pop() {
        for &before in &predecessors[state] {
            if !keep[before] {
                keep[before] = true;
                work.push(before);
            }
        }
    }
    let mut renumber = vec![usize::MAX; count];
    let mut kept = 0;
    for state in 0..count {
        if keep[state] {
            renumber[state] = kept;
            kept += 1;
        }
    }
    let moved = |list: &[usize]| -> Vec<usize> {
        list.iter()
            .filter(|&&s| keep[s])
            .map(|&s| renumber[s])
            .collect()
    };
    Labelled {
        labels: (0..count)
            .filter(|&s| keep[s])
            .map(|s| automaton.labels[s])
            .collect(),
        successors: (0..count)
            .filter(|&s| keep[s])
            .map(|s| moved(&automaton.successors[s]))
            .collect(),
        initial: moved(&automaton.initial),
        accepting: (0..count)
            .filter(|&s| keep[s])
            .map(|s| automaton.accepting[s])
            .collect(),
    }
}

/// Merges bisimilar states (same label, same acceptance, successors in the same blocks),
/// by partition refinement, and adds the start state.
fn merge(automaton: &Labelled) -> Automaton {
    let count = automaton.successors.len();
    let mut block: Vec<usize> = {
        let mut first: HashMap<((u64, u64), bool), usize> = HashMap::new();
        (0..count)
            .map(|s| {
                let key = (automaton.labels[s], automaton.accepting[s]);
                let fresh = first.len();
                *first.entry(key).or_insert(fresh)
            })
            .collect()
    };
    loop {
        let mut signatures: HashMap<(usize, Vec<usize>), usize> = HashMap::new();
        let refined: Vec<usize> = (0..count)
            .map(|s| {
                let mut targets: Vec<usize> =
                    automaton.successors[s].iter().map(|&t| block[t]).collect();
                targets.sort_unstable();
                targets.dedup();
                let fresh = signatures.len();
                *signatures.entry((block[s], targets)).or_insert(fresh)
            })
            .collect();
        let blocks = signatures.len();
        let before = block.iter().copied().max().map_or(0, |b| b + 1);
        block = refined;
        if blocks == before {
            break;
        }
    }
    let blocks = block.iter().copied().max().map_or(0, |b| b + 1);
    // State 0 is the start; block b is state b + 1.
    let mut accepting = vec![false; blocks + 1];
    let mut labels = vec![(0, 0); blocks + 1];
    let mut targets: Vec<Vec<usize>> = vec![Vec::new(); blocks + 1];
    for s in 0..count {
        let state = block[s] + 1;
        accepting[state] = automaton.accepting[s];
        labels[state] = automaton.labels[s];
        targets[state].extend(automaton.successors[s].iter().map(|&t| block[t] + 1));
    }
    targets[0].extend(automaton.initial.iter().map(|&t| block[t] + 1));
    let edges = targets
        .into_iter()
        .map(|mut list| {
            list.sort_unstable();
            list.dedup();
            list.into_iter()
                .map(|to| Edge {
                    to: to as u32,
                    positive: labels[to].0,
                    negative: labels[to].1,
                })
                .collect()
        })
        .collect();
    Automaton { accepting, edges }
}

/// What distinguishes a state in [`merge_edges`]: its block, and its edges as (target
/// block, guard).
type Signature = (usize, Vec<(usize, u64, u64)>);

/// Merges states with the same acceptance and the same edges (guards and target blocks),
/// by partition refinement on the automaton with guarded edges; the start's block stays 0.
fn merge_edges(automaton: &Automaton) -> Automaton {
    let count = automaton.len();
    let mut block: Vec<usize> = automaton
        .accepting
        .iter()
        .map(|&accepting| usize::from(accepting))
        .collect();
    loop {
        let mut signatures: HashMap<Signature, usize> = HashMap::new();
        let refined: Vec<usize> = (0..count)
            .map(|s| {
                let mut edges: Vec<(usize, u64, u64)> = automaton.edges[s]
                    .iter()
                    .map(|e| (block[e.to as usize], e.positive, e.negative))
                    .collect();
                edges.sort_unstable();
                edges.dedup();
                let fresh = signatures.len();
                *signatures.entry((block[s], edges)).or_insert(fresh)
            })
            .collect();
        let stable = signatures.len() == block.iter().copied().max().map_or(0, |b| b + 1);
        block = refined;
        if stable {
            break;
        }
    }
    // Number the blocks so that the start's is 0, the others in order of first state.
    let mut number = vec![usize::MAX; count];
    let mut blocks = 0;
    for s in 0..count {
        if number[block[s]] == usize::MAX {
            number[block[s]] = blocks;
            blocks += 1;
        }
    }
    let mut accepting = vec![false; blocks];
    let mut edges: Vec<Vec<Edge>> = vec![Vec::new(); blocks];
    for s in 0..count {
        let state = number[block[s]];
        accepting[state] = automaton.accepting[s];
        edges[state].extend(automaton.edges[s].iter().map(|e| Edge {
            to: number[block[e.to as usize]] as u32,
            ..*e
        }));
    }
    for list in &mut edges {
        list.sort_unstable();
        list.dedup();
    }
    Automaton { accepting, edges }
}

#[cfg(test)]
mod tests {
    use super::super::{translate, Formula};
    use super::*;

    #[test]
    fn cycles_are_found_without_recursion() {
        // 0 -> 1 -> 2 -> 1, 2 -> 3: 1 and 2 lie on a cycle, 0 and 3 on none; a ring of
        // 100,000 states does not overflow the stack.
        let graph = [vec![1], vec![2], vec![1, 3], vec![]];
        let on: Vec<bool> = (0..4).map(|s| on_cycle(&graph, s)).collect();
        assert_eq!(on, [false, true, true, false]);
        let ring: Vec<Vec<usize>> = (0..100_000).map(|s| vec![(s + 1) % 100_000]).collect();
        assert!(on_cycle(&ring, 0));
    }

    #[test]
    fn pruning_keeps_the_states_that_reach_an_accepting_cycle() {
        // 0 -> 1 -> 1 (1 accepting), 0 -> 2 (accepting, on no cycle), 2 -> 3 -> 3: 2 and 3
        // reach no accepting cycle.
        let automaton = Labelled {
            labels: vec![Default::default(); 4],
            successors: vec![vec![1, 2], vec![1], vec![3], vec![3]],
            initial: vec![0],
            accepting: vec![false, true, true, false],
        };
        let pruned = prune(&automaton);
        assert_eq!(pruned.successors, [vec![1], vec![1]]);
        assert_eq!(pruned.accepting, [false, true]);
        assert_eq!(pruned.initial, [0]);
    }

    #[test]
    fn small_formulas_give_small_automata() {
        let p = || Box::new(Formula::Atom(0));
        // []<>p: two states besides the start (p, and not p), one accepting.
        let gf = translate(&Formula::Always(Box::new(Formula::Eventually(p())))).unwrap();
        assert!(gf.len() <= 3, "{gf:?}");
        // <>[]p: from some point on p.
        let fg = translate(&Formula::Eventually(Box::new(Formula::Always(p())))).unwrap();
        assert!(fg.len() <= 3, "{fg:?}");
        // p && !p accepts nothing.
        let never = translate(&Formula::And(p(), Box::new(Formula::Not(p())))).unwrap();
        assert!(never.is_empty());
    }
}
