//! The contract between a model and the search, the bottom layer of bir: what `bir!`
//! generates for each system (and what the reference interpreter implements, and what a
//! hand-written model implements): the [`Model`] trait, the steps and outcomes it produces
//! (`step`), the static description that traces and reports are printed from (`info`), the
//! parts a decoded state is read in (`parts`: channels, locks, call stacks), its
//! properties and symmetry, the packed state of wide models, and the hooks generated code
//! calls (`engine`, `checked`). Users reach it as `bir::model`; it depends on nothing, so
//! that the code generator and the search share one definition of it.
#![warn(missing_docs)]

#[doc(hidden)]
pub mod checked;
#[doc(hidden)]
pub mod engine;
pub mod heap;
mod info;
mod packed;
mod parts;
mod property;
mod step;
#[doc(hidden)]
pub mod symmetry;

use std::fmt::Debug;
use std::hash::Hash;

pub use heap::{FieldLayout, HeapLayout, HeapOrder, HeapRoot, HeapSlots, RecordLayout};
pub use info::{
    AtomInfo, FaultKind, FaultSite, InvariantInfo, ModelInfo, Partner, SlotInfo, SlotKind,
    TransitionInfo, MAX_ATOMS,
};
pub use packed::{PackedState, INLINE_WORDS};
pub use parts::{
    ChannelPart, Frame, HeapObject, HeapPart, Local, LockPart, LockState, ObjectLock, Part,
    SlotRole, StackPart, StateParts, Waiter,
};
// How the code generator names the slots of channels, locks, frames and records, which the
// interpreter and the tools read back: a convention between bir's own crates, not for users
// (hidden from the docs, as `bir::model` shows them).
#[doc(hidden)]
pub use parts::{
    channel_field_name, channel_length_name, frame_item_name, frame_name, heap_field_name,
    heap_live_name, heap_lock_holds_field, heap_lock_of_holds_field, is_overflow_name,
    lock_holds_name, lock_owner_name, object_wait_name, overflow_name, parse_frame_item,
    rendezvous_name, FRAME_RESULT, OBJECT_LOCK_FIELD, WAIT_HOLDS_NAME, WAIT_MARK_NAME,
};
pub use property::{
    Automaton, AutomatonEdge, AutomatonState, HeuristicInfo, PropertyInfo, PropertyKind,
};
pub use step::{
    FailedCheck, Fault, InvariantFailure, Operand, Outcome, Successor, TransitionId, STUTTER,
};
pub use symmetry::{FamilySymmetry, SymmetryInfo};

use engine::{Call, Sink};

/// A finite transition system that the checker can explore.
///
/// Implemented by the code `bir!` generates for a system (with a bit-packed `State`) and by
/// hand-written or interpreted models. All methods must be deterministic: traces are rebuilt
/// and replayed from transition ids, so the same state must always produce the same
/// successors in the same order.
pub trait Model: Sync {
    /// One state of the system. Generated models pack it into as few bits as its variables
    /// need, so that hashing, comparing and storing it is cheap.
    type State: Clone + Eq + Hash + Send + Sync + Debug + 'static;

    /// The static description of the model: variable slots, transitions, fault sites.
    fn info(&self) -> &ModelInfo;

    /// The initial state: every variable at its initial value, active instances at their
    /// first location, the other instances not started.
    fn initial_state(&self) -> Self::State;

    /// Appends every enabled transition of `state` with its outcome to `out`, in the fixed
    /// order (threads in declaration order, instances by index, transformations in source
    /// order). Does not clear `out`; must not allocate beyond growing `out`.
    fn successors(&self, state: &Self::State, out: &mut Vec<Successor<Self::State>>);

    /// Checks every invariant of the system on `state`, in declaration order.
    fn check_invariants(&self, state: &Self::State) -> Result<(), InvariantFailure>;

    /// True when every instance that has started has ended (a valid end state: having no
    /// enabled transition there is not a deadlock).
    fn is_end_state(&self, state: &Self::State) -> bool;

    /// The state as one 64-bit word, when every state of the model fits in at most 63 bits
    /// (generated models that small say so); `None` otherwise. Concurrent and compact
    /// seen sets then store a state as a single machine word. It must be injective, and
    /// never `u64::MAX`; a model that also writes its states as words
    /// ([`write_state_words`](Self::write_state_words)) writes this one word.
    fn state_word(&self, state: &Self::State) -> Option<u64> {
        let _ = state;
        None
    }

