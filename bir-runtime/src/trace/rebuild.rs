//! Rebuilding a counterexample from the transition ids of its path: a search only
//! remembers those ids, and the counterexample is rebuilt by executing them again from the
//! initial state (models are deterministic). [`Checker::replay`](crate::Checker::replay)
//! runs the very same code on a replay string, so a replayed counterexample is identical to
//! the one the search reported. Also the messages of faults, invariant violations and
//! deadlocks.

use std::sync::Arc;

use crate::model::heap::steps::{with_order, HeapStep};
use crate::model::heap::HeapOrder;
use crate::model::StateParts;
use crate::model::{
    FailedCheck, Fault, InvariantFailure, Model, ModelInfo, Operand, Outcome, Successor,
    TransitionId, STUTTER,
};
use crate::verdict::FindingKind;

use super::replay::{path_string, Path, ReplayError};
use super::{Change, Counterexample, Step};

/// The message of a fault, with the offending value where it says something.
pub(crate) fn fault_message(info: &ModelInfo, fault: Fault) -> String {
    let Some(site) = info.fault_sites.get(fault.site as usize) else {
        return format!(
            "fault at unknown site {} (value {})",
            fault.site, fault.value
        );
    };
    let mut message = site.message.replace("{value}", &fault.value.to_string());
    if site.line != 0 {
        message.push_str(&format!(" (line {})", site.line));
    }
    message
}

/// The message of an invariant violation.
fn invariant_message(info: &ModelInfo, invariant: u32) -> String {
    match info.invariants.get(invariant as usize) {
        Some(inv) if inv.line != 0 => {
            format!(
                "invariant {} violated: {} (line {})",
                inv.name, inv.text, inv.line
            )
        }
        Some(inv) => format!("invariant {} violated: {}", inv.name, inv.text),
        None => format!("invariant {invariant} violated"),
    }
}

/// The message of a deadlock: every running instance and the location it is blocked at.
fn deadlock_message(info: &ModelInfo, values: &[i64]) -> String {
    let blocked: Vec<String> = info
        .slots
        .iter()
        .zip(values)
        .filter_map(|(slot, &value)| {
            let location = slot.kind.location(value)?;
            Some(match slot.element {
                Some(index) => format!("{}[{index}] blocked at {location}", slot.name),
                None => format!("{} blocked at {location}", slot.name),
            })
        })
        .collect();
    if blocked.is_empty() {
        "no transition is enabled".to_owned()
    } else {
        format!("no transition is enabled: {}", blocked.join(", "))
    }
}

/// The finding kind of an invariant failure.
pub(crate) fn invariant_failure_kind(info: &ModelInfo, failure: InvariantFailure) -> FindingKind {
    match failure {
        InvariantFailure::Violated(_) => FindingKind::Invariant,
        InvariantFailure::Fault(fault) => fault_kind(info, fault),
    }
}

/// The finding kind of a fault (an unknown site counts as an assertion failure).
pub(crate) fn fault_kind(info: &ModelInfo, fault: Fault) -> FindingKind {
    info.fault_sites
        .get(fault.site as usize)
        .map_or(FindingKind::Assertion, |site| site.kind.into())
}

/// Executes `path` from the initial state and builds the counterexample it leads to.
///
/// The rules are the search's: every id must be enabled where it is taken; a step fault ends
/// the path; every state reached is checked against the invariants; a path that ends in a
/// state without enabled transitions that is not a valid end state ends in a deadlock.
pub(crate) fn rebuild<M: Model>(
    model: &M,
    info: &Arc<ModelInfo>,
    path: &[TransitionId],
) -> Result<Counterexample, ReplayError> {
    rebuild_path(model, info, &Path::linear(path), None)
}

/// Executes a lasso (`path` with a cycle) from the initial state and builds its
/// counterexample, with `message` for what it violates. Every step must be enabled (a
/// stutter only where none is), none may fault or reach a state that fails the invariants,
/// and the cycle must return to the state it starts from. Whether the lasso violates the
/// property is for the caller to check.
pub(crate) fn rebuild_lasso<M: Model>(
    model: &M,
    info: &Arc<ModelInfo>,
    path: &Path,
    message: String,
) -> Result<Counterexample, ReplayError> {
    rebuild_path(model, info, path, Some(message))
}

