//! [`Filled`]: a fixed number of copies of a value in one allocation that, when it is
//! large, starts on a huge page boundary and is backed by huge pages. A seen set far beyond
//! the processor's TLB reach costs a page walk per random lookup (a successor's prefetch
//! stalls on it), which 2 MiB pages remove; an ordinary allocation of a few MiB rarely
//! holds a whole aligned huge page, so the slots are aligned to one and rounded up to
//! whole ones (a set's slots are a power of two times the slot's size: usually exact).

use std::alloc::{self, Layout};
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

use super::pages;

/// The size of a transparent huge page on the targets that have them.
const HUGE_PAGE: usize = 2 << 20;

/// `len` values, filled with copies of one; see the [module](self).
pub(crate) struct Filled<T> {
    start: NonNull<T>,
    len: usize,
    /// The allocation's layout (size 0: nothing allocated).
    layout: Layout,
}

// SAFETY: a `Filled` owns its values as a `Box<[T]>` would.
unsafe impl<T: Send> Send for Filled<T> {}
// SAFETY: as above; shared access only reads.
unsafe impl<T: Sync> Sync for Filled<T> {}

impl<T> Filled<T> {
    /// No values.
    pub(crate) fn empty() -> Self {
        Filled {
            start: NonNull::dangling(),
            len: 0,
            layout: Layout::new::<()>(),
        }
    }
}

impl<T: Clone> Filled<T> {
    /// `len` copies of `value`: from 2 MiB on, aligned to huge pages, rounded up to whole
    /// ones and advised to be backed by them before the copies are written.
    pub(crate) fn new(len: usize, value: T) -> Self {
        let Ok(array) = Layout::array::<T>(len) else {
            alloc::handle_alloc_error(Layout::new::<T>())
        };
        let huge = pages::HUGE_PAGES && array.size() >= HUGE_PAGE;
        let layout = match huge {
            true => Layout::from_size_align(array.size().next_multiple_of(HUGE_PAGE), HUGE_PAGE)
                .unwrap_or(array),
            false => array,
        };
        let start = if layout.size() == 0 {
            NonNull::dangling()
        } else {
            // SAFETY: the layout's size is not zero.
            let raw = unsafe { alloc::alloc(layout) };
            match NonNull::new(raw.cast::<T>()) {
                Some(start) => start,
                None => alloc::handle_alloc_error(layout),
            }
        };
        if huge && layout.align() == HUGE_PAGE {
            pages::advise_huge(start.as_ptr().cast(), layout.size());
        }
        for index in 0..len {
            // SAFETY: `index` is within the allocation of `len` values (or `T` has no size);
            // each value is written once, before any is read.
            unsafe { start.as_ptr().add(index).write(value.clone()) };
        }
        Filled { start, len, layout }
    }
}

impl<T> Deref for Filled<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        // SAFETY: the first `len` values are initialised and owned by `self`.
        unsafe { std::slice::from_raw_parts(self.start.as_ptr(), self.len) }
    }
}

impl<T> DerefMut for Filled<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as for `deref`, and `self` is borrowed mutably.
        unsafe { std::slice::from_raw_parts_mut(self.start.as_ptr(), self.len) }
    }
}

impl<T> Drop for Filled<T> {
    fn drop(&mut self) {
        // SAFETY: the values are initialised and dropped once; the memory was allocated
        // with `layout` when its size is not zero.
        unsafe {
            std::ptr::drop_in_place(std::ptr::slice_from_raw_parts_mut(
                self.start.as_ptr(),
                self.len,
            ));
            if self.layout.size() != 0 {
                alloc::dealloc(self.start.as_ptr().cast(), self.layout);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_copies_and_large_ones_start_on_a_huge_page() {
        for len in [0, 1, 17, 1 << 16, (HUGE_PAGE / 8) + 3] {
            let mut values = Filled::new(len, 7u64);
            assert_eq!(values.len(), len);
            assert!(values.iter().all(|&v| v == 7));
            if let Some(last) = values.last_mut() {
                *last = 9;
            }
            assert_eq!(
                values.iter().filter(|&&v| v == 9).count(),
                usize::from(len > 0)
            );
            if len * 8 >= HUGE_PAGE && pages::HUGE_PAGES {
                assert_eq!(values.as_ptr() as usize % HUGE_PAGE, 0);
            }
        }
        // Values that own memory are dropped.
        let strings = Filled::new(3, String::from("state"));
        assert_eq!(strings.concat(), "statestatestate");
        drop(strings);
        let empty: Filled<String> = Filled::empty();
        assert!(empty.is_empty());
    }
}
