//! [`CompactWords`]: an exact set of states that fit in a word, storing a few bytes per
//! state by quotienting (Cleary; the quotient filter): where a state is stored says part of
//! what it is, so only the rest of it is kept.
//!
//! A state's word `x` of `b` bits (the set learns `b` from the widest word it has met) is
//! first permuted by an invertible mix of `b`-bit integers, `y = permute(x)`, so that every
//! bit of `x` spreads over `y`. The top 8 bits of `y` choose one of 256 segments; within a
//! segment of `n` buckets the other `b - 8` bits, `z`, are split by one division into the
//! home bucket `z / R` and the remainder `z % R`, where `R = ceil(2^(b-8) / n)`. A bucket is
//! one cache line holding a count and as many `(remainder, choice)` entries as fit. An entry
//! whose home bucket is full goes to its alternate bucket (home plus an offset computed from
//! the remainder, so the home can be found again from where the entry is) with the choice
//! bit set, and the home bucket is marked as having overflowed, so a lookup reads a second
//! line only for the few buckets that did. The remainder, the bucket and the choice give
//! back `z`, and `y` and `x` with the segment: nothing is lost, and a complete search over
//! this set may say verified.
//!
//! The number of buckets of a segment is not a power of two: a segment grows by a quarter
//! when both of a new state's buckets are full (its remainders lose a bit now and then), so
//! the buckets stay between about 70% and 95% full (a segment's size is rounded up to whole
//! pages). A growth takes one segment's words out, 1/256 of the set, and puts them back into
//! the same memory and more: blocks of 64 KiB, and a last, shorter one in pages of its own
//! that lengthens in place ([`pages`](super::pages)). A word wider
//! than any before changes `b` and rebuilds the whole set, one old segment at a time: early
//! in a search when the words are states (the search soon meets the widest ones), now and
//! then throughout when they are the roots of a tree ([`tree`](super::tree)), whose numbers
//! grow with the search.

use std::mem::size_of;
use std::ptr::NonNull;

use super::pages::{Block, Zeroable, PAGE};
use super::words::prefetch;
use super::{mix, Footprint, Growth, Lookup, Store};

/// Segments of the set, chosen by the top bits of a permuted word.
const SEGMENT_BITS: u32 = 8;
const SEGMENTS: usize = 1 << SEGMENT_BITS;

/// Buckets of a new segment (at least; see [`buckets_at`]).
const MIN_BUCKETS: u64 = 2;

/// The factor by which a segment grows.
const GROWTH: f64 = 1.25;

/// The buckets of segment `index` after `generation` growths, `MIN_BUCKETS` times `GROWTH` to
/// the power `generation + index / 256`. The segments' sizes are staggered so that they grow at different times:
/// the set's load, and its bytes per state, stay near their average at every size rather
/// than dropping together by a quarter at each growth.
fn buckets_at(index: usize, generation: u32) -> u64 {
    let mut size = MIN_BUCKETS as f64 * STAGGER[index];
    for _ in 0..generation {
        size *= GROWTH;
    }
    // Rounded up, without `f64::ceil`: a set of words calls nothing of the C library's
    // maths (whose pages would count in the process's peak memory).
    let whole = size as u64;
    whole + u64::from((whole as f64) < size)
}

/// `GROWTH` to the power `i / 256` for each segment `i`: the stagger of the segments' sizes,
/// computed at compile time (no `f64::powf` at run time, for the reason in [`buckets_at`]).
const STAGGER: [f64; SEGMENTS] = stagger();

const fn stagger() -> [f64; SEGMENTS] {
    // The 256th root of GROWTH, by Newton's method from just above it: x -= (x^256 -
    // GROWTH) / (256 x^255), a few steps to the last bit.
    let mut root = 1.0 + (GROWTH - 1.0) / SEGMENTS as f64;
    let mut step = 0;
    while step < 6 {
        let mut power = 1.0;
        let mut k = 1;
        while k < SEGMENTS {
            power *= root;
            k += 1;
        }
        root -= (power * root - GROWTH) / (SEGMENTS as f64 * power);
        step += 1;
    }
    let mut table = [1.0; SEGMENTS];
    let mut i = 1;
    while i < SEGMENTS {
        table[i] = table[i - 1] * root;
        i += 1;
    }
    table
}

/// The narrowest words the set is laid out for: narrower words are stored as this many
/// bits (a segment's remainders are then still wide enough to address it).
const MIN_WIDTH: u32 = 24;

/// A segment grows once this many 1024ths of its entries are used (92%).
const LOAD_PER_1024: usize = 944;

/// How full a widening leaves the new segments (80%): a widening may come late in a search
/// (a tree's root set widens whenever its indices gain a bit), and a set laid out emptier
/// would keep the extra bytes per state until its segments next grow.
const WIDEN_LOAD_PER_1024: usize = 820;

/// The most entries one insertion moves to make room before the segment grows.
const KICKS: usize = 32;

