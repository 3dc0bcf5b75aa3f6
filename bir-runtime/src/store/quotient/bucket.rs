//! A bucket of the quotient table: one cache line of packed entries, compared 16 lanes at a
//! time.

use super::Zeroable;

/// A bucket's 16-bit lanes: lane 0 is the header (the entry count in its low byte, the
/// overflow flag above), lanes 1 to [`MAX_ENTRIES`] the low 16 bits of each entry, and the
/// entries' further bits follow, packed.
pub(super) const LANES: usize = 32;
pub(super) const MAX_ENTRIES: usize = LANES - 1;
pub(super) const COUNT_MASK: u16 = 0xff;
pub(super) const OVERFLOWED: u16 = 0x100;

/// How entries are laid out in a bucket: their width, and where their high bits start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Shape {
    pub(super) width: u32,
    /// Entries a bucket holds.
    pub(super) entries: usize,
    /// The bit at which the high bits (above the low 16) of entry 0 start.
    pub(super) high_base: usize,
}

impl Shape {
    pub(super) fn new(width: u32) -> Shape {
        let entries = ((LANES * 16 - 16) / width.max(16) as usize).min(MAX_ENTRIES);
        Shape {
            width,
            entries,
            high_base: 16 * (1 + entries),
        }
    }

    /// The width of an entry's high bits.
    pub(super) fn high_width(self) -> u32 {
        self.width.saturating_sub(16)
    }
}

/// One cache line: a header and packed entries. An entry's low 16 bits have a lane of their
/// own, so that a lookup compares all of them at once (four vector comparisons) and looks at
/// the high bits only of the rare entry whose low bits match.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
pub(super) struct Bucket(pub(super) [u16; LANES]);

impl Default for Bucket {
    fn default() -> Self {
        Bucket([0; LANES])
    }
}

// SAFETY: an all-zero bucket is an empty one, and a bucket owns nothing.
unsafe impl Zeroable for Bucket {}

impl Bucket {
    pub(super) fn count(&self) -> usize {
        usize::from(self.0[0] & COUNT_MASK)
    }

    pub(super) fn overflowed(&self) -> bool {
        self.0[0] & OVERFLOWED != 0
    }

    pub(super) fn set_overflowed(&mut self) {
        self.0[0] |= OVERFLOWED;
    }

    /// `width` (at most 48) bits from bit `bit` of the lanes.
    #[inline(always)]
    pub(super) fn bits(&self, bit: usize, width: u32) -> u64 {
        let (lane, shift) = (bit / 16, bit % 16);
        // Four lanes at once where the bucket has them (one load), fewer at its end.
        let gathered = match self.0.get(lane..lane + 4) {
            Some(&[a, b, c, d]) => {
                u64::from(a) | u64::from(b) << 16 | u64::from(c) << 32 | u64::from(d) << 48
            }
            _ => (0..4).fold(0, |gathered, k| {
                let value = self.0.get(lane + k).copied().unwrap_or(0);
                gathered | u64::from(value) << (16 * k)
            }),
        };
        (gathered >> shift) & mask(width)
    }

    /// Flips the bits of `change` (at most 48 bits) from bit `bit` of the lanes.
    pub(super) fn flip_bits(&mut self, bit: usize, change: u64) {
        let (lane, shift) = (bit / 16, bit % 16);
        let shifted = change << shift;
        for k in 0..4 {
            if let Some(value) = self.0.get_mut(lane + k) {
                *value ^= (shifted >> (16 * k)) as u16;
            }
        }
    }

    /// The high bits of entry `i`.
    #[inline(always)]
    pub(super) fn high(&self, i: usize, shape: Shape) -> u64 {
        let width = shape.high_width();
        self.bits(shape.high_base + i * width as usize, width)
    }

    /// Entry `i`.
    pub(super) fn get(&self, i: usize, shape: Shape) -> u64 {
        let low = u64::from(self.0[1 + i]);
        if shape.width <= 16 {
            return low;
        }
        low | self.high(i, shape) << 16
    }

    /// Writes `entry` into slot `i`, which holds `old`.
    #[inline(always)]
    pub(super) fn write(&mut self, i: usize, old: u64, entry: u64, shape: Shape) {
        self.0[1 + i] = entry as u16;
        if shape.width > 16 {
            let width = shape.high_width();
            self.flip_bits(shape.high_base + i * width as usize, (old ^ entry) >> 16);
        }
    }

    /// Replaces entry `i`, returning the one it held (0 for a slot never used).
    pub(super) fn replace(&mut self, i: usize, entry: u64, shape: Shape) -> u64 {
        let old = self.get(i, shape);
        self.write(i, old, entry, shape);
        old
    }

    /// Appends an entry (the caller checked there is room). The slots past the last are all
    /// zeros (buckets start zeroed, and entries are only ever replaced), so the entry is
    /// written without reading what the slot held.
    pub(super) fn push(&mut self, entry: u64, shape: Shape) {
        let i = self.count();
        debug_assert_eq!(self.get(i, shape), 0, "a slot past the last is empty");
        self.write(i, 0, entry, shape);
        self.0[0] += 1;
    }

    /// Bit `k` set when lane `k` (the header's included) equals `value`: four vector
    /// comparisons of eight lanes where the processor has them (every x86-64 has SSE2).
    #[inline(always)]
    pub(super) fn lanes_equal(&self, value: u16) -> u32 {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{
                __m128i, _mm_cmpeq_epi16, _mm_load_si128, _mm_movemask_epi8, _mm_packs_epi16,
                _mm_set1_epi16,
            };
            let lanes = self.0.as_ptr().cast::<__m128i>();
            // SAFETY: SSE2 is part of every x86-64 processor; a bucket is 64 bytes aligned
            // to 64, so the four aligned loads of 16 bytes stay within it.
            unsafe {
                let [a, b, c, d] = [0, 1, 2, 3].map(|i| _mm_load_si128(lanes.add(i)));
                let needle = _mm_set1_epi16(value as i16);
                // Equal lanes are all ones; packing two vectors of eight 16-bit lanes into
                // one of sixteen bytes keeps the lanes' order, so the byte mask is the lane
                // mask.
                let low = _mm_packs_epi16(_mm_cmpeq_epi16(a, needle), _mm_cmpeq_epi16(b, needle));
                let high = _mm_packs_epi16(_mm_cmpeq_epi16(c, needle), _mm_cmpeq_epi16(d, needle));
                (_mm_movemask_epi8(low) as u32 & 0xffff) | (_mm_movemask_epi8(high) as u32) << 16
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let mut matches = 0u32;
            for (k, &lane) in self.0.iter().enumerate() {
                matches |= u32::from(lane == value) << k;
            }
            matches
        }
    }

    /// True when the bucket holds `entry`.
    #[inline(always)]
    pub(super) fn holds(&self, entry: u64, shape: Shape) -> bool {
        // Lane 0, the header, is compared too and shifted out.
        let mut matches = (self.lanes_equal(entry as u16) >> 1) & ((1u32 << self.count()) - 1);
        if shape.width <= 16 {
            return matches != 0;
        }
        let high = entry >> 16;
        while matches != 0 {
            if self.high(matches.trailing_zeros() as usize, shape) == high {
                return true;
            }
            matches &= matches - 1;
        }
        false
    }
}

/// All ones in the low `bits` bits (at most 64), without a branch: every lookup takes a
/// few.
#[inline(always)]
pub(super) fn mask(bits: u32) -> u64 {
    u64::MAX.checked_shr(64 - bits).unwrap_or(0)
}
