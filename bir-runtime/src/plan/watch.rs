//! A handle on a running search from another thread: its progress so far, and a way to
//! stop it. The search publishes its counts and looks at the handle where it looks at the
//! clock (`core::Stepper::sync`, about every half millisecond), so a cancelled search ends
//! as promptly as one that reaches its time limit, with the verdict
//! [`IncompleteReason::Cancelled`](crate::IncompleteReason::Cancelled).

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::Arc;

/// Follows and cancels a search from another thread: give a clone to
/// [`Checker::watch`](crate::Checker::watch), run the search on one thread, and read
/// [`progress`](Self::progress) or call [`cancel`](Self::cancel) on another.
///
/// ```
/// use bir_runtime::Watch;
///
/// let watch = Watch::new();
/// assert!(!watch.is_cancelled());
/// watch.clone().cancel();
/// assert!(watch.is_cancelled());
/// assert_eq!(watch.progress().states, 0);
/// ```
#[derive(Clone, Debug, Default)]
pub struct Watch(Arc<Shared>);

#[derive(Debug, Default)]
struct Shared {
    cancelled: AtomicBool,
    states: AtomicU64,
    transitions: AtomicU64,
    max_depth: AtomicU32,
}

/// What a watched search has done so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Progress {
    /// States stored.
    pub states: u64,
    /// Transitions executed.
    pub transitions: u64,
    /// The largest depth of a stored state.
    pub max_depth: u32,
}

impl Watch {
    /// A handle on no search yet.
    pub fn new() -> Watch {
        Watch::default()
    }

    /// Asks the search to stop (it ends within about a millisecond of work).
    pub fn cancel(&self) {
        self.0.cancelled.store(true, Ordering::Relaxed);
    }

    /// True once [`cancel`](Self::cancel) was called.
    pub fn is_cancelled(&self) -> bool {
        self.0.cancelled.load(Ordering::Relaxed)
    }

    /// The counts the search has published so far (every few hundred microseconds).
    pub fn progress(&self) -> Progress {
        Progress {
            states: self.0.states.load(Ordering::Relaxed),
            transitions: self.0.transitions.load(Ordering::Relaxed),
            max_depth: self.0.max_depth.load(Ordering::Relaxed),
        }
    }

    /// Adds a search thread's work since its last report.
    pub(crate) fn publish(&self, states: u64, transitions: u64, depth: u32) {
        self.0.states.fetch_add(states, Ordering::Relaxed);
        self.0.transitions.fetch_add(transitions, Ordering::Relaxed);
        self.0.max_depth.fetch_max(depth, Ordering::Relaxed);
    }
}

/// Two handles are equal when they are clones of one.
impl PartialEq for Watch {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for Watch {}
