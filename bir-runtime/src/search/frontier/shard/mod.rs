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

mod summary;

use std::mem::size_of;
use std::sync::Arc;

use crate::model::{Model, Successor, TransitionId};
use crate::report::Fired;
use crate::report::Report;
use crate::store::{mix, Footprint, IndexedStates, Keying, StateIndex, Store};
use crate::trace;
use crate::verdict::FindingKind;
use crate::verdict::Strategy;

use crate::plan::{self, ConfigError, Options, Plan};
use crate::search::control::Control;
use crate::search::core::{Role, Stepper, Tally, Visit};
use crate::search::finish::finish;
use crate::search::with_default_memory_limit;

use self::summary::ROOT;
pub(crate) use self::summary::{
    fired_from_words, kind_from_word, kind_word, limit_from_word, limit_word, push_fired, NONE,
};
pub use self::summary::{LevelCounts, ShardSummary, Site, StateRef};

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
        if matches!(
            options.strategy,
            Strategy::BestFirst | Strategy::OrderedDepthFirst | Strategy::Swarm
        ) {
            return refuse(
                "a heuristic search or a swarm across workers",
                "the distributed search is breadth-first, level by level; run the heuristic \
                 search or the swarm on one machine",
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
mod tests;
