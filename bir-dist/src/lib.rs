//! bir's breadth-first search spread over the workers of a [timely dataflow]: threads of one
//! process (`-w`), processes on one machine or on several (`-n`, `-p`, `-h hostfile`); and
//! a swarm's searches spread over them.
//!
//! Each state has one owner, the worker its packed state hashes to, which alone stores it
//! in its shard of the seen set, with a reference to its parent (the parent's owner and its
//! index there). The search goes level by level: a worker expands the states it received
//! for a level and sends each successor to its owner for the next one, in batches, sending
//! no state twice per level. The level ends when timely's progress tracking says that every
//! worker has sent everything for it, and the search ends when the loop has nothing left
//! in flight.
//!
//! Everything else is the checker's own ([`bir_runtime::__private::shard`]): a state's and a step's
//! classification (deadlock, assertion, invariant and other faults), the limits (states,
//! time, memory, depth) that make a report incomplete rather than verified, and the report.
//! Counterexamples are shortest: a finding's path is traced back from owner to owner along
//! the parent references, then replayed from the initial state into the ordinary bir
//! trace. Every process prints the same report.
//!
//! A checker that asks for a swarm ([`Checker::swarm`]) runs it across the workers instead:
//! worker `w` of `W` runs the swarm's searches `w`, `w + W`, ... on the cores of its share,
//! the first finding anywhere stops them all, and only the results travel — counts,
//! coverage, and each finding as its path — from which every process writes the same
//! report, its counterexamples replayed and shortened as on one machine.
//!
//! A worker that dies (its process killed, a lost connection) makes every other worker
//! fail: [`check`] then returns [`DistError::WorkerFailed`], which a program reports as
//! incomplete and ends with a non-zero status (see `examples/dist_philosophers.rs`).
//!
//! ```no_run
//! # use bir_runtime::{Checker, Model};
//! # fn demo<M: Model + Clone + Send + 'static>(checker: Checker<M>) {
//! // `-w 2`: two worker threads in this process; `-n 2 -p 0 -h hosts.txt`: process 0 of 2.
//! let outcome = bir_dist::check_from_args(checker, std::env::args().skip(1));
//! match outcome {
//!     Ok(outcome) => println!("{outcome}"),
//!     Err(error) => {
//!         eprintln!("incomplete: {error}");
//!         std::process::exit(2);
//!     }
//! }
//! # }
//! ```
//!
//! [timely dataflow]: https://docs.rs/timely
#![warn(missing_docs)]

mod message;
mod search;
mod swarm;
mod trace;

use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc;
use std::sync::Arc;

use bir_runtime::__private::shard::LevelCounts;
use bir_runtime::__private::{Call, EngineCall};
use bir_runtime::{Checker, ConfigError, Model, Report};
use timely::worker::Worker;

pub use message::Traffic;
pub use timely::Config;

/// The result of a distributed search, the same in every process.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The report: verdict, counterexamples (replayed from the initial state), counts.
    pub report: Report,
    /// The counts of every level (depth), added up over the workers.
    pub levels: Vec<LevelCounts>,
    /// The number of workers.
    pub workers: usize,
    /// What the workers sent each other, added up.
    pub traffic: Traffic,
}

impl Outcome {
    /// What a distributed search adds to its report: the states per level and what the
    /// workers sent each other, one line each.
    pub fn summary(&self) -> String {
        if self.report.plan().strategy == bir_runtime::Strategy::Swarm {
            return format!(
                "{} workers ran the swarm's searches and sent each other {} bytes of results \
                 ({} to other workers)\n",
                self.workers, self.traffic.bytes_sent, self.traffic.bytes_to_others
            );
        }
        let states: Vec<String> = self.levels.iter().map(|l| l.states.to_string()).collect();
        let traffic = &self.traffic;
        let transitions = self.report.transitions().max(1) as f64;
        format!(
            "states per level: {}\n{} workers sent {} states in {} batches ({} duplicates \
             dropped): {} bytes, {:.1} per transition, {} to other workers\n",
            states.join(" "),
            self.workers,
            traffic.states_sent,
            traffic.batches,
            traffic.duplicates_dropped,
            traffic.bytes_sent,
            traffic.bytes_sent as f64 / transitions,
            traffic.bytes_to_others,
        )
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.report)?;
        write!(f, "{}", self.summary())
    }
}

/// Why a distributed search gave no report.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DistError {
    /// Timely's arguments or configuration are wrong, or the processes could not connect.
    Start(String),
    /// The checker's options cannot run across workers.
    Config(ConfigError),
    /// A worker of this process failed — most often because a worker of another process
    /// died and the connection to it broke. The search is incomplete.
    WorkerFailed(String),
}

impl fmt::Display for DistError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DistError::Start(error) => write!(f, "the workers could not start: {error}"),
            DistError::Config(error) => write!(f, "{error}"),
            DistError::WorkerFailed(error) => write!(
                f,
                "a worker failed, so not every state was explored: {error}"
            ),
        }
    }
}

impl std::error::Error for DistError {}

/// Runs `checker`'s search over the workers timely's arguments describe (`-w` threads per
/// process, `-n` processes, `-p` this process's index, `-h` a hostfile with one
/// `host:port` per process; see [`Config::from_args`]); arguments timely does not know are
/// ignored by it.
pub fn check_from_args<M>(
    checker: Checker<M>,
    args: impl Iterator<Item = String>,
) -> Result<Outcome, DistError>
where
    M: Model + Clone + Send + 'static,
{
    let config = Config::from_args(args).map_err(DistError::Start)?;
    check(checker, config)
}

