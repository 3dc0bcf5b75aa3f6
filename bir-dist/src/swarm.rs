//! A swarm spread over the workers: each worker runs its share of the swarm's searches
//! ([`SwarmShare`]) on a thread of its own while it steps a dataflow of one operator that
//! carries the shares' results to every worker. A result that ends in a finding stops every
//! share that has not ended yet (within a few milliseconds: the worker looks at its input
//! between parks); the dataflow ends once every worker has sent its result, and then every
//! worker writes the same report from all of them.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::{mpsc, Arc};
use std::time::Duration;

use bir_runtime::__private::swarm_share::{ShareResult, SwarmShare};
use bir_runtime::Model;
use serde::{Deserialize, Serialize};
use timely::dataflow::operators::{Exchange, Input, Inspect, Probe};
use timely::dataflow::{InputHandle, ProbeHandle};
use timely::worker::Worker;

use crate::message::Traffic;
use crate::DistError;

/// How long a worker parks between looks at its share and its input.
const PARK: Duration = Duration::from_millis(2);

/// A share's result for the worker `to`.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Done {
    to: u32,
    words: Vec<u64>,
}

/// Runs this worker's share to its end (or until another's finding stops it), exchanges
/// the results, and returns every worker's, with what this worker sent.
pub(crate) fn search<M: Model + Send + Sync + 'static>(
    worker: &mut Worker,
    share: SwarmShare<M>,
) -> Result<(SwarmShare<M>, Vec<ShareResult>, Traffic), DistError> {
    let (me, workers) = (worker.index(), worker.peers());
    let share = Arc::new(share);
    let (finished, result) = mpsc::channel();
    let runner = {
        let share = Arc::clone(&share);
        std::thread::Builder::new()
            .name(format!("bir-swarm-{me}"))
            .spawn(move || {
                let _ = finished.send(share.run());
            })
            .map_err(|error| DistError::Start(format!("no thread for the swarm: {error}")))?
    };
    let arrived: Rc<RefCell<Vec<Vec<u64>>>> = Rc::default();
    let mut input = InputHandle::new();
    let probe = ProbeHandle::new();
    let sink = Rc::clone(&arrived);
    worker.dataflow::<u64, _, _>(|scope| {
        scope
            .input_from(&mut input)
            .container::<Vec<Done>>()
            .exchange(|done: &Done| u64::from(done.to))
            .inspect(move |done: &Done| sink.borrow_mut().push(done.words.clone()))
            .probe_with(&probe);
    });
    let mut input = Some(input);
    let mut traffic = Traffic::default();
    let mut failed = None;
    let mut seen = 0;
    while input.is_some() || !probe.done() {
        worker.step_or_park(Some(PARK));
        for words in &arrived.borrow()[seen..] {
            if ShareResult::from_words(words).is_some_and(|r| r.stopped_at_finding()) {
                share.stop_at_finding();
            }
        }
        seen = arrived.borrow().len();
        let outcome = match result.try_recv() {
            Ok(done) => Some(Ok(done)),
            Err(mpsc::TryRecvError::Disconnected) => Some(Err(())),
            Err(mpsc::TryRecvError::Empty) => None,
        };
        let handle = outcome.as_ref().and_then(|_| input.take());
        if let (Some(outcome), Some(mut handle)) = (outcome, handle) {
            match outcome {
                Ok(done) => {
                    let words = done.to_words();
                    for to in 0..workers {
                        let bytes = 8 * words.len() as u64 + 16;
                        traffic.batches += 1;
                        traffic.bytes_sent += bytes;
                        if to != me {
                            traffic.bytes_to_others += bytes;
                        }
                        handle.send(Done {
                            to: to as u32,
                            words: words.clone(),
                        });
                    }
                }
                Err(()) => failed = Some(me),
            }
            handle.close();
        }
    }
    let _ = runner.join();
    if let Some(worker) = failed {
        return Err(DistError::WorkerFailed(format!(
            "the swarm's searches of worker {worker} stopped without a result (a panic: see \
             above)"
        )));
    }
    let results: Vec<ShareResult> = arrived
        .borrow()
        .iter()
        .filter_map(|words| ShareResult::from_words(words))
        .collect();
    let share = Arc::try_unwrap(share)
        .map_err(|_| DistError::WorkerFailed("the swarm's thread kept its share".into()))?;
    Ok((share, results, traffic))
}
