//! [`Block`]: a slice of zeroed values, either from the allocator or in pages of its own
//! from the system.
//!
//! A compact set's segment keeps its buckets in blocks of one size (64 KiB) and a last,
//! shorter block whose length changes at every growth. The allocator reuses a freed block
//! of the one size for the next, but a freed last block is almost never the size of a later
//! request, and the holes they leave stay resident. So the last block is in pages of its own
//! (Linux: an anonymous mapping) with room for a whole block: the system backs only the
//! pages it uses, a growth lengthens it in place ([`Block::refilled`]) with no new mapping
//! and no copy, and the set rounds its segments up to whole pages, so that no page is part
//! used. Compact storage's peak memory then holds no holes, on the reference models as on
//! others; the price is that a small set takes a page per segment, 1 MiB.

use std::alloc::{self, Layout};
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

/// A value for which all-zero bytes are a valid value (the only value a [`Block`] starts
/// with).
///
/// # Safety
///
/// All-zero bytes must be a valid value of the type, and the type must own nothing (a
/// block never drops its values).
pub(crate) unsafe trait Zeroable: Copy {}

/// `len` values, zeroed at first; see the [module](self).
pub(crate) struct Block<T: Zeroable> {
    start: NonNull<T>,
    len: usize,
    /// In pages of its own: room for this many values, those beyond `len` all zero. `None`
    /// for a block from the allocator.
    room: Option<usize>,
}

// SAFETY: a block owns its values as a `Box<[T]>` would.
unsafe impl<T: Zeroable + Send> Send for Block<T> {}
// SAFETY: as above; shared access only reads.
unsafe impl<T: Zeroable + Sync> Sync for Block<T> {}

/// The size of a page, for the memory a block in pages of its own takes.
pub(crate) const PAGE: usize = 4096;

impl<T: Zeroable> Block<T> {
    /// No values.
    pub(crate) fn empty() -> Self {
        Block {
            start: NonNull::dangling(),
            len: 0,
            room: None,
        }
    }

    /// Where its values start: a block's values never move while it lives.
    pub(crate) fn start(&self) -> NonNull<T> {
        self.start
    }

    /// `len` zeroed values: with `room: Some(n)` (at least `len`), in pages of their own
    /// with room for `n` values if the system gives them; from the allocator otherwise.
    pub(crate) fn zeroed(len: usize, room: Option<usize>) -> Self {
        let Ok(layout) = Layout::array::<T>(len) else {
            alloc::handle_alloc_error(Layout::new::<T>())
        };
        if layout.size() == 0 {
            return Block::empty();
        }
        if let Some(room) = room.filter(|&room| room >= len && layout.align() <= PAGE) {
            if let Some(start) = Layout::array::<T>(room)
                .ok()
                .and_then(|room| system::map(room.size()))
            {
                return Block {
                    start: start.cast(),
                    len,
                    room: Some(room),
                };
            }
        }
        // SAFETY: the layout's size is not zero.
        let start = unsafe { alloc::alloc_zeroed(layout) };
        match NonNull::new(start.cast::<T>()) {
            Some(start) => Block {
                start,
                len,
                room: None,
            },
            None => alloc::handle_alloc_error(layout),
        }
    }

    /// A block of `len` zeroed values, with `room` as in [`Block::zeroed`], made of this
    /// one: the same memory, zeroed and lengthened or shortened, if it is in pages of its
    /// own with room for `len` values (whatever `room` asks: it keeps its own), or has
    /// the length and comes from the allocator as asked; else new memory, and this block
    /// is freed.
    pub(crate) fn refilled(mut self, len: usize, room: Option<usize>) -> Self {
        let fits = match self.room {
            Some(own) => len <= own,
            None => room.is_none() && len == self.len,
        };
        if !fits || self.len == 0 {
            drop(self);
            return Block::zeroed(len, room);
        }
        // Zeroing what was used keeps every value beyond the new length zero too.
        let used = self.len;
        // SAFETY: the first `used` values are the block's own, and all-zero bytes are a
        // valid value of a `Zeroable` type, which owns nothing to drop.
        unsafe { std::ptr::write_bytes(self.start.as_ptr(), 0, used) }
        self.len = len;
        self
    }

    /// The memory a block of `len` values takes, with `room` as in [`Block::zeroed`]: its
    /// values, rounded up to whole pages in pages of its own (the system backs only the
    /// pages used).
    pub(crate) fn bytes(len: usize, room: Option<usize>) -> usize {
        let bytes = len * std::mem::size_of::<T>();
        if room.is_some() && system::AVAILABLE {
            bytes.div_ceil(PAGE) * PAGE
        } else {
            bytes
        }
    }

    /// The layout of the memory the block holds.
    fn layout(&self) -> Option<Layout> {
        Layout::array::<T>(self.room.unwrap_or(self.len))
            .ok()
            .filter(|layout| layout.size() > 0)
    }
}

impl<T: Zeroable> Drop for Block<T> {
    fn drop(&mut self) {
        let Some(layout) = self.layout() else {
            return;
        };
        if self.room.is_some() {
            system::unmap(self.start.cast(), layout.size());
        } else {
            // SAFETY: allocated by `alloc_zeroed` with this very layout.
            unsafe { alloc::dealloc(self.start.as_ptr().cast(), layout) }
        }
    }
}

