//! Slow, independent answers for tests: the whole state space built first, then examined
//! as the definitions say, sharing no search order, marks or numbers with the searches.

use crate::checker::ProductGraph;
use crate::model::Model;
use crate::property::{Fairness, PropertyKind};

/// Whether some run of `model` violates its `ltl` property `property` under `fairness`
/// (LANGUAGE.md, "Properties (version 2)"), by building the product of the model with the
/// property's automaton and looking for a fair accepting cycle in each of its strongly
/// connected components. `None` when the product has more than `max_states` states, when a
/// step or a proposition faults or a state fails an invariant on the way (a search
/// reports those before it answers about the property), or when `property` names no `ltl`
/// property of the model.
///
/// The tests hold the searches' verdicts against it: every row of the LTL table
/// (`tests/suite/ltl.rs`) and every property of the random models of the differential
/// test (`difftest/`).
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