/// A bucket's 16-bit lanes: lane 0 is the header (the entry count in its low byte, the
/// overflow flag above), lanes 1 to [`MAX_ENTRIES`] the low 16 bits of each entry, and the
/// entries' further bits follow, packed.
const LANES: usize = 32;
const MAX_ENTRIES: usize = LANES - 1;
const COUNT_MASK: u16 = 0xff;
const OVERFLOWED: u16 = 0x100;

/// The growth part that widens the whole set (the segments are parts 0 to 255).
const WIDEN: usize = SEGMENTS;

/// Multipliers of the permutation (odd, so invertible modulo any power of two).
const M1: u64 = 0x9e37_79b9_7f4a_7c15;
const M2: u64 = 0xbf58_476d_1ce4_e5b9;

/// How entries are laid out in a bucket: their width, and where their high bits start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Shape {
    width: u32,
    /// Entries a bucket holds.
    entries: usize,
    /// The bit at which the high bits (above the low 16) of entry 0 start.
    high_base: usize,
}

impl Shape {
    fn new(width: u32) -> Shape {
        let entries = ((LANES * 16 - 16) / width.max(16) as usize).min(MAX_ENTRIES);
        Shape {
            width,
            entries,
            high_base: 16 * (1 + entries),
        }
    }

    /// The width of an entry's high bits.
    fn high_width(self) -> u32 {
        self.width.saturating_sub(16)
    }
}

/// One cache line: a header and packed entries. An entry's low 16 bits have a lane of their
/// own, so that a lookup compares all of them at once (four vector comparisons) and looks at
/// the high bits only of the rare entry whose low bits match.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Bucket([u16; LANES]);

impl Default for Bucket {
    fn default() -> Self {
        Bucket([0; LANES])
    }
}

// SAFETY: an all-zero bucket is an empty one, and a bucket owns nothing.
unsafe impl Zeroable for Bucket {}

impl Bucket {
    fn count(&self) -> usize {
        usize::from(self.0[0] & COUNT_MASK)
    }

    fn overflowed(&self) -> bool {
        self.0[0] & OVERFLOWED != 0
    }

    fn set_overflowed(&mut self) {
        self.0[0] |= OVERFLOWED;
    }

