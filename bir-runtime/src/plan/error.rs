//! Why a configuration cannot run, found before anything runs.

use std::fmt;

use crate::units::Bytes;

use super::{BITSTATE_HASHES, BITSTATE_LOG2_BITS, MAX_THREADS};

/// A configuration that cannot run, found before anything runs.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ConfigError {
    /// The number of threads is 0 or above [`MAX_THREADS`].
    Threads {
        /// What was asked for.
        threads: usize,
    },
    /// A bitstate array size outside [`BITSTATE_LOG2_BITS`].
    BitstateSize {
        /// What was asked for.
        log2_bits: u32,
    },
    /// A number of bits per state outside [`BITSTATE_HASHES`].
    BitstateHashes {
        /// What was asked for.
        hashes: u32,
    },
    /// The bitstate array alone would pass the memory limit.
    BitstateMemory {
        /// The array's size.
        bytes: u64,
        /// The memory limit.
        limit: usize,
    },
    /// The model declares no property of that name and kind.
    UnknownProperty {
        /// The name asked for.
        name: String,
        /// `ltl` or `reachable`.
        kind: &'static str,
        /// The names the model declares of that kind.
        known: Vec<String>,
    },
    /// The model declares no heuristic of that name, and it is none of the built-in ones.
    UnknownHeuristic {
        /// The name asked for.
        name: String,
        /// The heuristics the model declares.
        known: Vec<String>,
    },
    /// A thread or instance named by the chosen-threads heuristic that the model lacks.
    UnknownThread {
        /// The name asked for.
        name: String,
        /// The instances of the model (those with a transition).
        known: Vec<String>,
    },
    /// Two options that do not go together.
    Unsupported {
        /// What was asked for.
        combination: &'static str,
        /// Why it cannot run, and what to do instead.
        reason: &'static str,
    },
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::Threads { threads } => write!(
                f,
                "{threads} threads: a search runs on 1 to {MAX_THREADS} threads"
            ),
            ConfigError::BitstateSize { log2_bits } => write!(
                f,
                "a bitstate array of 2^{log2_bits} bits: the size must be 2^{} to 2^{} bits",
                BITSTATE_LOG2_BITS.start(),
                BITSTATE_LOG2_BITS.end()
            ),
            ConfigError::BitstateHashes { hashes } => write!(
                f,
                "{hashes} bits per state for bitstate hashing: it takes {} to {}",
                BITSTATE_HASHES.start(),
                BITSTATE_HASHES.end()
            ),
            ConfigError::BitstateMemory { bytes, limit } => write!(
                f,
                "a bitstate array of {} does not fit the memory limit of {}",
                Bytes(*bytes as usize),
                Bytes(*limit)
            ),
            ConfigError::UnknownProperty { name, kind, known } => {
                write!(f, "the model declares no `{kind}` property named `{name}`")?;
                if known.is_empty() {
                    write!(f, " (it declares none)")
                } else {
                    write!(f, " (it declares {})", known.join(", "))
                }
            }
            ConfigError::UnknownHeuristic { name, known } => {
                write!(
                    f,
                    "no heuristic named `{name}`: the built-in ones are {}",
                    super::heuristic::BUILT_IN
                )?;
                if known.is_empty() {
                    write!(f, ", and the model declares none")
                } else {
                    write!(f, ", and the model declares {}", known.join(", "))
                }
            }
            ConfigError::UnknownThread { name, known } => write!(
                f,
                "the model has no thread or instance named `{name}` (its instances: {})",
                known.join(", ")
            ),
            ConfigError::Unsupported {
                combination,
                reason,
            } => write!(f, "{combination} is not supported: {reason}"),
        }
    }
}

impl std::error::Error for ConfigError {}
