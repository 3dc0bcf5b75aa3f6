//! One worker's part of a breadth-first search spread over several workers, each owning the
//! states that hash to it. `bir-dist` moves the states between workers (on timely
//! dataflow); everything else — classifying states and steps, the limits, the counts, the
//! report and the counterexamples — is this crate's one search core (the `Stepper` every
//! search runs on) and its one end (the `finish` of every search).
//!
//! The search goes level by level. For level `d`, every worker first [`receives`] the
//! states that were sent to it for that level (each with a reference to its parent: the
//! worker that owns the parent, and the parent's index there), storing the new ones in its
//! shard of the seen set; then it [`expands`] them, handing every successor to its owner
//! for level `d + 1`. Deadlocks are recorded as they are met; errors of the steps leaving
//! level `d` once the level is expanded, as in the sequential breadth-first search, so the
//! findings of every worker come with their counterexample's length and the shortest one
//! wins. A finding (without keep-going) or a limit stops the worker, and the transport
//! tells the others, who stop at the next level.
//!
//! At the end every worker gives its [`ShardSummary`]; [`Shard::traced_sites`] picks, from
//! all of them, the findings whose counterexamples are kept (shortest first), which the
//! transport traces back from owner to owner along the parent references
//! ([`Shard::hop`]); [`Shard::report`] then replays each path from the initial state into
//! an ordinary counterexample and writes the report.
//!
//! [`receives`]: Shard::receive
//! [`expands`]: Shard::expand

use std::mem::size_of;
use std::sync::Arc;

use crate::model::{Model, Successor, TransitionId};
use crate::report::Fired;
use crate::report::Report;
use crate::store::{mix, Footprint, IndexedStates, Keying, StateIndex, Store};
use crate::trace;
use crate::verdict::FindingKind;
use crate::verdict::{IncompleteReason, Strategy};

use crate::plan::{self, ConfigError, Options, Plan};
use crate::search::control::Control;
use crate::search::core::{Role, Stepper, Tally, Visit};
use crate::search::finish::finish;
use crate::search::with_default_memory_limit;

/// Where a stored state is: the worker that owns it, and its index in that worker's shard.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StateRef {
    /// The worker that owns the state.
    pub owner: u32,
    /// Its index in the owner's shard (in the order the owner stored its states).
    pub index: u32,
}

impl StateRef {
    /// The reference as one word: the owner in the high half.
    pub fn to_word(self) -> u64 {
        (u64::from(self.owner) << 32) | u64::from(self.index)
    }

    /// The reference [`to_word`](Self::to_word) wrote.
    pub fn from_word(word: u64) -> StateRef {
        StateRef {
            owner: (word >> 32) as u32,
            index: word as u32,
        }
    }
}

/// The parent reference of the initial state.
const ROOT: StateRef = StateRef {
    owner: u32::MAX,
    index: u32::MAX,
};

/// A finding met by one worker: its kind, the length of its counterexample, and where its
/// path ends, for tracing back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Site {
    /// What was found.
    pub kind: FindingKind,
    /// The steps of its counterexample (a failing step included).
    pub length: u32,
    /// The state the path leads to: the deadlock or violating state, or the state whose
    /// step fails.
    pub at: StateRef,
    /// For a failing step, the transition that fails from `at`.
    pub step: Option<TransitionId>,
}

/// What the workers counted at one level (depth) of the search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LevelCounts {
    /// States first stored at this depth.
    pub states: u64,
    /// Transitions executed from states at this depth.
    pub transitions: u64,
}