    /// `width` (at most 48) bits from bit `bit` of the lanes.
    #[inline(always)]
    fn bits(&self, bit: usize, width: u32) -> u64 {
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
    fn flip_bits(&mut self, bit: usize, change: u64) {
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
    fn high(&self, i: usize, shape: Shape) -> u64 {
        let width = shape.high_width();
        self.bits(shape.high_base + i * width as usize, width)
    }

    /// Entry `i`.
    fn get(&self, i: usize, shape: Shape) -> u64 {
        let low = u64::from(self.0[1 + i]);
        if shape.width <= 16 {
            return low;
        }
        low | self.high(i, shape) << 16
    }

    /// Writes `entry` into slot `i`, which holds `old`.
    #[inline(always)]
    fn write(&mut self, i: usize, old: u64, entry: u64, shape: Shape) {
        self.0[1 + i] = entry as u16;
        if shape.width > 16 {
            let width = shape.high_width();
            self.flip_bits(shape.high_base + i * width as usize, (old ^ entry) >> 16);
        }
    }

    /// Replaces entry `i`, returning the one it held (0 for a slot never used).
    fn replace(&mut self, i: usize, entry: u64, shape: Shape) -> u64 {
        let old = self.get(i, shape);
        self.write(i, old, entry, shape);
        old
    }

    /// Appends an entry (the caller checked there is room). The slots past the last are all
    /// zeros (buckets start zeroed, and entries are only ever replaced), so the entry is
    /// written without reading what the slot held.
    fn push(&mut self, entry: u64, shape: Shape) {
        let i = self.count();
        debug_assert_eq!(self.get(i, shape), 0, "a slot past the last is empty");
        self.write(i, 0, entry, shape);
        self.0[0] += 1;
    }

    /// Bit `k` set when lane `k` (the header's included) equals `value`: four vector
    /// comparisons of eight lanes where the processor has them (every x86-64 has SSE2).
    #[inline(always)]
    fn lanes_equal(&self, value: u16) -> u32 {
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
    fn holds(&self, entry: u64, shape: Shape) -> bool {
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
fn mask(bits: u32) -> u64 {
    u64::MAX.checked_shr(64 - bits).unwrap_or(0)
}

/// The inverse of an odd number modulo 2^64 (Newton's iteration).
const fn inverse(odd: u64) -> u64 {
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
struct Layout {
    /// The words' bits, and all ones in them.
    width: u32,
    mask: u64,
    /// The shift of the permutation's xor steps: half the width, rounded up.
    half: u32,
    /// The bits of a word's segment part (below its segment bits), and all ones in them.
    part_bits: u32,
    part_mask: u64,
}

impl Layout {
    fn new(width: u32) -> Layout {
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
    fn permute(&self, x: u64) -> u64 {
        let mut y = x.wrapping_mul(M1) & self.mask;
        y ^= y >> self.half;
        y = y.wrapping_mul(M2) & self.mask;
        y ^ (y >> self.half)
    }

    /// The inverse of [`Layout::permute`].
    fn unpermute(&self, y: u64) -> u64 {
        // x ^ (x >> half) is its own inverse when 2 * half >= width.
        let mut x = y ^ (y >> self.half);
        x = x.wrapping_mul(const { inverse(M2) }) & self.mask;
        x ^= x >> self.half;
        x.wrapping_mul(const { inverse(M1) }) & self.mask
    }
}

/// Where a word of a segment goes: home bucket, remainder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Place {
    home: u64,
    remainder: u64,
}

/// Division of the words' segment parts (below 2^56) by a segment's values per bucket, as
/// a multiplication and a shift: a lookup divides once, and a 64-bit division takes tens
/// of cycles where a multiplication takes three (Granlund and Montgomery, "Division by
/// invariant integers using multiplication", 1994, theorem 4.2).
#[derive(Clone, Copy, Debug)]
struct Divisor {
    multiplier: u64,
    shift: u32,
}

/// The numerators a [`Divisor`] divides exactly: below `2^PART_BITS`.
const PART_BITS: u32 = 64 - SEGMENT_BITS;

impl Divisor {
    /// With `l = ceil(log2 d)` and `m = floor(2^(N + l) / d) + 1`, `2^(N + l) < m d <=
    /// 2^(N + l) + 2^l`, so `floor(n m / 2^(N + l)) = floor(n / d)` for every `n < 2^N`.
    fn new(divisor: u64) -> Divisor {
        let l = 64 - divisor.max(1).saturating_sub(1).leading_zeros();
        let shift = PART_BITS + l;
        Divisor {
            multiplier: ((1u128 << shift) / u128::from(divisor.max(1)) + 1) as u64,
            shift,
        }
    }

    /// `n / d`, for `n < 2^PART_BITS`.
    #[inline(always)]
    fn quotient(self, n: u64) -> u64 {
        ((u128::from(n) * u128::from(self.multiplier)) >> self.shift) as u64
    }
}

/// The geometry of a segment of `buckets` buckets for words whose segment part has `bits`
/// bits: the values per bucket (a part divided by it is the home bucket, the rest the
/// remainder) and the layout of an entry (the remainder and the choice bit).
fn geometry(buckets: u64, bits: u32) -> (u64, Shape) {
    let values = 1u128 << bits;
    let range = values.div_ceil(u128::from(buckets)) as u64;
    let remainder_bits = 64 - (range - 1).leading_zeros();
    (range, Shape::new(remainder_bits + 1))
}

/// The entries segment `index` of generation `generation` holds at [`WIDEN_LOAD_PER_1024`]
/// for words whose segment part has `bits` bits.
fn room_at(index: usize, generation: u32, bits: u32) -> usize {
    let buckets = size_at(index, generation);
    buckets as usize * geometry(buckets, bits).1.entries * WIDEN_LOAD_PER_1024 / 1024
}

/// Buckets per block of a segment (a power of two: 64 KiB). A segment keeps its buckets in
/// blocks of this many, so that the blocks its growths free are reused exactly by later
/// growths: an allocator keeps a freed block of any other size for a request that fits it,
/// which cost a tree's root set a third more resident memory than it held (Peterson's filter
/// with local counters, N = 5). The last block, shorter, is in pages of its own with room
/// for a whole block ([`Block`]): it lengthens in place as the segment grows, and serves as
/// a whole block once the segment outgrows it.
const BLOCK_BITS: u32 = 10;
const BLOCK: u64 = 1 << BLOCK_BITS;

/// Buckets per page: a segment's last block, in pages of its own, ends at the end of a
/// page.
const PAGE_BUCKETS: u64 = (PAGE / size_of::<Bucket>()) as u64;

/// The buckets of segment `index` after `generation` growths: [`buckets_at`], rounded up
/// to whole pages, whose rest would be memory taken and not used. A small set so takes a
/// page per segment (1 MiB) at least.
fn size_at(index: usize, generation: u32) -> u64 {
    buckets_at(index, generation).div_ceil(PAGE_BUCKETS) * PAGE_BUCKETS
}

/// The lengths of the blocks of a segment of `buckets` buckets, each with the room it has
/// in pages of its own (see [`Block::zeroed`]): a whole block's for the last, when it is
/// shorter, so that it lengthens in place.
fn blocks_of(buckets: u64) -> impl Iterator<Item = (usize, Option<usize>)> {
    (0..buckets.div_ceil(BLOCK)).map(move |block| {
        let len = (buckets - block * BLOCK).min(BLOCK);
        (len as usize, (len < BLOCK).then_some(BLOCK as usize))
    })
}

/// The memory of a segment of `buckets` buckets: its blocks and the list of them.
fn segment_bytes(buckets: u64) -> usize {
    blocks_of(buckets)
        .map(|(len, room)| Block::<Bucket>::bytes(len, room) + size_of::<Block<Bucket>>())
        .sum()
}

/// One segment: buckets, and the geometry they are addressed by.
struct Segment {
    /// The first block's buckets and how many: [`Segment::bucket`] finds a bucket there
    /// (every bucket of a segment of at most one block) from the segment alone, one
    /// dependent load fewer before the bucket's own than through `blocks`, which a lookup's
    /// prefetch waits for (perf: a third of compact storage's prefetch time on the fixed
    /// philosophers N=12 was the loads of the segment's block list).
    first: NonNull<Bucket>,
    first_len: u64,
    /// The buckets, [`BLOCK`] to a block.
    blocks: Box<[Block<Bucket>]>,
    /// How many.
    buckets: u64,
    /// Values per bucket: a segment's part of a word divided by it is the home bucket.
    range: u64,
    /// The division by `range`.
    divisor: Divisor,
    /// The layout of an entry (remainder and choice bit) in a bucket.
    shape: Shape,
    used: usize,
    /// The entries at which the segment asks to grow.
    limit: usize,
    /// Growths since the segment was made (see [`buckets_at`]).
    generation: u32,
    /// The state of the random walk's choices.
    seed: u64,
}

// SAFETY: `first` points into the segment's own first block, which it owns as it owns
// `blocks` (Send and Sync as a `Box<[Bucket]>` would be); it is read through `&self` and
// written through `&mut self` only.
unsafe impl Send for Segment {}
// SAFETY: as above.
unsafe impl Sync for Segment {}

impl Segment {
    /// An empty segment of `buckets` buckets for words whose segment part has `bits` bits.
    fn new(buckets: u64, bits: u32) -> Segment {
        Segment::with_blocks(buckets, bits, Vec::new())
    }

    /// An empty segment as [`Segment::new`], in the memory of the blocks `old` where it can:
    /// a segment that grows passes its own, whose full blocks serve again as they are and
    /// whose last one lengthens in place.
    fn with_blocks(buckets: u64, bits: u32, old: Vec<Block<Bucket>>) -> Segment {
        let (range, shape) = geometry(buckets, bits);
        let (mut last, mut full): (Vec<_>, Vec<_>) = old
            .into_iter()
            .partition(|block| block.len() < BLOCK as usize);
        let blocks: Box<[Block<Bucket>]> = blocks_of(buckets)
            .map(|(len, room)| {
                // A new whole block that the old ones cannot give is the old last
                // one, lengthened in place: it would otherwise keep its pages.
                let reused = match room {
                    Some(_) => last.pop(),
                    None => full.pop().or_else(|| last.pop()),
                };
                match reused {
                    Some(block) => block.refilled(len, room),
                    None => Block::zeroed(len, room),
                }
            })
            .collect();
        let (first, first_len) = blocks.first().map_or((NonNull::dangling(), 0), |block| {
            (block.start(), block.len() as u64)
        });
        Segment {
            first,
            first_len,
            blocks,
            buckets,
            range,
            divisor: Divisor::new(range),
            shape,
            used: 0,
            limit: buckets as usize * shape.entries * LOAD_PER_1024 / 1024,
            generation: 0,
            seed: buckets,
        }
    }

    fn bytes(&self) -> usize {
        segment_bytes(self.buckets)
    }

    /// The first generation after this segment's, of segment `index`, that has more
    /// buckets than it: rounded to whole pages, a small segment's next few may not.
    fn next_generation(&self, index: usize) -> u32 {
        (self.generation + 1..)
            .find(|&generation| size_at(index, generation) > self.buckets)
            .unwrap_or(self.generation + 1)
    }

    /// Bucket `b`.
    #[inline(always)]
    fn bucket(&self, b: u64) -> &Bucket {
        if b < self.first_len {
            // SAFETY: `first` points at the `first_len` buckets of the first block, which
            // the segment owns and never changes while it has them (`take_blocks`).
            return unsafe { &*self.first.as_ptr().add(b as usize) };
        }
        &self.blocks[(b >> BLOCK_BITS) as usize][(b & (BLOCK - 1)) as usize]
    }

    #[inline(always)]
    fn bucket_mut(&mut self, b: u64) -> &mut Bucket {
        if b < self.first_len {
            // SAFETY: as in `bucket`; `&mut self` makes this the only reference to it.
            return unsafe { &mut *self.first.as_ptr().add(b as usize) };
        }
        &mut self.blocks[(b >> BLOCK_BITS) as usize][(b & (BLOCK - 1)) as usize]
    }

    /// Takes the segment's blocks, leaving it none.
    fn take_blocks(&mut self) -> Vec<Block<Bucket>> {
        (self.first, self.first_len) = (NonNull::dangling(), 0);
        std::mem::take(&mut self.blocks).into_vec()
    }

    #[inline(always)]
    fn place(&self, z: u64) -> Place {
        let home = self.divisor.quotient(z);
        Place {
            home,
            remainder: z - home * self.range,
        }
    }

    /// The other bucket of an entry: `home` plus 1 to `n - 1`, from the remainder.
    #[inline(always)]
    fn alternate(&self, home: u64, remainder: u64) -> u64 {
        let n = self.buckets;
        let offset = 1 + (((mix(remainder) >> 32) * (n - 1)) >> 32);
        let alt = home + offset;
        if alt >= n {
            alt - n
        } else {
            alt
        }
    }

    /// The home of an entry stored away from it, in bucket `alt`.
    fn home_of(&self, alt: u64, remainder: u64) -> u64 {
        let n = self.buckets;
        let offset = 1 + (((mix(remainder) >> 32) * (n - 1)) >> 32);
        if alt >= offset {
            alt - offset
        } else {
            alt + n - offset
        }
    }

    #[inline(always)]
    fn contains(&self, place: Place) -> bool {
        let home = self.bucket(place.home);
        if home.holds(place.remainder << 1, self.shape) {
            return true;
        }
        home.overflowed()
            && self
                .bucket(self.alternate(place.home, place.remainder))
                .holds(place.remainder << 1 | 1, self.shape)
    }

    /// Stores a word known to be absent; false when there is no room for it (nothing
    /// changed then, but overflow flags).
    fn add(&mut self, place: Place) -> bool {
        let (shape, room) = (self.shape, self.shape.entries);
        let home = self.bucket_mut(place.home);
        if home.count() < room {
            home.push(place.remainder << 1, shape);
            self.used += 1;
            return true;
        }
        home.set_overflowed();
        let alt = self.alternate(place.home, place.remainder);
        let entry = place.remainder << 1 | 1;
        let bucket = self.bucket_mut(alt);
        if bucket.count() < room {
            bucket.push(entry, shape);
        } else if !self.kick(alt, entry) {
            return false;
        }
        self.used += 1;
        true
    }

    /// Makes room for `entry` in the full bucket `bucket` by moving entries to their other
    /// buckets (cuckoo hashing's random walk, at most [`KICKS`] moves), and stores it there;
    /// false, with every entry back in place, when the walk found no room.
    #[cold]
    fn kick(&mut self, bucket: u64, entry: u64) -> bool {
        let (shape, room) = (self.shape, self.shape.entries);
        let mut path = [(0u64, 0usize); KICKS];
        let (mut bucket, mut entry) = (bucket, entry);
        for step in &mut path {
            self.seed = mix(self.seed);
            let i = (self.seed % room as u64) as usize;
            let victim = self.bucket_mut(bucket).replace(i, entry, shape);
            *step = (bucket, i);
            let remainder = victim >> 1;
            let (other, moved) = if victim & 1 == 0 {
                self.bucket_mut(bucket).set_overflowed();
                (self.alternate(bucket, remainder), remainder << 1 | 1)
            } else {
                (self.home_of(bucket, remainder), remainder << 1)
            };
            let target = self.bucket_mut(other);
            if target.count() < room {
                target.push(moved, shape);
                return true;
            }
            (bucket, entry) = (other, moved);
        }
        // No room: put every victim back where it was.
        let mut carried = entry;
        for &(bucket, i) in path.iter().rev() {
            carried = self.bucket_mut(bucket).replace(i, carried ^ 1, shape);
        }
        false
    }

    /// Appends every stored word's segment part to `out`.
    fn parts(&self, out: &mut Vec<u64>) {
        out.reserve(self.used);
        for (b, bucket) in self
            .blocks
            .iter()
            .flat_map(|block| block.iter())
            .enumerate()
        {
            for i in 0..bucket.count() {
                let entry = bucket.get(i, self.shape);
                let remainder = entry >> 1;
                let home = if entry & 1 == 0 {
                    b as u64
                } else {
                    self.home_of(b as u64, remainder)
                };
                out.push(home * self.range + remainder);
            }
        }
    }

    /// Replaces `out` with the words stored in this, segment `index` of a set laid out as
    /// `layout`.
    fn words(&self, index: usize, layout: Layout, out: &mut Vec<u64>) {
        out.clear();
        self.parts(out);
        let high = (index as u64) << layout.part_bits;
        for word in out.iter_mut() {
            *word = layout.unpermute(high | *word);
        }
    }

    /// True when the segment should grow before it takes another entry: past
    /// [`LOAD_PER_1024`], where the random walks of insertion would grow long.
    fn is_full(&self) -> bool {
        self.used >= self.limit
    }
}

/// An exact set of words, a few bytes each: see the [module](self).
pub(crate) struct CompactWords {
    segments: Box<[Segment]>,
    /// The width of the words as laid out (0 before the first word), and what lookups
    /// derive from it.
    layout: Layout,
    /// The widest word met (a wider one than `width` waits for [`WIDEN`]).
    wanted: u32,
    /// The words prefetched last, with where they go: a search prefetches a state's
    /// successors and then visits them, and the insertion finds its word's place here
    /// instead of computing it again (a permutation, a division). Emptied when the layout
    /// changes.
    recent: [Located; RECENT],
}

/// Words remembered in [`CompactWords::recent`]: many more than a state has successors, so
/// that few of one state's collide, and a state's untaken successors are often still there
/// when the search returns to it (callgrind, fixed philosophers N=12: 16 entries 4.61 G
/// instructions, 64 entries 4.50 G).
const RECENT_BITS: u32 = 6;
const RECENT: usize = 1 << RECENT_BITS;

/// A word, its segment and its place there; a segment past the last for none.
#[derive(Clone, Copy, Debug)]
struct Located {
    word: u64,
    index: usize,
    place: Place,
}

impl Located {
    const NONE: Located = Located {
        word: 0,
        index: SEGMENTS,
        place: Place {
            home: 0,
            remainder: 0,
        },
    };
}

/// The entry of [`CompactWords::recent`] for `word`.
#[inline(always)]
fn recent_slot(word: u64) -> usize {
    (word.wrapping_mul(M1) >> (64 - RECENT_BITS)) as usize
}

impl CompactWords {
    /// An empty set.
    pub(crate) fn new() -> CompactWords {
        CompactWords {
            segments: Box::new([]),
            layout: Layout::new(0),
            wanted: 0,
            recent: [Located::NONE; RECENT],
        }
    }

    /// The words stored.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.segments.iter().map(|s| s.used).sum()
    }

    /// The segment of a word and where in it the word goes.
    #[inline(always)]
    fn locate(&self, word: u64) -> (usize, u64) {
        let y = self.layout.permute(word);
        (
            (y >> self.layout.part_bits) as usize,
            y & self.layout.part_mask,
        )
    }

    /// True when `word` is wider than the set's layout.
    #[inline(always)]
    fn too_wide(&self, word: u64) -> bool {
        word >> self.layout.width != 0 || self.segments.is_empty()
    }

    #[inline(always)]
    fn insert_word(&mut self, word: u64) -> Lookup {
        let (index, place) = match self.recent[recent_slot(word)] {
            located if located.word == word && located.index < SEGMENTS => {
                (located.index, located.place)
            }
            _ => return self.insert_located(word),
        };
        self.insert_at(index, place)
    }

    /// [`insert_word`](Self::insert_word) for a word whose place is not remembered.
    fn insert_located(&mut self, word: u64) -> Lookup {
        if self.too_wide(word) {
            self.wanted = self.wanted.max(64 - word.leading_zeros()).max(MIN_WIDTH);
            return Lookup::Full(Growth {
                bytes: self
                    .bytes()
                    .max((0..SEGMENTS).map(|i| segment_bytes(size_at(i, 0))).sum()),
                part: WIDEN,
            });
        }
        let (index, part) = self.locate(word);
        let place = self.segments[index].place(part);
        self.insert_at(index, place)
    }

    /// Inserts the word at `place` of segment `index`.
    #[inline(always)]
    fn insert_at(&mut self, index: usize, place: Place) -> Lookup {
        let segment = &mut self.segments[index];
        if segment.contains(place) {
            return Lookup::Seen(None);
        }
        if !segment.is_full() && segment.add(place) {
            Lookup::New
        } else {
            let buckets = size_at(index, segment.next_generation(index));
            Lookup::Full(Growth {
                bytes: segment_bytes(buckets),
                part: index,
            })
        }
    }

    fn contains_word(&self, word: u64) -> bool {
        if self.too_wide(word) {
            return false;
        }
        let (index, part) = self.locate(word);
        let segment = &self.segments[index];
        segment.contains(segment.place(part))
    }

    fn prefetch_word(&mut self, word: u64) {
        if self.too_wide(word) {
            return;
        }
        let (index, part) = self.locate(word);
        let segment = &self.segments[index];
        let place = segment.place(part);
        prefetch(segment.bucket(place.home));
        self.recent[recent_slot(word)] = Located { word, index, place };
    }

    /// Segment `index` of at least `generation` holding `parts` (of a later generation if
    /// they do not fit), in the memory of `blocks` where it can.
    fn rebuilt(
        index: usize,
        mut generation: u32,
        bits: u32,
        parts: &[u64],
        mut blocks: Vec<Block<Bucket>>,
    ) -> Segment {
        loop {
            let mut segment = Segment::with_blocks(size_at(index, generation), bits, blocks);
            segment.generation = generation;
            if parts.iter().all(|&part| segment.add(segment.place(part))) {
                return segment;
            }
            // A generation of the same size would fail the same way.
            generation = segment.next_generation(index);
            blocks = segment.take_blocks();
        }
    }

    /// Grows segment `index`: its words are taken out, and put back into a larger segment
    /// in the same memory and more.
    fn grow_segment(&mut self, index: usize) {
        self.regrow(index, self.layout.part_bits, Vec::new());
    }

    /// Segment `index` of a later generation, holding its own words and the parts `parts`
    /// (of words for it, whose segment part has `bits` bits), in its own memory and more.
    fn regrow(&mut self, index: usize, bits: u32, mut parts: Vec<u64>) {
        let segment = &mut self.segments[index];
        segment.parts(&mut parts);
        let generation = segment.next_generation(index);
        let blocks = segment.take_blocks();
        self.segments[index] = Self::rebuilt(index, generation, bits, &parts, blocks);
    }

    /// Lays the set out for words of `self.wanted` bits, moving every stored word. A first
    /// pass over the old segments only counts the words of each new segment, which is then
    /// allocated at [`WIDEN_LOAD_PER_1024`]; the second moves the words one old segment at a
    /// time, freeing each once it is moved. The set never holds more than both layouts and
    /// one segment's words: a list of every word would cost more than the set (8 bytes a
    /// word against a few), and a tree's root set widens late in a search too.
    fn widen(&mut self) {
        let (old_layout, mut old) = (self.layout, std::mem::take(&mut self.segments));
        self.layout = Layout::new(self.wanted);
        let bits = self.layout.part_bits;
        let mut words = Vec::new();
        let mut counts = vec![0usize; SEGMENTS];
        for (index, segment) in old.iter().enumerate() {
            segment.words(index, old_layout, &mut words);
            for &word in &words {
                counts[self.locate(word).0] += 1;
            }
        }
        self.segments = counts
            .iter()
            .enumerate()
            .map(|(index, &count)| {
                let generation = (0..)
                    .find(|&g| room_at(index, g, bits) >= count)
                    .unwrap_or(0);
                let mut segment = Segment::new(size_at(index, generation), bits);
                segment.generation = generation;
                segment
            })
            .collect();
        for (index, segment) in old.iter_mut().enumerate() {
            segment.words(index, old_layout, &mut words);
            segment.take_blocks();
            for &word in &words {
                self.add_moved(word, bits);
            }
        }
    }

    /// Stores a word moved by a widening, in a segment of a later generation if its own
    /// has no room for it.
    fn add_moved(&mut self, word: u64, bits: u32) {
        let (index, part) = self.locate(word);
        let segment = &mut self.segments[index];
        if segment.add(segment.place(part)) {
            return;
        }
        self.regrow(index, bits, vec![part]);
    }

    fn grow_part(&mut self, growth: Growth) {
        self.recent = [Located::NONE; RECENT];
        if growth.part == WIDEN {
            if self.wanted > self.layout.width {
                self.widen();
            }
        } else if growth.part < self.segments.len() {
            self.grow_segment(growth.part);
        }
    }

    /// Every word stored, in no particular order.
    #[cfg(test)]
    fn words(&self) -> Vec<u64> {
        let (mut words, mut segment_words) = (Vec::new(), Vec::new());
        for (index, segment) in self.segments.iter().enumerate() {
            segment.words(index, self.layout, &mut segment_words);
            words.extend_from_slice(&segment_words);
        }
        words
    }
}

/// The word a word-keyed set is looked up by.
fn key_word(key: Option<u64>) -> u64 {
    match key {
        Some(word) => word,
        None => unreachable!("a compact set is only used when every state has a word"),
    }
}

impl<S> Store<S> for CompactWords {
    #[inline]
    fn insert(&mut self, _: &S, key: Option<u64>) -> Lookup {
        self.insert_word(key_word(key))
    }

    fn grow(&mut self, growth: Growth) {
        self.grow_part(growth);
    }

    fn contains(&mut self, _: &S, key: Option<u64>) -> bool {
        self.contains_word(key_word(key))
    }

    #[inline]
    fn prefetch(&mut self, key: Option<u64>) {
        if let Some(word) = key {
            self.prefetch_word(word);
        }
    }
}

impl Footprint for CompactWords {
    fn bytes(&self) -> usize {
        self.segments.iter().map(Segment::bytes).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seen::tests::{insert, new_then_seen};

    #[test]
    fn the_permutation_is_a_bijection_of_each_width() {
        for width in [24, 31, 39, 47, 63] {
            for x in (0..5_000u64).map(|i| i.wrapping_mul(0x2545_f491_4f6c_dd1d) & mask(width)) {
                let layout = Layout::new(width);
                let y = layout.permute(x);
                assert!(y <= mask(width));
                assert_eq!(layout.unpermute(y), x, "width {width}");
            }
        }
    }

    #[test]
    fn the_divisor_divides_every_part_exactly() {
        let mut n = 0x1234_5678_9abc_def1u64;
        for d in [
            1,
            2,
            3,
            7,
            64,
            1000,
            65_537,
            (1 << 40) + 3,
            1 << 55,
            (1 << 56) - 1,
        ] {
            let divisor = Divisor::new(d);
            let edges = [
                0,
                1,
                d - 1,
                d,
                d + 1,
                (1 << PART_BITS) - 1,
                (1 << PART_BITS) - d,
            ];
            for _ in 0..10_000 {
                n = n.wrapping_mul(0x2545_f491_4f6c_dd1d).wrapping_add(1);
                let part = n >> SEGMENT_BITS;
                assert_eq!(divisor.quotient(part), part / d, "{part} / {d}");
            }
            for part in edges.into_iter().filter(|&p| p < 1 << PART_BITS) {
                assert_eq!(divisor.quotient(part), part / d, "{part} / {d}");
            }
        }
    }

    #[test]
    fn a_place_and_its_alternate_give_back_the_word() {
        let segment = Segment::new(37, 31);
        for z in (0..10_000u64).map(|i| i * 214_013 % (1 << 31)) {
            let place = segment.place(z);
            assert!(place.home < 37);
            let alt = segment.alternate(place.home, place.remainder);
            assert_ne!(alt, place.home);
            assert_eq!(segment.home_of(alt, place.remainder), place.home);
            assert_eq!(place.home * segment.range + place.remainder, z);
        }
    }

    #[test]
    fn a_bucket_is_the_same_through_the_first_block_and_the_block_list() {
        // Three blocks: the first reached through `first`, the others through the list.
        let mut segment = Segment::new(2 * BLOCK + 5, 40);
        assert_eq!(segment.first_len, BLOCK);
        for b in 0..segment.buckets {
            let listed = &segment.blocks[(b >> BLOCK_BITS) as usize][(b & (BLOCK - 1)) as usize];
            assert!(std::ptr::eq(segment.bucket(b), listed));
        }
        let shape = segment.shape;
        segment.bucket_mut(3).push(6, shape);
        assert!(segment.blocks[0][3].holds(6, shape));
        assert_eq!(segment.take_blocks().len(), 3);
        assert_eq!(segment.first_len, 0);
        fn shared<T: Send + Sync>() {}
        shared::<CompactWords>();
    }

    #[test]
    fn a_compact_set_stores_each_word_once_across_growth() {
        let set = new_then_seen(CompactWords::new());
        assert_eq!(set.len(), 10_002);
        assert_eq!(set.omission(10), None);
    }

    #[test]
    fn every_word_comes_back_out_across_growth_and_widening() {
        let mut set = CompactWords::new();
        let mut expected = Vec::new();
        // Narrow words first, then ever wider ones: the set widens several times.
        for i in 0..200_000u64 {
            let word = match i {
                0..=99_999 => i * 3,
                100_000..=149_999 => (i << 20) ^ 0xabc,
                _ => (i << 40) | i,
            };
            assert_eq!(insert(&mut set, &(), Some(word)), Lookup::New, "{word}");
            expected.push(word);
        }
        assert_eq!(set.layout.width, 58);
        assert_eq!(set.len(), expected.len());
        for &word in &expected {
            assert!(Store::<()>::contains(&mut set, &(), Some(word)), "{word}");
            assert_eq!(insert(&mut set, &(), Some(word)), Lookup::Seen(None));
        }
        assert!(!Store::<()>::contains(&mut set, &(), Some(1)));
        assert!(!Store::<()>::contains(&mut set, &(), Some(u64::MAX - 1)));
        let mut words = set.words();
        words.sort_unstable();
        expected.sort_unstable();
        assert_eq!(words, expected);
    }

    #[test]
    fn the_staggered_sizes_are_growth_to_the_fractional_powers() {
        for generation in 0..60 {
            for index in 0..SEGMENTS {
                let exponent = f64::from(generation) + index as f64 / SEGMENTS as f64;
                let exact = (MIN_BUCKETS as f64 * GROWTH.powf(exponent)).ceil() as u64;
                let buckets = buckets_at(index, generation);
                // Equal but where the product lies within rounding of a whole number.
                assert!(buckets.abs_diff(exact) <= 1, "{index} {generation}");
                assert!(buckets >= MIN_BUCKETS);
            }
        }
        let equal = (0..SEGMENTS)
            .filter(|&i| {
                let exact = (MIN_BUCKETS as f64 * GROWTH.powf(20.0 + i as f64 / 256.0)).ceil();
                buckets_at(i, 20) == exact as u64
            })
            .count();
        assert_eq!(equal, SEGMENTS);
        assert_eq!(buckets_at(0, 0), MIN_BUCKETS);
        assert_eq!(buckets_at(0, 2), 4);
    }

    #[test]
    fn dense_states_take_a_few_bytes_each() {
        // Half a million 39-bit words, as the philosophers' states: about 4 bytes each (3.9
        // at 2 million), half of a plain table's 8. Fewer would leave longer remainders.
        let mut set = CompactWords::new();
        let n = 500_000u64;
        for i in 0..n {
            let word = (i.wrapping_mul(0x9e37_79b9) & mask(39)) | 1 << 38;
            insert(&mut set, &(), Some(word));
        }
        let per_state = set.bytes() as f64 / set.len() as f64;
        assert!(per_state < 4.5, "{per_state} bytes per state");
        assert_eq!(set.len() as u64, n);
    }

    #[test]
    fn growth_is_asked_for_before_any_allocation() {
        let mut set = CompactWords::new();
        assert_eq!(set.bytes(), 0);
        let Lookup::Full(growth) = Store::<()>::insert(&mut set, &(), Some(5)) else {
            panic!("an empty set has no room");
        };
        assert_eq!(set.bytes(), 0);
        Store::<()>::grow(&mut set, growth);
        assert!(set.bytes() > 0 && set.bytes() <= growth.bytes);
        assert_eq!(Store::<()>::insert(&mut set, &(), Some(5)), Lookup::New);
    }
}
