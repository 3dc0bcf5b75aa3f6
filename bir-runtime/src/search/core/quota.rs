//! A thread's share of the state limit: the states it may still store before it asks the
//! shared quota for more. A search on one thread takes the whole quota at once; the
//! threads of a parallel search take it in chunks, so that the limit is exact across them.
//! A swarm search whose share is spent while the quota is empty waits while another search
//! still holds states of a chunk: the swarm stops at the limit only when no search can store
//! another state (stopping at the first empty reserve would leave the others' chunks unused).

use crate::search::control::Control;

use super::Role;

/// States a thread takes from the state quota at once (a sequential search takes all).
const QUOTA_CHUNK: u64 = 256;

/// The states one thread may still store.
pub(crate) struct Quota {
    role: Role,
    left: u64,
    /// A swarm search's current chunk, held in `Control` until spent or given back.
    held: u64,
}

impl Quota {
    /// An empty share, for a thread playing `role`.
    pub(crate) fn new(role: Role) -> Self {
        Quota {
            role,
            left: 0,
            held: 0,
        }
    }

    /// True when this thread may store one more state (taking more from `control`'s quota
    /// if its share is spent).
    #[inline(always)]
    pub(crate) fn has_room(&mut self, control: &Control) -> bool {
        if self.left == 0 {
            self.left = match self.role {
                Role::Alone => control.reserve_states(u64::MAX),
                Role::Worker => control.reserve_states(QUOTA_CHUNK),
                Role::Member => self.next_held_chunk(control),
            };
        }
        self.left > 0
    }

    /// A swarm search's next chunk, its last one spent: as soon as the quota has states, or
    /// none once no search holds any (or the run stopped).
    #[cold]
    fn next_held_chunk(&mut self, control: &Control) -> u64 {
        control.unhold(std::mem::take(&mut self.held));
        loop {
            let granted = control.reserve_held(QUOTA_CHUNK);
            if granted > 0 || control.is_stopped() {
                self.held = granted;
                return granted;
            }
            if control.held() == 0 {
                // One more look: a search that ended gives its states back before its hold.
                self.held = control.reserve_held(QUOTA_CHUNK);
                return self.held;
            }
            std::thread::yield_now();
        }
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
            control.unhold(std::mem::take(&mut self.held));
        }
    }
}
