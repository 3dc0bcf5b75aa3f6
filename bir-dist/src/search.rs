//! The search as a timely dataflow: one operator in a loop whose timestamp is the level.
//! At level `d` a worker stores the states sent to it for `d` and expands them, sending
//! each successor to its owner through the loop, which brings it back at `d + 1`. The
//! operator handles a level once its input's frontier has passed it, that is once every
//! worker has sent everything for it; when no worker sends anything more, the frontier
//! empties and the dataflow ends: termination by timely's progress tracking, no counting.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use bir_runtime::__private::shard::{Shard, StateRef};
use bir_runtime::Model;
use timely::dataflow::channels::pact::Exchange;
use timely::dataflow::operators::generic::operator::Operator;
use timely::dataflow::operators::{Capability, ConnectLoop, Feedback};
use timely::worker::Worker;

use crate::message::{Message, Outbox, Traffic};

/// Runs the search of `shard` on this worker to its end (with every other worker's), and
/// gives the shard back with what this worker sent.
pub(crate) fn search<M: Model + Clone + 'static>(
    worker: &mut Worker,
    shard: Shard<M>,
    stride: usize,
) -> (Shard<M>, Traffic) {
    let (me, workers) = (shard.worker(), shard.workers());
    let initial = shard.model().initial_state();
    let initial = (shard.owner(&initial) == me).then_some(initial);
    let level = Rc::new(RefCell::new(Level {
        model: shard.model().clone(),
        shard,
        outbox: Outbox::new(me, workers, stride),
        stride,
        told: false,
        initial,
    }));
    let state = Rc::clone(&level);
    worker.dataflow::<u64, _, _>(move |scope| {
        let (handle, cycle) = scope.feedback::<Vec<Message>>(1);
        cycle
            .unary_frontier(
                Exchange::new(|message: &Message| message.to()),
                "BirLevels",
                move |capability, _info| {
                    let mut start = Some(capability);
                    let mut arrived: BTreeMap<u64, (Capability<u64>, Vec<Message>)> =
                        BTreeMap::new();
                    move |(input, frontier), output| {
                        let mut level = state.borrow_mut();
                        if let Some(capability) = start.take() {
                            let mut session = output.session(&capability);
                            level.run(0, Vec::new(), &mut |m| session.give(m));
                        }
                        input.for_each_stamp(|capability, containers| {
                            let Some(capability) = capability.retain_least(output.output_index())
                            else {
                                return;
                            };
                            let time = *capability.time();
                            let entry = arrived
                                .entry(time)
                                .or_insert_with(|| (capability, Vec::new()));
                            for container in containers {
                                entry.1.append(container);
                            }
                        });
                        while let Some((&time, _)) = arrived.first_key_value() {
                            if frontier.frontier().less_equal(&time) {
                                break;
                            }
                            let Some((_, (capability, messages))) = arrived.pop_first() else {
                                break;
                            };
                            let mut session = output.session(&capability);
                            level.run(time, messages, &mut |m| session.give(m));
                        }
                    }
                },
            )
            .connect_loop(handle);
    });
    while worker.step_or_park(None) {}
    drop(level.borrow_mut().initial.take());
    let Ok(level) = Rc::try_unwrap(level) else {
        unreachable!("the dataflow, which held the other reference, has ended")
    };
    let level = level.into_inner();
    (level.shard, level.outbox.traffic)
}

/// What the operator keeps between levels.
struct Level<M: Model> {
    /// The model, to write states into batches while the shard expands.
    model: M,
    shard: Shard<M>,
    outbox: Outbox<M::State>,
    stride: usize,
    /// The other workers were told that this one stopped.
    told: bool,
    /// The initial state, for its owner, until level 0 stores it.
    initial: Option<M::State>,
}

impl<M: Model> Level<M> {
    /// Stores the states that arrived for level `time` and expands them, giving the
    /// messages for the next level to `give`.
    fn run(&mut self, time: u64, messages: Vec<Message>, give: &mut impl FnMut(Message)) {
        let depth = u32::try_from(time).unwrap_or(u32::MAX);
        let model = &self.model;
        let stride = self.stride;
        let mut received = Vec::new();
        let mut halt = false;
        for message in messages {
            match message {
                Message::Stop { .. } => halt = true,
                Message::States { words, .. } => {
                    for chunk in words.chunks_exact(stride + 1) {
                        let Some(state) = model.state_from_words(&chunk[..stride]) else {
                            panic!(
                                "bir-dist: another worker sent words that are no state of \
                                 this model: do all processes run the same program?"
                            );
                        };
                        received.push((state, Some(StateRef::from_word(chunk[stride]))));
                    }
                }
            }
        }
        if halt {
            self.shard.halt();
        }
        if time == 0 {
            received.extend(self.initial.take().map(|state| (state, None)));
        }
        self.shard.receive(depth, received);
        let (shard, outbox) = (&mut self.shard, &mut self.outbox);
        shard.expand(depth, |to, state, parent| {
            outbox.push(model, to, state, parent, give);
        });
        outbox.flush(give);
        if shard.stopped_here() && !self.told {
            self.told = true;
            let me = shard.worker();
            for to in (0..shard.workers()).filter(|&to| to != me) {
                give(Message::Stop { to: to as u32 });
            }
        }
    }
}