/// Executes `path` (every step must succeed) to a state that satisfies the predicate of
/// reachability check `property`, and builds its witness.
pub(crate) fn rebuild_reached<M: Model>(
    model: &M,
    info: &Arc<ModelInfo>,
    path: &[TransitionId],
    property: usize,
) -> Result<Counterexample, ReplayError> {
    let (walk, props) = walk_to_end(model, info, path, property)?;
    if props.map_or(true, |props| props & 1 == 0) {
        return Err(ReplayError::NoFinding { steps: path.len() });
    }
    let (name, text) = model
        .properties()
        .get(property)
        .map_or(("?", "?"), |p| (&*p.name, &*p.text));
    let ending = Ending {
        kind: FindingKind::Reached,
        message: format!("reachable {name}: `{text}` holds"),
        fault: None,
        invariant: None,
        operands: Vec::new(),
    };
    Ok(walk.into_counterexample(ending, path, info))
}

/// Executes `path` (every step must succeed) and builds the counterexample of the fault
/// raised by evaluating the predicates of property `property` in the state it ends in.
pub(crate) fn rebuild_predicate_fault<M: Model>(
    model: &M,
    info: &Arc<ModelInfo>,
    path: &[TransitionId],
    property: usize,
) -> Result<Counterexample, ReplayError> {
    let (walk, props) = walk_to_end(model, info, path, property)?;
    let Err(fault) = props else {
        return Err(ReplayError::NoFinding { steps: path.len() });
    };
    let property = model.properties().get(property).map_or("?", |p| &p.name);
    let ending = Ending {
        kind: fault_kind(info, fault),
        message: format!(
            "while evaluating the predicates of property {property}: {}",
            fault_message(info, fault)
        ),
        fault: Some(fault),
        invariant: None,
        operands: Vec::new(),
    };
    Ok(walk.into_counterexample(ending, path, info))
}

/// Executes `path`, every step of which must succeed (as a lasso's stem), and evaluates
/// the propositions of `property` in the state it ends in.
fn walk_to_end<M: Model>(
    model: &M,
    info: &Arc<ModelInfo>,
    path: &[TransitionId],
    property: usize,
) -> Result<(Walk, Result<u64, Fault>), ReplayError> {
    let mut walk = Walk {
        initial: Vec::new(),
        steps: Vec::with_capacity(path.len()),
        values: Vec::new(),
        cycle_values: None,
    };
    walk.run(model, info, path, Some(path.len()))?;
    let mut state = model.initial_state();
    let mut successors = Vec::new();
    for &transition in path {
        successors.clear();
        model.successors(&state, &mut successors);
        if let Some(Outcome::Next(next)) = successors
            .iter()
            .find(|s| s.transition == transition)
            .map(|s| &s.outcome)
        {
            state = next.clone();
        }
    }
    Ok((walk, model.propositions(property, &state)))
}

fn rebuild_path<M: Model>(
    model: &M,
    info: &Arc<ModelInfo>,
    path: &Path,
    lasso_message: Option<String>,
) -> Result<Counterexample, ReplayError> {
    let mut walk = Walk {
        initial: Vec::new(),
        steps: Vec::with_capacity(path.steps.len()),
        values: Vec::new(),
        cycle_values: None,
    };
    let ending = match lasso_message {
        Some(message) => {
            let Some(cycle) = path.cycle else {
                return Err(ReplayError::NotALasso);
            };
            walk.run(model, info, &path.steps, Some(cycle))?;
            if walk.cycle_values.as_ref() != Some(&walk.values) {
                return Err(ReplayError::CycleNotClosed { step: cycle + 1 });
            }
            Ending {
                kind: FindingKind::Property,
                message,
                fault: None,
                invariant: None,
                operands: Vec::new(),
            }
        }
        None if path.cycle.is_some() => return Err(ReplayError::NotALasso),
        None => walk.run(model, info, &path.steps, None)?,
    };
    Ok(Counterexample {
        kind: ending.kind,
        message: ending.message,
        fault: ending.fault,
        invariant: ending.invariant,
        operands: ending.operands,
        initial: walk.initial,
        steps: walk.steps,
        cycle: path.cycle,
        last: walk.values,
        replay: path_string(path),
        info: Arc::clone(info),
        original_len: None,
    })
}

/// What a replayed path ends in.
struct Ending {
    kind: FindingKind,
    message: String,
    fault: Option<Fault>,
    invariant: Option<u32>,
    operands: Vec<Operand>,
}

/// The decoded record of a replay in progress.
struct Walk {
    initial: Vec<i64>,
    steps: Vec<Step>,
    /// The current state, decoded.
    values: Vec<i64>,
    /// For a lasso, the state its cycle starts from, decoded.
    cycle_values: Option<Vec<i64>>,
}

impl Walk {
    /// The counterexample of a finished walk along `path` that ended in `ending`.
    fn into_counterexample(
        self,
        ending: Ending,
        path: &[TransitionId],
        info: &Arc<ModelInfo>,
    ) -> Counterexample {
        Counterexample {
            kind: ending.kind,
            message: ending.message,
            fault: ending.fault,
            invariant: ending.invariant,
            operands: ending.operands,
            initial: self.initial,
            steps: self.steps,
            cycle: None,
            last: self.values,
            replay: path_string(&Path::linear(path)),
            info: Arc::clone(info),
            original_len: None,
        }
    }

