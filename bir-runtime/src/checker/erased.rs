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
    /// True when every state's [`Model::state_word`] is the one word it is written as, so
    /// that the search reads it off the packed state without a call.
    fn word_is_packed(&self) -> bool;
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

/// What expanding a state through [`AsWords`] needs besides the state: the successors as
/// the model's states, and the words of one of them.
struct Buffers<S> {
    successors: Vec<Successor<S>>,
    words: Vec<u64>,
}

thread_local! {
    /// The [`Buffers`] of the model last expanded on this thread (a `Buffers<M::State>`),
    /// reused so that an expansion allocates nothing.
    static BUFFERS: RefCell<Option<Box<dyn Any>>> = const { RefCell::new(None) };
}

/// Calls `expand` with this thread's buffers when they hold states of type `S` (new ones
/// otherwise), the successors cleared, and keeps them for the next call.
fn with_buffers<S: 'static, R>(expand: impl FnOnce(&mut Buffers<S>) -> R) -> R {
    let kept = BUFFERS.with(|buffers| buffers.borrow_mut().take());
    let mut buffers = match kept.map(|kept| kept.downcast::<Buffers<S>>()) {
        Some(Ok(buffers)) => buffers,
        _ => Box::new(Buffers {
            successors: Vec::new(),
            words: Vec::new(),
        }),
    };
    buffers.successors.clear();
    let result = expand(&mut buffers);
    BUFFERS.with(|kept| *kept.borrow_mut() = Some(buffers));
    result
}

impl<M: Model> AsWords<'_, M> {
    /// `state` as its words, written through `words`.
    fn pack_with(&self, state: &M::State, words: &mut Vec<u64>) -> PackedState {
        words.clear();
        self.0.write_state_words(state, words);
        PackedState::from_words(words)
    }

    /// `state` as its words (where no buffer is at hand: the initial state, an encoding).
    fn pack(&self, state: &M::State) -> PackedState {
        self.pack_with(state, &mut Vec::new())
    }

    /// The model's state that `state`'s words are. Every packed state of an erased search
    /// was written by [`AsWords::pack_with`], and generated models read back what they
    /// write.
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
        with_buffers(|buffers| {
            let Buffers { successors, words } = buffers;
            self.0.successors(&self.unpack(state), successors);
            for successor in successors.iter() {
                out.push(Successor {
                    transition: successor.transition,
                    outcome: match &successor.outcome {
                        Outcome::Next(next) => Outcome::Next(self.pack_with(next, words)),
                        Outcome::Fault(fault) => Outcome::Fault(*fault),
                    },
                });
            }
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

    // What `Model::state_word` promises, checked on the initial state.
    fn word_is_packed(&self) -> bool {
        let initial = self.0.initial_state();
        let packed = self.pack(&initial);
        self.0.state_word_bits().is_some()
            && packed.words().len() == 1
            && self.0.state_word(&initial) == packed.words().first().copied()
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
struct Erased<'a> {
    model: &'a dyn ErasedModel,
    /// [`ErasedModel::word_is_packed`], asked once.
    word_is_packed: bool,
}

impl<'a> Erased<'a> {
    fn new(model: &'a dyn ErasedModel) -> Self {
        Erased {
            model,
            word_is_packed: model.word_is_packed(),
        }
    }
}

impl Model for Erased<'_> {
    type State = PackedState;

    fn info(&self) -> &ModelInfo {
        self.model.info()
    }

    fn initial_state(&self) -> PackedState {
        self.model.initial_state()
    }

    fn successors(&self, state: &PackedState, out: &mut Vec<Successor<PackedState>>) {
        self.model.successors(state, out);
    }

    fn check_invariants(&self, state: &PackedState) -> Result<(), InvariantFailure> {
        self.model.check_invariants(state)
    }

    fn is_end_state(&self, state: &PackedState) -> bool {
        self.model.is_end_state(state)
    }

    fn state_word(&self, state: &PackedState) -> Option<u64> {
        if self.word_is_packed {
            state.words().first().copied()
        } else {
            self.model.state_word(state)
        }
    }

    fn state_word_bits(&self) -> Option<u32> {
        self.model.state_word_bits()
    }

    fn write_state_words(&self, state: &PackedState, out: &mut Vec<u64>) -> bool {
        out.extend_from_slice(state.words());
        true
    }

    fn state_from_words(&self, words: &[u64]) -> Option<PackedState> {
        Some(PackedState::from_words(words))
    }

    fn decode(&self, state: &PackedState, values: &mut Vec<i64>) {
        self.model.decode(state, values);
    }

    fn ample_safe(&self) -> &[bool] {
        self.model.ample_safe()
    }

    fn operands(&self, state: &PackedState, check: FailedCheck, out: &mut Vec<Operand>) {
        self.model.operands(state, check, out);
    }

    fn atoms_info(&self) -> &[AtomInfo] {
        self.model.atoms_info()
    }

    fn atoms(&self, state: &PackedState) -> [u64; 2] {
        self.model.atoms(state)
    }

    fn symmetry(&self) -> Option<&SymmetryInfo> {
        self.model.symmetry()
    }

    fn encode(&self, values: &[i64]) -> Option<PackedState> {
        self.model.encode(values)
    }

    fn properties(&self) -> &[PropertyInfo] {
        self.model.properties()
    }

    fn propositions(&self, property: usize, state: &PackedState) -> Result<u64, Fault> {
        self.model.propositions(property, state)
    }

    fn automaton_step(&self, property: usize, from: u32, props: u64, out: &mut Vec<u32>) {
        self.model.automaton_step(property, from, props, out);
    }
}

// The entry points are not generic, so that they and every search they reach are compiled
// here, once, whatever model calls them.

/// [`Checker::plan`](super::Checker::plan) on the search compiled once.
pub(crate) fn plan(model: &dyn ErasedModel, options: &Options) -> Result<Plan, ConfigError> {
    super::plan(&Erased::new(model), options)
}

/// [`Checker::try_run`](super::Checker::try_run) on the search compiled once.
pub(crate) fn try_run(model: &dyn ErasedModel, options: &Options) -> Result<Report, ConfigError> {
    super::try_run(&Erased::new(model), options)
}

/// [`Checker::simulate`](super::Checker::simulate) on the search compiled once.
pub(crate) fn simulate(
    model: &dyn ErasedModel,
    options: &Options,
    walks: Walks,
) -> Result<Report, ConfigError> {
    super::simulate(&Erased::new(model), options, walks)
}

/// [`Checker::replay`](super::Checker::replay) on the search compiled once.
pub(crate) fn replay(
    model: &dyn ErasedModel,
    options: &Options,
    replay: &str,
) -> Result<Counterexample, ReplayError> {
    super::replay(&Erased::new(model), options, replay)
}
