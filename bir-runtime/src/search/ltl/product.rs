//! The product of a model with the Büchi automaton of an LTL property's negation, as a
//! [`Model`] of its own, so that the LTL searches run on the one search core (the
//! [`Stepper`](super::core::Stepper), the seen sets, the limits).
//!
//! A product state is a model state and an automaton state: the automaton's state after
//! reading the model state's propositions. A product step is a model step into `s'`
//! paired with an automaton edge allowed by the propositions of `s'`; a model state
//! without successors (a deadlock or a valid end state) steps to itself, marked
//! [`STUTTER`], so that every run is infinite (LANGUAGE.md, "Runs"). A fault of a model
//! step, or of evaluating the predicates, is a step that faults.

use std::sync::Mutex;

use crate::model::{
    Fault, InvariantFailure, Model, ModelInfo, Outcome, Successor, TransitionId, STUTTER,
};
use crate::plan::{automaton_bits, product_word_bits};
use crate::store::lock;

/// The product of `model` with the automaton of its LTL property number `property`.
pub(crate) struct Product<'a, M: Model> {
    model: &'a M,
    property: usize,
    accepting: Vec<bool>,
    /// Whether the automaton is weak ([`Automaton::is_weak`](crate::Automaton::is_weak)).
    weak: bool,
    /// Where the automaton's state starts in a product state's word: above the model's
    /// word, when both fit in 63 bits together; `None` otherwise.
    automaton_shift: Option<u32>,
    /// The bits of the automaton's states.
    automaton_bits: u32,
    /// Buffers for the model's steps and the automaton's moves, reused by every expansion
    /// through [`Model::successors`] (the LTL searches run on one thread: the lock is never
    /// contended). The nested and fair-cycle searches pass their own instead
    /// ([`Product::successors_with`], [`Product::successors_and_enabled`]).
    scratch: Mutex<Scratch<M::State>>,
}

/// Buffers for the model's steps and the automaton's moves, reused by every expansion of
/// a model that gives them through the trait's defaults ([`Model::__successors_to`],
/// [`Model::__automaton_moves`]: the interpreter, the wrappers of the search compiled once
/// and of symmetry reduction); a generated model gives both straight to the product and
/// leaves them empty.
pub(crate) struct Scratch<S> {
    steps: Vec<Successor<S>>,
    entered: Vec<u32>,
}

impl<S> Scratch<S> {
    /// Empty buffers.
    pub(crate) fn new() -> Self {
        Scratch {
            steps: Vec::new(),
            entered: Vec::new(),
        }
    }
}

impl<'a, M: Model> Product<'a, M> {
    /// The product with property `property`, which must be an LTL property of the model.
    pub(crate) fn new(model: &'a M, property: usize) -> Self {
        let (accepting, weak) = match model.properties().get(property).map(|p| &p.kind) {
            Some(crate::model::PropertyKind::Ltl { automaton, .. }) => (
                automaton.states.iter().map(|s| s.accepting).collect(),
                automaton.is_weak(),
            ),
            _ => (Vec::new(), false),
        };
        let automaton_bits = automaton_bits(accepting.len());
        let automaton_shift = product_word_bits(model, property).map(|bits| bits - automaton_bits);
        Product {
            model,
            property,
            accepting,
            weak,
            automaton_shift,
            automaton_bits,
            scratch: Mutex::new(Scratch::new()),
        }
    }