    /// Executes `path`. Without `cycle`, the path must end at a finding, which is returned.
    /// With one (a lasso), no step may end at a finding; the steps are executed and the
    /// state where the cycle starts is kept (the ending returned then means nothing).
    fn run<M: Model>(
        &mut self,
        model: &M,
        info: &ModelInfo,
        path: &[TransitionId],
        cycle: Option<usize>,
    ) -> Result<Ending, ReplayError> {
        let mut state = model.initial_state();
        model.decode(&state, &mut self.initial);
        self.values.clone_from(&self.initial);
        let mut next_values = Vec::with_capacity(self.values.len());
        let mut successors: Vec<Successor<M::State>> = Vec::new();
        // A model with records: each step's allocations and collections are found by
        // replaying it in allocation order.
        let parts = Some(StateParts::new(info)).filter(|p| !p.heaps().is_empty());
        if let Err(failure) = model.check_invariants(&state) {
            let is_last = path.is_empty() && cycle.is_none();
            return invariant_ending(model, info, &state, failure, 0, is_last);
        }
        for (index, &transition) in path.iter().enumerate() {
            let number = index + 1;
            let is_last = number == path.len() && cycle.is_none();
            if cycle == Some(index) {
                self.cycle_values = Some(self.values.clone());
            }
            successors.clear();
            model.successors(&state, &mut successors);
            if transition == STUTTER {
                if !successors.is_empty() {
                    return Err(ReplayError::Stutter { step: number });
                }
                self.steps.push(Step {
                    transition,
                    changes: Vec::new(),
                    fault: None,
                    heap: None,
                });
                continue;
            }
            let Some(taken) = successors.iter().find(|s| s.transition == transition) else {
                let enabled = successors.iter().map(|s| s.transition).collect();
                return Err(ReplayError::NotEnabled {
                    step: number,
                    transition,
                    enabled,
                });
            };
            let next = match &taken.outcome {
                Outcome::Next(next) => next.clone(),
                &Outcome::Fault(fault) => {
                    let kind = fault_kind(info, fault);
                    if !is_last {
                        return Err(ReplayError::FindingBeforeEnd { step: number, kind });
                    }
                    self.steps.push(Step {
                        transition,
                        changes: Vec::new(),
                        fault: Some(fault),
                        heap: None,
                    });
                    let message = fault_message(info, fault);
                    let mut operands = Vec::new();
                    if kind == FindingKind::Assertion {
                        let check = FailedCheck::Assertion {
                            transition,
                            site: fault.site,
                        };
                        model.operands(&state, check, &mut operands);
                    }
                    return Ok(Ending {
                        kind,
                        message,
                        fault: Some(fault),
                        invariant: None,
                        operands,
                    });
                }
            };
            model.decode(&next, &mut next_values);
            let heap = match &parts {
                Some(parts) => heap_step_between(
                    model,
                    info,
                    parts,
                    &state,
                    transition,
                    &self.values,
                    &next_values,
                ),
                None => None,
            };
            self.steps.push(Step {
                transition,
                changes: Change::between(&self.values, &next_values),
                fault: None,
                heap,
            });
            std::mem::swap(&mut self.values, &mut next_values);
            state = next;
            if let Err(failure) = model.check_invariants(&state) {
                return invariant_ending(model, info, &state, failure, number, is_last);
            }
        }
        if cycle.is_some() {
            return Ok(Ending {
                kind: FindingKind::Property,
                message: String::new(),
                fault: None,
                invariant: None,
                operands: Vec::new(),
            });
        }
        successors.clear();
        model.successors(&state, &mut successors);
        if successors.is_empty() && !model.is_end_state(&state) {
            return Ok(Ending {
                kind: FindingKind::Deadlock,
                message: deadlock_message(info, &self.values),
                fault: None,
                invariant: None,
                operands: Vec::new(),
            });
        }
        Err(ReplayError::NoFinding { steps: path.len() })
    }
}

