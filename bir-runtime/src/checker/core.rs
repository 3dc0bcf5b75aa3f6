//! The one search core. A [`Stepper`] is what one search thread does to each state and
//! successor, whatever the order of the search: it classifies a successor (new, seen,
//! faulty, violating), expands a state (successors, deadlock, depth limit), stores states
//! within the limits, records findings into its [`Tally`], and keeps the shared
//! [`Control`] informed. Depth-first, breadth-first, parallel search and simulation differ
//! only in their frontier — which state they expand next — and all end in [`finish`].

use std::ops::Range;
use std::sync::Arc;
use std::time::Instant;

use crate::coverage::Fired;
use crate::model::{Model, ModelInfo, Outcome, Successor, TransitionId};
use crate::replay::ReplayError;
use crate::report::{IncompleteReason, Report};
use crate::seen::{fingerprint, words_held_apart, Footprint, Keying, Lookup, StateIndex, Store};
use crate::trace::{self, Counterexample, FindingKind};

use super::control::Control;
use super::finish::finish;
use super::plan::Plan;
use super::product::Product;
use super::shorten::Wanted;
use super::Options;

/// States a thread takes from the state quota at once (a sequential search takes all).
const QUOTA_CHUNK: u64 = 256;

/// The longest and shortest stretch of work (expansions, and the red search's steps) between
/// two looks at the clock; the stretch adapts so that the clock is read about every
/// [`SYNC_TARGET_NANOS`], whatever a model's steps cost.
const MAX_STRETCH: u64 = 4096;
const SYNC_TARGET_NANOS: u128 = 500_000;

/// What [`Stepper::reduce_to_ample`] did to a state's successors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reduction {
    /// There is no ample set smaller than all of them: all are kept.
    Full,
    /// All are kept: the ample set stays on the stack (the cycle proviso).
    Proviso,
    /// Only the ample set is kept; `skipped` successors came before it.
    Ample { skipped: usize },
}

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

/// The order in which a breadth-first or parallel frontier visits the successors of a state
/// under partial-order reduction: the ample set first, then the others only if the ample
/// set stored no new state (the proviso for these searches: a cycle of ample steps through
/// seen states could otherwise postpone the other instances forever). Without an ample
/// set, every successor in order.
pub(crate) struct VisitOrder {
    ample: Option<Range<usize>>,
    len: usize,
    next: usize,
    /// Still inside the ample set.
    first: bool,
    found_new: bool,
}

impl VisitOrder {
    /// The order for `len` successors with this ample set.
    pub(crate) fn new(ample: Option<Range<usize>>, len: usize) -> VisitOrder {
        let next = ample.as_ref().map_or(0, |a| a.start);
        VisitOrder {
            ample,
            len,
            next,
            first: true,
            found_new: false,
        }
    }

    /// The visit of the last index given stored a new state.
    pub(crate) fn stored_new(&mut self) {
        self.found_new = true;
    }

    /// The next successor to visit, if any.
    pub(crate) fn next_index(&mut self) -> Option<usize> {
        let Some(ample) = &self.ample else {
            let index = self.next;
            self.next += 1;
            return (index < self.len).then_some(index);
        };
        if self.first {
            if self.next < ample.end {
                self.next += 1;
                return Some(self.next - 1);
            }
            if self.found_new {
                return None;
            }
            self.first = false;
            self.next = 0;
        }
        if self.next == ample.start {
            self.next = ample.end;
        }
        let index = self.next;
        self.next += 1;
        (index < self.len).then_some(index)
    }
}

/// The states stored before [`Stepper::prefetch`] fetches anything: 2^17, a seen set of
/// 1 to 2 MiB as a table of words (the second-level cache of one core of the machine the
/// figures in the README were measured on).
const PREFETCH_FROM: u64 = 1 << 17;

/// What one search thread counted and found.
#[derive(Debug, Default)]
pub(crate) struct Tally {
    pub(crate) states: u64,
    pub(crate) transitions: u64,
    pub(crate) errors: u64,
    pub(crate) deadlocks: u64,
    pub(crate) max_depth: u32,
    pub(crate) walks: u64,
    /// The counterexamples kept, in the order recorded.
    pub(crate) findings: Vec<Counterexample>,
    /// Every kind of finding met, in the order first met: the first is the verdict.
    pub(crate) kinds: Vec<FindingKind>,
    pub(crate) notes: Vec<String>,
    /// The transitions executed, for the coverage.
    pub(crate) fired: Fired,
    /// For each invariant atom (`Model::atoms`), whether some stored state made it hold
    /// and whether some made it fail, for vacuity.
    pub(crate) atoms: [u64; 2],
    /// The model's invariant atoms ([`Model::atoms_info`]).
    pub(crate) atoms_info: Vec<crate::model::AtomInfo>,
    /// The initial state, decoded (by the thread that stored it), for the coverage.
    pub(crate) initial: Vec<i64>,
}

