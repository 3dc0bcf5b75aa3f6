//! The one search core. A [`Stepper`] is what one search thread does to each state and
//! successor, whatever the order of the search: it classifies a successor (new, seen,
//! faulty, violating) and expands a state (successors, deadlock, depth limit) — here —,
//! stores states within the limits (`limits`, `quota`), records findings into its
//! [`Tally`] (`findings`, `tally`), and keeps the shared [`Control`] informed (`clock`).
//! Depth-first, breadth-first, best-first, parallel and swarm search and simulation differ
//! only in their frontier — which state they expand next — and all end in [`finish`].

mod clock;
mod findings;
mod limits;
mod quota;
mod tally;

use std::ops::Range;
use std::sync::Arc;

use crate::model::{Model, ModelInfo, Outcome, Successor, TransitionId};
use crate::report::Fired;
use crate::report::Report;
use crate::store::{fingerprint, words_held_apart, Footprint, Keying, Lookup, StateIndex, Store};
use crate::trace::{self, Counterexample};
use crate::verdict::FindingKind;
use crate::verdict::IncompleteReason;

use crate::plan::Plan;
use crate::search::control::Control;
use crate::search::finish::finish;
use crate::search::ltl::product::Product;
use crate::search::reduce::ample::{AmpleSets, Proviso, Reduction};
use crate::search::reduce::shorten::Wanted;
use crate::verdict::Strategy;

use self::clock::Clock;
use self::quota::Quota;
pub(crate) use self::tally::Tally;
use crate::plan::Options;

/// What visiting one successor found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Visit {
    /// A new state, stored and satisfying the invariants: explore it.
    New,
    /// A state seen before, with what the seen set says of it (a set that numbers its
    /// states says which; a numbered word table the number it keeps for it).
    Seen(Option<StateIndex>),
    /// The step faulted: an error finding for the frontier to record.
    Fault(FindingKind),
    /// A new state, stored, that fails its invariants: an error finding for the frontier
    /// to record; it must not be expanded.
    Violating(FindingKind),
    /// A limit stopped the search; the state was not stored.
    Stopped,
}

/// What [`Stepper::admit`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Admission {
    /// The state is new, and now stored.
    New,
    /// The state was stored before; what the set says of it, as in [`Visit::Seen`].
    Seen(Option<StateIndex>),
}

/// The states stored before [`Stepper::prefetch`] fetches anything: 2^17, a seen set of
/// 1 to 2 MiB as a table of words, the size of a core's second-level cache: a smaller set
/// stays in the cache, where fetching ahead only costs instructions.
const PREFETCH_FROM: u64 = 1 << 17;

/// What every frontier of one run is given: the model, the options, the shared control,
/// the plan, and how the seen set is keyed.
pub(crate) struct Run<'a, M: Model> {
    pub(crate) model: &'a M,
    pub(crate) options: &'a Options,
    pub(crate) control: &'a Control,
    pub(crate) plan: Plan,
    pub(crate) keying: Keying,
    /// The bytes a state of the model holds outside its value
    /// ([`words_held_apart`](crate::store::words_held_apart)): counted in the memory of the
    /// sets of whole states and in the kept frames' bound.
    pub(crate) held_apart: usize,
    /// The index of the property the plan names, if any.
    pub(crate) property: Option<usize>,
    /// For a search that shortens traces: the findings it looks for.
    pub(crate) wanted: Option<Vec<Counterexample>>,
}

impl<'a, M: Model> Run<'a, M> {
    /// The run of `plan`.
    pub(crate) fn new(
        model: &'a M,
        options: &'a Options,
        control: &'a Control,
        plan: Plan,
    ) -> Self {
        let initial = model.initial_state();
        let words = model.state_word(&initial).is_some();
        let keying = plan.keying(words);
        let held_apart = words_held_apart(model, &initial);
        let property = plan
            .property
            .as_ref()
            .and_then(|name| model.properties().iter().position(|p| p.name == *name));
        Run {
            model,
            options,
            control,
            plan,
            keying,
            held_apart,
            property,
            wanted: None,
        }
    }

