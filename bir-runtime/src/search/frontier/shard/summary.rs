//! What the workers of a distributed search exchange besides states: where a stored state
//! is ([`StateRef`]), the findings met ([`Site`]), the counts per level ([`LevelCounts`]),
//! and each worker's summary at the end ([`ShardSummary`], sent as words).

use crate::model::TransitionId;
use crate::verdict::{FindingKind, IncompleteReason};

/// Where a stored state is: the worker that owns it, and its index in that worker's shard.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StateRef {
    /// The worker that owns the state.
    pub owner: u32,
    /// Its index in the owner's shard (in the order the owner stored its states).
    pub index: u32,
}

impl StateRef {
    /// The reference as one word: the owner in the high half.
    pub fn to_word(self) -> u64 {
        (u64::from(self.owner) << 32) | u64::from(self.index)
    }

    /// The reference [`to_word`](Self::to_word) wrote.
    pub fn from_word(word: u64) -> StateRef {
        StateRef {
            owner: (word >> 32) as u32,
            index: word as u32,
        }
    }
}

/// The parent reference of the initial state.
pub(super) const ROOT: StateRef = StateRef {
    owner: u32::MAX,
    index: u32::MAX,
};

/// A finding met by one worker: its kind, the length of its counterexample, and where its
/// path ends, for tracing back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Site {
    /// What was found.
    pub kind: FindingKind,
    /// The steps of its counterexample (a failing step included).
    pub length: u32,
    /// The state the path leads to: the deadlock or violating state, or the state whose
    /// step fails.
    pub at: StateRef,
    /// For a failing step, the transition that fails from `at`.
    pub step: Option<TransitionId>,
}

/// What the workers counted at one level (depth) of the search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LevelCounts {
    /// States first stored at this depth.
    pub states: u64,
    /// Transitions executed from states at this depth.
    pub transitions: u64,
}

/// What one worker counted and found, exchanged between the workers at the end of a search
/// (as words: [`to_words`](Self::to_words)).
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct ShardSummary {
    /// The worker.
    pub worker: u32,
    /// States stored by this worker.
    pub states: u64,
    /// Transitions executed by this worker.
    pub transitions: u64,
    /// Errors found by this worker.
    pub errors: u64,
    /// Deadlock states found by this worker.
    pub deadlocks: u64,
    /// The largest depth of a state this worker stored.
    pub max_depth: u32,
    /// This worker's counts per level.
    pub levels: Vec<LevelCounts>,
    /// The kinds of finding met, in the order first met.
    pub kinds: Vec<FindingKind>,
    /// The limit that cut this worker's search, if one did.
    pub limit: Option<IncompleteReason>,
    /// This worker stopped at a finding.
    pub at_finding: bool,
    /// The memory of this worker's seen set and parent references.
    pub seen_bytes: u64,
    /// This worker's first findings, in the order met (so by length).
    pub sites: Vec<Site>,
    /// Per transition, whether this worker executed it.
    pub fired: Vec<bool>,
}

/// The finding kinds and limits by number, for the words of a summary.
const KINDS: [FindingKind; 14] = [
    FindingKind::Deadlock,
    FindingKind::Invariant,
    FindingKind::Assertion,
    FindingKind::Range,
    FindingKind::Index,
    FindingKind::Division,
    FindingKind::Start,
    FindingKind::Stack,
    FindingKind::Lock,
    FindingKind::Heap,
    FindingKind::Null,
    FindingKind::Uncaught,
    FindingKind::Property,
    FindingKind::Reached,
];
const LIMITS: [IncompleteReason; 8] = [
    IncompleteReason::DepthLimit,
    IncompleteReason::StateLimit,
    IncompleteReason::TimeLimit,
    IncompleteReason::MemoryLimit,
    IncompleteReason::Cancelled,
    IncompleteReason::Simulation,
    IncompleteReason::HashCompaction,
    IncompleteReason::Bitstate,
];

/// Marks "none" in the words of a summary.
pub(crate) const NONE: u64 = u64::MAX;

/// A finding kind as a word of a summary.
pub(crate) fn kind_word(kind: FindingKind) -> u64 {
    KINDS.iter().position(|&k| k == kind).unwrap_or(0) as u64
}

