//! The reference models written by hand for the reference search, each state in the bits of a word.

use super::{HandWritten, HandWrittenLtl};

/// `models/dining_philosophers.bir` (`FIXED` false) and `dining_philosophers_fixed.bir`
/// (true) with `N` philosophers: fork `i` in bit `i`, philosopher `i`'s location in bits
/// `N + 2i` and up (takeFirst, takeSecond, putSecond, putFirst).
pub struct Philosophers<const N: usize, const FIXED: bool>;

impl<const N: usize, const FIXED: bool> Philosophers<N, FIXED> {
    /// Philosopher `i`'s first and second forks.
    #[inline(always)]
    fn forks(i: usize) -> (usize, usize) {
        let (left, right) = (i, (i + 1) % N);
        if FIXED && i == N - 1 {
            (right, left)
        } else {
            (left, right)
        }
    }
}

impl<const N: usize, const FIXED: bool> HandWritten for Philosophers<N, FIXED> {
    const THREADS: usize = N;

    fn initial(&self) -> u64 {
        0
    }

    #[inline(always)]
    fn step(&self, state: u64, i: usize) -> Option<Result<u64, ()>> {
        let shift = N + 2 * i;
        let location = (state >> shift) & 3;
        let (first, second) = Self::forks(i);
        let at = |state: u64, location: u64| (state & !(3 << shift)) | (location << shift);
        let held = |fork: usize| state & (1 << fork) != 0;
        let next = match location {
            0 if !held(first) => at(state | (1 << first), 1),
            1 if !held(second) => at(state | (1 << second), 2),
            2 => at(state & !(1 << second), 3),
            3 => at(state & !(1 << first), 0),
            _ => return None,
        };
        Some(Ok(next))
    }

    fn invariants_hold(&self, _state: u64) -> bool {
        true
    }
}

/// `models/peterson_filter.bir` with `N` threads (up to 8): `level[i]` in bits `3i`,
/// `victim[l]` in bits `3N + 3l`, `incs` in the 4 bits at `6N`, thread `i`'s location in
/// bits `6N + 4 + 2i` (idle, announce, waiting, critical).
pub struct Peterson<const N: usize>;

impl<const N: usize> Peterson<N> {
    const VICTIM: usize = 3 * N;
    const INCS: usize = 6 * N;
    const LOCATION: usize = 6 * N + 4;

    #[inline(always)]
    fn field(state: u64, at: usize, mask: u64) -> u64 {
        (state >> at) & mask
    }

    #[inline(always)]
    fn with(state: u64, at: usize, mask: u64, value: u64) -> u64 {
        (state & !(mask << at)) | (value << at)
    }

    #[inline(always)]
    fn level(state: u64, i: usize) -> u64 {
        Self::field(state, 3 * i, 7)
    }
}

impl<const N: usize> HandWritten for Peterson<N> {
    const THREADS: usize = N;

    fn initial(&self) -> u64 {
        0
    }

    #[inline(always)]
    fn step(&self, state: u64, i: usize) -> Option<Result<u64, ()>> {
        let location_at = Self::LOCATION + 2 * i;
        let goto = |state: u64, location: u64| Self::with(state, location_at, 3, location);
        let level = Self::level(state, i);
        let incs = Self::field(state, Self::INCS, 15);
        let next = match Self::field(state, location_at, 3) {
            0 => goto(Self::with(state, 3 * i, 7, 1), 1),
            1 => goto(
                Self::with(state, Self::VICTIM + 3 * level as usize, 7, i as u64),
                2,
            ),
            2 => {
                // Every level read, without an early exit: no branch to mispredict.
                let others_lower = (0..N).fold(true, |lower, k| {
                    lower & (k == i || Self::level(state, k) < level)
                });
                let victim = Self::field(state, Self::VICTIM + 3 * level as usize, 7);
                if !(others_lower || victim != i as u64) {
                    return None;
                }
                if level < (N - 1) as u64 {
                    goto(Self::with(state, 3 * i, 7, level + 1), 1)
                } else if incs == 0 {
                    // `incs := incs + 1; assert (incs <= 1);`
                    goto(Self::with(state, Self::INCS, 15, incs + 1), 3)
                } else {
                    return Some(Err(()));
                }
            }
            _ => {
                let state = Self::with(state, Self::INCS, 15, incs.wrapping_sub(1) & 15);
                goto(Self::with(state, 3 * i, 7, 0), 0)
            }
        };
        Some(Ok(next))
    }

    fn invariants_hold(&self, state: u64) -> bool {
        Self::field(state, Self::INCS, 15) <= 1
    }
}

/// `[]<>(incs == 1)`, the property `One` of `scripts/compare --ltl`.
impl<const N: usize> HandWrittenLtl for Peterson<N> {
    #[inline(always)]
    fn proposition(&self, state: u64) -> bool {
        Self::field(state, Self::INCS, 15) == 1
    }
}

/// `[]<>(exists i in 0 .. Param.N : (Philosopher[i]@putSecond))`, the property `Someone`
/// of `scripts/compare --ltl`.
impl<const N: usize, const FIXED: bool> HandWrittenLtl for Philosophers<N, FIXED> {
    #[inline(always)]
    fn proposition(&self, state: u64) -> bool {
        (0..N).fold(false, |someone, i| {
            someone | ((state >> (N + 2 * i)) & 3 == 2)
        })
    }
}