impl Tally {
    /// Adds another thread's tally (its findings after this one's).
    pub(crate) fn merge(&mut self, other: Tally) {
        self.states += other.states;
        self.transitions += other.transitions;
        self.errors += other.errors;
        self.deadlocks += other.deadlocks;
        self.max_depth = self.max_depth.max(other.max_depth);
        self.walks += other.walks;
        self.findings.extend(other.findings);
        for kind in other.kinds {
            if !self.kinds.contains(&kind) {
                self.kinds.push(kind);
            }
        }
        self.notes.extend(other.notes);
        self.fired.merge(&other.fired);
        self.atoms[0] |= other.atoms[0];
        self.atoms[1] |= other.atoms[1];
        if self.initial.is_empty() {
            self.initial = other.initial;
        }
    }
}

/// What every frontier of one run is given: the model, the options, the shared control,
/// the plan, and how the seen set is keyed.
pub(crate) struct Run<'a, M: Model> {
    pub(crate) model: &'a M,
    pub(crate) options: &'a Options,
    pub(crate) control: &'a Control,
    pub(crate) plan: Plan,
    pub(crate) keying: Keying,
    /// The bytes a state of the model holds outside its value
    /// ([`words_held_apart`](crate::seen::words_held_apart)): counted in the memory of the
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
            crate::report::Strategy::BreadthFirst => self.property,
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
    /// Per transition, whether its location is safe for partial-order reduction; empty
    /// when the search is not reduced.
    safe: &'a [bool],
    /// In a search that shortens traces, the findings it records (and no others).
    wanted: Option<Wanted>,
    role: Role,
    /// States this thread may still store before it asks the quota for more.
    quota: u64,
    /// Work done, and the work at which the next look at the clock is due.
    work: u64,
    next_sync: u64,
    stretch: u64,
    last_sync: Instant,
    /// What was published to the control.
    published: (u64, u64),
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
                Role::Alone => options.keep_going.unwrap_or(1),
                Role::Worker => 0,
            },
            role,
            goal: None,
            safe: &[],
            wanted: None,
            quota: 0,
            work: 0,
            next_sync: 1,
            stretch: 1,
            last_sync: control.started,
            published: (0, 0),
            stopped: control.is_stopped(),
            path: Vec::new(),
            atoms: !model.atoms_info().is_empty(),
        }
    }

    /// Reduces the search by partial order with the model's safe locations.
    pub(crate) fn with_por(mut self, on: bool) -> Self {
        if on {
            self.safe = self.model.ample_safe();
        }
        self
    }

    /// The ample set among `successors` (one state's, in successor order), when the search
    /// is reduced and there is one smaller than all of them: the range of the first
    /// instance whose enabled transitions start at a safe location. The frontier applies
    /// its proviso before taking it.
    pub(crate) fn ample(&self, successors: &[Successor<M::State>]) -> Option<Range<usize>> {
        if self.safe.is_empty() {
            return None;
        }
        let transitions = &self.info.transitions;
        let instance =
            |s: &Successor<M::State>| transitions.get(s.transition as usize).map(|t| t.instance);
        let mut start = 0;
        while start < successors.len() {
            let first = &successors[start];
            let this = instance(first);
            let end = start
                + successors[start..]
                    .iter()
                    .take_while(|s| instance(s) == this)
                    .count();
            if self.safe.get(first.transition as usize) == Some(&true) {
                return (end - start < successors.len()).then_some(start..end);
            }
            start = end;
        }
        None
    }

    /// Partial-order reduction of the successors of `state`, about to be (or being) the top
    /// of a depth-first stack (those of `successors` from `start` on): its ample set, unless
    /// every successor in it stays on the stack (`state` itself, or one that `on_stack`
    /// holds) — the cycle proviso (Holzmann, Peled and Yannakakis), without which a cycle of
    /// ample steps could postpone the other instances forever.
    pub(crate) fn reduce_to_ample(
        &self,
        state: &M::State,
        successors: &mut Vec<Successor<M::State>>,
        start: usize,
        on_stack: impl Fn(&M::State) -> bool,
    ) -> Reduction {
        let Some(ample) = self.ample(&successors[start..]) else {
            return Reduction::Full;
        };
        let leaves_the_stack = successors[start + ample.start..start + ample.end]
            .iter()
            .any(|s| match &s.outcome {
                Outcome::Next(next) => next != state && !on_stack(next),
                Outcome::Fault(_) => true,
            });
        if !leaves_the_stack {
            return Reduction::Proviso;
        }
        successors.truncate(start + ample.end);
        successors.drain(start..start + ample.start);
        Reduction::Ample {
            skipped: ample.start,
        }
    }

    /// Records only findings that match one of `wanted` (the first match of each), and
    /// stops once every one has its match.
    pub(crate) fn with_wanted(mut self, wanted: Option<Wanted>) -> Self {
        if let Some(wanted) = &wanted {
            self.keep = wanted.len();
        }
        self.wanted = wanted;
        self
    }

    /// Tests every new state against the predicate of reachability check `property`: a
    /// state that satisfies it is a [`FindingKind::Reached`].
    pub(crate) fn with_goal(mut self, property: Option<usize>) -> Self {
        self.goal = property;
        self
    }

    /// What a new state that satisfies the invariants is: new, or a finding when it
    /// satisfies the reachability check's predicate (or evaluating it faults).
    fn new_state(&self, state: &M::State) -> Visit {
        let Some(goal) = self.goal else {
            return Visit::New;
        };
        match self.model.propositions(goal, state) {
            Ok(props) if props & 1 != 0 => Visit::Violating(FindingKind::Reached),
            Ok(_) => Visit::New,
            Err(fault) => Visit::Violating(trace::fault_kind(&self.info, fault)),
        }
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

    /// Whether recording a finding of `kind` now would build its counterexample (call the
    /// `build` of [`Self::record_with`]): a search whose path is costly to gather asks
    /// first, so that keeping going past many findings does not gather it for each.
    pub(crate) fn builds_trace(&self, kind: FindingKind) -> bool {
        match &self.wanted {
            Some(wanted) => wanted.wants(kind),
            None => self.keeps_next_trace(),
        }
    }

    /// True when the next finding's counterexample will be kept (so its path is needed).
    pub(crate) fn keeps_next_trace(&self) -> bool {
        self.tally.findings.len() < self.keep
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
        if self.keying == Keying::State || self.tally.states < PREFETCH_FROM {
            return;
        }
        for successor in successors {
            if let Outcome::Next(next) = &successor.outcome {
                store.prefetch(self.key(next));
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
            Some(Admission::Seen(said)) => return Visit::Seen(said),
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

    fn quota_chunk(&self) -> u64 {
        match self.role {
            Role::Alone => u64::MAX,
            Role::Worker => QUOTA_CHUNK,
        }
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
        if self.quota == 0 {
            self.quota = self.control.reserve_states(self.quota_chunk());
            if self.quota == 0 {
                // At the state limit a state may still be looked up, but not stored.
                if store.contains(state, key) {
                    return Some(Admission::Seen(None));
                }
                self.hit_limit(IncompleteReason::StateLimit);
                return None;
            }
        }
        loop {
            match store.insert(state, key) {
                Lookup::New => break,
                Lookup::Seen(said) => return Some(Admission::Seen(said)),
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
        self.quota -= 1;
        Some(Admission::New)
    }

    /// True (and the search incomplete) when a state at `depth` is at the depth limit: its
    /// successors are not to be explored.
    pub(crate) fn at_depth_limit(&mut self, depth: u32) -> bool {
        let at_limit = self.is_at_depth_limit(depth);
        if at_limit {
            self.hit_limit(IncompleteReason::DepthLimit);
        }
        at_limit
    }

    /// Whether a state at `depth` is at the depth limit ([`Self::at_depth_limit`] without
    /// making the search incomplete: for a state that was found there before).
    pub(crate) fn is_at_depth_limit(&self, depth: u32) -> bool {
        self.options.max_depth.is_some_and(|max| depth >= max)
    }

    /// Gives the states this thread may still store back to the shared quota, for the
    /// other threads.
    pub(crate) fn release_quota(&mut self) {
        if self.role == Role::Worker {
            self.control.release_states(std::mem::take(&mut self.quota));
        }
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

    /// Counts a finding and keeps its counterexample while fewer than the configured number
    /// are kept; `path` writes the transition ids from the initial state to it. Without
    /// keep-going, the search stops here.
    /// The path and the rebuild are passed as trait objects: they run once per kept
    /// counterexample, and a generic parameter would make a copy of this code for every
    /// caller's closure in every model (a fifth of a small model's generated code).
    pub(crate) fn record(
        &mut self,
        kind: FindingKind,
        path: &mut dyn FnMut(&mut Vec<TransitionId>),
    ) {
        let (model, info, goal) = (self.model, Arc::clone(&self.info), self.goal);
        self.record_with(kind, &mut |steps| {
            path(steps);
            match goal {
                Some(goal) if kind == FindingKind::Reached => {
                    trace::rebuild_reached(model, &info, steps, goal)
                }
                Some(goal) => trace::rebuild(model, &info, steps)
                    .or_else(|_| trace::rebuild_predicate_fault(model, &info, steps, goal)),
                None => trace::rebuild(model, &info, steps),
            }
        });
    }

    /// Like [`Self::record`], with the counterexample built by `build`, which writes the
    /// transition ids of its path into the buffer it is given (for a note, should the
    /// rebuild fail): for searches whose states are not the model's (the LTL product).
    pub(crate) fn record_with(
        &mut self,
        kind: FindingKind,
        build: &mut dyn FnMut(&mut Vec<TransitionId>) -> Result<Counterexample, ReplayError>,
    ) {
        if let Some(wanted) = &mut self.wanted {
            if !wanted.wants(kind) {
                return;
            }
            self.path.clear();
            if let Ok(found) = build(&mut self.path) {
                if wanted.offer(&found).is_some() {
                    self.tally.findings.push(found);
                }
            }
            self.next_sync = self.work;
            if wanted.is_done() {
                self.control.stop_at_finding();
                self.stopped = true;
            }
            return;
        }
        if kind == FindingKind::Deadlock {
            self.tally.deadlocks += 1;
        } else if kind.is_error() {
            self.tally.errors += 1;
        }
        if !self.tally.kinds.contains(&kind) {
            self.tally.kinds.push(kind);
        }
        if self.keeps_next_trace() {
            self.path.clear();
            match build(&mut self.path) {
                Ok(found) => self.tally.findings.push(found),
                // Only a nondeterministic model gets here: say so rather than panic.
                Err(error) => self.tally.notes.push(format!(
                    "the {kind} found at `{}` could not be rebuilt ({error}); \
                     are the model's successors deterministic?",
                    crate::replay::replay_string(&self.path)
                )),
            }
            // Rebuilding a long trace takes time: look at the clock.
            self.next_sync = self.work;
        }
        let ends_check = matches!(kind, FindingKind::Property | FindingKind::Reached);
        if self.options.keep_going.is_none() || ends_check {
            self.control.stop_at_finding();
            self.stopped = true;
        }
    }

    /// Counts a transition taken by a search that revisits states (the second search of a
    /// nested depth-first search).
    pub(crate) fn count_transition(&mut self) {
        self.tally.transitions += 1;
        self.tick();
    }

    /// Notes that a limit was hit.
    pub(crate) fn hit_limit(&mut self, reason: IncompleteReason) {
        self.control.hit_limit(reason);
        if reason.stops_search() {
            self.stopped = true;
        }
    }

    /// Asks the memory budget for an allocation of `bytes` (a frontier growing); false when
    /// it would pass the memory limit, which stops the search.
    pub(crate) fn may_allocate(&mut self, bytes: usize) -> bool {
        let approved = self.control.may_allocate(bytes);
        if !approved {
            self.stopped = true;
        }
        approved
    }

    /// Makes room for `additional` more items in `vec`, doubling it, within the memory
    /// budget; false (and the search stops) when the budget refuses.
    #[inline]
    pub(crate) fn reserve<T>(&mut self, vec: &mut Vec<T>, additional: usize) -> bool {
        vec.len() + additional <= vec.capacity() || self.grow(vec, additional)
    }

    /// [`Self::reserve`] when `vec` must grow.
    #[cold]
    fn grow<T>(&mut self, vec: &mut Vec<T>, additional: usize) -> bool {
        let needed = vec.len() + additional;
        let capacity = needed.max(vec.capacity() * 2).max(16);
        if !self.may_allocate(capacity * std::mem::size_of::<T>()) {
            return false;
        }
        vec.reserve_exact(capacity - vec.len());
        true
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

    /// Counts a unit of work (an expansion, recomputing successors, a step of the red
    /// search) and looks at the clock when a stretch is done.
    #[inline]
    pub(crate) fn tick(&mut self) {
        self.work += 1;
        if self.work >= self.next_sync {
            self.sync();
        }
    }

    /// Looks at the clock and the shared control: time and memory limits, another thread's
    /// stop, the progress line. The stretch of work until the next look adapts to the
    /// model's speed.
    pub(crate) fn sync(&mut self) {
        let now = Instant::now();
        let nanos = (now - self.last_sync).as_nanos();
        self.stretch = if nanos > 2 * SYNC_TARGET_NANOS {
            (self.stretch / 2).max(1)
        } else if nanos < SYNC_TARGET_NANOS / 2 {
            (self.stretch * 2).min(MAX_STRETCH)
        } else {
            self.stretch
        };
        self.last_sync = now;
        self.next_sync = self.work + self.stretch;
        let (states, transitions) = self.published;
        self.control.publish(
            self.tally.states - states,
            self.tally.transitions - transitions,
            self.tally.max_depth,
        );
        self.published = (self.tally.states, self.tally.transitions);
        self.control.tick(now);
        if self.control.is_stopped() {
            self.stopped = true;
        }
    }
}