/// The finding kind [`kind_word`] wrote.
pub(crate) fn kind_from_word(word: u64) -> Option<FindingKind> {
    KINDS.get(usize::try_from(word).ok()?).copied()
}

/// A limit as a word of a summary.
pub(crate) fn limit_word(reason: IncompleteReason) -> u64 {
    LIMITS.iter().position(|&r| r == reason).unwrap_or(0) as u64
}

/// The limit [`limit_word`] wrote.
pub(crate) fn limit_from_word(word: u64) -> Option<IncompleteReason> {
    LIMITS.get(usize::try_from(word).ok()?).copied()
}

/// Which transitions fired (one flag per transition) as words of a summary: their number,
/// then the flags, 64 to a word.
pub(crate) fn push_fired(words: &mut Vec<u64>, fired: &[bool]) {
    words.push(fired.len() as u64);
    for chunk in fired.chunks(64) {
        let bits = chunk
            .iter()
            .enumerate()
            .fold(0u64, |bits, (i, &fired)| bits | (u64::from(fired) << i));
        words.push(bits);
    }
}

/// The flags [`push_fired`] wrote, read from `next`; `None` when the words end early or
/// their number is more than transitions can be (a transition id is 32 bits).
pub(crate) fn fired_from_words(next: &mut impl FnMut() -> Option<u64>) -> Option<Vec<bool>> {
    let transitions = usize::try_from(next()?).ok().filter(|&n| n <= 1 << 32)?;
    let mut fired = Vec::with_capacity(transitions.min(1 << 20));
    while fired.len() < transitions {
        let bits = next()?;
        let take = (transitions - fired.len()).min(64);
        fired.extend((0..take).map(|i| bits >> i & 1 == 1));
    }
    Some(fired)
}

impl ShardSummary {
    /// The summary as words, for sending to the other workers.
    pub fn to_words(&self) -> Vec<u64> {
        let limit = self.limit.map_or(NONE, limit_word);
        let mut words = vec![
            u64::from(self.worker),
            self.states,
            self.transitions,
            self.errors,
            self.deadlocks,
            u64::from(self.max_depth),
            limit,
            u64::from(self.at_finding),
            self.seen_bytes,
            self.levels.len() as u64,
        ];
        for level in &self.levels {
            words.extend([level.states, level.transitions]);
        }
        words.push(self.kinds.len() as u64);
        words.extend(self.kinds.iter().map(|&kind| kind_word(kind)));
        words.push(self.sites.len() as u64);
        for site in &self.sites {
            words.extend([
                kind_word(site.kind),
                u64::from(site.length),
                site.at.to_word(),
                site.step.map_or(NONE, u64::from),
            ]);
        }
        push_fired(&mut words, &self.fired);
        words
    }

    /// The summary [`to_words`](Self::to_words) wrote; `None` for words that are not one.
    pub fn from_words(words: &[u64]) -> Option<ShardSummary> {
        let mut words = words.iter().copied();
        let mut next = || words.next();
        let small = |word: u64| u32::try_from(word).ok();
        let kind = kind_from_word;
        let worker = small(next()?)?;
        let (states, transitions, errors, deadlocks) = (next()?, next()?, next()?, next()?);
        let max_depth = small(next()?)?;
        let limit = match next()? {
            NONE => None,
            word => Some(limit_from_word(word)?),
        };
        let at_finding = next()? != 0;
        let seen_bytes = next()?;
        let mut levels = Vec::new();
        for _ in 0..next()? {
            levels.push(LevelCounts {
                states: next()?,
                transitions: next()?,
            });
        }
        let mut kinds = Vec::new();
        for _ in 0..next()? {
            kinds.push(kind(next()?)?);
        }
        let mut sites = Vec::new();
        for _ in 0..next()? {
            sites.push(Site {
                kind: kind(next()?)?,
                length: small(next()?)?,
                at: StateRef::from_word(next()?),
                step: match next()? {
                    NONE => None,
                    word => Some(small(word)?),
                },
            });
        }
        let fired = fired_from_words(&mut next)?;
        Some(ShardSummary {
            worker,
            states,
            transitions,
            errors,
            deadlocks,
            max_depth,
            levels,
            kinds,
            limit,
            at_finding,
            seen_bytes,
            sites,
            fired,
        })
    }
}