/// What one worker counted and found, exchanged between the workers at the end of a search
/// (as words: [`to_words`](Self::to_words)).
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct ShardSummary {
    /// The worker.
    pub worker: u32,
    /// States stored by this worker.
    pub states: u64,
    /// Transitions executed by this worker.
    pub transitions: u64,
    /// Errors found by this worker.
    pub errors: u64,
    /// Deadlock states found by this worker.
    pub deadlocks: u64,
    /// The largest depth of a state this worker stored.
    pub max_depth: u32,
    /// This worker's counts per level.
    pub levels: Vec<LevelCounts>,
    /// The kinds of finding met, in the order first met.
    pub kinds: Vec<FindingKind>,
    /// The limit that cut this worker's search, if one did.
    pub limit: Option<IncompleteReason>,
    /// This worker stopped at a finding.
    pub at_finding: bool,
    /// The memory of this worker's seen set and parent references.
    pub seen_bytes: u64,
    /// This worker's first findings, in the order met (so by length).
    pub sites: Vec<Site>,
    /// Per transition, whether this worker executed it.
    pub fired: Vec<bool>,
}

/// The finding kinds and limits by number, for the words of a summary.
const KINDS: [FindingKind; 9] = [
    FindingKind::Deadlock,
    FindingKind::Invariant,
    FindingKind::Assertion,
    FindingKind::Range,
    FindingKind::Index,
    FindingKind::Division,
    FindingKind::Start,
    FindingKind::Property,
    FindingKind::Reached,
];
const LIMITS: [IncompleteReason; 8] = [
    IncompleteReason::DepthLimit,
    IncompleteReason::StateLimit,
    IncompleteReason::TimeLimit,
    IncompleteReason::MemoryLimit,
    IncompleteReason::Cancelled,
    IncompleteReason::Simulation,
    IncompleteReason::HashCompaction,
    IncompleteReason::Bitstate,
];

/// Marks "none" in the words of a summary.
const NONE: u64 = u64::MAX;

fn kind_word(kind: FindingKind) -> u64 {
    KINDS.iter().position(|&k| k == kind).unwrap_or(0) as u64
}

impl ShardSummary {
    /// The summary as words, for sending to the other workers.
    pub fn to_words(&self) -> Vec<u64> {
        let limit = self.limit.map_or(NONE, |reason| {
            LIMITS.iter().position(|&r| r == reason).unwrap_or(0) as u64
        });
        let mut words = vec![
            u64::from(self.worker),
            self.states,
            self.transitions,
            self.errors,
            self.deadlocks,
            u64::from(self.max_depth),
            limit,
            u64::from(self.at_finding),
            self.seen_bytes,
            self.levels.len() as u64,
        ];
        for level in &self.levels {
            words.extend([level.states, level.transitions]);
        }
        words.push(self.kinds.len() as u64);
        words.extend(self.kinds.iter().map(|&kind| kind_word(kind)));
        words.push(self.sites.len() as u64);
        for site in &self.sites {
            words.extend([
                kind_word(site.kind),
                u64::from(site.length),
                site.at.to_word(),
                site.step.map_or(NONE, u64::from),
            ]);
        }
        words.push(self.fired.len() as u64);
        for chunk in self.fired.chunks(64) {
            let bits = chunk
                .iter()
                .enumerate()
                .fold(0u64, |bits, (i, &fired)| bits | (u64::from(fired) << i));
            words.push(bits);
        }
        words
    }

    /// The summary [`to_words`](Self::to_words) wrote; `None` for words that are not one.
    pub fn from_words(words: &[u64]) -> Option<ShardSummary> {
        let mut words = words.iter().copied();
        let mut next = || words.next();
        let small = |word: u64| u32::try_from(word).ok();
        let kind = |word: u64| KINDS.get(usize::try_from(word).ok()?).copied();
        let worker = small(next()?)?;
        let (states, transitions, errors, deadlocks) = (next()?, next()?, next()?, next()?);
        let max_depth = small(next()?)?;
        let limit = match next()? {
            NONE => None,
            word => Some(*LIMITS.get(usize::try_from(word).ok()?)?),
        };
        let at_finding = next()? != 0;
        let seen_bytes = next()?;
        let mut levels = Vec::new();
        for _ in 0..next()? {
            levels.push(LevelCounts {
                states: next()?,
                transitions: next()?,
            });
        }
        let mut kinds = Vec::new();
        for _ in 0..next()? {
            kinds.push(kind(next()?)?);
        }
        let mut sites = Vec::new();
        for _ in 0..next()? {
            sites.push(Site {
                kind: kind(next()?)?,
                length: small(next()?)?,
                at: StateRef::from_word(next()?),
                step: match next()? {
                    NONE => None,
                    word => Some(small(word)?),
                },
            });
        }
        let transitions_fired = usize::try_from(next()?).ok()?;
        let mut fired = Vec::with_capacity(transitions_fired.min(1 << 20));
        while fired.len() < transitions_fired {
            let bits = next()?;
            let take = (transitions_fired - fired.len()).min(64);
            fired.extend((0..take).map(|i| bits >> i & 1 == 1));
        }
        Some(ShardSummary {
            worker,
            states,
            transitions,
            errors,
            deadlocks,
            max_depth,
            levels,
            kinds,
            limit,
            at_finding,
            seen_bytes,
            sites,
            fired,
        })
    }
}

