//! What the threads of one run share: the limits and how they end the run, the state quota,
//! the memory budget, and the one progress line. A sequential search has one of these too,
//! uncontended; the search threads consult it every so often (see `core::Stepper::sync`),
//! not on every state.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::store::{lock, Bitstate};
use crate::units::{Bytes, Thousands};
use crate::verdict::IncompleteReason;

use crate::plan::Options;
use crate::plan::Watch;
use crate::search::memory::RssReader;

/// How often the resident set is read while the search runs.
const SAMPLE_EVERY: Duration = Duration::from_millis(2);

/// How often a progress line is printed.
const PROGRESS_EVERY: Duration = Duration::from_secs(3);

/// How a run ended, as far as the shared state knows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Ending {
    /// The limit that cut the search (or only pruned it: the depth limit).
    pub(crate) limit: Option<IncompleteReason>,
    /// A finding stopped the search (never with keep-going).
    pub(crate) at_finding: bool,
}

/// The shared control of one run.
pub(crate) struct Control {
    name: String,
    threads: usize,
    pub(crate) started: Instant,
    deadline: Option<Instant>,
    progress: bool,
    /// The handle another thread follows and cancels the run with.
    watch: Option<Watch>,
    stop: AtomicBool,
    ending: Mutex<Ending>,
    /// States that may still be stored (the state limit), handed out in chunks.
    quota: AtomicU64,
    /// The states of the chunks that swarm searches hold (granted, not all stored, not
    /// given back); never less than what they may still store.
    held: AtomicU64,
    memory: MemoryBudget,
    /// Totals published by the threads, for the progress line.
    states: AtomicU64,
    transitions: AtomicU64,
    depth: AtomicU32,
    /// The last progress line: when, and the states then (for the current rate).
    last_line: Mutex<(Instant, u64)>,
}

/// The memory limit, on the process's resident set: the last reading plus every allocation
/// approved since, which covers the large allocations (table growth) between readings.
struct MemoryBudget {
    limit: Option<usize>,
    /// The resident set when the run started.
    at_start: usize,
    reader: Mutex<RssReader>,
    resident: AtomicUsize,
    approved_since: AtomicUsize,
    /// Nanoseconds after the start of the last reading.
    last_reading: AtomicU64,
}

impl Control {
    /// The control of a run of the model `name` with these options on `threads` threads.
    pub(crate) fn new(name: &str, options: &Options, threads: usize) -> Control {
        let started = Instant::now();
        let mut reader = RssReader::new();
        let resident = reader.resident().unwrap_or(0);
        Control {
            name: name.to_string(),
            threads,
            started,
            deadline: options
                .time_limit
                .map(|limit| started.checked_add(limit).unwrap_or(started + limit / 2)),
            progress: options.progress,
            watch: options.watch.clone(),
            stop: AtomicBool::new(false),
            ending: Mutex::new(Ending::default()),
            quota: AtomicU64::new(options.max_states.unwrap_or(u64::MAX)),
            held: AtomicU64::new(0),
            memory: MemoryBudget {
                limit: options.memory_limit,
                at_start: resident,
                reader: Mutex::new(reader),
                resident: AtomicUsize::new(resident),
                approved_since: AtomicUsize::new(0),
                last_reading: AtomicU64::new(0),
            },
            states: AtomicU64::new(0),
            transitions: AtomicU64::new(0),
            depth: AtomicU32::new(0),
            last_line: Mutex::new((started, 0)),
        }
    }

