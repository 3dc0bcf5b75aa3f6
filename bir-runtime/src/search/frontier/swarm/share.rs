//! A swarm spread over the workers of a distributed run (`bir-dist`, threads and processes):
//! worker `w` of `W` runs the searches `w`, `w + W`, `w + 2W`... of the one swarm the
//! options describe, on its own threads, with the limits of every search. A worker that
//! stops at a finding tells the others, who stop theirs ([`SwarmShare::stop_at_finding`]);
//! at the end each worker sends every other its [`ShareResult`] — counts, coverage, and the
//! findings as paths of transitions — and every worker writes the same report from all of
//! them ([`SwarmShare::report`]): the swarm's own report, the findings replayed from the
//! initial state and shortened as any other. Nothing but these results crosses workers: no
//! state, no seen set.

use std::sync::Arc;

use crate::model::{Model, TransitionId};
use crate::plan::{self, ConfigError, Options};
use crate::report::{Fired, Report};
use crate::search::control::Control;
use crate::search::core::{Run, Tally};
use crate::search::reduce::shorten;
use crate::search::with_default_memory_limit;
use crate::trace;
use crate::verdict::Strategy;
use crate::verdict::{FindingKind, IncompleteReason};

use super::super::shard::{
    fired_from_words, kind_from_word, kind_word, limit_from_word, limit_word, push_fired, NONE,
};
use super::{heuristics, report, run_searches, Member, Outcome};

/// One worker's share of a swarm spread over several workers. Made by
/// [`Checker::swarm_share`](crate::Checker::swarm_share); see the [module](self).
pub struct SwarmShare<M: Model> {
    model: M,
    options: Options,
    plan: crate::plan::Plan,
    control: Control,
    share: usize,
    shares: usize,
}

/// What one worker's share of a swarm counted and found, to be sent to every worker
/// ([`to_words`](Self::to_words)).
#[derive(Clone, Debug, PartialEq)]
pub struct ShareResult {
    share: u32,
    limit: Option<IncompleteReason>,
    at_finding: bool,
    searches: Vec<SearchRecord>,
}

/// One search of a share, as it travels: its tally without the counterexamples, which are
/// paths of transitions from the initial state.
#[derive(Clone, Debug, PartialEq)]
struct SearchRecord {
    index: u64,
    states: u64,
    transitions: u64,
    errors: u64,
    deadlocks: u64,
    max_depth: u32,
    kinds: Vec<FindingKind>,
    fired: Vec<bool>,
    atoms: [u64; 2],
    bytes: u64,
    omission: Option<(IncompleteReason, f64)>,
    paths: Vec<Vec<TransitionId>>,
    notes: Vec<String>,
}

impl<M: Model + Clone> SwarmShare<M> {
    /// Share `share` of `shares` of the swarm `options` describe, in a process that runs
    /// `local` shares (its cores are split among them unless the options choose threads).
    pub(crate) fn new(
        model: &M,
        options: &Options,
        share: usize,
        shares: usize,
        local: usize,
    ) -> Result<SwarmShare<M>, ConfigError> {
        if shares == 0 || share >= shares || u32::try_from(shares).is_err() {
            return Err(ConfigError::Threads { threads: shares });
        }
        if options.property.is_some() {
            return Err(ConfigError::Unsupported {
                combination: "an LTL or reachability check by a swarm across workers",
                reason: "the swarm across workers looks for errors and deadlocks; run the \
                         check on one machine",
            });
        }
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let threads = if options.threads_chosen {
            options.threads
        } else {
            (cores / local.clamp(1, shares)).max(1)
        };
        let options = Options {
            threads,
            threads_chosen: true,
            progress: options.progress && share == 0,
            max_states: options.max_states.map(|max| max.div_ceil(shares as u64)),
            ..with_default_memory_limit(options)
        };
        let mut plan = plan::resolve(model, &options, false)?;
        if plan.strategy != Strategy::Swarm {
            return Err(ConfigError::Unsupported {
                combination: "a share of a swarm for a search that is not one",
                reason: "ask for a swarm (`swarm`)",
            });
        }
        let mine = indices(share, shares, plan.swarm).len();
        plan.threads = plan.threads.min(mine).max(1);
        plan.swarm_workers = shares;
        if options.max_states.is_some() && shares > 1 {
            plan.notes.push(
                "the state limit is shared evenly among the workers: the searches of each \
                 store at most its share"
                    .to_string(),
            );
        }
        let control = Control::new(&model.info().name, &options, plan.threads);
        Ok(SwarmShare {
            model: model.clone(),
            options,
            plan,
            control,
            share,
            shares,
        })
    }
}