/// What a worker's shard of the seen set must do: store each state once, number the states
/// in the order stored (the level being expanded is a range of numbers; a parent reference
/// is a number), and give a state back by its number. The exact table of the sequential
/// breadth-first search does; a compact set can take its place.
trait ShardSet<S>: Store<S> + Footprint {
    /// The state numbered `index`.
    fn state(&self, index: StateIndex) -> Option<S>;
    /// How many states are stored.
    fn count(&self) -> usize;
}

impl<S: Clone + Eq + std::hash::Hash> ShardSet<S> for IndexedStates<S> {
    fn state(&self, index: StateIndex) -> Option<S> {
        ((index as usize) < self.len()).then(|| self.get(index).clone())
    }

    fn count(&self) -> usize {
        self.len()
    }
}

/// The seen set a shard uses today.
type ShardStates<S> = IndexedStates<S>;

/// What every call on a shard needs: the model, the options and the plan, and the worker's
/// control (its limits and clock).
struct Context<M> {
    model: M,
    options: Options,
    control: Control,
    plan: Plan,
}

/// One worker's part of a distributed breadth-first search: its shard of the seen set, the
/// parent reference of each state in it, and what it counted and found. Made by
/// [`Checker::shard`](crate::Checker::shard); see the [module](self) for the protocol.
pub struct Shard<M: Model> {
    context: Arc<Context<M>>,
    worker: u32,
    workers: u32,
    tally: Tally,
    seen: ShardStates<M::State>,
    /// The parent of each stored state ([`ROOT`] for the initial state): 8 bytes a state.
    parents: Vec<StateRef>,
    /// The first state of the level being searched.
    level_start: usize,
    /// The violating states of that level: stored, counted, never expanded (ascending).
    violating: Vec<StateIndex>,
    /// Another worker stopped the search.
    halted: bool,
    /// The findings kept for tracing back (at most `keep`).
    sites: Vec<Site>,
    keep: usize,
    levels: Vec<LevelCounts>,
    arena: Vec<Successor<M::State>>,
}

/// One step of a trace-back, at the owner of a state on the path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hop<S> {
    /// The transition from this state to the child the trace-back came from (none at the
    /// path's end).
    pub transition: Option<TransitionId>,
    /// This state: the child of the next hop.
    pub state: S,
    /// Where the next hop goes: this state's parent (`None` at the initial state).
    pub parent: Option<StateRef>,
}

