//! What the workers send each other, and the outbox that batches a level's successors per
//! owner, dropping the duplicates a worker would send twice.

use std::collections::HashSet;
use std::hash::Hash;

use ahash::RandomState;
use bir_runtime::__private::shard::StateRef;
use bir_runtime::Model;
use serde::{Deserialize, Serialize};

/// States per batch: large enough that a batch's overhead does not count, small enough that
/// the owner starts receiving while the sender still expands.
const BATCH_STATES: usize = 1024;

/// A message of the search.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) enum Message {
    /// States for the worker `to` at the next level: each is the model's words for the
    /// state, then its parent's reference as one word.
    States {
        /// The owner of the states.
        to: u32,
        /// The states and parents, one after the other.
        words: Vec<u64>,
    },
    /// The search stopped at the sender (a finding or a limit): store what arrives, expand
    /// no more.
    Stop {
        /// The worker told.
        to: u32,
    },
}

impl Message {
    /// The worker the message goes to.
    pub(crate) fn to(&self) -> u64 {
        match self {
            Message::States { to, .. } | Message::Stop { to } => u64::from(*to),
        }
    }
}

/// What a worker sent, for the report's figures.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Traffic {
    /// States sent to their owners (after the sender's deduplication; those a worker sends
    /// itself included).
    pub states_sent: u64,
    /// Successors not sent because the sender had sent them at this level already.
    pub duplicates_dropped: u64,
    /// Batches of states sent.
    pub batches: u64,
    /// Bytes of those batches as serialized (8 per word, 16 per batch), those a worker
    /// sends itself included.
    pub bytes_sent: u64,
    /// Of those, the bytes sent to other workers (over TCP when they run in other
    /// processes).
    pub bytes_to_others: u64,
}

impl Traffic {
    /// The figures as words.
    pub(crate) fn to_words(self) -> [u64; 5] {
        [
            self.states_sent,
            self.duplicates_dropped,
            self.batches,
            self.bytes_sent,
            self.bytes_to_others,
        ]
    }

    /// The figures [`to_words`](Self::to_words) wrote.
    pub(crate) fn from_words(words: [u64; 5]) -> Traffic {
        let [states_sent, duplicates_dropped, batches, bytes_sent, bytes_to_others] = words;
        Traffic {
            states_sent,
            duplicates_dropped,
            batches,
            bytes_sent,
            bytes_to_others,
        }
    }

    /// Adds another worker's figures.
    pub(crate) fn add(&mut self, other: Traffic) {
        self.states_sent += other.states_sent;
        self.duplicates_dropped += other.duplicates_dropped;
        self.batches += other.batches;
        self.bytes_sent += other.bytes_sent;
        self.bytes_to_others += other.bytes_to_others;
    }
}

/// One level's successors on their way to their owners: a batch and the states already
/// sent, per owner.
pub(crate) struct Outbox<S> {
    worker: u32,
    /// Words per state.
    stride: usize,
    batches: Vec<Vec<u64>>,
    sent: Vec<HashSet<S, RandomState>>,
    pub(crate) traffic: Traffic,
}

impl<S: Clone + Eq + Hash> Outbox<S> {
    /// An empty outbox of worker `worker` among `workers`, for states of `stride` words.
    pub(crate) fn new(worker: usize, workers: usize, stride: usize) -> Self {
        // Fixed seeds: the same run sends the same batches.
        let hasher = RandomState::with_seeds(1, 2, 3, 4);
        Outbox {
            worker: worker as u32,
            stride,
            batches: vec![Vec::new(); workers],
            sent: vec![HashSet::with_hasher(hasher); workers],
            traffic: Traffic::default(),
        }
    }

    /// Queues `state` (reached from `parent`) for its owner `to`, unless it was queued
    /// for the same level before; gives full batches to `give`.
    pub(crate) fn push<M: Model<State = S>>(
        &mut self,
        model: &M,
        to: usize,
        state: &S,
        parent: StateRef,
        give: &mut impl FnMut(Message),
    ) {
        if !self.sent[to].insert(state.clone()) {
            self.traffic.duplicates_dropped += 1;
            return;
        }
        let batch = &mut self.batches[to];
        model.write_state_words(state, batch);
        batch.push(parent.to_word());
        self.traffic.states_sent += 1;
        if batch.len() >= BATCH_STATES * (self.stride + 1) {
            self.send(to, give);
        }
    }

    fn send(&mut self, to: usize, give: &mut impl FnMut(Message)) {
        let words = std::mem::take(&mut self.batches[to]);
        let bytes = 16 + 8 * words.len() as u64;
        self.traffic.batches += 1;
        self.traffic.bytes_sent += bytes;
        if to as u32 != self.worker {
            self.traffic.bytes_to_others += bytes;
        }
        give(Message::States {
            to: to as u32,
            words,
        });
    }

    /// Sends what is left of the level and forgets what was sent at it.
    pub(crate) fn flush(&mut self, give: &mut impl FnMut(Message)) {
        for to in 0..self.batches.len() {
            if !self.batches[to].is_empty() {
                self.send(to, give);
            }
            self.sent[to].clear();
        }
    }
}