    /// The deadline of the time limit, for searches run on behalf of this one.
    pub(crate) fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// True once the run must end: a finding (without keep-going) or a limit.
    pub(crate) fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Notes that a limit was hit. A limit that stops the search replaces a depth limit noted
    /// before, since it is what the report must explain.
    pub(crate) fn hit_limit(&self, reason: IncompleteReason) {
        let mut ending = lock(&self.ending);
        match ending.limit {
            Some(current) if current.stops_search() || !reason.stops_search() => {}
            _ => ending.limit = Some(reason),
        }
        if reason.stops_search() {
            self.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Stops the run at a finding.
    pub(crate) fn stop_at_finding(&self) {
        lock(&self.ending).at_finding = true;
        self.stop.store(true, Ordering::Relaxed);
    }

    /// How the run ended.
    pub(crate) fn ending(&self) -> Ending {
        *lock(&self.ending)
    }

    /// Takes up to `wanted` states from the state quota; returns how many were granted.
    pub(crate) fn reserve_states(&self, wanted: u64) -> u64 {
        let mut granted = 0;
        let _ = self
            .quota
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |left| {
                granted = left.min(wanted);
                Some(left - granted)
            });
        granted
    }

    /// Takes up to `wanted` states for a search that counts as holding them until
    /// [`Self::unhold`]: the hold comes first, so that [`Self::held`] never undercounts.
    pub(crate) fn reserve_held(&self, wanted: u64) -> u64 {
        self.held.fetch_add(wanted, Ordering::SeqCst);
        let granted = self.reserve_states(wanted);
        self.unhold(wanted - granted);
        granted
    }

    /// Ends the hold of `states` taken with [`Self::reserve_held`].
    pub(crate) fn unhold(&self, states: u64) {
        self.held.fetch_sub(states, Ordering::SeqCst);
    }

    /// The states that searches hold and may still store; 0 when no search can store more.
    pub(crate) fn held(&self) -> u64 {
        self.held.load(Ordering::SeqCst)
    }

    /// Returns states taken from the quota and not stored.
    pub(crate) fn release_states(&self, states: u64) {
        let _ = self
            .quota
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |left| {
                Some(left.saturating_add(states))
            });
    }

    /// The memory the limit left the run when it started (`None` without a limit).
    pub(crate) fn memory_room(&self) -> Option<usize> {
        let memory = &self.memory;
        memory
            .limit
            .map(|limit| limit.saturating_sub(memory.at_start))
    }

    /// A bitstate array within the memory budget; when the budget refuses it (the run is then
    /// stopped), a token array.
    pub(crate) fn allocate_bitstate(&self, log2_bits: u32, hashes: u32) -> Bitstate {
        if self.may_allocate(Bitstate::bytes_for(log2_bits) as usize) {
            Bitstate::new(log2_bits, hashes)
        } else {
            Bitstate::new(0, hashes)
        }
    }

    /// Approves an allocation of `bytes` unless it would take the process past the memory
    /// limit; a refusal ends the run with [`IncompleteReason::MemoryLimit`].
    pub(crate) fn may_allocate(&self, bytes: usize) -> bool {
        let memory = &self.memory;
        let Some(limit) = memory.limit else {
            return true;
        };
        let resident = memory.resident.load(Ordering::Relaxed);
        let approved = memory.approved_since.fetch_add(bytes, Ordering::Relaxed);
        let projected = resident.saturating_add(approved).saturating_add(bytes);
        if projected > limit {
            memory.approved_since.fetch_sub(bytes, Ordering::Relaxed);
            self.hit_limit(IncompleteReason::MemoryLimit);
            return false;
        }
        true
    }