impl<M: Model + Clone> Shard<M> {
    /// Worker `worker`'s part of a breadth-first search of `model` over `workers` workers,
    /// with `options` ([`Checker::shard`](crate::Checker::shard)).
    pub(crate) fn new(
        model: &M,
        options: &Options,
        worker: usize,
        workers: usize,
    ) -> Result<Shard<M>, ConfigError> {
        let refuse = |combination, reason| {
            Err(ConfigError::Unsupported {
                combination,
                reason,
            })
        };
        let asked = options;
        if workers == 0 || worker >= workers || u32::try_from(workers).is_err() {
            return Err(ConfigError::Threads { threads: workers });
        }
        if options.property.is_some() {
            return refuse(
                "an LTL or reachability check across workers",
                "the distributed search checks safety; run the check on one machine",
            );
        }
        if options.storage.is_lossy() {
            return refuse(
                "hash compaction or bitstate hashing across workers",
                "the workers store states exactly; drop the storage option",
            );
        }
        if options.por {
            return refuse(
                "partial-order reduction across workers",
                "its proviso needs to know whether a state is new, which only its owner \
                 knows; drop `por`",
            );
        }
        if options.symmetry {
            return refuse(
                "symmetry reduction across workers",
                "the workers exchange and store concrete states; drop `symmetry`",
            );
        }
        if options.threads > 1 {
            return refuse(
                "threads in a distributed search",
                "its workers are timely's (`-w` threads, `-n` processes); drop `threads`",
            );
        }
        let model = model.clone();
        if !model.write_state_words(&model.initial_state(), &mut Vec::new()) {
            return refuse(
                "a distributed search of a model that cannot write its states as words",
                "states travel between processes as words: implement \
                 `Model::write_state_words` and `Model::state_from_words` (`bir!` does)",
            );
        }
        let options = Options {
            strategy: Strategy::BreadthFirst,
            progress: false,
            max_states: options.max_states.map(|max| max.div_ceil(workers as u64)),
            ..with_default_memory_limit(options)
        };
        let mut plan = plan::resolve(&model, &options, false)?;
        plan.strategy = Strategy::Distributed;
        plan.threads = workers;
        plan.layout = "states in arrival order per worker, with 8-byte parent references";
        if asked.max_states.is_some() && workers > 1 {
            plan.notes.push(
                "the state limit is shared evenly among the workers: each stores at most its \
                 share"
                    .to_string(),
            );
        }
        let keep = options.keep_going.unwrap_or(1);
        let control = Control::new(&model.info().name, &options, 1);
        let info = model.info().clone();
        let mut tally = Tally {
            fired: Fired::new(&info),
            ..Tally::default()
        };
        model.decode(&model.initial_state(), &mut tally.initial);
        Ok(Shard {
            context: Arc::new(Context {
                model,
                options,
                control,
                plan,
            }),
            worker: worker as u32,
            workers: workers as u32,
            tally,
            seen: ShardStates::new(),
            parents: Vec::new(),
            level_start: 0,
            violating: Vec::new(),
            halted: false,
            sites: Vec::new(),
            keep,
            levels: Vec::new(),
            arena: Vec::new(),
        })
    }
}

impl<M: Model> Shard<M> {
    /// The model searched.
    pub fn model(&self) -> &M {
        &self.context.model
    }

    /// This worker's number.
    pub fn worker(&self) -> usize {
        self.worker as usize
    }

    /// The number of workers.
    pub fn workers(&self) -> usize {
        self.workers as usize
    }

    /// The worker that owns `state`: a hash of the state modulo the workers (mixed once
    /// more than the seen set's, so that a shard's states spread over its whole table).
    pub fn owner(&self, state: &M::State) -> usize {
        owner_of(state, u64::from(self.workers))
    }

    /// True once this worker must stop expanding: a finding (without keep-going) or a
    /// limit here, or a stop from another worker ([`Shard::halt`]).
    pub fn is_stopped(&self) -> bool {
        self.halted || self.context.control.is_stopped()
    }

    /// True when this worker's own search stopped (a finding or a limit here): the others
    /// must be told.
    pub fn stopped_here(&self) -> bool {
        self.context.control.is_stopped()
    }

    /// Another worker stopped: store what arrives, expand nothing more.
    pub fn halt(&mut self) {
        self.halted = true;
    }

