//! The plan: what a run will actually do, resolved once from the checker's options
//! (`options`, and the [`Watch`] that follows a run) and the model (`resolve`), so that no
//! option silently overrides another. Every combination of strategy, storage and threads
//! either runs as asked (and the report and `--json` say so) or is refused with a
//! [`ConfigError`] before anything runs. Also how product states of an LTL check are laid
//! out (`product`), which both the plan and the LTL searches read.

mod error;
pub(crate) mod heuristic;
mod options;
mod product;
mod resolve;
pub(crate) mod swarm;
mod watch;

use std::fmt;

use crate::store::Keying;
use crate::verdict::Strategy;

pub use error::ConfigError;
pub use options::Fairness;
pub(crate) use options::{Options, PropertyCheck};
pub(crate) use product::{automaton_bits, one_table, product_word_bits};
pub(crate) use resolve::resolve;
pub use watch::{Progress, Watch};

/// The most threads a search may use; more is refused ([`ConfigError::Threads`]).
pub const MAX_THREADS: usize = 256;

/// The sizes of a bitstate array that [`Checker::bitstate`](crate::Checker::bitstate)
/// accepts, as log2 of its bits: from 128 bytes to 128 GiB.
pub const BITSTATE_LOG2_BITS: std::ops::RangeInclusive<u32> = 10..=40;

/// The numbers of bits per state that bitstate hashing accepts.
pub const BITSTATE_HASHES: std::ops::RangeInclusive<u32> = 1..=8;

/// How the seen set stores states.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Storage {
    /// Every state exactly (as a 64-bit word when every state fits in one) in a plain hash
    /// table: with [`Storage::Compact`], the storage after which a search can say verified.
    Exact,
    /// Every state exactly, in a few bytes: states that fit in a word are stored by
    /// quotienting (a state's place in the table stands for part of it; only the rest is
    /// stored), wider states by tree compression (the parts states share are stored once,
    /// and each state as the pair of its halves' numbers, quotiented in turn), and the
    /// depth-first path as successor numbers. For depth-first and breadth-first search on
    /// one thread, and for the nested depth-first search of an LTL check without fairness
    /// (its product states as words or trees, and the stack's states in a set beside
    /// them); the plan stores other searches (and wide states of a model that cannot write
    /// them as words, [`Model::write_state_words`](crate::Model::write_state_words)) exactly
    /// as [`Storage::Exact`] does, and says so.
    Compact,
    /// Hash compaction: a 64-bit fingerprint per state. Two states with one fingerprint
    /// are taken for one, so a search never says verified.
    HashCompaction,
    /// Bitstate hashing (supertrace): `hashes` bits per state in an array of
    /// `2^log2_bits` bits. States may be taken for others; never verified.
    Bitstate {
        /// log2 of the array's size in bits.
        log2_bits: u32,
        /// Bits set per state.
        hashes: u32,
    },
}

impl Storage {
    /// True when the storage may take a new state for a seen one.
    pub fn is_lossy(self) -> bool {
        matches!(self, Storage::HashCompaction | Storage::Bitstate { .. })
    }
}

impl fmt::Display for Storage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Storage::Exact => f.write_str("exact storage"),
            Storage::Compact => f.write_str("compact exact storage"),
            Storage::HashCompaction => f.write_str("hash compaction"),
            Storage::Bitstate { log2_bits, hashes } => {
                write!(
                    f,
                    "bitstate hashing, 2^{log2_bits} bits, {hashes} per state"
                )
            }
        }
    }
}

/// What a run does, as resolved from the options: see [`Checker::plan`](crate::Checker::plan).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Plan {
    /// The order of the search.
    pub strategy: Strategy,
    /// Threads searching (1 unless [`Strategy::Parallel`]), or the workers of a
    /// [`Strategy::Distributed`] search.
    pub threads: usize,
    /// How states are stored, as they will be (hash compaction of states that fit in a word
    /// stores them exactly).
    pub storage: Storage,
    /// The seen set's layout, in words: `64-bit words`, `states inline`...
    pub layout: &'static str,
    /// The LTL property or reachability check searched for, by name, if any.
    pub property: Option<String>,
    /// The fairness an LTL check assumes.
    pub fairness: Fairness,
    /// Partial-order reduction is on (and the model marks some location safe).
    pub por: bool,
    /// Symmetry reduction is on: the group, in words (`all 6 permutations of P[1], P[2],
    /// P[3] (P[0] fixed)`). `None` when off, or when the model has no symmetry (a note
    /// then says why).
    pub symmetry: Option<String>,
    /// What orders a best-first or ordered depth-first search, in words (`branch
    /// coverage`, `heuristic Closest`); for a swarm, the heuristic the user added to its
    /// searches', if any.
    pub heuristic: Option<String>,
    /// The searches of a [`Strategy::Swarm`] (0 otherwise).
    pub swarm: usize,
    /// The workers a swarm's searches are spread over (`bir-dist`); 1 on one machine, 0 for
    /// a search that is not a swarm. `threads` are then each worker's.
    pub swarm_workers: usize,
    /// What the options did not say and the plan decided, printed in the report.
    pub notes: Vec<String>,
    /// States are stored exactly in a table of words or states where compact storage would
    /// serve the same search: a search that the memory limit stops says so.
    pub(crate) compact_serves: bool,
}

impl Plan {
    /// True when a complete search under this plan may say verified.
    pub fn can_verify(&self) -> bool {
        !self.storage.is_lossy() && !matches!(self.strategy, Strategy::Simulation | Strategy::Swarm)
    }

    /// `depth-first search`, `parallel search, 2 threads, hash compaction`,
    /// `search for fair cycles, weak fairness`, `best-first search by branch coverage`,
    /// `swarm search, 4 searches, 2 threads, bitstate hashing, ...`...
    pub fn describe(&self) -> String {
        let mut text = self.strategy.describe().to_string();
        if matches!(
            self.strategy,
            Strategy::NestedDepthFirst | Strategy::FairCycles
        ) {
            text.push_str(&format!(", {}", self.fairness));
        }
        if let (Some(heuristic), false) = (&self.heuristic, self.strategy == Strategy::Swarm) {
            text.push_str(&format!(" by {heuristic}"));
        }
        if self.strategy == Strategy::Swarm {
            let s = if self.swarm == 1 { "" } else { "es" };
            text.push_str(&format!(", {} search{s}", self.swarm));
            if let Some(heuristic) = &self.heuristic {
                text.push_str(&format!(" (with {heuristic})"));
            }
            if self.swarm_workers > 1 {
                text.push_str(&format!(", {} workers", self.swarm_workers));
            }
        }
        if self.strategy == Strategy::Distributed {
            let s = if self.threads == 1 { "" } else { "s" };
            text.push_str(&format!(", {} worker{s}", self.threads));
        } else if self.threads > 1 {
            text.push_str(&format!(", {} threads", self.threads));
        }
        if self.storage.is_lossy() {
            text.push_str(&format!(", {}", self.storage));
        }
        if self.por {
            text.push_str(", partial-order reduction");
        }
        if let Some(group) = &self.symmetry {
            text.push_str(&format!(", symmetry reduction ({group})"));
        }
        text
    }

    /// How the search keys its seen set.
    pub(crate) fn keying(&self, words: bool) -> Keying {
        match (words, self.storage) {
            (true, _) => Keying::Word,
            (false, Storage::Exact | Storage::Compact) => Keying::State,
            (false, _) => Keying::Fingerprint,
        }
    }
}
