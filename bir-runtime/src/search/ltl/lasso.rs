//! Checking a lasso on its own, for [`Checker::replay`](crate::Checker::replay): the
//! property's automaton must accept the run it describes (the stem once, then the cycle
//! forever), and its cycle must be fair under the fairness asked for. This is independent
//! of the searches that find lassos, so a replay confirms what they report.

use std::collections::HashSet;

use crate::model::{Model, Outcome, TransitionId, STUTTER};
use crate::plan::Fairness;
use crate::trace::replay::Path;

/// The model states at the positions of a lasso: the initial state and the state after
/// each step but the last (which returns to the state at the cycle's start). `None` when a
/// step cannot be taken (the caller rebuilt the lasso first, which says why).
fn positions<M: Model>(model: &M, steps: &[TransitionId]) -> Option<Vec<M::State>> {
    let mut states = vec![model.initial_state()];
    let mut successors = Vec::new();
    for &transition in &steps[..steps.len().saturating_sub(1)] {
        let current = states.last()?;
        if transition == STUTTER {
            states.push(current.clone());
            continue;
        }
        successors.clear();
        model.successors(current, &mut successors);
        match successors
            .iter()
            .find(|s| s.transition == transition)
            .map(|s| &s.outcome)
        {
            Some(Outcome::Next(next)) => states.push(next.clone()),
            _ => return None,
        }
    }
    Some(states)
}

/// Why the lasso `path` does not violate LTL property `property` under `fairness`, or
/// `Ok` when it does: the automaton accepts its run, and its cycle is fair.
pub(crate) fn check<M: Model>(
    model: &M,
    property: usize,
    fairness: Fairness,
    path: &Path,
) -> Result<(), String> {
    let Some(cycle) = path.cycle else {
        return Err("it has no cycle".to_string());
    };
    let states = positions(model, &path.steps).ok_or("a step cannot be taken")?;
    let mut letters = Vec::with_capacity(states.len());
    for state in &states {
        letters.push(
            model
                .propositions(property, state)
                .map_err(|_| "evaluating the predicates faults")?,
        );
    }
    if !accepted(model, property, &letters, cycle) {
        return Err(
            "the property's automaton does not accept this run: it satisfies the formula".into(),
        );
    }
    fair(model, fairness, &states[cycle..], &path.steps[cycle..])
}

/// Whether the automaton of `property` accepts the lasso word: letters at positions 0..n,
/// position n - 1 followed by position `cycle`. Breadth-first over (automaton state,
/// position), then a search for an accepting pair on a cycle.
fn accepted<M: Model>(model: &M, property: usize, letters: &[u64], cycle: usize) -> bool {
    let count = letters.len();
    let next = |position: usize| {
        if position + 1 == count {
            cycle
        } else {
            position + 1
        }
    };
    let step = |q: u32, position: usize| {
        let mut entered = Vec::new();
        model.automaton_step(property, q, letters[position], &mut entered);
        entered
    };
    let accepting = |q: u32| match model.properties().get(property).map(|p| &p.kind) {
        Some(crate::model::PropertyKind::Ltl { automaton, .. }) => automaton.is_accepting(q),
        _ => false,
    };
    let successors = |(q, position): (u32, usize)| {
        let to = next(position);
        step(q, to).into_iter().map(move |q| (q, to))
    };
    let mut reached: HashSet<(u32, usize)> = HashSet::new();
    let mut work: Vec<(u32, usize)> = step(0, 0).into_iter().map(|q| (q, 0)).collect();
    while let Some(node) = work.pop() {
        if reached.insert(node) {
            work.extend(successors(node));
        }
    }
    reached.iter().any(|&node| {
        if !accepting(node.0) {
            return false;
        }
        let mut seen: HashSet<(u32, usize)> = HashSet::new();
        let mut work: Vec<(u32, usize)> = successors(node).collect();
        while let Some(other) = work.pop() {
            if other == node {
                return true;
            }
            if seen.insert(other) {
                work.extend(successors(other));
            }
        }
        false
    })
}

/// Whether a cycle (its states and steps) is fair: weakly, every instance steps in it or
/// is disabled at one of its states; strongly, every instance enabled at one of its
/// states steps in it.
fn fair<M: Model>(
    model: &M,
    fairness: Fairness,
    states: &[M::State],
    steps: &[TransitionId],
) -> Result<(), String> {
    if fairness == Fairness::None {
        return Ok(());
    }
    let info = model.info();
    // A rendezvous is a step of both its instances.
    let instances = |t: TransitionId| {
        info.transitions
            .get(t as usize)
            .into_iter()
            .flat_map(|t| [Some(t.instance), t.partner.map(|p| p.instance)])
            .flatten()
    };
    let stepping: HashSet<u32> = steps.iter().flat_map(|&t| instances(t)).collect();
    let mut successors = Vec::new();
    let enabled_at: Vec<HashSet<u32>> = states
        .iter()
        .map(|state| {
            successors.clear();
            model.successors(state, &mut successors);
            successors
                .iter()
                .flat_map(|s| instances(s.transition))
                .collect()
        })
        .collect();
    let all: HashSet<u32> = info.transitions.iter().map(|t| t.instance).collect();
    for &i in &all {
        let fair = match fairness {
            Fairness::Weak => stepping.contains(&i) || enabled_at.iter().any(|e| !e.contains(&i)),
            _ => stepping.contains(&i) || enabled_at.iter().all(|e| !e.contains(&i)),
        };
        if !fair {
            let name = info
                .transitions
                .iter()
                .find(|t| t.instance == i)
                .map_or("?", |t| &*t.thread);
            return Err(format!(
                "the cycle is not {fairness}: {name} is enabled on it and never steps"
            ));
        }
    }
    Ok(())
}