    /// A stepper over this worker's context, carrying the worker's tally.
    fn stepper<'c>(context: &'c Context<M>, tally: &mut Tally) -> Stepper<'c, M> {
        let mut stepper = Stepper::new(
            &context.model,
            &context.options,
            &context.control,
            Keying::State,
            Role::Worker,
        );
        stepper.tally = std::mem::take(tally);
        stepper
    }

    /// Takes the tally back from a stepper, and gives back the states it reserved.
    fn put_back(stepper: &mut Stepper<'_, M>, tally: &mut Tally) {
        stepper.release_quota();
        stepper.sync();
        *tally = std::mem::take(&mut stepper.tally);
    }

    fn level(&mut self, depth: u32) -> &mut LevelCounts {
        let depth = depth as usize;
        if self.levels.len() <= depth {
            self.levels.resize(depth + 1, LevelCounts::default());
        }
        &mut self.levels[depth]
    }

    /// Keeps a finding for tracing back, while fewer than the configured number are kept
    /// (one without keep-going, for the verdict).
    fn site(&mut self, kind: FindingKind, length: u32, index: StateIndex, step: Option<u32>) {
        if self.sites.len() < self.keep.max(1) {
            self.sites.push(Site {
                kind,
                length,
                at: StateRef {
                    owner: self.worker,
                    index,
                },
                step,
            });
        }
    }

    /// Stores the states that arrived for level `depth`, each with its parent (`None`
    /// for the initial state, which its owner receives at level 0 from nobody). New states
    /// are counted and checked against the invariants; a violating one is a finding, which
    /// stops the search without keep-going.
    ///
    /// Give all of a level's states in one call: they are stored in the order of their
    /// parents' references (and, for one parent, in the order given), so that which parent
    /// a state keeps, and the numbering of the shard, do not depend on the order in which
    /// the network delivered them.
    pub fn receive(
        &mut self,
        depth: u32,
        states: impl IntoIterator<Item = (M::State, Option<StateRef>)>,
    ) {
        let mut states: Vec<_> = states.into_iter().collect();
        states.sort_by_key(|(_, parent)| parent.map(StateRef::to_word));
        let context = Arc::clone(&self.context);
        let mut stepper = Self::stepper(&context, &mut self.tally);
        let mut new = 0;
        for (state, parent) in states {
            match stepper.arrive(depth, &state, &mut self.seen) {
                Visit::New => {
                    self.parents.push(parent.unwrap_or(ROOT));
                    new += 1;
                }
                Visit::Violating(kind) => {
                    let index = self.parents.len() as StateIndex;
                    self.parents.push(parent.unwrap_or(ROOT));
                    new += 1;
                    self.violating.push(index);
                    stepper.record(kind, &mut |_| {});
                    self.site(kind, depth, index, None);
                }
                _ => {}
            }
        }
        Self::put_back(&mut stepper, &mut self.tally);
        self.level(depth).states += new;
    }

    /// Expands the states of level `depth` (those received for it), unless the search is
    /// stopped, handing each successor to `send` with its owner (see [`Shard::owner`]) and
    /// its parent's reference, for level `depth + 1`. Deadlocks are recorded as met, errors
    /// of the steps once the level is done (they are one step longer).
    pub fn expand(&mut self, depth: u32, mut send: impl FnMut(usize, &M::State, StateRef)) {
        let workers = u64::from(self.workers);
        let context = Arc::clone(&self.context);
        let mut stepper = Self::stepper(&context, &mut self.tally);
        let transitions = stepper.tally.transitions;
        let mut arena = std::mem::take(&mut self.arena);
        let mut pending = Vec::new();
        let mut skipped = 0;
        let end = self.seen.count();
        for index in self.level_start..end {
            if self.halted || stepper.is_stopped() {
                break;
            }
            let index = index as StateIndex;
            if self.violating.get(skipped) == Some(&index) {
                skipped += 1;
                continue;
            }
            let Some(state) = self.seen.state(index) else {
                break;
            };
            arena.clear();
            let deadlocks = stepper.tally.deadlocks;
            if !stepper.expand(&state, depth, &mut arena, &mut |_| {}) {
                if stepper.tally.deadlocks > deadlocks {
                    self.site(FindingKind::Deadlock, depth, index, None);
                }
                continue;
            }
            let from = StateRef {
                owner: self.worker,
                index,
            };
            for successor in &arena {
                match stepper.step(successor) {
                    Ok(next) => send(owner_of(next, workers), next, from),
                    Err(Visit::Fault(kind)) => pending.push((index, successor.transition, kind)),
                    Err(_) => break,
                }
            }
        }
        for (index, transition, kind) in pending {
            if stepper.is_stopped() {
                break;
            }
            stepper.record(kind, &mut |_| {});
            self.site(kind, depth + 1, index, Some(transition));
        }
        let executed = stepper.tally.transitions - transitions;
        Self::put_back(&mut stepper, &mut self.tally);
        self.level(depth).transitions += executed;
        self.arena = arena;
        self.level_start = end;
        self.violating.clear();
    }

    /// What this worker counted and found, for the others.
    pub fn summary(&self) -> ShardSummary {
        let ending = self.context.control.ending();
        let tally = &self.tally;
        ShardSummary {
            worker: self.worker,
            states: tally.states,
            transitions: tally.transitions,
            errors: tally.errors,
            deadlocks: tally.deadlocks,
            max_depth: tally.max_depth,
            levels: self.levels.clone(),
            kinds: tally.kinds.clone(),
            limit: ending.limit,
            at_finding: ending.at_finding,
            seen_bytes: self.bytes() as u64,
            sites: self.sites.clone(),
            fired: tally.fired.0.clone(),
        }
    }

    /// The memory of this worker's seen set and parent references.
    pub fn bytes(&self) -> usize {
        self.seen.bytes() + self.parents.capacity() * size_of::<StateRef>()
    }

    /// One hop of a trace-back at this worker: the state numbered `index` here, the
    /// transition from it to `child` (the state the trace-back came from, if any), and its
    /// parent. `None` when there is no such state, or `child` is not one of its successors
    /// (a nondeterministic model).
    pub fn hop(&self, index: u32, child: Option<&M::State>) -> Option<Hop<M::State>> {
        let state = self.seen.state(index)?;
        let parent = Some(*self.parents.get(index as usize)?).filter(|&p| p != ROOT);
        let transition = match child {
            None => None,
            Some(child) => {
                let mut successors = Vec::new();
                self.context.model.successors(&state, &mut successors);
                let taken = crate::trace::path::taken(&successors, child)?;
                Some(successors[taken].transition)
            }
        };
        Some(Hop {
            transition,
            state,
            parent,
        })
    }

    /// The findings, among all workers', whose counterexamples are kept: the shortest first
    /// (at one length, errors before deadlocks, as the sequential search records them),
    /// as many as the options keep.
    pub fn traced_sites(&self, summaries: &[ShardSummary]) -> Vec<Site> {
        let mut sites = all_sites(summaries);
        sites.truncate(self.keep);
        sites
    }

    /// The report of the whole search from every worker's summary and the paths (transition
    /// ids from the initial state) of the [traced sites](Self::traced_sites), in their
    /// order: each path is replayed into its counterexample. The same on every worker.
    pub fn report(&self, summaries: &[ShardSummary], paths: &[Vec<TransitionId>]) -> Report {
        let context = &self.context;
        let model = &context.model;
        let info = Arc::new(model.info().clone());
        let mut tally = Tally {
            fired: Fired::new(&info),
            initial: self.tally.initial.clone(),
            ..Tally::default()
        };
        for summary in summaries {
            tally.states += summary.states;
            tally.transitions += summary.transitions;
            tally.errors += summary.errors;
            tally.deadlocks += summary.deadlocks;
            tally.max_depth = tally.max_depth.max(summary.max_depth);
            tally.fired.merge(&Fired(summary.fired.clone()));
        }
        let first = all_sites(summaries).into_iter().map(|site| site.kind);
        for kind in first.chain(summaries.iter().flat_map(|s| s.kinds.iter().copied())) {
            if !tally.kinds.contains(&kind) {
                tally.kinds.push(kind);
            }
        }
        for path in paths {
            match trace::rebuild(model, &info, path) {
                Ok(found) => tally.findings.push(found),
                Err(error) => tally.notes.push(format!(
                    "a finding traced back to `{}` could not be replayed ({error}); are the \
                     model's successors deterministic?",
                    crate::trace::replay_string(path)
                )),
            }
        }
        let (fewest, most) = summaries
            .iter()
            .map(|s| s.states)
            .fold((u64::MAX, 0), |(lo, hi), n| (lo.min(n), hi.max(n)));
        if summaries.len() > 1 {
            tally.notes.push(format!(
                "{} workers stored between {} and {} states each",
                summaries.len(),
                crate::units::Thousands(fewest),
                crate::units::Thousands(most)
            ));
        }
        let mut control = Control::new(&info.name, &context.options, 1);
        control.started = context.control.started;
        for summary in summaries {
            if let Some(reason) = summary.limit {
                control.hit_limit(reason);
            }
            if summary.at_finding {
                control.stop_at_finding();
            }
        }
        let bytes = SeenBytes(summaries.iter().map(|s| s.seen_bytes as usize).sum());
        finish(
            &context.options,
            &control,
            context.plan.clone(),
            info,
            tally,
            &bytes,
            0,
        )
    }
}

