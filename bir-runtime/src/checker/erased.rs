//! One search for every model: the checker's entry points compiled once, in this crate, for
//! a model seen through a vtable with its states as [`PackedState`]s.
//!
//! A generated model normally gets its own copy of the search, specialised to its state
//! type: the fastest search, and most of the code a model compiles to (about 50,000 LLVM
//! lines each). A model whose [`Model::__check`] answers with `Call::erased` (generated
//! models in debug builds, see `dispatch`) runs on this copy instead, so that building a test crate of many models compiles only
//! their transition functions. States cross the vtable as the words the model writes them
//! as ([`Model::write_state_words`]), so the seen sets, counts, verdicts and traces are the
//! same as the specialised search's.

use std::any::Any;
use std::cell::RefCell;

use crate::model::{
    AtomInfo, FailedCheck, Fault, InvariantFailure, Model, ModelInfo, Operand, Outcome, Successor,
};
use crate::packed::PackedState;
use crate::property::PropertyInfo;
use crate::replay::ReplayError;
use crate::report::Report;
use crate::symmetry::SymmetryInfo;
use crate::trace::Counterexample;

use super::simulation::Walks;
use super::{ConfigError, Options, Plan};

/// [`Model`] without its state type and constants, so that it can be called through a
/// vtable: what the search compiled once sees of a model. Every method means what the
/// [`Model`] method of the same name does.
pub(crate) trait ErasedModel: Sync {
    fn info(&self) -> &ModelInfo;
    fn initial_state(&self) -> PackedState;
    fn successors(&self, state: &PackedState, out: &mut Vec<Successor<PackedState>>);
    fn check_invariants(&self, state: &PackedState) -> Result<(), InvariantFailure>;
    fn is_end_state(&self, state: &PackedState) -> bool;
    fn state_word(&self, state: &PackedState) -> Option<u64>;
    fn state_word_bits(&self) -> Option<u32>;
    fn decode(&self, state: &PackedState, values: &mut Vec<i64>);
    fn ample_safe(&self) -> &[bool];
    fn operands(&self, state: &PackedState, check: FailedCheck, out: &mut Vec<Operand>);
    fn atoms_info(&self) -> &[AtomInfo];
    fn atoms(&self, state: &PackedState) -> [u64; 2];
    fn symmetry(&self) -> Option<&SymmetryInfo>;
    fn encode(&self, values: &[i64]) -> Option<PackedState>;
    fn properties(&self) -> &[PropertyInfo];
    fn propositions(&self, property: usize, state: &PackedState) -> Result<u64, Fault>;
    fn automaton_step(&self, property: usize, from: u32, props: u64, out: &mut Vec<u32>);
}

/// A model whose states are converted to and from their words at every call: the per-model
/// half of the erased search (small: one conversion per method).
pub(crate) struct AsWords<'a, M>(pub(crate) &'a M);

thread_local! {
    /// The words of one state being converted, reused so that a conversion allocates
    /// nothing.
    static SCRATCH: RefCell<Vec<u64>> = const { RefCell::new(Vec::new()) };

    /// The successors of the state being expanded, as the model's states: a
    /// `Vec<Successor<M::State>>` of the model last expanded on this thread, reused so
    /// that an expansion allocates nothing.
    static SUCCESSORS: RefCell<Option<Box<dyn Any>>> = const { RefCell::new(None) };
}

/// Calls `expand` with an empty buffer of successors, this thread's when it holds states of
/// type `S` (a new one otherwise), and keeps the buffer for the next call.
fn with_successors<S: 'static, R>(expand: impl FnOnce(&mut Vec<Successor<S>>) -> R) -> R {
    let kept = SUCCESSORS.with(|buffer| buffer.borrow_mut().take());
    let mut buffer = match kept.map(|kept| kept.downcast::<Vec<Successor<S>>>()) {
        Some(Ok(buffer)) => buffer,
        _ => Box::new(Vec::new()),
    };
    buffer.clear();
    let result = expand(&mut buffer);
    SUCCESSORS.with(|kept| *kept.borrow_mut() = Some(buffer));
    result
}

impl<M: Model> AsWords<'_, M> {
    /// `state` as its words.
    fn pack(&self, state: &M::State) -> PackedState {
        SCRATCH.with(|scratch| {
            let mut words = scratch.borrow_mut();
            words.clear();
            self.0.write_state_words(state, &mut words);
            PackedState::from_words(&words)
        })
    }

    /// The model's state that `state`'s words are. Every packed state of an erased search
    /// was written by [`AsWords::pack`], and generated models read back what they write.
    fn unpack(&self, state: &PackedState) -> M::State {
        match self.0.state_from_words(state.words()) {
            Some(state) => state,
            None => unreachable!("a model read back words it did not write: {state:?}"),
        }
    }
}