/// The searches of share `share` of `shares` in a swarm of `searches`.
fn indices(share: usize, shares: usize, searches: usize) -> Vec<usize> {
    (share..searches.max(1)).step_by(shares.max(1)).collect()
}

impl<M: Model> SwarmShare<M> {
    /// The model searched.
    pub fn model(&self) -> &M {
        &self.model
    }

    /// Runs this share's searches to their end, or until a finding or a limit stops them
    /// (here, or by [`stop_at_finding`](Self::stop_at_finding) from another thread).
    pub fn run(&self) -> ShareResult {
        let run = Run::new(&self.model, &self.options, &self.control, self.plan.clone());
        let heuristics = heuristics(&self.model, &self.options);
        let mine = indices(self.share, self.shares, self.plan.swarm);
        let outcomes = run_searches(&run, &heuristics, mine);
        let ending = self.control.ending();
        ShareResult {
            share: self.share as u32,
            limit: ending.limit,
            at_finding: ending.at_finding,
            searches: outcomes.into_iter().map(SearchRecord::of).collect(),
        }
    }

    /// Stops this share's searches because another worker's stopped at a finding.
    pub fn stop_at_finding(&self) {
        self.control.stop_at_finding();
    }

    /// The swarm's report from the results of every share (in any order): the counts added
    /// up, the findings (the lowest-numbered search's first) replayed from the initial
    /// state and shortened. The same on every worker.
    pub fn report(&self, results: &[ShareResult]) -> Report {
        let info = Arc::new(self.model.info().clone());
        let mut control = Control::new(&info.name, &self.options, self.plan.threads);
        control.started = self.control.started;
        let mut initial = Vec::new();
        self.model.decode(&self.model.initial_state(), &mut initial);
        let heuristics = heuristics(&self.model, &self.options);
        let mut outcomes = Vec::new();
        for result in results {
            if let Some(limit) = result.limit {
                control.hit_limit(limit);
            }
            if result.at_finding {
                control.stop_at_finding();
            }
            for record in &result.searches {
                outcomes.push(record.outcome(&self.model, &info, &heuristics, &initial));
            }
        }
        outcomes.sort_by_key(|outcome| outcome.index);
        let run = Run::new(&self.model, &self.options, &control, self.plan.clone());
        let mut report = report(run, self.plan.swarm.max(1), heuristics, outcomes);
        let missing = self.shares - results.len().min(self.shares);
        if missing > 0 {
            report.notes.push(format!(
                "{missing} of the {} workers sent no result: their searches are missing",
                self.shares
            ));
        }
        report.notes.push(format!(
            "the searches ran on {} workers (bir-dist), search #i on worker i mod {}; they \
             sent each other only their results",
            self.shares, self.shares
        ));
        shorten::shorten(&self.model, &self.options, &mut report, control.started);
        report
    }
}

impl ShareResult {
    /// The share that sent it.
    pub fn share(&self) -> usize {
        self.share as usize
    }

    /// True when the share stopped at a finding of its own: the others can stop.
    pub fn stopped_at_finding(&self) -> bool {
        self.at_finding && self.searches.iter().any(|s| !s.kinds.is_empty())
    }

    /// The result as words, for sending to the other workers.
    pub fn to_words(&self) -> Vec<u64> {
        let mut words = vec![
            u64::from(self.share),
            self.limit.map_or(NONE, limit_word),
            u64::from(self.at_finding),
            self.searches.len() as u64,
        ];
        for search in &self.searches {
            search.write(&mut words);
        }
        words
    }

    /// The result [`to_words`](Self::to_words) wrote; `None` for words that are not one.
    pub fn from_words(words: &[u64]) -> Option<ShareResult> {
        let mut words = words.iter().copied();
        let share = u32::try_from(words.next()?).ok()?;
        let limit = match words.next()? {
            NONE => None,
            word => Some(limit_from_word(word)?),
        };
        let at_finding = words.next()? != 0;
        let mut searches = Vec::new();
        for _ in 0..words.next()? {
            searches.push(SearchRecord::read(&mut words)?);
        }
        words.next().is_none().then_some(ShareResult {
            share,
            limit,
            at_finding,
            searches,
        })
    }
}