/// The owner of `state` among `workers` workers.
fn owner_of<S: std::hash::Hash>(state: &S, workers: u64) -> usize {
    (mix(crate::store::hash_state(state)) % workers) as usize
}

/// Every worker's findings, shortest first; at one length errors before deadlocks, then by
/// worker and in the order met.
fn all_sites(summaries: &[ShardSummary]) -> Vec<Site> {
    let mut sites: Vec<(usize, Site)> = summaries
        .iter()
        .flat_map(|s| s.sites.iter().copied().enumerate())
        .collect();
    sites.sort_by_key(|(order, site)| {
        (
            site.length,
            site.kind == FindingKind::Deadlock,
            site.at.owner,
            *order,
        )
    });
    sites.into_iter().map(|(_, site)| site).collect()
}

/// The memory of all the workers' seen sets, for the report.
struct SeenBytes(usize);

impl Footprint for SeenBytes {
    fn bytes(&self) -> usize {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_models::{Philosophers, SumToN};
    use crate::{Checker, Verdict};

    /// Runs the protocol of the module docs in one thread over `workers` shards.
    fn search<M: Model + Clone>(checker: &Checker<M>, workers: usize) -> (Report, Vec<u64>) {
        let mut shards: Vec<Shard<M>> = (0..workers)
            .map(|w| checker.shard(w, workers).unwrap())
            .collect();
        let initial = checker.model().initial_state();
        let owner = shards[0].owner(&initial);
        let mut inbox: Vec<Vec<(M::State, Option<StateRef>)>> = vec![Vec::new(); workers];
        inbox[owner].push((initial, None));
        let mut depth = 0;
        while inbox.iter().any(|states| !states.is_empty()) {
            let mut next: Vec<Vec<(M::State, Option<StateRef>)>> = vec![Vec::new(); workers];
            let stop = shards.iter().any(|s| s.stopped_here());
            for (shard, states) in shards.iter_mut().zip(inbox) {
                if stop {
                    shard.halt();
                }
                shard.receive(depth, states);
                shard.expand(depth, |owner, state, parent| {
                    next[owner].push((state.clone(), Some(parent)));
                });
            }
            inbox = next;
            depth += 1;
        }
        let summaries: Vec<ShardSummary> = shards
            .iter()
            .map(|s| ShardSummary::from_words(&s.summary().to_words()).unwrap())
            .collect();
        let paths = shards[0]
            .traced_sites(&summaries)
            .iter()
            .map(|site| {
                let mut path: Vec<TransitionId> = site.step.into_iter().collect();
                let (mut at, mut child) = (Some(site.at), None);
                while let Some(here) = at {
                    let hop = shards[here.owner as usize]
                        .hop(here.index, child.as_ref())
                        .unwrap();
                    path.extend(hop.transition);
                    child = Some(hop.state);
                    at = hop.parent;
                }
                path.reverse();
                path
            })
            .collect::<Vec<_>>();
        let levels = (0..summaries.iter().map(|s| s.levels.len()).max().unwrap_or(0))
            .map(|d| {
                summaries
                    .iter()
                    .filter_map(|s| s.levels.get(d))
                    .map(|l| l.states)
                    .sum()
            })
            .collect();
        (shards[0].report(&summaries, &paths), levels)
    }

    #[test]
    fn counts_are_those_of_the_sequential_search_on_any_number_of_workers() {
        for model in [Philosophers::new(5, false), Philosophers::new(5, true)] {
            let bfs = Checker::new(model.clone()).bfs().keep_going(0).run();
            for workers in [1, 2, 3, 4] {
                let checker = Checker::new(model.clone()).keep_going(0);
                let (report, levels) = search(&checker, workers);
                assert_eq!(
                    (report.states(), report.transitions(), report.deadlocks()),
                    (bfs.states(), bfs.transitions(), bfs.deadlocks())
                );
                assert_eq!(levels.iter().sum::<u64>(), bfs.states());
                assert_eq!(report.is_complete(), bfs.is_complete());
                assert_eq!(report.verdict(), bfs.verdict());
            }
        }
    }

    #[test]
    fn counterexamples_are_shortest_and_replay() {
        for workers in [1, 2, 4] {
            let (report, _) = search(&Checker::new(Philosophers::two()), workers);
            assert_eq!(report.assert_deadlock().len(), 2);
            if workers == 1 {
                // One worker receives in the sequential search's order: the same trace.
                assert_eq!(report.assert_deadlock().replay(), "bir1:0.4");
            }
            let (report, _) = search(&Checker::new(SumToN), workers);
            assert_eq!(report.verdict(), Verdict::Found(FindingKind::Assertion));
            assert_eq!(report.assert_assertion_failure().len(), 4);
            let all = Checker::new(SumToN).keep_going(3);
            let (report, _) = search(&all, workers);
            assert_eq!((report.states(), report.transitions()), (15_276, 38_174));
            assert_eq!((report.errors(), report.deadlocks()), (42, 1));
            assert_eq!(report.findings().len(), 3);
        }
    }

    #[test]
    fn a_state_limit_never_verifies() {
        let checker = Checker::new(Philosophers::new(5, true)).max_states(50);
        let (report, _) = search(&checker, 2);
        assert_eq!(
            report.verdict(),
            Verdict::Incomplete {
                reason: IncompleteReason::StateLimit
            }
        );
    }

    #[test]
    fn what_the_workers_cannot_share_is_refused() {
        let model = Philosophers::new(3, true);
        for (checker, what) in [
            (Checker::new(model.clone()).por(true), "partial-order"),
            (Checker::new(model.clone()).symmetry(true), "symmetry"),
            (Checker::new(model.clone()).threads(2), "threads"),
        ] {
            let error = checker.shard(0, 2).err().expect("refused").to_string();
            assert!(error.contains(what), "{error}");
        }
        assert!(Checker::new(model).shard(2, 2).is_err());
    }

    #[test]
    fn summaries_survive_their_words() {
        let summary = ShardSummary {
            worker: 3,
            states: 10,
            levels: vec![LevelCounts {
                states: 1,
                transitions: 2,
            }],
            kinds: vec![FindingKind::Range, FindingKind::Deadlock],
            limit: Some(IncompleteReason::TimeLimit),
            sites: vec![Site {
                kind: FindingKind::Range,
                length: 4,
                at: StateRef { owner: 3, index: 9 },
                step: Some(7),
            }],
            fired: (0..70).map(|i| i % 3 == 0).collect(),
            ..ShardSummary::default()
        };
        assert_eq!(
            ShardSummary::from_words(&summary.to_words()),
            Some(summary.clone())
        );
        assert_eq!(ShardSummary::from_words(&summary.to_words()[..5]), None);
    }
}