    /// The model.
    pub(crate) fn model(&self) -> &'a M {
        self.model
    }

    /// Whether the automaton is weak: every cycle of the product through an accepting
    /// state is accepting.
    pub(crate) fn is_weak(&self) -> bool {
        self.weak
    }

    /// Whether the automaton part of `state` is accepting.
    pub(crate) fn is_accepting(&self, state: &(M::State, u32)) -> bool {
        self.accepting.get(state.1 as usize) == Some(&true)
    }

    /// The product state whose word ([`Model::state_word`]) is `word`, when the model reads
    /// its states back from one word ([`Model::state_from_words`]: generated models of one
    /// word); `None` otherwise.
    pub(crate) fn state_from_word(&self, word: u64) -> Option<(M::State, u32)> {
        let shift = self.automaton_shift?;
        let low = word & 1u64.checked_shl(shift)?.wrapping_sub(1);
        let state = self.model.state_from_words(&[low])?;
        Some((state, u32::try_from(word >> shift).ok()?))
    }

    /// Whether [`Self::state_from_word`] gives the product's states back from their words:
    /// tried on the initial state.
    pub(crate) fn words_give_states_back(&self) -> bool {
        let state = (self.model.initial_state(), 0);
        self.state_word(&state)
            .and_then(|word| self.state_from_word(word))
            .is_some_and(|back| back == state)
    }

    /// The initial product states: the model's initial state with every automaton state
    /// the start reaches on its propositions; or the fault of evaluating them.
    pub(crate) fn initial_states(&self) -> Result<Vec<(M::State, u32)>, Fault> {
        let initial = self.model.initial_state();
        let props = self.model.propositions(self.property, &initial)?;
        let mut entered = Vec::new();
        self.model
            .automaton_step(self.property, 0, props, &mut entered);
        Ok(entered.into_iter().map(|q| (initial.clone(), q)).collect())
    }

    /// Appends the product steps into `next` by model transition `transition`. Always
    /// inlined: LLVM, left to choose, drops it out of the expansion whenever the search
    /// around grows a little, and the LTL checks then execute more instructions.
    #[inline(always)]
    fn pair(
        &self,
        transition: TransitionId,
        next: &M::State,
        from: u32,
        out: &mut Vec<Successor<(M::State, u32)>>,
        entered: &mut Vec<u32>,
    ) {
        match self.model.propositions(self.property, next) {
            Err(fault) => out.push(Successor {
                transition,
                outcome: Outcome::Fault(fault),
            }),
            Ok(props) => {
                self.model
                    .__automaton_moves(self.property, from, props, entered, |q| {
                        out.push(Successor {
                            transition,
                            outcome: Outcome::Next((next.clone(), q)),
                        })
                    });
            }
        }
    }

    /// The product steps from `(state, q)` into `out`, and the transitions of the model
    /// enabled in `state` into `enabled` (those whose step faults included; none for a
    /// stutter), for fairness; with the buffers `scratch`, as
    /// [`successors_with`](Self::successors_with).
    pub(crate) fn successors_and_enabled(
        &self,
        state: &(M::State, u32),
        out: &mut Vec<Successor<(M::State, u32)>>,
        enabled: &mut Vec<TransitionId>,
        scratch: &mut Scratch<M::State>,
    ) {
        self.expand(state, out, Some(enabled), scratch);
    }

    /// [`Model::successors`] with the buffers `scratch` instead of the product's own, which
    /// sit behind a lock: taking and releasing it cost about a third of an expansion of
    /// Peterson's filter.
    pub(crate) fn successors_with(
        &self,
        state: &(M::State, u32),
        out: &mut Vec<Successor<(M::State, u32)>>,
        scratch: &mut Scratch<M::State>,
    ) {
        self.expand(state, out, None, scratch);
    }

    /// The product steps from `(state, q)` into `out`, and, if asked, the model's enabled
    /// transitions into `enabled`, with the buffers `scratch`. Each model step is paired
    /// with the automaton's moves as the model gives it ([`Pairs`]).
    fn expand(
        &self,
        (state, q): &(M::State, u32),
        out: &mut Vec<Successor<(M::State, u32)>>,
        enabled: Option<&mut Vec<TransitionId>>,
        scratch: &mut Scratch<M::State>,
    ) {
        let Scratch { steps, entered } = scratch;
        let mut pairs = Pairs {
            product: self,
            from: *q,
            out,
            enabled,
            entered,
            stepped: false,
        };
        self.model.__successors_to(state, &mut pairs, steps);
        if !pairs.stepped {
            self.pair(STUTTER, state, *q, pairs.out, pairs.entered);
        }
    }
}

/// The sink that pairs each step of the model from a product state's model state with the
/// moves of the automaton from its automaton state `from`, into the product's successors
/// `out`; the model's transitions into `enabled`, when asked.
struct Pairs<'p, 'a, M: Model> {
    product: &'p Product<'a, M>,
    from: u32,
    out: &'p mut Vec<Successor<(M::State, u32)>>,
    enabled: Option<&'p mut Vec<TransitionId>>,
    entered: &'p mut Vec<u32>,
    /// Whether the model gave any step (else the state stutters).
    stepped: bool,
}

