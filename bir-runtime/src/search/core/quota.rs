//! A thread's share of the state limit: the states it may still store before it asks the
//! shared quota for more. A search on one thread takes the whole quota at once; the
//! threads of a parallel search take it in chunks, so that the limit is exact across them.

use crate::search::control::Control;

use super::Role;

/// States a thread takes from the state quota at once (a sequential search takes all).
const QUOTA_CHUNK: u64 = 256;

/// The states one thread may still store.
pub(crate) struct Quota {
    role: Role,
    left: u64,
}

impl Quota {
    /// An empty share, for a thread playing `role`.
    pub(crate) fn new(role: Role) -> Self {
        Quota { role, left: 0 }
    }

    /// True when this thread may store one more state (taking more from `control`'s quota
    /// if its share is spent).
    #[inline(always)]
    pub(crate) fn has_room(&mut self, control: &Control) -> bool {
        if self.left == 0 {
            let chunk = match self.role {
                Role::Alone => u64::MAX,
                Role::Worker | Role::Member => QUOTA_CHUNK,
            };
            self.left = control.reserve_states(chunk);
        }
        self.left > 0
    }

    /// Counts a state stored.
    #[inline(always)]
    pub(crate) fn spend(&mut self) {
        self.left -= 1;
    }

    /// Gives what is left back to `control`'s quota, for the other threads (a worker's).
    pub(crate) fn release(&mut self, control: &Control) {
        if self.role != Role::Alone {
            control.release_states(std::mem::take(&mut self.left));
        }
    }
}
