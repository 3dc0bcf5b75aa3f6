//! What one search thread counted and found, merged across threads at the end of a search.

use crate::model::AtomInfo;
use crate::report::Fired;
use crate::trace::Counterexample;
use crate::verdict::FindingKind;

/// What one search thread counted and found.
#[derive(Debug, Default)]
pub(crate) struct Tally {
    pub(crate) states: u64,
    pub(crate) transitions: u64,
    pub(crate) errors: u64,
    pub(crate) deadlocks: u64,
    pub(crate) max_depth: u32,
    pub(crate) walks: u64,
    /// The counterexamples kept, in the order recorded.
    pub(crate) findings: Vec<Counterexample>,
    /// Every kind of finding met, in the order first met: the first is the verdict.
    pub(crate) kinds: Vec<FindingKind>,
    pub(crate) notes: Vec<String>,
    /// The transitions executed, for the coverage.
    pub(crate) fired: Fired,
    /// For each invariant atom (`Model::atoms`), whether some stored state made it hold
    /// and whether some made it fail, for vacuity.
    pub(crate) atoms: [u64; 2],
    /// The model's invariant atoms ([`Model::atoms_info`]).
    pub(crate) atoms_info: Vec<AtomInfo>,
    /// The initial state, decoded (by the thread that stored it), for the coverage.
    pub(crate) initial: Vec<i64>,
}

impl Tally {
    /// Adds another thread's tally (its findings after this one's).
    pub(crate) fn merge(&mut self, other: Tally) {
        self.states += other.states;
        self.transitions += other.transitions;
        self.errors += other.errors;
        self.deadlocks += other.deadlocks;
        self.max_depth = self.max_depth.max(other.max_depth);
        self.walks += other.walks;
        self.findings.extend(other.findings);
        for kind in other.kinds {
            if !self.kinds.contains(&kind) {
                self.kinds.push(kind);
            }
        }
        self.notes.extend(other.notes);
        self.fired.merge(&other.fired);
        self.atoms[0] |= other.atoms[0];
        self.atoms[1] |= other.atoms[1];
        if self.initial.is_empty() {
            self.initial = other.initial;
        }
    }
}
