//! The limits as one search thread meets them: the depth limit, the state quota it gives
//! back, and the memory budget it asks before every allocation of the search.

use crate::model::Model;
use crate::verdict::IncompleteReason;

use super::Stepper;

impl<M: Model> Stepper<'_, M> {
    /// Notes that a limit was hit.
    pub(crate) fn hit_limit(&mut self, reason: IncompleteReason) {
        self.control.hit_limit(reason);
        if reason.stops_search() {
            self.stopped = true;
        }
    }

    /// True (and the search incomplete) when a state at `depth` is at the depth limit: its
    /// successors are not to be explored.
    pub(crate) fn at_depth_limit(&mut self, depth: u32) -> bool {
        let at_limit = self.is_at_depth_limit(depth);
        if at_limit {
            self.hit_limit(IncompleteReason::DepthLimit);
        }
        at_limit
    }

    /// Whether a state at `depth` is at the depth limit ([`Self::at_depth_limit`] without
    /// making the search incomplete: for a state that was found there before).
    pub(crate) fn is_at_depth_limit(&self, depth: u32) -> bool {
        self.options.max_depth.is_some_and(|max| depth >= max)
    }

    /// Asks the memory budget for an allocation of `bytes` (a frontier growing); false when
    /// it would pass the memory limit, which stops the search.
    pub(crate) fn may_allocate(&mut self, bytes: usize) -> bool {
        let approved = self.control.may_allocate(bytes);
        if !approved {
            self.stopped = true;
        }
        approved
    }

    /// Makes room for `additional` more items in `vec`, doubling it, within the memory
    /// budget; false (and the search stops) when the budget refuses.
    #[inline]
    pub(crate) fn reserve<T>(&mut self, vec: &mut Vec<T>, additional: usize) -> bool {
        vec.len() + additional <= vec.capacity() || self.grow(vec, additional)
    }

    /// [`Self::reserve`] when `vec` must grow.
    #[cold]
    fn grow<T>(&mut self, vec: &mut Vec<T>, additional: usize) -> bool {
        let needed = vec.len() + additional;
        let capacity = needed.max(vec.capacity() * 2).max(16);
        if !self.may_allocate(capacity * std::mem::size_of::<T>()) {
            return false;
        }
        vec.reserve_exact(capacity - vec.len());
        true
    }

    /// Gives the states this thread may still store back to the shared quota, for the
    /// other threads.
    pub(crate) fn release_quota(&mut self) {
        self.quota.release(self.control);
    }
}
