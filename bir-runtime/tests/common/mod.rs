//! Hand-written models for the limit tests: state spaces far larger than any limit, with
//! narrow states (one word), wide states on the heap, and slow steps. Each test binary
//! uses some of them.
#![allow(dead_code)]

use std::borrow::Cow;
use std::time::Duration;

use bir_runtime::model::{
    InvariantFailure, ModelInfo, Outcome, SlotInfo, SlotKind, Successor, TransitionInfo,
};
use bir_runtime::Model;

/// The description of a one-variable, one-thread model with two transitions.
pub fn info(name: &'static str) -> ModelInfo {
    let transition = |to: &'static str| TransitionInfo {
        thread: "T".into(),
        instance: 0,
        from: "a".into(),
        to: to.into(),
        text: "...".into(),
        line: 0,
        partner: None,
    };
    ModelInfo {
        name: name.into(),
        slots: vec![SlotInfo {
            name: "x".into(),
            element: None,
            kind: SlotKind::Int,
        }]
        .into(),
        transitions: vec![transition("a"), transition("a")].into(),
        fault_sites: Cow::Borrowed(&[]),
        invariants: Cow::Borrowed(&[]),
    }
}

/// The two successors of `x` in a space of 2^40 values: every state has two, so a search
/// never ends on its own.
fn next(x: u64, which: u64) -> u64 {
    x.wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1 + 2 * which)
        & ((1 << 40) - 1)
}

/// States that fit in a word, stored as words.
pub struct Narrow(pub ModelInfo);

impl Model for Narrow {
    type State = u64;

    fn info(&self) -> &ModelInfo {
        &self.0
    }
    fn initial_state(&self) -> u64 {
        0
    }
    fn successors(&self, &x: &u64, out: &mut Vec<Successor<u64>>) {
        for which in 0..2 {
            let outcome = Outcome::Next(next(x, which));
            out.push(Successor {
                transition: which as u32,
                outcome,
            });
        }
    }
    fn check_invariants(&self, _: &u64) -> Result<(), InvariantFailure> {
        Ok(())
    }
    fn is_end_state(&self, _: &u64) -> bool {
        false
    }
    fn state_word(&self, &x: &u64) -> Option<u64> {
        Some(x)
    }
    fn decode(&self, &x: &u64, values: &mut Vec<i64>) {
        values.clear();
        values.push(x as i64);
    }
}

/// Wide states that live on the heap (as the interpreter's do): 32 values each.
pub struct Wide(pub ModelInfo);

impl Model for Wide {
    type State = Box<[i64]>;

    fn info(&self) -> &ModelInfo {
        &self.0
    }
    fn initial_state(&self) -> Box<[i64]> {
        vec![0; 32].into_boxed_slice()
    }
    fn successors(&self, state: &Box<[i64]>, out: &mut Vec<Successor<Box<[i64]>>>) {
        for which in 0..2 {
            let mut next_state = state.clone();
            next_state[0] = next(state[0] as u64, which) as i64;
            next_state[31] = next_state[0] ^ 0x5555;
            out.push(Successor {
                transition: which as u32,
                outcome: Outcome::Next(next_state),
            });
        }
    }
    fn check_invariants(&self, _: &Box<[i64]>) -> Result<(), InvariantFailure> {
        Ok(())
    }
    fn is_end_state(&self, _: &Box<[i64]>) -> bool {
        false
    }
    fn decode(&self, state: &Box<[i64]>, values: &mut Vec<i64>) {
        values.clear();
        values.push(state[0]);
    }
}

/// A model whose every expansion takes `step` of wall time (a slow guard, say).
pub struct Slow<M>(pub M, pub Duration);

impl<M: Model> Model for Slow<M> {
    type State = M::State;

    fn info(&self) -> &ModelInfo {
        self.0.info()
    }
    fn initial_state(&self) -> M::State {
        self.0.initial_state()
    }
    fn successors(&self, state: &M::State, out: &mut Vec<Successor<M::State>>) {
        std::thread::sleep(self.1);
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
    fn decode(&self, state: &M::State, values: &mut Vec<i64>) {
        self.0.decode(state, values);
    }
}