impl<M: Model> ErasedModel for AsWords<'_, M> {
    fn info(&self) -> &ModelInfo {
        self.0.info()
    }

    fn initial_state(&self) -> PackedState {
        self.pack(&self.0.initial_state())
    }

    fn successors(&self, state: &PackedState, out: &mut Vec<Successor<PackedState>>) {
        with_successors(|successors| {
            self.0.successors(&self.unpack(state), successors);
            out.extend(successors.iter().map(|successor| Successor {
                transition: successor.transition,
                outcome: match &successor.outcome {
                    Outcome::Next(next) => Outcome::Next(self.pack(next)),
                    Outcome::Fault(fault) => Outcome::Fault(*fault),
                },
            }));
        });
    }

    fn check_invariants(&self, state: &PackedState) -> Result<(), InvariantFailure> {
        self.0.check_invariants(&self.unpack(state))
    }

    fn is_end_state(&self, state: &PackedState) -> bool {
        self.0.is_end_state(&self.unpack(state))
    }

    fn state_word(&self, state: &PackedState) -> Option<u64> {
        self.0.state_word(&self.unpack(state))
    }

    fn state_word_bits(&self) -> Option<u32> {
        self.0.state_word_bits()
    }

    fn decode(&self, state: &PackedState, values: &mut Vec<i64>) {
        self.0.decode(&self.unpack(state), values);
    }

    fn ample_safe(&self) -> &[bool] {
        self.0.ample_safe()
    }

    fn operands(&self, state: &PackedState, check: FailedCheck, out: &mut Vec<Operand>) {
        self.0.operands(&self.unpack(state), check, out);
    }

    fn atoms_info(&self) -> &[AtomInfo] {
        self.0.atoms_info()
    }

    fn atoms(&self, state: &PackedState) -> [u64; 2] {
        self.0.atoms(&self.unpack(state))
    }

    fn symmetry(&self) -> Option<&SymmetryInfo> {
        self.0.symmetry()
    }

    fn encode(&self, values: &[i64]) -> Option<PackedState> {
        self.0.encode(values).map(|state| self.pack(&state))
    }

    fn properties(&self) -> &[PropertyInfo] {
        self.0.properties()
    }

    fn propositions(&self, property: usize, state: &PackedState) -> Result<u64, Fault> {
        self.0.propositions(property, &self.unpack(state))
    }

    fn automaton_step(&self, property: usize, from: u32, props: u64, out: &mut Vec<u32>) {
        self.0.automaton_step(property, from, props, out);
    }
}

/// The model the search compiled once runs on: any [`ErasedModel`] behind a reference.
struct Erased<'a>(&'a dyn ErasedModel);

impl Model for Erased<'_> {
    type State = PackedState;

    fn info(&self) -> &ModelInfo {
        self.0.info()
    }

    fn initial_state(&self) -> PackedState {
        self.0.initial_state()
    }

    fn successors(&self, state: &PackedState, out: &mut Vec<Successor<PackedState>>) {
        self.0.successors(state, out);
    }

    fn check_invariants(&self, state: &PackedState) -> Result<(), InvariantFailure> {
        self.0.check_invariants(state)
    }

    fn is_end_state(&self, state: &PackedState) -> bool {
        self.0.is_end_state(state)
    }

    fn state_word(&self, state: &PackedState) -> Option<u64> {
        self.0.state_word(state)
    }

    fn state_word_bits(&self) -> Option<u32> {
        self.0.state_word_bits()
    }

    fn write_state_words(&self, state: &PackedState, out: &mut Vec<u64>) -> bool {
        out.extend_from_slice(state.words());
        true
    }

    fn state_from_words(&self, words: &[u64]) -> Option<PackedState> {
        Some(PackedState::from_words(words))
    }

    fn decode(&self, state: &PackedState, values: &mut Vec<i64>) {
        self.0.decode(state, values);
    }

    fn ample_safe(&self) -> &[bool] {
        self.0.ample_safe()
    }

    fn operands(&self, state: &PackedState, check: FailedCheck, out: &mut Vec<Operand>) {
        self.0.operands(state, check, out);
    }

    fn atoms_info(&self) -> &[AtomInfo] {
        self.0.atoms_info()
    }

    fn atoms(&self, state: &PackedState) -> [u64; 2] {
        self.0.atoms(state)
    }

    fn symmetry(&self) -> Option<&SymmetryInfo> {
        self.0.symmetry()
    }

    fn encode(&self, values: &[i64]) -> Option<PackedState> {
        self.0.encode(values)
    }

    fn properties(&self) -> &[PropertyInfo] {
        self.0.properties()
    }

    fn propositions(&self, property: usize, state: &PackedState) -> Result<u64, Fault> {
        self.0.propositions(property, state)
    }

    fn automaton_step(&self, property: usize, from: u32, props: u64, out: &mut Vec<u32>) {
        self.0.automaton_step(property, from, props, out);
    }
}

// The entry points are not generic, so that they and every search they reach are compiled
// here, once, whatever model calls them.

/// [`Checker::plan`](super::Checker::plan) on the search compiled once.
pub(crate) fn plan(model: &dyn ErasedModel, options: &Options) -> Result<Plan, ConfigError> {
    super::plan(&Erased(model), options)
}

/// [`Checker::try_run`](super::Checker::try_run) on the search compiled once.
pub(crate) fn try_run(model: &dyn ErasedModel, options: &Options) -> Result<Report, ConfigError> {
    super::try_run(&Erased(model), options)
}

/// [`Checker::simulate`](super::Checker::simulate) on the search compiled once.
pub(crate) fn simulate(
    model: &dyn ErasedModel,
    options: &Options,
    walks: Walks,
) -> Result<Report, ConfigError> {
    super::simulate(&Erased(model), options, walks)
}

/// [`Checker::replay`](super::Checker::replay) on the search compiled once.
pub(crate) fn replay(
    model: &dyn ErasedModel,
    options: &Options,
    replay: &str,
) -> Result<Counterexample, ReplayError> {
    super::replay(&Erased(model), options, replay)
}
