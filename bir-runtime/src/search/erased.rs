//! One search for every model: the checker's entry points compiled once, in this crate, for
//! a model seen through a vtable, with its states as words (`u64`, for a model whose states
//! fit in one: [`Model::WORD_STATE`]) or as [`PackedState`]s.
//!
//! A generated model normally gets its own copy of the search, specialised to its state
//! type: the fastest search, and most of the code a model compiles to (about 50,000 LLVM
//! lines each). A model whose [`Model::__check`] answers with `Call::erased` (generated
//! models in debug builds, see `dispatch`) runs on this copy instead, so that building a
//! test crate of many models compiles only their transition functions. States cross the
//! vtable as their word ([`Model::state_word`]) or as the words the model writes them as
//! ([`Model::write_state_words`]), so the seen sets, counts, verdicts and traces are the
//! same as the specialised search's.

use std::any::Any;
use std::cell::RefCell;
use std::fmt::Debug;
use std::hash::Hash;
use std::ops::Deref;
use std::sync::Arc;

use crate::model::HeuristicInfo;
use crate::model::PackedState;
use crate::model::PropertyInfo;
use crate::model::SymmetryInfo;
use crate::model::{
    AtomInfo, FailedCheck, Fault, InvariantFailure, Model, ModelInfo, Operand, Outcome, Successor,
};

/// How the search compiled once holds a state of any model.
pub(crate) trait ErasedState: Clone + Eq + Hash + Send + Sync + Debug + 'static {
    /// `state` of `model`, written through `words` (a buffer to reuse).
    fn pack<M: Model>(model: &M, state: &M::State, words: &mut Vec<u64>) -> Self;
    /// The words `state` was written as.
    fn words(&self) -> &[u64];
    /// The state written as `words`.
    fn from_words(words: &[u64]) -> Option<Self>;
    /// The state's word, when it is held as one.
    fn word(&self) -> Option<u64>;
    /// Appends the successors of `state` of `model` as the search holds them, if the model
    /// writes them so itself ([`Model::__successors_as_words`]): `false` when it does not.
    fn successors_of<M: Model>(model: &M, state: &Self, out: &mut Vec<Successor<Self>>) -> bool;
}

/// The states of a model with [`Model::WORD_STATE`]: the word itself.
impl ErasedState for u64 {
    fn pack<M: Model>(model: &M, state: &M::State, _: &mut Vec<u64>) -> u64 {
        match model.state_word(state) {
            Some(word) => word,
            None => unreachable!("a model with WORD_STATE has a state without a word"),
        }
    }

    fn words(&self) -> &[u64] {
        std::slice::from_ref(self)
    }

    fn from_words(words: &[u64]) -> Option<u64> {
        match *words {
            [word] => Some(word),
            _ => None,
        }
    }

    fn word(&self) -> Option<u64> {
        Some(*self)
    }

    fn successors_of<M: Model>(model: &M, state: &u64, out: &mut Vec<Successor<u64>>) -> bool {
        model.__successors_as_words(*state, out)
    }
}

/// The states of any other model: their words as [`Model::write_state_words`] writes them.
impl ErasedState for PackedState {
    fn pack<M: Model>(model: &M, state: &M::State, words: &mut Vec<u64>) -> PackedState {
        words.clear();
        model.write_state_words(state, words);
        PackedState::from_words(words)
    }

    fn words(&self) -> &[u64] {
        PackedState::words(self)
    }

    fn from_words(words: &[u64]) -> Option<PackedState> {
        Some(PackedState::from_words(words))
    }

    fn word(&self) -> Option<u64> {
        None
    }

    fn successors_of<M: Model>(
        _: &M,
        _: &PackedState,
        _: &mut Vec<Successor<PackedState>>,
    ) -> bool {
        false
    }
}

