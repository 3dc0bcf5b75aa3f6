//! Where a word goes in the quotient table: the permutation that spreads its bits, and the
//! division of its segment part into a home bucket and a remainder.

use super::bucket::{mask, Shape};
use super::SEGMENT_BITS;

/// Multipliers of the permutation (odd, so invertible modulo any power of two).
pub(super) const M1: u64 = 0x9e37_79b9_7f4a_7c15;
pub(super) const M2: u64 = 0xbf58_476d_1ce4_e5b9;

/// The inverse of an odd number modulo 2^64 (Newton's iteration).
pub(super) const fn inverse(odd: u64) -> u64 {
    let mut x = odd;
    let mut i = 0;
    while i < 6 {
        x = x.wrapping_mul(2u64.wrapping_sub(odd.wrapping_mul(x)));
        i += 1;
    }
    x
}

/// What a lookup derives from the width of the words the set is laid out for, computed once
/// per layout rather than at every lookup.
#[derive(Clone, Copy, Debug)]
pub(super) struct Layout {
    /// The words' bits, and all ones in them.
    pub(super) width: u32,
    pub(super) mask: u64,
    /// The shift of the permutation's xor steps: half the width, rounded up.
    pub(super) half: u32,
    /// The bits of a word's segment part (below its segment bits), and all ones in them.
    pub(super) part_bits: u32,
    pub(super) part_mask: u64,
}

impl Layout {
    pub(super) fn new(width: u32) -> Layout {
        let part_bits = width.saturating_sub(SEGMENT_BITS);
        Layout {
            width,
            mask: mask(width),
            half: width.div_ceil(2),
            part_bits,
            part_mask: mask(part_bits),
        }
    }

    /// A bijection of the layout's `width`-bit integers that spreads every input bit over
    /// the output.
    #[inline(always)]
    pub(super) fn permute(&self, x: u64) -> u64 {
        let mut y = x.wrapping_mul(M1) & self.mask;
        y ^= y >> self.half;
        y = y.wrapping_mul(M2) & self.mask;
        y ^ (y >> self.half)
    }

    /// The inverse of [`Layout::permute`].
    pub(super) fn unpermute(&self, y: u64) -> u64 {
        // x ^ (x >> half) is its own inverse when 2 * half >= width.
        let mut x = y ^ (y >> self.half);
        x = x.wrapping_mul(const { inverse(M2) }) & self.mask;
        x ^= x >> self.half;
        x.wrapping_mul(const { inverse(M1) }) & self.mask
    }
}

/// Where a word of a segment goes: home bucket, remainder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Place {
    pub(super) home: u64,
    pub(super) remainder: u64,
}

/// Division of the words' segment parts (below 2^56) by a segment's values per bucket, as
/// a multiplication and a shift: a lookup divides once, and a 64-bit division takes tens
/// of cycles where a multiplication takes three (Granlund and Montgomery, "Division by
/// invariant integers using multiplication", 1994, theorem 4.2).
#[derive(Clone, Copy, Debug)]
pub(super) struct Divisor {
    pub(super) multiplier: u64,
    pub(super) shift: u32,
}

/// The numerators a [`Divisor`] divides exactly: below `2^PART_BITS`.
pub(super) const PART_BITS: u32 = 64 - SEGMENT_BITS;

impl Divisor {
    /// With `l = ceil(log2 d)` and `m = floor(2^(N + l) / d) + 1`, `2^(N + l) < m d <=
    /// 2^(N + l) + 2^l`, so `floor(n m / 2^(N + l)) = floor(n / d)` for every `n < 2^N`.
    pub(super) fn new(divisor: u64) -> Divisor {
        let l = 64 - divisor.max(1).saturating_sub(1).leading_zeros();
        let shift = PART_BITS + l;
        Divisor {
            multiplier: ((1u128 << shift) / u128::from(divisor.max(1)) + 1) as u64,
            shift,
        }
    }

    /// `n / d`, for `n < 2^PART_BITS`.
    #[inline(always)]
    pub(super) fn quotient(self, n: u64) -> u64 {
        ((u128::from(n) * u128::from(self.multiplier)) >> self.shift) as u64
    }
}

/// The geometry of a segment of `buckets` buckets for words whose segment part has `bits`
/// bits: the values per bucket (a part divided by it is the home bucket, the rest the
/// remainder) and the layout of an entry (the remainder and the choice bit).
pub(super) fn geometry(buckets: u64, bits: u32) -> (u64, Shape) {
    let values = 1u128 << bits;
    let range = values.div_ceil(u128::from(buckets)) as u64;
    let remainder_bits = 64 - (range - 1).leading_zeros();
    (range, Shape::new(remainder_bits + 1))
}
