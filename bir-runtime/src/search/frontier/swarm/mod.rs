//! Swarm search (Holzmann's swarm verification): K diversified searches at once, each a
//! depth-first ([`Order::DepthFirst`]) or best-first search on the one frontier of
//! `best_first`, with its own heuristic and its own seeded tie-break (so its own successor
//! order), over its own lossy seen set (a bit array, or a fingerprint table) sized to the
//! memory limit split K ways (`plan::swarm`). The searches run on the plan's threads, a search taking the
//! next one not yet started; they share the run's [`Control`], so the first finding (or a
//! limit) stops every one of them within one look at the clock. The finding's
//! counterexample is shortened and replayed as any other. A swarm covers much in little
//! memory and never says verified: its report says what each search covered.
//!
//! Spread over the workers of a distributed run, each worker runs a share of the searches
//! ([`share`]), and the report is written from all the shares' results by the same
//! [`report`] as here.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use crate::model::Model;
use crate::plan::heuristic::{Heuristic, Resolved};
use crate::plan::{Options, Storage};
use crate::report::{Report, SwarmSearch};
use crate::store::{lock, Footprint, WordTable};
use crate::verdict::IncompleteReason;

use crate::search::control::Control;
use crate::search::core::{Role, Run, Stepper, Tally};
use crate::search::finish::finish;
use crate::search::heuristic::Scorer;

use super::best_first::{explore, Order};

pub mod share;

/// One search of the swarm: its order, heuristic and tie-break seed.
struct Member {
    order: Order,
    heuristic: Heuristic,
    seed: u64,
}

impl Member {
    /// Search `index` of a swarm: depth-first and best-first in turn, each pair with the
    /// next heuristic of `heuristics`, a random one seeded by the index first.
    fn new(index: usize, heuristics: &[Heuristic]) -> Member {
        let order = if index.is_multiple_of(2) {
            Order::DepthFirst
        } else {
            Order::BestFirst
        };
        let seed = index as u64;
        let heuristic = match heuristics.get(index / 2 % heuristics.len().max(1)) {
            Some(Heuristic::Random(base)) => Heuristic::Random(base.wrapping_add(seed)),
            Some(heuristic) => heuristic.clone(),
            None => Heuristic::Random(seed),
        };
        Member {
            order,
            heuristic,
            seed,
        }
    }

    fn describe(&self) -> String {
        let order = match self.order {
            Order::DepthFirst => "ordered depth-first search",
            Order::BestFirst => "best-first search",
        };
        format!(
            "{order} by {}, ties seeded {}",
            self.heuristic.describe(),
            self.seed
        )
    }
}

/// The heuristics a swarm's searches take in turn: the user's first, if any, then random,
/// the built-in ones that cost no more than a look at the step, most blocked first, and
/// the model's own.
fn heuristics<M: Model>(model: &M, options: &Options) -> Vec<Heuristic> {
    let mut list: Vec<Heuristic> = options.heuristic.iter().cloned().collect();
    list.extend([
        Heuristic::Random(0),
        Heuristic::Coverage,
        Heuristic::Switching,
        Heuristic::Blocked,
    ]);
    list.extend(
        model
            .heuristics()
            .iter()
            .map(|h| Heuristic::Model(h.name.to_string())),
    );
    list
}

/// What one search of the swarm left: its tally, the memory of its seen set and links,
/// and the chance its seen set missed a state.
struct Outcome {
    index: usize,
    search: String,
    tally: Tally,
    bytes: usize,
    omission: Option<(IncompleteReason, f64)>,
}

/// The seen sets of all the searches, as [`finish`] reads one: their memory together, and
/// the largest chance that one of them missed a state.
struct Covered {
    bytes: usize,
    omission: Option<(IncompleteReason, f64)>,
}

impl Footprint for Covered {
    fn bytes(&self) -> usize {
        self.bytes
    }

    fn omission(&self, _: u64) -> Option<(IncompleteReason, f64)> {
        self.omission
    }
}

/// Runs the swarm the plan describes.
pub(crate) fn run<M: Model>(run: Run<'_, M>) -> Report {
    let heuristics = heuristics(run.model, run.options);
    let searches = run.plan.swarm.max(1);
    let outcomes = run_searches(&run, &heuristics, (0..searches).collect());
    report(run, searches, heuristics, outcomes)
}