/// [`Model`] without its state type and constants, so that it can be called through a
/// vtable: what the search compiled once sees of a model, with states held as `S`. Every
/// method means what the [`Model`] method of the same name does.
pub(crate) trait ErasedModel<S>: Sync {
    fn info(&self) -> &ModelInfo;
    fn initial_state(&self) -> S;
    fn successors(&self, state: &S, out: &mut Vec<Successor<S>>);
    fn check_invariants(&self, state: &S) -> Result<(), InvariantFailure>;
    fn is_end_state(&self, state: &S) -> bool;
    fn state_word(&self, state: &S) -> Option<u64>;
    fn state_word_bits(&self) -> Option<u32>;
    fn decode(&self, state: &S, values: &mut Vec<i64>);
    fn ample_safe(&self) -> &[bool];
    fn operands(&self, state: &S, check: FailedCheck, out: &mut Vec<Operand>);
    fn atoms_info(&self) -> &[AtomInfo];
    fn atoms(&self, state: &S) -> [u64; 2];
    fn symmetry(&self) -> Option<&SymmetryInfo>;
    fn encode(&self, values: &[i64]) -> Option<S>;
    fn properties(&self) -> &[PropertyInfo];
    fn propositions(&self, property: usize, state: &S) -> Result<u64, Fault>;
    fn heuristics(&self) -> &[HeuristicInfo];
    fn heuristic(&self, heuristic: usize, state: &S) -> Result<i64, Fault>;
    fn automaton_step(&self, property: usize, from: u32, props: u64, out: &mut Vec<u32>);
}

/// A model (behind `R`: a reference, or a `Box` for a model of its own) whose states are
/// converted to and from the erased search's states at every call: the per-model half of
/// the erased search (small: one conversion per method).
pub(crate) struct AsWords<R>(pub(crate) R);

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

impl<R: Deref> AsWords<R>
where
    R::Target: Model + Sized,
{
    /// `state` as the search compiled once holds it (where no buffer is at hand: the
    /// initial state, an encoding).
    fn pack<S: ErasedState>(&self, state: &<R::Target as Model>::State) -> S {
        S::pack(&*self.0, state, &mut Vec::new())
    }

    /// The model's state that `state` is. Every state of an erased search was written by
    /// [`ErasedState::pack`], and generated models read back what they write.
    fn unpack<S: ErasedState>(&self, state: &S) -> <R::Target as Model>::State {
        match self.0.state_from_words(state.words()) {
            Some(state) => state,
            None => unreachable!("a model read back words it did not write: {state:?}"),
        }
    }
}

impl<R, S> ErasedModel<S> for AsWords<R>
where
    R: Deref + Sync,
    R::Target: Model + Sized,
    S: ErasedState,
{
    fn info(&self) -> &ModelInfo {
        self.0.info()
    }

    fn initial_state(&self) -> S {
        self.pack(&self.0.initial_state())
    }

    fn successors(&self, state: &S, out: &mut Vec<Successor<S>>) {
        if S::successors_of(&*self.0, state, out) {
            return;
        }
        with_buffers(|buffers| {
            let Buffers { successors, words } = buffers;
            self.0.successors(&self.unpack(state), successors);
            for successor in successors.iter() {
                out.push(Successor {
                    transition: successor.transition,
                    outcome: match &successor.outcome {
                        Outcome::Next(next) => Outcome::Next(S::pack(&*self.0, next, words)),
                        Outcome::Fault(fault) => Outcome::Fault(*fault),
                    },
                });
            }
        });
    }

    fn check_invariants(&self, state: &S) -> Result<(), InvariantFailure> {
        self.0.check_invariants(&self.unpack(state))
    }

    fn is_end_state(&self, state: &S) -> bool {
        self.0.is_end_state(&self.unpack(state))
    }

    fn state_word(&self, state: &S) -> Option<u64> {
        self.0.state_word(&self.unpack(state))
    }

    fn state_word_bits(&self) -> Option<u32> {
        self.0.state_word_bits()
    }

    fn decode(&self, state: &S, values: &mut Vec<i64>) {
        self.0.decode(&self.unpack(state), values);
    }

    fn ample_safe(&self) -> &[bool] {
        self.0.ample_safe()
    }

    fn operands(&self, state: &S, check: FailedCheck, out: &mut Vec<Operand>) {
        self.0.operands(&self.unpack(state), check, out);
    }

    fn atoms_info(&self) -> &[AtomInfo] {
        self.0.atoms_info()
    }

    fn atoms(&self, state: &S) -> [u64; 2] {
        self.0.atoms(&self.unpack(state))
    }

    fn symmetry(&self) -> Option<&SymmetryInfo> {
        self.0.symmetry()
    }

    fn encode(&self, values: &[i64]) -> Option<S> {
        self.0.encode(values).map(|state| self.pack(&state))
    }

    fn properties(&self) -> &[PropertyInfo] {
        self.0.properties()
    }

    fn propositions(&self, property: usize, state: &S) -> Result<u64, Fault> {
        self.0.propositions(property, &self.unpack(state))
    }

    fn heuristics(&self) -> &[HeuristicInfo] {
        self.0.heuristics()
    }

    fn heuristic(&self, heuristic: usize, state: &S) -> Result<i64, Fault> {
        self.0.heuristic(heuristic, &self.unpack(state))
    }

    fn automaton_step(&self, property: usize, from: u32, props: u64, out: &mut Vec<u32>) {
        self.0.automaton_step(property, from, props, out);
    }
}