impl<M: Model> crate::model::engine::Sink<M::State> for Pairs<'_, '_, M> {
    #[inline(always)]
    fn push_successor(&mut self, step: Successor<M::State>) {
        self.stepped = true;
        if let Some(enabled) = self.enabled.as_deref_mut() {
            enabled.push(step.transition);
        }
        match step.outcome {
            Outcome::Fault(fault) => self.out.push(Successor {
                transition: step.transition,
                outcome: Outcome::Fault(fault),
            }),
            Outcome::Next(next) => {
                self.product
                    .pair(step.transition, &next, self.from, self.out, self.entered)
            }
        }
    }
}

impl<M: Model> Model for Product<'_, M> {
    type State = (M::State, u32);
    // The product is searched by the LTL searches themselves, never reduced or multiplied.
    const HAS_SYMMETRY: bool = false;
    const HAS_LTL: bool = false;

    fn info(&self) -> &ModelInfo {
        self.model.info()
    }

    /// The model's initial state with the automaton's start: the searches begin from
    /// [`Product::initial_states`] instead.
    fn initial_state(&self) -> (M::State, u32) {
        (self.model.initial_state(), 0)
    }

    fn successors(&self, state: &(M::State, u32), out: &mut Vec<Successor<(M::State, u32)>>) {
        self.expand(state, out, None, &mut lock(&self.scratch));
    }

    fn check_invariants(&self, (state, _): &(M::State, u32)) -> Result<(), InvariantFailure> {
        self.model.check_invariants(state)
    }

    /// Every run is infinite in the product: a state without successors is no deadlock (its
    /// automaton has no way on, so no violation passes through it).
    fn is_end_state(&self, _: &(M::State, u32)) -> bool {
        true
    }

    /// The model's word with the automaton's state above it, when both fit.
    fn state_word(&self, (state, q): &(M::State, u32)) -> Option<u64> {
        let shift = self.automaton_shift?;
        Some(self.model.state_word(state)? | (u64::from(*q) << shift))
    }

    fn state_word_bits(&self) -> Option<u32> {
        Some(self.automaton_shift? + self.automaton_bits)
    }

    /// The model's words, and the automaton's state as one more: compact storage keeps
    /// product states too wide for a word as trees of these.
    fn write_state_words(&self, (state, q): &(M::State, u32), out: &mut Vec<u64>) -> bool {
        let written = self.model.write_state_words(state, out);
        if written {
            out.push(u64::from(*q));
        }
        written
    }

    fn state_from_words(&self, words: &[u64]) -> Option<(M::State, u32)> {
        let (q, words) = words.split_last()?;
        Some((self.model.state_from_words(words)?, u32::try_from(*q).ok()?))
    }

    fn decode(&self, (state, _): &(M::State, u32), values: &mut Vec<i64>) {
        self.model.decode(state, values);
    }

    /// The model's: a product step is a model step (a stutter is in no ample set).
    fn ample_safe(&self) -> &[bool] {
        self.model.ample_safe()
    }
}

#[cfg(test)]
mod tests {
    use crate::test_models::{
        automaton, NOT_INFINITELY_OFTEN_P, NOT_INFINITELY_OFTEN_P_NOT_WEAK, NOT_P_LEADS_TO_Q,
    };

    #[test]
    fn weak_automata_have_no_part_both_accepting_and_rejecting() {
        assert!(automaton(NOT_INFINITELY_OFTEN_P).is_weak());
        assert!(automaton(NOT_P_LEADS_TO_Q).is_weak());
        assert!(!automaton(NOT_INFINITELY_OFTEN_P_NOT_WEAK).is_weak());
        // `[]<>p`: back to the rejecting start after each accepting p.
        assert!(!automaton(&[(false, &[(0, 0, 1), (1, 1, 0)]), (true, &[(0, 0, 0)])]).is_weak());
        // The same with the way back impossible (p and not p): weak.
        assert!(automaton(&[(false, &[(0, 0, 1), (1, 1, 0)]), (true, &[(0, 1, 1)])]).is_weak());
    }
}
