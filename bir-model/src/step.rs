//! One step of a model: the transitions a state enables, what executing one produced (the
//! next state or a fault), and what a failing check read.

/// A transition: one guarded transformation of one thread instance. Indexes
/// [`ModelInfo::transitions`](super::ModelInfo::transitions); the order of that table is the fixed successor order.
pub type TransitionId = u32;

/// The step of an LTL counterexample that repeats a final state (a deadlock or a valid end
/// state) forever: a run that ends is extended by stuttering (LANGUAGE.md, "Runs").
pub const STUTTER: TransitionId = TransitionId::MAX;

/// A runtime fault of the model raised by one step (or by an invariant): which fault site
/// raised it (an index into [`ModelInfo::fault_sites`](super::ModelInfo::fault_sites)) and the offending value (the
/// out-of-range value, the bad index, the divisor...; 0 when there is none).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Fault {
    /// Index into [`ModelInfo::fault_sites`](super::ModelInfo::fault_sites).
    pub site: u32,
    /// The value that caused the fault, for the message.
    pub value: i64,
}

/// What executing one enabled transition produced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome<S> {
    /// The step succeeded and leads to this state.
    Next(S),
    /// The step failed at run time (assertion, range, index, division or start error). It
    /// counts as a transition and yields no successor.
    Fault(Fault),
}

/// One enabled transition of a state and its outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Successor<S> {
    /// The transition that was executed.
    pub transition: TransitionId,
    /// The state it leads to, or the fault it raised.
    pub outcome: Outcome<S>,
}

/// Why a state fails its invariants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InvariantFailure {
    /// The invariant with this index in [`ModelInfo::invariants`](super::ModelInfo::invariants) is false.
    Violated(u32),
    /// Evaluating an invariant faulted (an index or division error).
    Fault(Fault),
}

/// A check that failed, whose operands a counterexample shows (see [`Model::operands`](super::Model::operands)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FailedCheck {
    /// The `assert` at fault site `site` (an index into [`ModelInfo::fault_sites`](super::ModelInfo::fault_sites)), in the
    /// step of transition `transition`.
    Assertion {
        /// The transition whose step failed.
        transition: TransitionId,
        /// The assertion's fault site.
        site: u32,
    },
    /// The invariant with this index in [`ModelInfo::invariants`](super::ModelInfo::invariants).
    Invariant(u32),
}

/// A value a failing check read: the slot (an index into [`ModelInfo::slots`](super::ModelInfo::slots): a scalar, an
/// array element, an instance's status or local) and its value where the check read it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Operand {
    /// Index into [`ModelInfo::slots`](super::ModelInfo::slots).
    pub slot: u32,
    /// The value read (as [`Model::decode`](super::Model::decode) writes it).
    pub value: i64,
}

impl Operand {
    /// Records that a check read `slot` and found `value`, into `out`, which lists each
    /// slot once, in source order. `mark` is the length `out` had where the read stands in
    /// the source: for `a[i]`, before `i` was evaluated, so that `a[2]` comes before `i`;
    /// for a plain variable, the current length. A slot already listed before `mark` stays
    /// where it is; one listed after it (read while evaluating the index) moves to `mark`.
    /// Returns `value`, so that generated code can record a read where it makes it.
    pub fn record(out: &mut Vec<Operand>, mark: usize, slot: u32, value: i64) -> i64 {
        let mark = mark.min(out.len());
        if out[..mark].iter().any(|o| o.slot == slot) {
            return value;
        }
        out.retain(|o| o.slot != slot);
        out.insert(mark.min(out.len()), Operand { slot, value });
        value
    }
}
