//! Counterexamples, the bottom of the trace layer: the path from the initial state to a
//! finding, decoded step by step, and its replay string.

use std::sync::Arc;

use crate::model::heap::steps::HeapStep;
use crate::model::{Fault, ModelInfo, Operand, TransitionId};
use crate::verdict::FindingKind;

/// One slot changed by a step: its index in [`ModelInfo::slots`], old and new value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Change {
    /// Index into [`ModelInfo::slots`].
    pub slot: u32,
    /// The value before the step.
    pub old: i64,
    /// The value after the step.
    pub new: i64,
}

impl Change {
    /// The changes between two decoded states (one value per slot): the slots whose value
    /// differs, in slot order. What a [`Step`] records, for callers that walk a path
    /// themselves.
    ///
    /// ```
    /// use bir_runtime::Change;
    ///
    /// let changes = Change::between(&[0, 1, 2, 3], &[0, 5, 2, -1]);
    /// assert_eq!(
    ///     changes,
    ///     [Change { slot: 1, old: 1, new: 5 }, Change { slot: 3, old: 3, new: -1 }]
    /// );
    /// assert!(Change::between(&[4, 4], &[4, 4]).is_empty());
    /// ```
    pub fn between(old: &[i64], new: &[i64]) -> Vec<Change> {
        old.iter()
            .zip(new)
            .enumerate()
            .filter(|(_, (old, new))| old != new)
            .map(|(slot, (&old, &new))| Change {
                slot: slot as u32,
                old,
                new,
            })
            .collect()
    }
}

/// One step of a counterexample: an executed transition and what it did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The transition executed (indexes [`ModelInfo::transitions`]).
    pub transition: TransitionId,
    /// The slots it changed, in slot order; empty for a failing step.
    pub changes: Vec<Change>,
    /// For the failing last step of a fault counterexample, the fault it raised.
    pub fault: Option<Fault>,
    /// For a step of a model with records that allocated, collected or renumbered
    /// objects, what it did to the heap ([`HeapStep`]); `None` otherwise, and for steps
    /// not rebuilt by executing the model.
    pub heap: Option<HeapStep>,
}

/// A path from the initial state to a finding, decoded so that it does not depend on the
/// model's state type: counterexamples from two implementations of the same model (generated
/// code and an interpreter, say) compare equal when they show the same run.
///
/// Its `Display` prints the message, the numbered steps with the variables each one changed,
/// the final state and the replay string.
#[derive(Clone, Debug)]
pub struct Counterexample {
    pub(super) kind: FindingKind,
    pub(super) message: String,
    pub(super) fault: Option<Fault>,
    pub(super) invariant: Option<u32>,
    /// For a failed assertion or a violated invariant, the values its condition read.
    pub(super) operands: Vec<Operand>,
    pub(super) initial: Vec<i64>,
    pub(super) steps: Vec<Step>,
    /// For a lasso, the index of the first step of its cycle.
    pub(super) cycle: Option<usize>,
    pub(super) last: Vec<i64>,
    pub(super) replay: String,
    pub(super) info: Arc<ModelInfo>,
    /// The length of the search's own trace, when this one replaced it as shorter.
    pub(super) original_len: Option<usize>,
}

/// Equal when the kind, message, states and steps are equal (the model descriptions are not
/// compared, so that two implementations of one model can be checked against each other,
/// nor whether a trace was shortened, so that a replay equals the trace it replays).
impl PartialEq for Counterexample {
    fn eq(&self, other: &Self) -> bool {
        self.kind == other.kind
            && self.message == other.message
            && self.fault == other.fault
            && self.invariant == other.invariant
            && self.operands == other.operands
            && self.initial == other.initial
            && self.steps == other.steps
            && self.cycle == other.cycle
            && self.last == other.last
    }
}

impl Eq for Counterexample {}

impl Counterexample {
    /// What was found.
    pub fn kind(&self) -> FindingKind {
        self.kind
    }

    /// The finding in the model's terms: the fault site's message with the offending value,
    /// the violated invariant, or which instances are blocked where.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// For a fault (of a step or of an invariant's evaluation), the fault.
    pub fn fault(&self) -> Option<Fault> {
        self.fault
    }

    /// For an invariant violation, the invariant's index in [`ModelInfo::invariants`].
    pub fn invariant(&self) -> Option<u32> {
        self.invariant
    }

    /// For a failed assertion or a violated invariant, the variables its condition read and
    /// their values there (each once, in source order; see [`Model::operands`](crate::Model::operands)): what
    /// the text report prints as `buf[2] = 0, expect = 1`. Empty for other findings, and
    /// for models that do not report operands.
    pub fn operands(&self) -> &[Operand] {
        &self.operands
    }

    /// The steps, the failing one last for a step fault.
    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// For a lasso (an LTL counterexample), the index in [`Self::steps`] of the first step of
    /// the cycle: the run takes the steps before it once, then the steps from it on forever.
    /// The cycle starts and ends in the state reached by the steps before it.
    pub fn cycle_start(&self) -> Option<usize> {
        self.cycle
    }

    /// The number of steps, a failing last step included.
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    /// True when the initial state itself is the finding (it violates an invariant, or is a
    /// deadlock).
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// The transition ids of the steps, in order.
    pub fn transitions(&self) -> impl Iterator<Item = TransitionId> + '_ {
        self.steps.iter().map(|step| step.transition)
    }

    /// The initial state, decoded: one value per slot of [`ModelInfo::slots`].
    pub fn initial_state(&self) -> &[i64] {
        &self.initial
    }

    /// The last state reached: the deadlocked or violating state, or the state the failing
    /// step was executed from.
    pub fn final_state(&self) -> &[i64] {
        &self.last
    }

    /// Every state of the path, the initial one first and [`Self::final_state`] last (a
    /// failing step adds no state).
    pub fn states(&self) -> impl Iterator<Item = Vec<i64>> + '_ {
        let mut current = self.initial.clone();
        let successful = self.steps.iter().filter(|step| step.fault.is_none());
        std::iter::once(current.clone()).chain(successful.map(move |step| {
            for change in &step.changes {
                if let Some(value) = current.get_mut(change.slot as usize) {
                    *value = change.new;
                }
            }
            current.clone()
        }))
    }

    /// The replay string (`bir1:` followed by the transition ids joined by `.`), accepted by
    /// [`Checker::replay`](crate::Checker::replay) to rebuild this counterexample.
    pub fn replay(&self) -> &str {
        &self.replay
    }

    /// The description of the model this counterexample was found in.
    pub fn info(&self) -> &ModelInfo {
        &self.info
    }

    /// When this trace replaced the search's own as a shortest one (see
    /// [`Checker::shortest`](crate::Checker::shortest)), the length of the search's own.
    pub fn shortened_from(&self) -> Option<usize> {
        self.original_len
    }

    /// This trace, noted as the shorter replacement of one of `len` steps.
    pub(crate) fn with_original_len(mut self, len: usize) -> Self {
        self.original_len = Some(len);
        self
    }
}