/// How the search compiled once reaches an [`ErasedModel`] with states `State`: through a
/// reference (a checker's call) or an `Arc` (a model that worker threads share).
pub(crate) trait Holds: Sync {
    /// How the search holds the model's states.
    type State: ErasedState;
    /// The model.
    fn erased(&self) -> &dyn ErasedModel<Self::State>;
}

impl<S: ErasedState> Holds for &dyn ErasedModel<S> {
    type State = S;
    fn erased(&self) -> &dyn ErasedModel<S> {
        *self
    }
}

impl<S: ErasedState> Holds for Arc<dyn ErasedModel<S> + Send> {
    type State = S;
    fn erased(&self) -> &dyn ErasedModel<S> {
        &**self
    }
}

/// The model the search compiled once runs on: any [`ErasedModel`], reached through `P`.
#[derive(Clone)]
pub(crate) struct Erased<P>(pub(crate) P);

impl<P: Holds> Model for Erased<P> {
    type State = P::State;

    fn info(&self) -> &ModelInfo {
        self.0.erased().info()
    }

    fn initial_state(&self) -> P::State {
        self.0.erased().initial_state()
    }

    fn successors(&self, state: &P::State, out: &mut Vec<Successor<P::State>>) {
        self.0.erased().successors(state, out);
    }

    fn check_invariants(&self, state: &P::State) -> Result<(), InvariantFailure> {
        self.0.erased().check_invariants(state)
    }

    fn is_end_state(&self, state: &P::State) -> bool {
        self.0.erased().is_end_state(state)
    }

    // A word held as such is its own; a packed state's is the model's (none for a
    // generated model: its states do not fit in a word).
    fn state_word(&self, state: &P::State) -> Option<u64> {
        state.word().or_else(|| self.0.erased().state_word(state))
    }

    fn state_word_bits(&self) -> Option<u32> {
        self.0.erased().state_word_bits()
    }

    fn write_state_words(&self, state: &P::State, out: &mut Vec<u64>) -> bool {
        out.extend_from_slice(state.words());
        true
    }

    fn state_from_words(&self, words: &[u64]) -> Option<P::State> {
        P::State::from_words(words)
    }

    fn decode(&self, state: &P::State, values: &mut Vec<i64>) {
        self.0.erased().decode(state, values);
    }

    fn ample_safe(&self) -> &[bool] {
        self.0.erased().ample_safe()
    }

    fn operands(&self, state: &P::State, check: FailedCheck, out: &mut Vec<Operand>) {
        self.0.erased().operands(state, check, out);
    }

    fn atoms_info(&self) -> &[AtomInfo] {
        self.0.erased().atoms_info()
    }

    fn atoms(&self, state: &P::State) -> [u64; 2] {
        self.0.erased().atoms(state)
    }

    fn symmetry(&self) -> Option<&SymmetryInfo> {
        self.0.erased().symmetry()
    }

    fn encode(&self, values: &[i64]) -> Option<P::State> {
        self.0.erased().encode(values)
    }

    fn properties(&self) -> &[PropertyInfo] {
        self.0.erased().properties()
    }

    fn propositions(&self, property: usize, state: &P::State) -> Result<u64, Fault> {
        self.0.erased().propositions(property, state)
    }

    fn heuristics(&self) -> &[HeuristicInfo] {
        self.0.erased().heuristics()
    }

    fn heuristic(&self, heuristic: usize, state: &P::State) -> Result<i64, Fault> {
        self.0.erased().heuristic(heuristic, state)
    }

    fn automaton_step(&self, property: usize, from: u32, props: u64, out: &mut Vec<u32>) {
        self.0.erased().automaton_step(property, from, props, out);
    }
}

// The entry points are not generic, so that they and every search they reach are compiled
// here, once for states held as words and once for packed states, whatever model calls
// them. A model names only the pair its `Model::WORD_STATE` chooses.
//
// They are compiled where something can call them: in debug builds (generated models run on
// them there) and with the features `quick-build` or `erased`. A plain release build
// leaves them out, so that building `bir-runtime` does not compile the whole search twice
// for nothing (they lengthen its first build considerably); `Call::erased` then answers with
// the specialised search.
#[cfg(any(debug_assertions, feature = "quick-build", feature = "erased"))]
pub(crate) use entry::*;