/// What the step of `transition` from `state` (decoded: `before`), which leads to the
/// decoded `after`, did to the heap: the step is executed again in
/// [`HeapOrder::Allocation`] (on this thread only) and the three states compared
/// ([`HeapStep::new`]). `None` when it changed nothing of the heap's objects, or when the
/// replay does not find the step.
fn heap_step_between<M: Model>(
    model: &M,
    info: &ModelInfo,
    parts: &StateParts,
    state: &M::State,
    transition: TransitionId,
    before: &[i64],
    after: &[i64],
) -> Option<HeapStep> {
    let raw = with_order(HeapOrder::Allocation, || {
        let mut successors = Vec::new();
        model.successors(state, &mut successors);
        successors.into_iter().find(|s| s.transition == transition)
    })?;
    let Outcome::Next(raw) = raw.outcome else {
        return None;
    };
    let mut raw_values = Vec::new();
    model.decode(&raw, &mut raw_values);
    let step = HeapStep::new(info, parts, before, &raw_values, after);
    (!step.is_quiet()).then_some(step)
}

/// What the step of `transition` from `state` did to the heap of objects (allocated,
/// collected, renumbered), as a counterexample's [`Step::heap`] says it: for the explorer,
/// which walks paths of its own. `None` for a model without records, when the step
/// changed nothing of the heap's objects, or when `transition` is not enabled in `state`
/// or faults there.
pub fn heap_step<M: Model>(
    model: &M,
    state: &M::State,
    transition: TransitionId,
) -> Option<HeapStep> {
    let info = model.info();
    let parts = StateParts::new(info);
    if parts.heaps().is_empty() {
        return None;
    }
    let mut successors = Vec::new();
    model.successors(state, &mut successors);
    let taken = successors
        .into_iter()
        .find(|s| s.transition == transition)?;
    let Outcome::Next(next) = taken.outcome else {
        return None;
    };
    let (mut before, mut after) = (Vec::new(), Vec::new());
    model.decode(state, &mut before);
    model.decode(&next, &mut after);
    heap_step_between(model, info, &parts, state, transition, &before, &after)
}

/// The ending at a state that fails its invariants after `step` steps: the finding if the
/// path ends there (with the operands of a violated invariant), an error otherwise.
fn invariant_ending<M: Model>(
    model: &M,
    info: &ModelInfo,
    state: &M::State,
    failure: InvariantFailure,
    step: usize,
    is_last: bool,
) -> Result<Ending, ReplayError> {
    let kind = invariant_failure_kind(info, failure);
    if !is_last {
        return Err(ReplayError::FindingBeforeEnd { step, kind });
    }
    let (message, fault, invariant) = describe_invariant_failure(info, failure);
    let mut operands = Vec::new();
    if let Some(index) = invariant {
        model.operands(state, FailedCheck::Invariant(index), &mut operands);
    }
    Ok(Ending {
        kind,
        message,
        fault,
        invariant,
        operands,
    })
}

/// Message, fault and invariant index of an invariant failure.
fn describe_invariant_failure(
    info: &ModelInfo,
    failure: InvariantFailure,
) -> (String, Option<Fault>, Option<u32>) {
    match failure {
        InvariantFailure::Violated(index) => (invariant_message(info, index), None, Some(index)),
        InvariantFailure::Fault(fault) => (
            format!(
                "while evaluating an invariant: {}",
                fault_message(info, fault)
            ),
            Some(fault),
            None,
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_models::{Graph, Philosophers};

    #[test]
    fn rebuild_decodes_steps_and_finds_the_deadlock() {
        let model = Philosophers::two();
        let info = Arc::new(model.info().clone());
        // Philosopher1 takes fork1 (transition 0), Philosopher2 takes fork2 (transition 4).
        let trace = rebuild(&model, &info, &[0, 4]).unwrap();
        assert_eq!(trace.kind(), FindingKind::Deadlock);
        assert_eq!(trace.len(), 2);
        assert_eq!(trace.replay(), "bir1:0.4");
        assert_eq!(trace.final_state()[..2], [1, 1]);
        assert_eq!(trace.states().count(), 3);
        assert_eq!(trace.states().last().unwrap(), trace.final_state());
        assert_eq!(
            trace.message(),
            "no transition is enabled: Philosopher1 blocked at loc1, \
             Philosopher2 blocked at loc1"
        );
    }

    #[test]
    fn rebuild_rejects_what_the_search_would_never_report() {
        let model = Philosophers::two();
        let info = Arc::new(model.info().clone());
        assert_eq!(
            rebuild(&model, &info, &[1]),
            Err(ReplayError::NotEnabled {
                step: 1,
                transition: 1,
                enabled: vec![0, 4]
            })
        );
        assert_eq!(
            rebuild(&model, &info, &[0]),
            Err(ReplayError::NoFinding { steps: 1 })
        );
        let faulty = Graph::fault_then_more();
        let info = Arc::new(faulty.info().clone());
        assert_eq!(
            rebuild(&faulty, &info, &[0, 1]),
            Err(ReplayError::FindingBeforeEnd {
                step: 1,
                kind: FindingKind::Assertion
            })
        );
    }
}