/// Runs the searches numbered `indices`, in that order, on the plan's threads, each thread
/// taking the next one not yet started, until the run stops; their outcomes by index.
fn run_searches<M: Model>(
    run: &Run<'_, M>,
    heuristics: &[Heuristic],
    indices: Vec<usize>,
) -> Vec<Outcome> {
    let next = AtomicUsize::new(0);
    let outcomes: Mutex<Vec<Outcome>> = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..run.plan.threads {
            scope.spawn(|| {
                while let Some(&index) = indices.get(next.fetch_add(1, Ordering::SeqCst)) {
                    if run.control.is_stopped() {
                        break;
                    }
                    let outcome = search(run, index, Member::new(index, heuristics));
                    lock(&outcomes).push(outcome);
                }
            });
        }
    });
    let mut outcomes = outcomes.into_inner().unwrap_or_else(|e| e.into_inner());
    outcomes.sort_by_key(|outcome| outcome.index);
    outcomes
}

/// Search `index` of the swarm, to its end or until the run stops.
fn search<M: Model>(run: &Run<'_, M>, index: usize, member: Member) -> Outcome {
    let heuristic = match Resolved::new(run.model, &member.heuristic) {
        Ok(heuristic) => heuristic,
        Err(error) => unreachable!("the plan resolved the swarm's heuristics: {error}"),
    };
    let mut stepper: Stepper<'_, M> = run.stepper(Role::Member);
    let scorer = Scorer::new(run.model, heuristic, Some(member.seed));
    let (bytes, omission) = match run.plan.storage {
        Storage::Bitstate { log2_bits, hashes } => {
            let mut bits = run.control.allocate_bitstate(log2_bits, hashes);
            let links = explore(&mut stepper, scorer, member.order, &mut bits);
            (bits.bytes() + links, bits.omission(stepper.tally.states))
        }
        _ => {
            let mut table = WordTable::new(0, true);
            let links = explore(&mut stepper, scorer, member.order, &mut table);
            (table.bytes() + links, table.omission(stepper.tally.states))
        }
    };
    stepper.release_quota();
    Outcome {
        index,
        search: member.describe(),
        tally: stepper.tally,
        bytes,
        omission,
    }
}

/// The swarm's report: the searches' counts added up, their findings (the first one's
/// first), and a line per search of what it covered.
fn report<M: Model>(
    run: Run<'_, M>,
    searches: usize,
    heuristics: Vec<Heuristic>,
    outcomes: Vec<Outcome>,
) -> Report {
    let info = std::sync::Arc::new(run.model.info().clone());
    let mut tally = Tally {
        fired: crate::report::Fired::new(&info),
        ..Tally::default()
    };
    let mut covered = Covered {
        bytes: 0,
        omission: None,
    };
    let mut summaries = Vec::with_capacity(searches);
    let mut ran = vec![false; searches];
    for outcome in outcomes {
        ran[outcome.index] = true;
        summaries.push(SwarmSearch {
            search: outcome.search,
            states: outcome.tally.states,
            transitions: outcome.tally.transitions,
            found: outcome.tally.kinds.first().copied(),
            ran: true,
        });
        covered.bytes += outcome.bytes;
        covered.omission = match (covered.omission, outcome.omission) {
            (Some(a), Some(b)) if b.1 > a.1 => Some(b),
            (None, b) => b,
            (a, _) => a,
        };
        tally.merge(outcome.tally);
    }
    for (index, _) in ran.iter().enumerate().filter(|(_, &ran)| !ran) {
        summaries.insert(
            index,
            SwarmSearch {
                search: Member::new(index, &heuristics).describe(),
                states: 0,
                transitions: 0,
                found: None,
                ran: false,
            },
        );
    }
    let control: &Control = run.control;
    let stopped_early = summaries.iter().filter(|s| !s.ran).count();
    let mut report = finish(run.options, control, run.plan, info, tally, &covered, 0);
    let finder = summaries.iter().position(|s| s.found.is_some());
    report.notes.push(format!(
        "the counts are those of the {searches} searches added up (each over a seen set of \
         its own){}",
        match (finder, stopped_early) {
            (Some(i), 0) => format!("; search #{i} made the first finding"),
            (Some(i), n) =>
                format!("; search #{i} made the first finding, before {n} of them had started"),
            (None, _) => String::new(),
        }
    ));
    for (index, summary) in summaries.iter().enumerate() {
        report.notes.push(format!(
            "swarm search #{index}: {}: {}",
            summary.search,
            if summary.ran {
                format!(
                    "{} states, {} transitions",
                    crate::units::Thousands(summary.states),
                    crate::units::Thousands(summary.transitions)
                )
            } else {
                "not started".to_string()
            }
        ));
    }
    report.swarm = summaries;
    report
}

#[cfg(test)]
mod tests;
