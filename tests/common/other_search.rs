//! [`OtherSearch`]: a generated model forwarded to the copy of the search it does not use
//! by itself, so that a test can compare the two copies on it: the search specialised to
//! the model's state type (generated models use it in release builds) and the one compiled
//! once behind a vtable (`Call::erased`, debug builds). Included by `#[path]` where needed
//! (the release target, bir-dist's loopback tests).

use bir::model::{
    AtomInfo, FailedCheck, Fault, InvariantFailure, ModelInfo, Operand, PropertyInfo, Successor,
    SymmetryInfo,
};
use bir::Model;

/// A generated model searched by the search it does not use by itself.
#[derive(Clone)]
pub struct OtherSearch<M>(pub M);

impl<M: Model> Model for OtherSearch<M> {
    type State = M::State;
    const HAS_SYMMETRY: bool = M::HAS_SYMMETRY;
    const HAS_LTL: bool = M::HAS_LTL;
    const WORD_STATE: bool = M::WORD_STATE;

    // The search the generated model does not use: it runs on the one compiled once in
    // debug builds, on its own copy in release builds.
    fn __check<C: bir::__private::Call>(&self, call: C) -> C::Output {
        if cfg!(debug_assertions) {
            call.specialised(self)
        } else {
            call.erased(self)
        }
    }

    fn info(&self) -> &ModelInfo {
        self.0.info()
    }
    fn initial_state(&self) -> M::State {
        self.0.initial_state()
    }
    fn successors(&self, state: &M::State, out: &mut Vec<Successor<M::State>>) {
        self.0.successors(state, out);
    }
    fn check_invariants(&self, state: &M::State) -> Result<(), InvariantFailure> {
        self.0.check_invariants(state)
    }
    fn is_end_state(&self, state: &M::State) -> bool {
        self.0.is_end_state(state)
    }
    fn state_word(&self, state: &M::State) -> Option<u64> {
        self.0.state_word(state)
    }
    fn state_word_bits(&self) -> Option<u32> {
        self.0.state_word_bits()
    }
    fn write_state_words(&self, state: &M::State, out: &mut Vec<u64>) -> bool {
        self.0.write_state_words(state, out)
    }
    fn state_from_words(&self, words: &[u64]) -> Option<M::State> {
        self.0.state_from_words(words)
    }
    fn decode(&self, state: &M::State, values: &mut Vec<i64>) {
        self.0.decode(state, values);
    }
    fn ample_safe(&self) -> &[bool] {
        self.0.ample_safe()
    }
    fn operands(&self, state: &M::State, check: FailedCheck, out: &mut Vec<Operand>) {
        self.0.operands(state, check, out);
    }
    fn atoms_info(&self) -> &[AtomInfo] {
        self.0.atoms_info()
    }
    fn atoms(&self, state: &M::State) -> [u64; 2] {
        self.0.atoms(state)
    }
    fn symmetry(&self) -> Option<&SymmetryInfo> {
        self.0.symmetry()
    }
    fn encode(&self, values: &[i64]) -> Option<M::State> {
        self.0.encode(values)
    }
    fn properties(&self) -> &[PropertyInfo] {
        self.0.properties()
    }
    fn propositions(&self, property: usize, state: &M::State) -> Result<u64, Fault> {
        self.0.propositions(property, state)
    }
    fn automaton_step(&self, property: usize, from: u32, props: u64, out: &mut Vec<u32>) {
        self.0.automaton_step(property, from, props, out);
    }
}