/// Runs `checker`'s search over the workers of `config`: the options apply to every worker
/// (the state limit shared among them); the search is breadth-first whatever the checker
/// says, but for a swarm, whose searches are spread over the workers. Returns in every process once all workers are done; the outcome is the same in
/// every process.
///
/// The model chooses the copy of the search it runs on, as for [`Checker::run`]: generated
/// models in debug builds run on the one compiled for every model (through a vtable), so
/// that a crate of many models compiles the search and timely's dataflow twice (states as
/// words, states packed), not once per model.
pub fn check<M>(checker: Checker<M>, config: Config) -> Result<Outcome, DistError>
where
    M: Model + Clone + Send + 'static,
{
    let model = checker.model().clone();
    model.__check(DistCall { checker, config })
}

/// [`check`] as the model's `__check` answers it.
struct DistCall<M: Model> {
    checker: Checker<M>,
    config: Config,
}

impl<M: Model + Clone + Send + 'static> Call for DistCall<M> {
    type Output = Result<Outcome, DistError>;

    fn specialised<N: Model>(self, _: &N) -> Self::Output {
        Workers(self.config).run(self.checker)
    }

    fn erased<N: Model>(self, _: &N) -> Self::Output {
        self.checker.__erased(Workers(self.config))
    }
}

/// The search on timely's workers, for whichever model [`DistCall`] chose.
struct Workers(Config);

impl EngineCall for Workers {
    type Output = Result<Outcome, DistError>;

    fn run<M: Model + Clone + Send + 'static>(self, checker: Checker<M>) -> Self::Output {
        let config = self.0;
        let local = local_workers(&config);
        let checker = Arc::new(checker);
        let (results, outcomes) = mpsc::channel();
        let guards = timely::execute(config, move |worker| {
            let mut sender = Sender {
                results: results.clone(),
                index: worker.index(),
                sent: false,
            };
            sender.send(run(worker, &checker, local));
        })
        .map_err(DistError::Start)?;
        let local = guards.guards().len();
        let mut first = None;
        for _ in 0..local {
            match outcomes.recv() {
                Ok(Ok(outcome)) => {
                    first.get_or_insert(outcome);
                }
                Ok(Err(error)) => {
                    // Other workers may wait forever on the failed one: leave them to the
                    // process's end rather than join them.
                    std::mem::forget(guards);
                    return Err(error);
                }
                Err(_) => {
                    std::mem::forget(guards);
                    return Err(DistError::WorkerFailed("the workers ended early".into()));
                }
            }
        }
        // The communication threads panic if a peer goes away now; the search is complete.
        let _ = catch_unwind(AssertUnwindSafe(|| guards.join()));
        first.ok_or_else(|| DistError::WorkerFailed("this process has no worker".into()))
    }
}

/// A worker's way to report: its outcome, or, should it panic, its failure.
struct Sender {
    results: mpsc::Sender<Result<Outcome, DistError>>,
    index: usize,
    sent: bool,
}

impl Sender {
    fn send(&mut self, result: Result<Outcome, DistError>) {
        self.sent = true;
        let _ = self.results.send(result);
    }
}

impl Drop for Sender {
    fn drop(&mut self) {
        if !self.sent {
            let _ = self.results.send(Err(DistError::WorkerFailed(format!(
                "worker {} stopped (a lost connection to another process, or a panic: see \
                 above)",
                self.index
            ))));
        }
    }
}

/// The workers of this process.
fn local_workers(config: &Config) -> usize {
    match &config.communication {
        timely::CommunicationConfig::Thread => 1,
        timely::CommunicationConfig::Process(threads)
        | timely::CommunicationConfig::ProcessBinary(threads)
        | timely::CommunicationConfig::Cluster { threads, .. } => *threads,
    }
}

/// One worker's whole run: the search, then the summaries and trace-backs, then the
/// report. A swarm runs its share of the searches instead (`local` shares in this process).
fn run<M>(worker: &mut Worker, checker: &Checker<M>, local: usize) -> Result<Outcome, DistError>
where
    M: Model + Clone + Send + 'static,
{
    if let Some(share) = checker.swarm_share(worker.index(), worker.peers(), local) {
        let share = share.map_err(DistError::Config)?;
        let (share, results, traffic) = swarm::search(worker, share)?;
        if results.len() != worker.peers() {
            return Err(DistError::WorkerFailed(format!(
                "{} of the {} workers sent no result",
                worker.peers() - results.len().min(worker.peers()),
                worker.peers()
            )));
        }
        return Ok(Outcome {
            report: share.report(&results),
            levels: Vec::new(),
            workers: worker.peers(),
            traffic,
        });
    }
    let shard = checker
        .shard(worker.index(), worker.peers())
        .map_err(DistError::Config)?;
    let mut words = Vec::new();
    shard
        .model()
        .write_state_words(&shard.model().initial_state(), &mut words);
    let (shard, traffic) = search::search(worker, shard, words.len());
    let (shard, gathered) = trace::gather(worker, shard, traffic);
    let paths: Vec<_> = gathered.paths.into_iter().flatten().collect();
    let report = shard.report(&gathered.summaries, &paths);
    let depth = gathered
        .summaries
        .iter()
        .map(|s| s.levels.len())
        .max()
        .unwrap_or(0);
    let mut levels: Vec<LevelCounts> = (0..depth)
        .map(|d| {
            let mut level = LevelCounts::default();
            for counts in gathered.summaries.iter().filter_map(|s| s.levels.get(d)) {
                level.states += counts.states;
                level.transitions += counts.transitions;
            }
            level
        })
        .collect();
    // A last level that only met states seen before is no level.
    while levels.last() == Some(&LevelCounts::default()) {
        levels.pop();
    }
    Ok(Outcome {
        report,
        levels,
        workers: worker.peers(),
        traffic: gathered.traffic,
    })
}
