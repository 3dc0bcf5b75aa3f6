//! Symmetry reduction as a model: the [`Quotient`] of a model by the group it declares
//! ([`Model::symmetry`]) has the model's transitions, each successor replaced by its
//! canonical form ([`crate::symmetry`]), so that every search — depth-first, breadth-first,
//! parallel, with or without partial-order reduction — runs unchanged on one representative
//! per orbit. Its counterexamples are made concrete afterwards ([`concretise`]): replayed
//! from the model's own initial state, each step choosing a transition whose successor has
//! the canonical form the search stored, so that a trace shows real instance numbers and
//! re-executes without symmetry.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use crate::model::HeuristicInfo;
use crate::model::PropertyInfo;
use crate::model::SymmetryInfo;
use crate::model::{
    Fault, InvariantFailure, Model, ModelInfo, Outcome, Successor, TransitionId, STUTTER,
};
use crate::report::Report;
use crate::search::reduce::canonical::{Canonicaliser, Group};
use crate::trace::replay;
use crate::trace::{self, Counterexample};
use crate::verdict::FindingKind;

thread_local! {
    /// Each search thread's buffers: the canonicaliser's and a decoded state.
    static SCRATCH: RefCell<(Canonicaliser, Vec<i64>)> =
        RefCell::new((Canonicaliser::new(), Vec::new()));
}

/// A model whose states are canonical forms under its symmetry.
pub(crate) struct Quotient<'m, M: Model> {
    model: &'m M,
    /// The model's symmetry, prepared once for the canonicaliser.
    group: Group<'m>,
    /// States whose canonical form was cut short by the canonicaliser's cap.
    capped: AtomicU64,
}

impl<'m, M: Model> Quotient<'m, M> {
    /// The quotient of `model` by `symmetry` (the model's own).
    pub(crate) fn new(model: &'m M, symmetry: &'m SymmetryInfo) -> Self {
        Quotient {
            model,
            group: Group::new(symmetry),
            capped: AtomicU64::new(0),
        }
    }

    /// The canonical form of `state`.
    pub(crate) fn canonical(&self, state: &M::State) -> M::State {
        SCRATCH.with(|scratch| {
            let (canon, values) = &mut *scratch.borrow_mut();
            self.model.decode(state, values);
            if !canon.canonicalise(&self.group, values) {
                self.capped.fetch_add(1, Ordering::Relaxed);
            }
            self.model.encode(values).unwrap_or_else(|| state.clone())
        })
    }

    /// How many canonical forms the cap cut short.
    pub(crate) fn capped(&self) -> u64 {
        self.capped.load(Ordering::Relaxed)
    }

    /// Replaces every counterexample of `report` (a search of this quotient) with a
    /// concrete one of the model, and notes whether the canonicaliser's cap was reached.
    /// `property` is the reachability check the search ran, if any.
    pub(crate) fn concretise_report(&self, report: &mut Report, property: Option<usize>) {
        let info = Arc::new(self.model.info().clone());
        let mut failed = 0;
        for found in &mut report.findings {
            let path: Vec<TransitionId> = found.transitions().collect();
            let concrete = match found.cycle_start() {
                Some(cycle) => concretise_lasso(self, &path, cycle).and_then(|path| {
                    trace::rebuild_lasso(self.model, &info, &path, found.message().to_string()).ok()
                }),
                None => concretise(self, &path).and_then(|steps| {
                    rebuild(self.model, &info, &steps, found.kind(), property).ok()
                }),
            };
            match concrete {
                Some(mut concrete) => {
                    if let Some(len) = found.shortened_from() {
                        concrete = concrete.with_original_len(len);
                    }
                    *found = concrete;
                }
                None => failed += 1,
            }
        }
        if failed > 0 {
            report.notes.push(format!(
                "{failed} counterexample(s) of the symmetry-reduced search could not be made \
                 concrete and show canonical states; are the model's successors \
                 deterministic?"
            ));
        }
        let capped = self.capped();
        if capped > 0 {
            report.notes.push(format!(
                "symmetry: {} states had more candidate permutations than the \
                 canonicaliser tries ({}): their forms are in their orbits, so the search is \
                 sound, but the counts may exceed the number of orbits",
                crate::units::Thousands(capped),
                crate::search::reduce::canonical::DEFAULT_CAP
            ));
        }
    }
}

/// The transitions of a concrete run of the model that follows `path`, a run of the
/// quotient: from the model's initial state, each step is a transition whose successor's
/// canonical form is the quotient's successor (the same fault site, for a failing step).
/// `None` when some step has no such transition (a nondeterministic model).
pub(crate) fn concretise<M: Model>(
    quotient: &Quotient<'_, M>,
    path: &[TransitionId],
) -> Option<Vec<TransitionId>> {
    let initial = quotient.model.initial_state();
    let mut steps = Vec::with_capacity(path.len());
    follow(quotient, initial, path, &mut steps)?;
    Some(steps)
}

/// A concrete lasso of the model for `path`, a lasso of the quotient whose cycle starts at
/// step `cycle`. The quotient's cycle returns to its canonical state, but the concrete run
/// that follows it may end in another member of that state's orbit (the instances
/// permuted), so it is followed again, from where it ended, until a concrete state
/// repeats: at most once per member of the orbit. The stem then ends at the first
/// repeated state, and the cycle is the turns from there: the same steps of the quotient,
/// so the same letters for the property's automaton.
fn concretise_lasso<M: Model>(
    quotient: &Quotient<'_, M>,
    path: &[TransitionId],
    cycle: usize,
) -> Option<replay::Path> {
    let (stem, turn) = path.split_at(cycle.min(path.len()));
    let mut steps = Vec::new();
    let mut state = follow(quotient, quotient.model.initial_state(), stem, &mut steps)?;
    // The concrete state at the start of each turn, with where its steps begin.
    let mut starts: HashMap<M::State, usize> = HashMap::new();
    loop {
        if let Some(&at) = starts.get(&state) {
            return Some(replay::Path {
                steps,
                cycle: Some(at),
            });
        }
        if starts.len() >= MAX_TURNS {
            return None;
        }
        starts.insert(state.clone(), steps.len());
        state = follow(quotient, state, turn, &mut steps)?;
    }
}