    /// The same run over the product of the model with an LTL property's automaton, keyed
    /// by fingerprint (hash compaction, bitstate), or else by word when the model's word
    /// and the automaton's state fit in one, or by product state.
    pub(crate) fn over_product<'p>(&self, product: &'p Product<'p, M>) -> Run<'p, Product<'p, M>>
    where
        'a: 'p,
    {
        let keying = if self.plan.storage.is_lossy() {
            Keying::Fingerprint
        } else if product.state_word(&product.initial_state()).is_some() {
            Keying::Word
        } else {
            Keying::State
        };
        Run {
            model: product,
            options: self.options,
            control: self.control,
            plan: self.plan.clone(),
            keying,
            // A product state holds its model state's words apart, and nothing more.
            held_apart: self.held_apart,
            property: self.property,
            wanted: None,
        }
    }

    /// A stepper for one thread of this run (testing new states against the reachability
    /// check's predicate, if the plan is one).
    pub(crate) fn stepper(&self, role: Role) -> Stepper<'a, M> {
        let goal = match self.plan.strategy {
            Strategy::BreadthFirst => self.property,
            _ => None,
        };
        Stepper::new(self.model, self.options, self.control, self.keying, role)
            .with_goal(goal)
            .with_por(self.plan.por)
            .with_wanted(self.wanted.clone().map(Wanted::new))
    }
}

/// Which part a stepper plays in its search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Role {
    /// The only thread: it knows the paths to its findings and keeps their traces.
    Alone,
    /// One of several threads: no paths, no traces; the state quota in chunks.
    Worker,
    /// One of several searches of their own (a swarm's): it knows its paths and keeps its
    /// traces, and takes the shared state quota in chunks.
    Member,
}

/// One search thread's core.
pub(crate) struct Stepper<'a, M: Model> {
    model: &'a M,
    options: &'a Options,
    control: &'a Control,
    info: Arc<ModelInfo>,
    keying: Keying,
    pub(crate) tally: Tally,
    /// Counterexamples to keep (0 in a parallel search, whose paths are not known).
    keep: usize,
    /// The reachability check whose predicate every new state is tested against.
    goal: Option<usize>,
    /// The ample sets of partial-order reduction (none when the search is not reduced).
    por: AmpleSets<'a>,
    /// In a search that shortens traces, the findings it records (and no others).
    wanted: Option<Wanted>,
    /// The states this thread may still store.
    quota: Quota,
    clock: Clock,
    stopped: bool,
    /// Reused for the transition ids of a path to a finding.
    path: Vec<TransitionId>,
    /// The model has invariant atoms to track for vacuity.
    atoms: bool,
}

impl<'a, M: Model> Stepper<'a, M> {
    /// A stepper for one thread of a search.
    pub(crate) fn new(
        model: &'a M,
        options: &'a Options,
        control: &'a Control,
        keying: Keying,
        role: Role,
    ) -> Self {
        let info = Arc::new(model.info().clone());
        let tally = Tally {
            fired: Fired::new(&info),
            atoms_info: model.atoms_info().to_vec(),
            ..Tally::default()
        };
        Stepper {
            model,
            options,
            control,
            info,
            keying,
            tally,
            keep: match role {
                Role::Alone | Role::Member => options.keep_going.unwrap_or(1),
                Role::Worker => 0,
            },
            goal: None,
            por: AmpleSets::none(),
            wanted: None,
            quota: Quota::new(role),
            clock: Clock::new(control.started),
            stopped: control.is_stopped(),
            path: Vec::new(),
            atoms: !model.atoms_info().is_empty(),
        }
    }

    /// Reduces the search by partial order with the model's safe locations.
    pub(crate) fn with_por(mut self, on: bool) -> Self {
        if on {
            self.por = AmpleSets::new(self.model.ample_safe());
        }
        self
    }

    /// The ample set among `successors` (one state's, in successor order), when the search
    /// is reduced and there is one smaller than all of them: the range of the first
    /// instance whose enabled transitions start at a safe location. The frontier applies
    /// its proviso before taking it.
    #[inline]
    pub(crate) fn ample(&self, successors: &[Successor<M::State>]) -> Option<Range<usize>> {
        self.por.ample(&self.info.transitions, successors)
    }

