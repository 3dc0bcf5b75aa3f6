//! After the search: every worker's summary goes to every worker, which all pick the same
//! findings to trace back; each trace-back hops from owner to owner along the parent
//! references (a timely loop again, one hop per round between processes) and, at the
//! initial state, its path goes to every worker, so that every process writes the same
//! report.

use std::cell::RefCell;
use std::rc::Rc;

use bir_runtime::__private::shard::{Shard, ShardSummary, StateRef};
use bir_runtime::model::TransitionId;
use bir_runtime::Model;
use serde::{Deserialize, Serialize};
use timely::dataflow::channels::pact::Exchange;
use timely::dataflow::operators::generic::operator::Operator;
use timely::dataflow::operators::{ConnectLoop, Feedback};
use timely::worker::Worker;

use crate::message::Traffic;

/// A message of the trace-back.
#[derive(Clone, Debug, Serialize, Deserialize)]
enum Back {
    /// A worker's summary ([`ShardSummary::to_words`]) and traffic, for worker `to`.
    Summary {
        to: u32,
        words: Vec<u64>,
        traffic: [u64; 5],
    },
    /// The trace-back of finding `rank` continues at worker `to`, at its state `index`,
    /// which leads to the state `child` (words); `path` holds the transitions from there
    /// to the finding, last first.
    Hop {
        to: u32,
        rank: u32,
        index: u32,
        child: Vec<u64>,
        path: Vec<TransitionId>,
    },
    /// The path of finding `rank` from the initial state (empty when it could not be
    /// traced back), for worker `to`.
    Path {
        to: u32,
        rank: u32,
        path: Vec<TransitionId>,
    },
}

impl Back {
    fn to(&self) -> u64 {
        match self {
            Back::Summary { to, .. } | Back::Hop { to, .. } | Back::Path { to, .. } => {
                u64::from(*to)
            }
        }
    }
}

/// What every worker ends up with.
#[derive(Default)]
pub(crate) struct Gathered {
    /// Every worker's summary, by worker.
    pub(crate) summaries: Vec<ShardSummary>,
    /// Every worker's traffic, added up.
    pub(crate) traffic: Traffic,
    /// The paths of the traced findings, by rank.
    pub(crate) paths: Vec<Option<Vec<TransitionId>>>,
}