    /// Reads the resident set if a reading is due, and stops the run if it passed the
    /// limit; checks the time limit; prints the progress line when due. `now` is the
    /// caller's clock reading.
    pub(crate) fn tick(&self, now: Instant) {
        if self.deadline.is_some_and(|deadline| now >= deadline) {
            self.hit_limit(IncompleteReason::TimeLimit);
        }
        if self.watch.as_ref().is_some_and(Watch::is_cancelled) {
            self.hit_limit(IncompleteReason::Cancelled);
        }
        let memory = &self.memory;
        let since_start = (now - self.started).as_nanos() as u64;
        let last = memory.last_reading.load(Ordering::Relaxed);
        let due = since_start.saturating_sub(last) >= SAMPLE_EVERY.as_nanos() as u64;
        if memory.limit.is_some()
            && due
            && memory
                .last_reading
                .compare_exchange(last, since_start, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok()
        {
            self.read_memory();
        }
        if self.progress {
            self.print_progress(now);
        }
    }

    /// Reads the resident set now: it replaces the allocations approved since the last
    /// reading.
    pub(crate) fn read_memory(&self) {
        let memory = &self.memory;
        let Some(limit) = memory.limit else {
            return;
        };
        let Some(resident) = lock(&memory.reader).resident() else {
            return;
        };
        memory.resident.store(resident, Ordering::Relaxed);
        memory.approved_since.store(0, Ordering::Relaxed);
        if resident > limit {
            self.hit_limit(IncompleteReason::MemoryLimit);
        }
    }

    /// Adds a thread's work since its last report to the totals of the progress line.
    pub(crate) fn publish(&self, states: u64, transitions: u64, depth: u32) {
        self.states.fetch_add(states, Ordering::Relaxed);
        self.transitions.fetch_add(transitions, Ordering::Relaxed);
        self.depth.fetch_max(depth, Ordering::Relaxed);
        if let Some(watch) = &self.watch {
            watch.publish(states, transitions, depth);
        }
    }

    /// The progress line, every [`PROGRESS_EVERY`]: totals, the current rate, memory.
    fn print_progress(&self, now: Instant) {
        let Ok(mut last) = self.last_line.try_lock() else {
            return;
        };
        let (when, states_then) = *last;
        if now - when < PROGRESS_EVERY {
            return;
        }
        let states = self.states.load(Ordering::Relaxed);
        *last = (now, states);
        let rate = (states - states_then.min(states)) as f64 / (now - when).as_secs_f64();
        let threads = if self.threads > 1 {
            format!(", {} threads", self.threads)
        } else {
            String::new()
        };
        eprintln!(
            "[bir] {}: {} states, {} transitions, depth {}, {} states/s, {} resident, {:.0} s{threads}",
            self.name,
            Thousands(states),
            Thousands(self.transitions.load(Ordering::Relaxed)),
            Thousands(u64::from(self.depth.load(Ordering::Relaxed))),
            Thousands(rate as u64),
            Bytes(self.memory.resident.load(Ordering::Relaxed)),
            (now - self.started).as_secs_f64(),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_state_quota_is_handed_out_exactly() {
        let options = Options {
            max_states: Some(10),
            ..Options::default()
        };
        let control = Control::new("M", &options, 2);
        assert_eq!(control.reserve_states(4), 4);
        assert_eq!(control.reserve_states(4), 4);
        assert_eq!(control.reserve_states(4), 2);
        assert_eq!(control.reserve_states(4), 0);
    }

    #[test]
    fn a_stopping_limit_replaces_the_depth_limit_and_stops() {
        let control = Control::new("M", &Options::default(), 1);
        control.hit_limit(IncompleteReason::DepthLimit);
        assert!(!control.is_stopped());
        control.hit_limit(IncompleteReason::TimeLimit);
        control.hit_limit(IncompleteReason::DepthLimit);
        assert!(control.is_stopped());
        assert_eq!(control.ending().limit, Some(IncompleteReason::TimeLimit));
    }

    #[test]
    fn allocations_are_refused_past_the_limit() {
        let options = Options {
            memory_limit: Some(usize::MAX / 2),
            ..Options::default()
        };
        let control = Control::new("M", &options, 1);
        assert!(control.may_allocate(1 << 20));
        assert!(!control.may_allocate(usize::MAX / 2));
        assert_eq!(control.ending().limit, Some(IncompleteReason::MemoryLimit));
        let unlimited = Control::new("M", &Options::default(), 1);
        assert!(unlimited.may_allocate(usize::MAX));
    }
}