    /// Partial-order reduction of the successors of `state`, about to be (or being) the top
    /// of a depth-first stack (those of `successors` from `start` on): its ample set, unless
    /// `proviso` gives it up for the successors on the stack (`state` itself, or one that
    /// `on_stack` holds).
    pub(crate) fn reduce_to_ample(
        &self,
        state: &M::State,
        successors: &mut Vec<Successor<M::State>>,
        start: usize,
        proviso: Proviso,
        on_stack: impl Fn(&M::State) -> bool,
    ) -> Reduction {
        self.por.reduce(
            &self.info.transitions,
            state,
            successors,
            start,
            proviso,
            on_stack,
        )
    }

    /// The model's description.
    pub(crate) fn info(&self) -> &Arc<ModelInfo> {
        &self.info
    }

    /// True once this thread must stop: a finding (without keep-going) or a limit, here or
    /// in another thread.
    pub(crate) fn is_stopped(&self) -> bool {
        self.stopped
    }

    /// What the seen set is keyed by for `state`: its word, its fingerprint, or nothing.
    #[inline]
    pub(crate) fn key(&self, state: &M::State) -> Option<u64> {
        match self.keying {
            Keying::Word => self.model.state_word(state),
            Keying::Fingerprint => Some(fingerprint(state)),
            Keying::State => None,
        }
    }

    /// Stores and checks the initial state (recording a violation with the empty path).
    /// Returns it when it is to be expanded.
    pub(crate) fn start(&mut self, store: &mut impl Store<M::State>) -> Option<M::State> {
        self.start_from(self.model.initial_state(), store)
    }

    /// Stores and checks a state a search starts from (the product of an LTL search has
    /// several). Returns it when it is new and to be expanded.
    pub(crate) fn start_from(
        &mut self,
        initial: M::State,
        store: &mut impl Store<M::State>,
    ) -> Option<M::State> {
        if self.stopped || self.admit(&initial, store) != Some(Admission::New) {
            return None;
        }
        self.tally.states += 1;
        if self.tally.initial.is_empty() {
            self.model.decode(&initial, &mut self.tally.initial);
        }
        let kind = match self.model.check_invariants(&initial) {
            Ok(()) => match self.track_atoms(&initial).new_state(&initial) {
                Visit::Violating(kind) => kind,
                _ => return Some(initial),
            },
            Err(failure) => trace::invariant_failure_kind(&self.info, failure),
        };
        self.record(kind, &mut |_| {});
        None
    }

    /// Starts fetching the seen-set memory that visiting these successors will read, once
    /// this thread of the search has stored [`PREFETCH_FROM`] states: a smaller seen set
    /// stays in the processor's cache, where computing the slots to fetch is all the
    /// prefetch would do.
    #[inline]
    pub(crate) fn prefetch(
        &self,
        successors: &[Successor<M::State>],
        store: &mut impl Store<M::State>,
    ) {
        if self.tally.states < PREFETCH_FROM {
            return;
        }
        for successor in successors {
            if let Outcome::Next(next) = &successor.outcome {
                match self.keying {
                    Keying::State => store.prefetch_state(next),
                    _ => store.prefetch(self.key(next)),
                }
            }
        }
    }

    /// Counts one executed transition of a state at `from_depth` and classifies its outcome;
    /// a new state is stored and checked against the invariants.
    #[inline]
    pub(crate) fn visit(
        &mut self,
        from_depth: u32,
        successor: &Successor<M::State>,
        store: &mut impl Store<M::State>,
    ) -> Visit {
        match self.step(successor) {
            Ok(next) => self.arrive(from_depth + 1, next, store),
            Err(visit) => visit,
        }
    }

