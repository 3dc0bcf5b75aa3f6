//! A segment of the quotient table: its size at each generation, its blocks of buckets, and
//! the insertions, lookups and moves within it.

use std::mem::size_of;
use std::ptr::NonNull;

use super::bucket::{Bucket, Shape};
use super::layout::{geometry, Divisor, Place};
use super::*;

/// The buckets of segment `index` after `generation` growths, `MIN_BUCKETS` times `GROWTH` to
/// the power `generation + index / 256`. The segments' sizes are staggered so that they grow at different times:
/// the set's load, and its bytes per state, stay near their average at every size rather
/// than dropping together by a quarter at each growth.
pub(super) fn buckets_at(index: usize, generation: u32) -> u64 {
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
pub(super) const STAGGER: [f64; SEGMENTS] = stagger();

pub(super) const fn stagger() -> [f64; SEGMENTS] {
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

/// The entries segment `index` of generation `generation` holds at [`WIDEN_LOAD_PER_1024`]
/// for words whose segment part has `bits` bits.
pub(super) fn room_at(index: usize, generation: u32, bits: u32) -> usize {
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
pub(super) const BLOCK_BITS: u32 = 10;
pub(super) const BLOCK: u64 = 1 << BLOCK_BITS;

/// Buckets per page: a segment's last block, in pages of its own, ends at the end of a
/// page.
pub(super) const PAGE_BUCKETS: u64 = (PAGE / size_of::<Bucket>()) as u64;

/// The buckets of segment `index` after `generation` growths: [`buckets_at`], rounded up
/// to whole pages, whose rest would be memory taken and not used. A small set so takes a
/// page per segment (1 MiB) at least.
pub(super) fn size_at(index: usize, generation: u32) -> u64 {
    buckets_at(index, generation).div_ceil(PAGE_BUCKETS) * PAGE_BUCKETS
}

/// The lengths of the blocks of a segment of `buckets` buckets, each with the room it has
/// in pages of its own (see [`Block::zeroed`]): a whole block's for the last, when it is
/// shorter, so that it lengthens in place.
pub(super) fn blocks_of(buckets: u64) -> impl Iterator<Item = (usize, Option<usize>)> {
    (0..buckets.div_ceil(BLOCK)).map(move |block| {
        let len = (buckets - block * BLOCK).min(BLOCK);
        (len as usize, (len < BLOCK).then_some(BLOCK as usize))
    })
}

/// The memory of a segment of `buckets` buckets: its blocks and the list of them.
pub(super) fn segment_bytes(buckets: u64) -> usize {
    blocks_of(buckets)
        .map(|(len, room)| Block::<Bucket>::bytes(len, room) + size_of::<Block<Bucket>>())
        .sum()
}

/// One segment: buckets, and the geometry they are addressed by.
pub(super) struct Segment {
    /// The first block's buckets and how many: [`Segment::bucket`] finds a bucket there
    /// (every bucket of a segment of at most one block) from the segment alone, one
    /// dependent load fewer before the bucket's own than through `blocks`, which a lookup's
    /// prefetch waits for (perf: a third of compact storage's prefetch time on the fixed
    /// philosophers N=12 was the loads of the segment's block list).
    pub(super) first: NonNull<Bucket>,
    pub(super) first_len: u64,
    /// The buckets, [`BLOCK`] to a block.
    pub(super) blocks: Box<[Block<Bucket>]>,
    /// How many.
    pub(super) buckets: u64,
    /// Values per bucket: a segment's part of a word divided by it is the home bucket.
    pub(super) range: u64,
    /// The division by `range`.
    pub(super) divisor: Divisor,
    /// The layout of an entry (remainder and choice bit) in a bucket.
    pub(super) shape: Shape,
    pub(super) used: usize,
    /// The entries at which the segment asks to grow.
    pub(super) limit: usize,
    /// Growths since the segment was made (see [`buckets_at`]).
    pub(super) generation: u32,
    /// The state of the random walk's choices.
    pub(super) seed: u64,
}

// SAFETY: `first` points into the segment's own first block, which it owns as it owns
// `blocks` (Send and Sync as a `Box<[Bucket]>` would be); it is read through `&self` and
// written through `&mut self` only.
unsafe impl Send for Segment {}
// SAFETY: as above.
unsafe impl Sync for Segment {}

impl Segment {
    /// An empty segment of `buckets` buckets for words whose segment part has `bits` bits.
    pub(super) fn new(buckets: u64, bits: u32) -> Segment {
        Segment::with_blocks(buckets, bits, Vec::new())
    }

    /// An empty segment as [`Segment::new`], in the memory of the blocks `old` where it can:
    /// a segment that grows passes its own, whose full blocks serve again as they are and
    /// whose last one lengthens in place.
    pub(super) fn with_blocks(buckets: u64, bits: u32, old: Vec<Block<Bucket>>) -> Segment {
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

    pub(super) fn bytes(&self) -> usize {
        segment_bytes(self.buckets)
    }

    /// The first generation after this segment's, of segment `index`, that has more
    /// buckets than it: rounded to whole pages, a small segment's next few may not.
    pub(super) fn next_generation(&self, index: usize) -> u32 {
        (self.generation + 1..)
            .find(|&generation| size_at(index, generation) > self.buckets)
            .unwrap_or(self.generation + 1)
    }

    /// Bucket `b`.
    #[inline(always)]
    pub(super) fn bucket(&self, b: u64) -> &Bucket {
        if b < self.first_len {
            // SAFETY: `first` points at the `first_len` buckets of the first block, which
            // the segment owns and never changes while it has them (`take_blocks`).
            return unsafe { &*self.first.as_ptr().add(b as usize) };
        }
        &self.blocks[(b >> BLOCK_BITS) as usize][(b & (BLOCK - 1)) as usize]
    }

    #[inline(always)]
    pub(super) fn bucket_mut(&mut self, b: u64) -> &mut Bucket {
        if b < self.first_len {
            // SAFETY: as in `bucket`; `&mut self` makes this the only reference to it.
            return unsafe { &mut *self.first.as_ptr().add(b as usize) };
        }
        &mut self.blocks[(b >> BLOCK_BITS) as usize][(b & (BLOCK - 1)) as usize]
    }

    /// Takes the segment's blocks, leaving it none.
    pub(super) fn take_blocks(&mut self) -> Vec<Block<Bucket>> {
        (self.first, self.first_len) = (NonNull::dangling(), 0);
        std::mem::take(&mut self.blocks).into_vec()
    }

    #[inline(always)]
    pub(super) fn place(&self, z: u64) -> Place {
        let home = self.divisor.quotient(z);
        Place {
            home,
            remainder: z - home * self.range,
        }
    }

    /// The other bucket of an entry: `home` plus 1 to `n - 1`, from the remainder.
    #[inline(always)]
    pub(super) fn alternate(&self, home: u64, remainder: u64) -> u64 {
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
    pub(super) fn home_of(&self, alt: u64, remainder: u64) -> u64 {
        let n = self.buckets;
        let offset = 1 + (((mix(remainder) >> 32) * (n - 1)) >> 32);
        if alt >= offset {
            alt - offset
        } else {
            alt + n - offset
        }
    }

    #[inline(always)]
    pub(super) fn contains(&self, place: Place) -> bool {
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
    pub(super) fn add(&mut self, place: Place) -> bool {
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
    pub(super) fn kick(&mut self, bucket: u64, entry: u64) -> bool {
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
    pub(super) fn parts(&self, out: &mut Vec<u64>) {
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
    pub(super) fn words(&self, index: usize, layout: Layout, out: &mut Vec<u64>) {
        out.clear();
        self.parts(out);
        let high = (index as u64) << layout.part_bits;
        for word in out.iter_mut() {
            *word = layout.unpermute(high | *word);
        }
    }

    /// True when the segment should grow before it takes another entry: past
    /// [`LOAD_PER_1024`], where the random walks of insertion would grow long.
    pub(super) fn is_full(&self) -> bool {
        self.used >= self.limit
    }
}