/// The most times a quotient's cycle is followed to close a concrete one. The turns start
/// at distinct members of one orbit, so a cycle closes within the orbit's size; this bounds
/// the work on a model whose orbits are larger still.
const MAX_TURNS: usize = 1 << 16;

/// Follows `path` (a run of the quotient from the canonical form of `state`) concretely
/// from `state`, appending the transitions taken to `steps`; returns the state reached (at
/// a failing step, the state it was taken from). A stutter stays where it is.
fn follow<M: Model>(
    quotient: &Quotient<'_, M>,
    mut state: M::State,
    path: &[TransitionId],
    steps: &mut Vec<TransitionId>,
) -> Option<M::State> {
    let model = quotient.model;
    let mut canonical = quotient.canonical(&state);
    let (mut wanted, mut concrete) = (Vec::new(), Vec::new());
    for &transition in path {
        if transition == STUTTER {
            steps.push(STUTTER);
            continue;
        }
        wanted.clear();
        quotient.successors(&canonical, &mut wanted);
        let target = wanted.iter().find(|s| s.transition == transition)?;
        concrete.clear();
        model.successors(&state, &mut concrete);
        let taken = concrete
            .iter()
            .find(|s| match (&target.outcome, &s.outcome) {
                (Outcome::Next(goal), Outcome::Next(next)) => quotient.canonical(next) == *goal,
                (Outcome::Fault(goal), Outcome::Fault(fault)) => goal.site == fault.site,
                _ => false,
            })?;
        steps.push(taken.transition);
        match (&taken.outcome, &target.outcome) {
            (Outcome::Next(next), Outcome::Next(goal)) => {
                state = next.clone();
                canonical = goal.clone();
            }
            _ => break,
        }
    }
    Some(state)
}

/// The counterexample of the model along `steps`, ending in a finding of `kind`.
fn rebuild<M: Model>(
    model: &M,
    info: &Arc<ModelInfo>,
    steps: &[TransitionId],
    kind: FindingKind,
    property: Option<usize>,
) -> Result<Counterexample, crate::trace::ReplayError> {
    match property {
        Some(goal) if kind == FindingKind::Reached => {
            trace::rebuild_reached(model, info, steps, goal)
        }
        Some(goal) => trace::rebuild(model, info, steps)
            .or_else(|_| trace::rebuild_predicate_fault(model, info, steps, goal)),
        None => trace::rebuild(model, info, steps),
    }
}

impl<M: Model> Model for Quotient<'_, M> {
    type State = M::State;
    // A quotient is not reduced again. Its LTL check is the model's: the group fixes every
    // instance a property names, so the propositions agree on all members of an orbit.
    const HAS_SYMMETRY: bool = false;
    const HAS_LTL: bool = M::HAS_LTL;

    fn info(&self) -> &ModelInfo {
        self.model.info()
    }

    fn initial_state(&self) -> M::State {
        self.canonical(&self.model.initial_state())
    }

    fn successors(&self, state: &M::State, out: &mut Vec<Successor<M::State>>) {
        let start = out.len();
        self.model.successors(state, out);
        for successor in &mut out[start..] {
            if let Outcome::Next(next) = &mut successor.outcome {
                *next = self.canonical(next);
            }
        }
    }

    fn check_invariants(&self, state: &M::State) -> Result<(), InvariantFailure> {
        self.model.check_invariants(state)
    }

    fn is_end_state(&self, state: &M::State) -> bool {
        self.model.is_end_state(state)
    }

    fn state_word(&self, state: &M::State) -> Option<u64> {
        self.model.state_word(state)
    }

    fn state_word_bits(&self) -> Option<u32> {
        self.model.state_word_bits()
    }

    // The words of a canonical state, for compact storage of wide states.
    fn write_state_words(&self, state: &M::State, out: &mut Vec<u64>) -> bool {
        self.model.write_state_words(state, out)
    }

    fn state_from_words(&self, words: &[u64]) -> Option<M::State> {
        self.model.state_from_words(words)
    }

    fn decode(&self, state: &M::State, values: &mut Vec<i64>) {
        self.model.decode(state, values);
    }

    fn encode(&self, values: &[i64]) -> Option<M::State> {
        self.model.encode(values)
    }

    fn ample_safe(&self) -> &[bool] {
        self.model.ample_safe()
    }

    fn properties(&self) -> &[PropertyInfo] {
        self.model.properties()
    }

    fn propositions(&self, property: usize, state: &M::State) -> Result<u64, Fault> {
        self.model.propositions(property, state)
    }

    fn heuristics(&self) -> &[HeuristicInfo] {
        self.model.heuristics()
    }

    fn heuristic(&self, heuristic: usize, state: &M::State) -> Result<i64, Fault> {
        self.model.heuristic(heuristic, state)
    }

    fn automaton_step(&self, property: usize, from: u32, props: u64, out: &mut Vec<u32>) {
        self.model.automaton_step(property, from, props, out);
    }
}