    /// Counts one executed transition: the state it leads to, or what stopped it there (a
    /// fault, or a stop of the search).
    #[inline]
    pub(crate) fn step<'s>(
        &mut self,
        successor: &'s Successor<M::State>,
    ) -> Result<&'s M::State, Visit> {
        self.tally.transitions += 1;
        self.tally.fired.mark(successor.transition);
        // No tick: the expansion that gave this successor ticked, and a state's successors
        // are few.
        if self.stopped {
            return Err(Visit::Stopped);
        }
        match &successor.outcome {
            Outcome::Fault(fault) => Err(Visit::Fault(trace::fault_kind(&self.info, *fault))),
            Outcome::Next(next) => Ok(next),
        }
    }

    /// Classifies a state reached at `depth` (by [`Self::step`], here or in another
    /// worker's search): a new state is stored and checked against the invariants.
    #[inline(always)]
    pub(crate) fn arrive(
        &mut self,
        depth: u32,
        next: &M::State,
        store: &mut impl Store<M::State>,
    ) -> Visit {
        match self.admit(next, store) {
            Some(Admission::New) => {}
            Some(Admission::Seen(mark)) => return Visit::Seen(mark),
            None => return Visit::Stopped,
        }
        self.tally.states += 1;
        self.tally.max_depth = self.tally.max_depth.max(depth);
        match self.model.check_invariants(next) {
            Ok(()) => self.track_atoms(next).new_state(next),
            Err(failure) => Visit::Violating(trace::invariant_failure_kind(&self.info, failure)),
        }
    }

    /// ORs the invariant atoms of a new state that satisfies the invariants into the tally
    /// (for vacuity), when the model has atoms.
    #[inline]
    fn track_atoms(&mut self, state: &M::State) -> &mut Self {
        if self.atoms {
            let [holds, fails] = self.model.atoms(state);
            self.tally.atoms[0] |= holds;
            self.tally.atoms[1] |= fails;
        }
        self
    }

    /// Stores `state` if it is new and the limits allow: what the set found, or `None` when
    /// a limit stopped the search (the state was not stored). Counts nothing: callers count
    /// what a new state means to them.
    #[inline(always)]
    pub(crate) fn admit(
        &mut self,
        state: &M::State,
        store: &mut impl Store<M::State>,
    ) -> Option<Admission> {
        let key = self.key(state);
        if !self.quota.has_room(self.control) {
            // At the state limit a state may still be looked up, but not stored.
            if store.contains(state, key) {
                return Some(Admission::Seen(None));
            }
            self.hit_limit(IncompleteReason::StateLimit);
            return None;
        }
        loop {
            match store.insert(state, key) {
                Lookup::New => break,
                Lookup::Seen(mark) => return Some(Admission::Seen(mark)),
                Lookup::Full(growth) => {
                    if !self.may_allocate(growth.bytes) {
                        return None;
                    }
                    store.grow(growth);
                }
                Lookup::Exhausted => {
                    self.hit_limit(IncompleteReason::StateLimit);
                    return None;
                }
            }
        }
        self.quota.spend();
        Some(Admission::New)
    }

    /// Appends the successors of `state` (at `depth`) to `arena`; true when there are some
    /// to explore. A state without any is a deadlock (recorded, with the transitions of
    /// `path` to it), a valid end state, or a deadlock with detection off. At the depth
    /// limit the successors are dropped again (the search becomes incomplete unless there
    /// were none).
    pub(crate) fn expand(
        &mut self,
        state: &M::State,
        depth: u32,
        arena: &mut Vec<Successor<M::State>>,
        path: &mut dyn FnMut(&mut Vec<TransitionId>),
    ) -> bool {
        self.tick();
        let start = arena.len();
        self.model.successors(state, arena);
        if arena.len() == start {
            if self.options.deadlock_detection && !self.model.is_end_state(state) {
                self.record(FindingKind::Deadlock, path);
            }
            return false;
        }
        if self.options.max_depth.is_some_and(|max| depth >= max) {
            arena.truncate(start);
            self.hit_limit(IncompleteReason::DepthLimit);
            return false;
        }
        true
    }

    /// Counts a transition taken by a search that revisits states (the second search of a
    /// nested depth-first search).
    pub(crate) fn count_transition(&mut self) {
        self.tally.transitions += 1;
        self.tick();
    }

    /// Ends the search of this, the only thread: the report (see [`finish`]).
    pub(crate) fn finish(self, plan: Plan, seen: &dyn Footprint, extra_bytes: usize) -> Report {
        finish(
            self.options,
            self.control,
            plan,
            self.info,
            self.tally,
            seen,
            extra_bytes,
        )
    }

    /// Counts one random walk (simulation only).
    pub(crate) fn count_walk(&mut self, depth_reached: u32) {
        self.tally.walks += 1;
        self.tally.max_depth = self.tally.max_depth.max(depth_reached);
    }
}
