//! What a swarm (`search::frontier::swarm`) runs on: the seen set of each of its searches,
//! and its threads.

use crate::store::Bitstate;

use super::{ConfigError, Options, Storage, BITSTATE_LOG2_BITS};

/// The largest bit array a search of a swarm gets unless asked for more: 2^28 bits
/// (32 MiB), room for tens of millions of states at 3 bits each — a swarm is many small
/// searches, and an array is cleared (written) in full before its search starts.
const MOST_LOG2_BITS: u32 = 28;

/// The storage of each search of a swarm: what was asked for when it is lossy (a bit array
/// of that size each, or fingerprints), else a bit array sized to a half of the memory
/// limit split K ways (at most [`MOST_LOG2_BITS`]); or why the swarm cannot run.
pub(crate) fn storage(options: &Options, notes: &mut Vec<String>) -> Result<Storage, ConfigError> {
    let searches = options.swarm;
    if searches == 0 {
        return Err(ConfigError::Unsupported {
            combination: "a swarm of no searches",
            reason: "give it one search or more",
        });
    }
    match options.storage {
        Storage::HashCompaction => Ok(Storage::HashCompaction),
        Storage::Bitstate { log2_bits, hashes } => {
            let bytes = Bitstate::bytes_for(log2_bits).saturating_mul(searches as u64);
            match options.memory_limit {
                Some(limit) if bytes > limit as u64 => {
                    Err(ConfigError::BitstateMemory { bytes, limit })
                }
                _ => Ok(Storage::Bitstate { log2_bits, hashes }),
            }
        }
        _ => {
            let share = options
                .memory_limit
                .map_or(1 << 28, |limit| limit / searches / 2);
            let bits = (share as u64).saturating_mul(8).max(1);
            let log2_bits =
                (63 - bits.leading_zeros()).clamp(*BITSTATE_LOG2_BITS.start(), MOST_LOG2_BITS);
            notes.push(format!(
                "each search of the swarm stores states as 3 bits of its own array of 2^{log2_bits} \
                 bits (the memory limit split {searches} ways, at most 2^{MOST_LOG2_BITS}); \
                 `--bitstate` or `--hash-compaction` choose otherwise"
            ));
            Ok(Storage::Bitstate {
                log2_bits,
                hashes: 3,
            })
        }
    }
}

/// The threads a swarm runs on: those asked for (`threads`), or else one per core; never
/// more than its searches.
pub(crate) fn threads(options: &Options) -> usize {
    let available = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads = if options.threads_chosen {
        options.threads
    } else {
        available
    };
    threads.min(options.swarm).max(1)
}
