//! The clock of one search thread: the work it has done, and when it next looks at the
//! time and tells the shared control what it counted. The stretch of work between two
//! looks adapts so that the clock is read about every [`SYNC_TARGET_NANOS`], whatever a
//! model's steps cost: a step cannot be interrupted, so this is how a time limit is kept.

use std::time::Instant;

use crate::model::Model;

use super::Stepper;

/// The longest and shortest stretch of work (expansions, and the red search's steps) between
/// two looks at the clock; the stretch adapts so that the clock is read about every
/// [`SYNC_TARGET_NANOS`], whatever a model's steps cost.
const MAX_STRETCH: u64 = 4096;
const SYNC_TARGET_NANOS: u128 = 500_000;

/// The work a thread did and when it next looks at the clock.
pub(crate) struct Clock {
    /// Work done, and the work at which the next look at the clock is due.
    work: u64,
    next_sync: u64,
    stretch: u64,
    last_sync: Instant,
    /// The states and transitions already published to the control.
    published: (u64, u64),
}

impl Clock {
    /// A clock that first looks at the time after one unit of work.
    pub(crate) fn new(started: Instant) -> Self {
        Clock {
            work: 0,
            next_sync: 1,
            stretch: 1,
            last_sync: started,
            published: (0, 0),
        }
    }

    /// Counts a unit of work; true when a look at the clock is due.
    #[inline]
    fn tick(&mut self) -> bool {
        self.work += 1;
        self.work >= self.next_sync
    }

    /// Makes the next unit of work look at the clock (after something slow, such as
    /// rebuilding a long trace).
    pub(crate) fn look_soon(&mut self) {
        self.next_sync = self.work;
    }

    /// Reads the time, adapts the stretch to how long the last one took, and returns the
    /// time read.
    fn lap(&mut self) -> Instant {
        let now = Instant::now();
        let nanos = (now - self.last_sync).as_nanos();
        self.stretch = if nanos > 2 * SYNC_TARGET_NANOS {
            (self.stretch / 2).max(1)
        } else if nanos < SYNC_TARGET_NANOS / 2 {
            (self.stretch * 2).min(MAX_STRETCH)
        } else {
            self.stretch
        };
        self.last_sync = now;
        self.next_sync = self.work + self.stretch;
        now
    }

    /// The states and transitions counted since the last call, given the totals.
    fn unpublished(&mut self, states: u64, transitions: u64) -> (u64, u64) {
        let (old_states, old_transitions) = self.published;
        self.published = (states, transitions);
        (states - old_states, transitions - old_transitions)
    }
}

impl<M: Model> Stepper<'_, M> {
    /// Counts a unit of work (an expansion, recomputing successors, a step of the red
    /// search) and looks at the clock when a stretch is done.
    #[inline]
    pub(crate) fn tick(&mut self) {
        if self.clock.tick() {
            self.sync();
        }
    }

    /// Looks at the clock and the shared control: time and memory limits, another thread's
    /// stop, the progress line. The stretch of work until the next look adapts to the
    /// model's speed.
    pub(crate) fn sync(&mut self) {
        let now = self.clock.lap();
        let (states, transitions) = self
            .clock
            .unpublished(self.tally.states, self.tally.transitions);
        self.control
            .publish(states, transitions, self.tally.max_depth);
        self.control.tick(now);
        if self.control.is_stopped() {
            self.stopped = true;
        }
    }
}
