//! The search loop allocates nothing per state or per transition: buffers are reused and
//! the seen set and stack grow geometrically. A counting allocator (counting only on the
//! thread that enables it, so parallel tests do not interfere) shows that the number of
//! allocations of a whole search stays a small fraction of the states it stores.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

include!("../../models/families.rs");

struct Counting;

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

// SAFETY: every call is forwarded to the system allocator unchanged; counting touches only
// const-initialised thread-locals, which never allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

fn count() {
    let _ = COUNTING.try_with(|on| {
        if on.get() {
            let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        }
    });
}

#[global_allocator]
static COUNTER: Counting = Counting;

/// The allocations `run` makes on this thread.
fn allocations(run: impl FnOnce()) -> u64 {
    ALLOCATIONS.with(|n| n.set(0));
    COUNTING.with(|on| on.set(true));
    run();
    COUNTING.with(|on| on.set(false));
    ALLOCATIONS.with(Cell::get)
}

/// States stored and allocations made by a full search of `checker`.
fn search<M: bir::Model>(checker: bir::Checker<M>) -> (u64, u64) {
    let mut states = 0;
    let count = allocations(|| states = checker.keep_going(0).progress(false).run().states());
    (states, count)
}

#[test]
fn a_search_allocates_logarithmically_in_the_states_it_stores() {
    dining_philosophers!(P8, 8);
    dining_philosophers!(P10, 10);
    for bfs in [false, true] {
        let (small, large) = if bfs {
            (search(P8::checker().bfs()), search(P10::checker().bfs()))
        } else {
            (search(P8::checker()), search(P10::checker()))
        };
        assert_eq!((small.0, large.0), (14_158, 154_450));
        // Ten times the states (and transitions) cost a few hundred more allocations: the
        // seen set's segments and the stack or queue grow geometrically.
        let more_states = large.0 - small.0;
        let more_allocations = large.1.saturating_sub(small.1);
        assert!(
            more_allocations * 100 < more_states,
            "{} -> {} allocations for {} -> {} states",
            small.1,
            large.1,
            small.0,
            large.0
        );
    }
}