    /// How many low bits [`state_word`](Self::state_word) uses at most, when the model
    /// knows (generated models do): the product with an LTL property's automaton then keys
    /// its states by one word too, the automaton's state in the bits above. `None` (the
    /// default) when unknown.
    fn state_word_bits(&self) -> Option<u32> {
        None
    }

    /// Appends the words of `state`'s packed storage to `out` and returns true, for a search
    /// that sends states to other processes (`bir-dist`); every state of a model writes the
    /// same number of words, and [`state_from_words`](Self::state_from_words) reads them
    /// back. The default writes nothing and returns false: the model cannot be searched
    /// across processes. Generated models implement both.
    fn write_state_words(&self, state: &Self::State, out: &mut Vec<u64>) -> bool {
        let _ = (state, out);
        false
    }

    /// The state whose words [`write_state_words`](Self::write_state_words) wrote; `None`
    /// when `words` are not such words (the wrong number of them, or a value too wide).
    fn state_from_words(&self, words: &[u64]) -> Option<Self::State> {
        let _ = words;
        None
    }

    /// Clears `values` and writes the value of every slot of [`ModelInfo::slots`] in `state`,
    /// in slot order: booleans as 0/1, enums by ordinal, statuses by [`SlotKind::Status`].
    fn decode(&self, state: &Self::State, values: &mut Vec<i64>);

    /// Per transition (a [`TransitionId`]), whether the instance executing it may be expanded
    /// alone when it stands where the transition starts: every transformation there touches
    /// only what the instance owns and nothing an invariant or a property observes, so the
    /// instance's enabled transitions form an ample set (partial-order reduction). Empty
    /// (the default) when no location is known to be safe.
    fn ample_safe(&self) -> &[bool] {
        &[]
    }

    /// The variables the failing check `check` read, evaluated in `state`, appended to
    /// `out` with [`Operand::record`]: for an assertion, `state` is the state its step
    /// started from, and the actions before the `assert` are executed again so that each
    /// value is the one the assertion saw; for an invariant, `state` is the violating state.
    /// Only called to build a counterexample, never during a search. The default reports
    /// no operand.
    fn operands(&self, state: &Self::State, check: FailedCheck, out: &mut Vec<Operand>) {
        let _ = (state, check, out);
    }

    /// The atoms of the invariants tracked for vacuity (none by default); at most
    /// [`MAX_ATOMS`].
    fn atoms_info(&self) -> &[AtomInfo] {
        &[]
    }

    /// For each atom of [`Model::atoms_info`] (bit `n` for atom `n`), whether it holds in
    /// `state` for some value of the quantifiers around it (the first set) and whether it
    /// fails for some (the second). An atom whose evaluation faults sets neither bit. A
    /// complete search ORs these over every reachable state: an atom missing from either
    /// set is constant, and its invariant holds vacuously.
    fn atoms(&self, state: &Self::State) -> [u64; 2] {
        let _ = state;
        [0, 0]
    }

    /// False when [`Model::symmetry`] is always `None`: the checker then compiles no
    /// symmetry-reduced search for this model (a search over its quotient is a second copy
    /// of the search code). Generated models without a symmetric family say false; the
    /// default, true, suits a model whose symmetry is known only at run time.
    const HAS_SYMMETRY: bool = true;

    /// False when the model declares no `ltl` property: the checker then compiles no search
    /// of the product with a Büchi automaton for it. Generated models without one say
    /// false; the default is true.
    const HAS_LTL: bool = true;

    /// True when every state is one word: [`state_word`](Self::state_word) always answers,
    /// with the one word [`write_state_words`](Self::write_state_words) writes. The search
    /// compiled once for every model (see [`Model::__check`]) then holds states as words.
    /// Generated models of at most 63 bits say true; the default is false.
    const WORD_STATE: bool = false;

    /// The symmetry the code generator found: the permutations of each `active [N]`
    /// family's instances that the model (its steps, initial state, invariants and
    /// properties) cannot tell apart, and where each instance's values lie in a decoded
    /// state. `None` (the default) when the model says nothing about symmetry; symmetry
    /// reduction also needs [`Model::encode`].
    fn symmetry(&self) -> Option<&SymmetryInfo> {
        None
    }

    /// The state whose decoded values ([`Model::decode`]) are `values`, when the model can
    /// build states from values (generated models and the interpreter can); `None` (the
    /// default) otherwise. Every value lies in its slot's domain.
    fn encode(&self, values: &[i64]) -> Option<Self::State> {
        let _ = values;
        None
    }