/// Exchanges the summaries and traces the chosen findings back.
pub(crate) fn gather<M: Model + Clone + 'static>(
    worker: &mut Worker,
    shard: Shard<M>,
    traffic: Traffic,
) -> (Shard<M>, Gathered) {
    let shard = Rc::new(shard);
    let gathered = Rc::new(RefCell::new(Gathered::default()));
    let (me, workers) = (shard.worker(), shard.workers());
    let (here, out) = (Rc::clone(&shard), Rc::clone(&gathered));
    worker.dataflow::<u64, _, _>(move |scope| {
        let (handle, cycle) = scope.feedback::<Vec<Back>>(1);
        cycle
            .unary_frontier(
                Exchange::new(|message: &Back| message.to()),
                "BirTraceBack",
                move |capability, _info| {
                    let mut start = Some(capability);
                    let mut summaries: Vec<ShardSummary> = Vec::new();
                    let mut waiting = None;
                    move |(input, frontier), output| {
                        if let Some(capability) = start.take() {
                            let words = here.summary().to_words();
                            let mut session = output.session(&capability);
                            for to in 0..workers as u32 {
                                session.give(Back::Summary {
                                    to,
                                    words: words.clone(),
                                    traffic: traffic.to_words(),
                                });
                            }
                        }
                        let mut gathered = out.borrow_mut();
                        input.for_each_stamp(|capability, containers| {
                            let Some(capability) = capability.retain_least(output.output_index())
                            else {
                                return;
                            };
                            let mut session = output.session(&capability);
                            for message in containers.flat_map(|c| c.drain(..)) {
                                match message {
                                    Back::Summary { words, traffic, .. } => {
                                        let Some(summary) = ShardSummary::from_words(&words) else {
                                            panic!(
                                                "bir-dist: another worker sent a summary this \
                                                 program cannot read: do all processes run \
                                                 the same program?"
                                            );
                                        };
                                        summaries.push(summary);
                                        gathered.traffic.add(Traffic::from_words(traffic));
                                        if waiting.is_none() {
                                            waiting = Some(capability.clone());
                                        }
                                    }
                                    Back::Hop {
                                        rank,
                                        index,
                                        child,
                                        path,
                                        ..
                                    } => {
                                        let child = here.model().state_from_words(&child);
                                        let hop = Walk { rank, index, path };
                                        hop.walk(&here, child, workers, &mut |m| session.give(m));
                                    }
                                    Back::Path { rank, path, .. } => {
                                        let rank = rank as usize;
                                        if gathered.paths.len() <= rank {
                                            gathered.paths.resize(rank + 1, None);
                                        }
                                        gathered.paths[rank] = Some(path);
                                    }
                                }
                            }
                        });
                        // Every summary is in once the frontier has passed their time: pick
                        // the findings, and start tracing back those found here.
                        let ready = waiting
                            .as_ref()
                            .is_some_and(|c| !frontier.frontier().less_equal(c.time()));
                        if ready {
                            let Some(capability) = waiting.take() else {
                                return;
                            };
                            summaries.sort_by_key(|s| s.worker);
                            let sites = here.traced_sites(&summaries);
                            gathered.paths.resize(sites.len(), None);
                            gathered.summaries = std::mem::take(&mut summaries);
                            let mut session = output.session(&capability);
                            for (rank, site) in sites.iter().enumerate() {
                                if site.at.owner as usize != me {
                                    continue;
                                }
                                let hop = Walk {
                                    rank: rank as u32,
                                    index: site.at.index,
                                    path: site.step.into_iter().collect(),
                                };
                                hop.walk(&here, None, workers, &mut |m| session.give(m));
                            }
                        }
                    }
                },
            )
            .connect_loop(handle);
    });
    while worker.step_or_park(None) {}
    let Ok(gathered) = Rc::try_unwrap(gathered) else {
        unreachable!("the dataflow, which held the other reference, has ended")
    };
    let Ok(shard) = Rc::try_unwrap(shard) else {
        unreachable!("the dataflow, which held the other reference, has ended")
    };
    (shard, gathered.into_inner())
}

/// A trace-back at this worker.
struct Walk {
    rank: u32,
    index: u32,
    path: Vec<TransitionId>,
}

impl Walk {
    /// Follows the parent references while they stay at this worker, then hands the walk
    /// to the parent's owner, or, at the initial state, gives the path to every worker.
    fn walk<M: Model>(
        mut self,
        shard: &Shard<M>,
        mut child: Option<M::State>,
        workers: usize,
        give: &mut impl FnMut(Back),
    ) {
        let me = shard.worker() as u32;
        loop {
            let Some(hop) = shard.hop(self.index, child.as_ref()) else {
                // A nondeterministic model: the report says the path could not be replayed.
                self.path.clear();
                break;
            };
            self.path.extend(hop.transition);
            match hop.parent {
                Some(StateRef { owner, index }) if owner == me => {
                    self.index = index;
                    child = Some(hop.state);
                }
                Some(StateRef { owner, index }) => {
                    let mut words = Vec::new();
                    shard.model().write_state_words(&hop.state, &mut words);
                    give(Back::Hop {
                        to: owner,
                        rank: self.rank,
                        index,
                        child: words,
                        path: self.path,
                    });
                    return;
                }
                None => break,
            }
        }
        self.path.reverse();
        for to in 0..workers as u32 {
            give(Back::Path {
                to,
                rank: self.rank,
                path: self.path.clone(),
            });
        }
    }
}