impl<T: Zeroable> Deref for Block<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        // SAFETY: `start` points at `len` initialised values (zeros are valid values) that
        // the block owns, or is dangling with `len` 0.
        unsafe { std::slice::from_raw_parts(self.start.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> DerefMut for Block<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, and `&mut self` is the only access.
        unsafe { std::slice::from_raw_parts_mut(self.start.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> Default for Block<T> {
    fn default() -> Self {
        Block::empty()
    }
}

/// Pages from the system: anonymous private mappings, on the Linux targets whose flags
/// this knows.
#[cfg(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
mod system {
    use std::ffi::c_void;
    use std::ptr::NonNull;

    const PROT_READ: i32 = 1;
    const PROT_WRITE: i32 = 2;
    const MAP_PRIVATE: i32 = 2;
    const MAP_ANONYMOUS: i32 = 0x20;
    const MAP_FAILED: *mut c_void = !0 as *mut c_void;

    extern "C" {
        fn mmap(
            addr: *mut c_void,
            len: usize,
            prot: i32,
            flags: i32,
            fd: i32,
            off: i64,
        ) -> *mut c_void;
        fn munmap(addr: *mut c_void, len: usize) -> i32;
        fn madvise(addr: *mut c_void, len: usize, advice: i32) -> i32;
    }

    /// `MADV_HUGEPAGE` (the same value on every Linux architecture).
    const MADV_HUGEPAGE: i32 = 14;

    /// The size of a transparent huge page on these targets.
    const HUGE_PAGE: usize = 2 << 20;

    /// Asks the system to back the whole huge pages inside `bytes` at `start` with huge
    /// pages. Advice only: a refusal (huge pages off) changes nothing.
    pub(super) fn advise_huge(start: *const u8, bytes: usize) {
        let first = (start as usize).next_multiple_of(HUGE_PAGE);
        let end = (start as usize + bytes) & !(HUGE_PAGE - 1);
        if end > first {
            // SAFETY: advice on pages of a live allocation changes neither their contents
            // nor their mapping.
            unsafe {
                madvise(first as *mut c_void, end - first, MADV_HUGEPAGE);
            }
        }
    }

    pub(super) const AVAILABLE: bool = true;

    /// `bytes` of zeroed memory in pages of their own, page-aligned; `None` if the system
    /// refuses (out of memory, or of mappings).
    pub(super) fn map(bytes: usize) -> Option<NonNull<u8>> {
        // SAFETY: an anonymous mapping at an address the system chooses touches no
        // existing memory.
        let start = unsafe {
            mmap(
                std::ptr::null_mut(),
                bytes,
                PROT_READ | PROT_WRITE,
                MAP_PRIVATE | MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if start == MAP_FAILED {
            return None;
        }
        NonNull::new(start.cast())
    }

    /// Gives back the pages of a mapping of `bytes` that [`map`] made at `start`.
    pub(super) fn unmap(start: NonNull<u8>, bytes: usize) {
        // SAFETY: `start` and `bytes` are those of a mapping `map` made, which nothing
        // uses any more. A failure would leave the pages mapped: nothing unsound.
        unsafe {
            munmap(start.as_ptr().cast(), bytes);
        }
    }
}

/// Elsewhere every block comes from the allocator.
#[cfg(not(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
)))]
mod system {
    use std::ptr::NonNull;

    pub(super) const AVAILABLE: bool = false;

    pub(super) fn map(_: usize) -> Option<NonNull<u8>> {
        None
    }

    pub(super) fn unmap(_: NonNull<u8>, _: usize) {}

    pub(super) fn advise_huge(_: *const u8, _: usize) {}
}

/// Asks the system to back the whole huge pages inside `bytes` at `start` with huge pages
/// (advice only; nothing on systems without them).
pub(crate) fn advise_huge(start: *const u8, bytes: usize) {
    system::advise_huge(start, bytes);
}

/// Whether [`advise_huge`] can do anything here.
pub(crate) const HUGE_PAGES: bool = system::AVAILABLE;

#[cfg(test)]
mod tests {
    use super::*;

    // SAFETY: zeros are a valid `u64`, which owns nothing.
    unsafe impl Zeroable for u64 {}

    #[test]
    fn blocks_start_zeroed_and_keep_what_is_written() {
        for room in [None, Some(10_000)] {
            for len in [0, 1, 511, 512, 513, 10_000] {
                let mut block = Block::<u64>::zeroed(len, room);
                assert_eq!(block.len(), len);
                assert!(block.iter().all(|&v| v == 0));
                for (i, value) in block.iter_mut().enumerate() {
                    *value = i as u64 * 3;
                }
                assert!(block.iter().enumerate().all(|(i, &v)| v == i as u64 * 3));
            }
        }
        assert!(Block::<u64>::empty().is_empty());
    }

    #[test]
    fn a_refilled_block_is_zeroed_at_its_new_length() {
        let rooms = [None, Some(1_000), Some(2_000)];
        for (from, to) in [(600, 600), (600, 1500), (1500, 600), (0, 700), (700, 0)] {
            for before in rooms.into_iter().filter(|r| r.is_none_or(|r| r >= from)) {
                for after in rooms.into_iter().filter(|r| r.is_none_or(|r| r >= to)) {
                    let mut block = Block::<u64>::zeroed(from, before);
                    block.iter_mut().for_each(|v| *v = 7);
                    // Shortened, then lengthened again: what it held is gone.
                    let block = block.refilled(to / 2, after).refilled(to, after);
                    assert_eq!(block.len(), to);
                    assert!(block.iter().all(|&v| v == 0), "{from} -> {to}");
                    // A block in pages of its own serves any length it has room for.
                    let block = block.refilled(to, None);
                    assert_eq!(block.len(), to);
                    assert!(block.iter().all(|&v| v == 0));
                }
            }
        }
    }

    #[test]
    fn a_block_in_pages_of_its_own_takes_whole_pages() {
        let own = Block::<u64>::bytes(513, Some(1024));
        assert_eq!(own, if system::AVAILABLE { 2 * PAGE } else { 513 * 8 });
        assert_eq!(Block::<u64>::bytes(513, None), 513 * 8);
    }
}