    /// The LTL properties and reachability checks the model declares (none by default).
    fn properties(&self) -> &[PropertyInfo] {
        &[]
    }

    /// The heuristics the model declares, in declaration order (none by default): a
    /// best-first search may be ordered by one of them ([`Model::heuristic`]).
    fn heuristics(&self) -> &[HeuristicInfo] {
        &[]
    }

    /// The value of heuristic `heuristic` ([`Model::heuristics`]) in `state`: lower values
    /// are explored first. Or the fault its evaluation raised (an index or a division
    /// error, at a site of [`ModelInfo::fault_sites`]); the search then gives the state the
    /// largest value. The default is 0 for every state.
    fn heuristic(&self, heuristic: usize, state: &Self::State) -> Result<i64, Fault> {
        let _ = (heuristic, state);
        Ok(0)
    }

    /// The propositions of property `property` in `state`: bit `n` is set when the predicate
    /// [`PropertyInfo::propositions`]`[n]` holds; or the fault its evaluation raised (an
    /// index or a division error, at a site of [`ModelInfo::fault_sites`]).
    fn propositions(&self, property: usize, state: &Self::State) -> Result<u64, Fault> {
        let _ = (property, state);
        Ok(0)
    }

    /// Appends the states the automaton of LTL property `property` enters from `from` when
    /// the run enters a state with propositions `props`. The default reads the table of
    /// [`PropertyKind::Ltl`]; generated models answer with a `match`.
    fn automaton_step(&self, property: usize, from: u32, props: u64, out: &mut Vec<u32>) {
        if let Some(PropertyKind::Ltl { automaton, .. }) =
            self.properties().get(property).map(|p| &p.kind)
        {
            automaton.step(from, props, out);
        }
    }

    /// **For code generated by `bir!`.** Calls `each` with every state the automaton of
    /// LTL property `property` enters from `from` on propositions `props`, in the order of
    /// [`Model::automaton_step`]: the product of an LTL check pushes its successors from
    /// there. The default collects them in `scratch` first; generated models call `each`
    /// from their `match`.
    #[doc(hidden)]
    #[inline]
    fn __automaton_moves<F: FnMut(u32)>(
        &self,
        property: usize,
        from: u32,
        props: u64,
        scratch: &mut Vec<u32>,
        mut each: F,
    ) where
        Self: Sized,
    {
        scratch.clear();
        self.automaton_step(property, from, props, scratch);
        for &to in scratch.iter() {
            each(to);
        }
    }

    /// **For code generated by `bir!`.** Appends the successors of the state whose word is
    /// `word` (a model with [`Model::WORD_STATE`]) as words, and says `true`; `false` when
    /// the model leaves that to the search. Generated models write them so, from the same
    /// successor function as [`Model::successors`], so that the search compiled once
    /// ([`Call::erased`]), which holds their states as words, need not convert each one.
    #[doc(hidden)]
    fn __successors_as_words(&self, word: u64, out: &mut Vec<Successor<u64>>) -> bool {
        let _ = (word, out);
        false
    }

    /// **For code generated by `bir!`.** Gives every successor of `state` to `sink`, in
    /// the order of [`Model::successors`]: the product of an LTL check pairs each model
    /// step with the automaton's moves as the model computes it, instead of reading the
    /// steps back from a vector. The default computes them into `scratch` first; generated
    /// models give them straight from their successor function.
    #[doc(hidden)]
    #[inline]
    fn __successors_to<K: Sink<Self::State>>(
        &self,
        state: &Self::State,
        sink: &mut K,
        scratch: &mut Vec<Successor<Self::State>>,
    ) where
        Self: Sized,
    {
        scratch.clear();
        self.successors(state, scratch);
        for successor in scratch.drain(..) {
            sink.push_successor(successor);
        }
    }

    /// **For code generated by `bir!`.** Answers one call of a `Checker`
    /// on this model with the search it runs on: by default, a copy of the search specialised
    /// to [`Model::State`] ([`Call::specialised`]). Generated models answer with the one
    /// search compiled in this crate for every model in debug builds ([`Call::erased`]: the
    /// same counts, verdicts and traces, compiled once, and slower to run), where a test
    /// crate of many models would otherwise compile the search once per model, and with
    /// [`Call::release`] in release builds.
    #[doc(hidden)]
    fn __check<C: Call>(&self, call: C) -> C::Output
    where
        Self: Sized,
    {
        call.specialised(self)
    }
}