#[cfg(any(debug_assertions, feature = "quick-build", feature = "erased"))]
mod entry {
    use super::*;
    use crate::plan::{ConfigError, Options, Plan};
    use crate::report::Report;
    use crate::search::frontier::simulation::Walks;
    use crate::trace::Counterexample;
    use crate::trace::ReplayError;

    /// [`Checker::plan`](crate::Checker::plan) on the search compiled once, states as words.
    pub(crate) fn plan_words(model: &dyn ErasedModel<u64>, options: &Options) -> PlanOutput {
        crate::search::plan(&Erased(model), options)
    }

    /// [`Checker::plan`](crate::Checker::plan) on the search compiled once, states packed.
    pub(crate) fn plan_packed(
        model: &dyn ErasedModel<PackedState>,
        options: &Options,
    ) -> PlanOutput {
        crate::search::plan(&Erased(model), options)
    }

    /// [`Checker::try_run`](crate::Checker::try_run) on the search compiled once, states as
    /// words.
    pub(crate) fn try_run_words(model: &dyn ErasedModel<u64>, options: &Options) -> RunOutput {
        crate::search::try_run(&Erased(model), options)
    }

    /// [`Checker::try_run`](crate::Checker::try_run) on the search compiled once, states packed.
    pub(crate) fn try_run_packed(
        model: &dyn ErasedModel<PackedState>,
        options: &Options,
    ) -> RunOutput {
        crate::search::try_run(&Erased(model), options)
    }

    /// [`Checker::simulate`](crate::Checker::simulate) on the search compiled once, states as
    /// words.
    pub(crate) fn simulate_words(
        model: &dyn ErasedModel<u64>,
        options: &Options,
        walks: Walks,
    ) -> RunOutput {
        crate::search::simulate(&Erased(model), options, walks)
    }

    /// [`Checker::simulate`](crate::Checker::simulate) on the search compiled once, states
    /// packed.
    pub(crate) fn simulate_packed(
        model: &dyn ErasedModel<PackedState>,
        options: &Options,
        walks: Walks,
    ) -> RunOutput {
        crate::search::simulate(&Erased(model), options, walks)
    }

    /// [`Checker::replay`](crate::Checker::replay) on the search compiled once, states as words.
    pub(crate) fn replay_words(
        model: &dyn ErasedModel<u64>,
        options: &Options,
        replay: &str,
    ) -> ReplayOutput {
        crate::search::replay(&Erased(model), options, replay)
    }

    /// [`Checker::replay`](crate::Checker::replay) on the search compiled once, states packed.
    pub(crate) fn replay_packed(
        model: &dyn ErasedModel<PackedState>,
        options: &Options,
        replay: &str,
    ) -> ReplayOutput {
        crate::search::replay(&Erased(model), options, replay)
    }

    /// What a plan call returns.
    type PlanOutput = Result<Plan, ConfigError>;
    /// What a search or a simulation returns.
    type RunOutput = Result<Report, ConfigError>;
    /// What a replay returns.
    type ReplayOutput = Result<Counterexample, ReplayError>;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_models::Needle;
    use crate::{Checker, FindingKind, Heuristic, Verdict};

    #[test]
    fn the_models_heuristics_cross_the_vtable() {
        let needle = Needle::new(3, 5);
        let erased = AsWords(&needle);
        let model: &dyn ErasedModel<PackedState> = &erased;
        let seen = Erased(model);
        assert_eq!(seen.heuristics(), needle.heuristics());
        let mut successors = Vec::new();
        seen.successors(&seen.initial_state(), &mut successors);
        for successor in &successors {
            let Outcome::Next(next) = &successor.outcome else {
                panic!("no fault from the initial state");
            };
            let word = next.words()[0] as u32;
            assert_eq!(seen.heuristic(0, next), needle.heuristic(0, &word));
            assert_eq!(seen.heuristic(1, next), needle.heuristic(1, &word));
        }
        let direct = Checker::new(needle.clone())
            .best_first(Heuristic::Model("Distance".into()))
            .run();
        let through = Checker::new(Erased(model))
            .best_first(Heuristic::Model("Distance".into()))
            .run();
        assert_eq!(through.verdict(), Verdict::Found(FindingKind::Assertion));
        assert_eq!(through.states(), direct.states());
        assert_eq!(through.findings(), direct.findings());
    }
}
