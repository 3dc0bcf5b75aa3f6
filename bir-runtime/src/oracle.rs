//! Slow, independent answers for tests: the whole state space built first, then examined
//! as the definitions say, sharing no search order, marks or numbers with the searches.

use crate::model::{Model, Outcome, PropertyKind};
use crate::plan::Fairness;
use crate::report::Report;
use crate::search::ltl::fair::oracle::ProductGraph;
use crate::verdict::{FindingKind, Verdict};

/// Whether some run of `model` violates its `ltl` property `property` under `fairness`
/// (LANGUAGE.md, "Properties (version 2)"), by building the product of the model with the
/// property's automaton and looking for a fair accepting cycle in each of its strongly
/// connected components. `None` when the product has more than `max_states` states, when a
/// step or a proposition faults or a state fails an invariant on the way (a search
/// reports those before it answers about the property), or when `property` names no `ltl`
/// property of the model.
///
/// The tests hold the searches' verdicts against it: every row of the LTL table
/// (`tests/suite/ltl.rs`), and through [`judge`] every property of the random models of
/// the differential test (`difftest/`) and of the `interpreter` fuzz target.
pub fn ltl_violated<M: Model>(
    model: &M,
    property: &str,
    fairness: Fairness,
    max_states: usize,
) -> Option<bool> {
    let index = model
        .properties()
        .iter()
        .position(|p| p.name == property && matches!(p.kind, PropertyKind::Ltl { .. }))?;
    let product = ProductGraph::new(model, index, max_states)?;
    Some(product.has_fair_accepting_cycle(fairness))
}

/// What [`judge`] says of a report's verdict on an `ltl` property.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Judgement {
    /// The whole product gives the report's verdict.
    Agrees,
    /// The whole product gives the other verdict: a fair accepting cycle where the report
    /// says the property holds (`violated`), or none where it reports a violation.
    Disagrees {
        /// Whether the whole product holds a fair accepting cycle.
        violated: bool,
    },
    /// No judgement: the report answers no `ltl` property (a fault, a limit or an invariant
    /// came first), or [`ltl_violated`] cannot answer.
    Unjudged,
}

/// Judges the verdict of `report`, a check of an `ltl` property of `model` (reduced or
/// not, with any storage), by [`ltl_violated`] on the whole unreduced product, built up
/// to `max_states` states, under the fairness the report's check assumed.
pub fn judge<M: Model>(report: &Report, model: &M, max_states: usize) -> Judgement {
    let violated = match report.verdict() {
        Verdict::Found(FindingKind::Property) => true,
        Verdict::Verified => false,
        _ => return Judgement::Unjudged,
    };
    let Some(property) = report.property() else {
        return Judgement::Unjudged;
    };
    match ltl_violated(model, &property.name, report.plan().fairness, max_states) {
        Some(expected) if expected == violated => Judgement::Agrees,
        Some(expected) => Judgement::Disagrees { violated: expected },
        None => Judgement::Unjudged,
    }
}

/// The number of orbits of `model`'s reachable states under its symmetry group, by brute
/// force: a full search that stores every concrete state, and every permutation of the
/// group applied to each. The states are those a search counts: one that violates an
/// invariant is counted but not expanded (`docs/LANGUAGE.md`, "Steps, states and
/// verdicts"). `None` when the model declares no symmetry or has more than `limit`
/// reachable states. The oracle that the symmetry-reduced counts are tested against; far
/// too slow for anything but small models.
pub fn orbit_count<M: Model>(model: &M, limit: usize) -> Option<usize> {
    let symmetry = model.symmetry()?;
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![model.initial_state()];
    seen.insert(model.initial_state());
    let mut orbits = std::collections::HashSet::new();
    let (mut successors, mut values) = (Vec::new(), Vec::new());
    while let Some(state) = stack.pop() {
        model.decode(&state, &mut values);
        orbits.insert(symmetry.orbit(&values).swap_remove(0));
        if model.check_invariants(&state).is_err() {
            continue;
        }
        successors.clear();
        model.successors(&state, &mut successors);
        for successor in successors.drain(..) {
            if let Outcome::Next(next) = successor.outcome {
                if seen.insert(next.clone()) {
                    if seen.len() > limit {
                        return None;
                    }
                    stack.push(next);
                }
            }
        }
    }
    Some(orbits.len())
}