impl SearchRecord {
    fn of(outcome: Outcome) -> SearchRecord {
        let tally = outcome.tally;
        SearchRecord {
            index: outcome.index as u64,
            states: tally.states,
            transitions: tally.transitions,
            errors: tally.errors,
            deadlocks: tally.deadlocks,
            max_depth: tally.max_depth,
            kinds: tally.kinds,
            fired: tally.fired.0,
            atoms: tally.atoms,
            bytes: outcome.bytes as u64,
            omission: outcome.omission,
            paths: tally
                .findings
                .iter()
                .map(|found| found.transitions().collect())
                .collect(),
            notes: tally.notes,
        }
    }

    /// The search's outcome, its findings replayed from the initial state.
    fn outcome<M: Model>(
        &self,
        model: &M,
        info: &Arc<crate::model::ModelInfo>,
        heuristics: &[crate::plan::heuristic::Heuristic],
        initial: &[i64],
    ) -> Outcome {
        let index = self.index as usize;
        let mut tally = Tally {
            states: self.states,
            transitions: self.transitions,
            errors: self.errors,
            deadlocks: self.deadlocks,
            max_depth: self.max_depth,
            kinds: self.kinds.clone(),
            fired: Fired(self.fired.clone()),
            atoms: self.atoms,
            notes: self.notes.clone(),
            initial: initial.to_vec(),
            ..Tally::default()
        };
        for path in &self.paths {
            match trace::rebuild(model, info, path) {
                Ok(found) => tally.findings.push(found),
                Err(error) => tally.notes.push(format!(
                    "a finding of swarm search #{index} could not be replayed from `{}` \
                     ({error}); are the model's successors deterministic?",
                    trace::replay_string(path)
                )),
            }
        }
        Outcome {
            index,
            search: Member::new(index, heuristics).describe(),
            tally,
            bytes: self.bytes as usize,
            omission: self.omission,
        }
    }

    fn write(&self, words: &mut Vec<u64>) {
        words.extend([
            self.index,
            self.states,
            self.transitions,
            self.errors,
            self.deadlocks,
            u64::from(self.max_depth),
            self.atoms[0],
            self.atoms[1],
            self.bytes,
        ]);
        match self.omission {
            Some((reason, probability)) => {
                words.extend([limit_word(reason), probability.to_bits()])
            }
            None => words.extend([NONE, 0]),
        }
        words.push(self.kinds.len() as u64);
        words.extend(self.kinds.iter().map(|&kind| kind_word(kind)));
        push_fired(words, &self.fired);
        words.push(self.paths.len() as u64);
        for path in &self.paths {
            words.push(path.len() as u64);
            words.extend(path.iter().map(|&t| u64::from(t)));
        }
        words.push(self.notes.len() as u64);
        for note in &self.notes {
            let bytes = note.as_bytes();
            words.push(bytes.len() as u64);
            for chunk in bytes.chunks(8) {
                let mut word = [0u8; 8];
                word[..chunk.len()].copy_from_slice(chunk);
                words.push(u64::from_le_bytes(word));
            }
        }
    }

    fn read(words: &mut impl Iterator<Item = u64>) -> Option<SearchRecord> {
        let mut next = || words.next();
        let count = |word: u64| usize::try_from(word).ok().filter(|&n| n <= 1 << 32);
        let (index, states, transitions, errors, deadlocks) =
            (next()?, next()?, next()?, next()?, next()?);
        let max_depth = u32::try_from(next()?).ok()?;
        let atoms = [next()?, next()?];
        let bytes = next()?;
        let omission = match (next()?, next()?) {
            (NONE, _) => None,
            (reason, bits) => Some((limit_from_word(reason)?, f64::from_bits(bits))),
        };
        let mut kinds = Vec::new();
        for _ in 0..count(next()?)? {
            kinds.push(kind_from_word(next()?)?);
        }
        let fired = fired_from_words(&mut next)?;
        let mut paths = Vec::new();
        for _ in 0..count(next()?)? {
            let mut path = Vec::new();
            for _ in 0..count(next()?)? {
                path.push(TransitionId::try_from(next()?).ok()?);
            }
            paths.push(path);
        }
        let mut notes = Vec::new();
        for _ in 0..count(next()?)? {
            let len = count(next()?)?;
            let mut bytes = Vec::with_capacity(len.min(1 << 16));
            while bytes.len() < len {
                let word = next()?.to_le_bytes();
                let take = (len - bytes.len()).min(8);
                bytes.extend_from_slice(&word[..take]);
            }
            notes.push(String::from_utf8(bytes).ok()?);
        }
        Some(SearchRecord {
            index,
            states,
            transitions,
            errors,
            deadlocks,
            max_depth,
            kinds,
            fired,
            atoms,
            bytes,
            omission,
            paths,
            notes,
        })
    }
}

#[cfg(test)]
mod tests;
