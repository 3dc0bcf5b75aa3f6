//! [`Nodes`]: the interning table of one position of a compression tree (see
//! [`tree`](super::tree)): each distinct 64-bit key once, numbered densely in the order
//! first met (0, 1, 2...), so that a parent can name it by a 4-byte index.
//!
//! The keys sit in their number's place in chunks of 32 KiB, which a growth adds one at a
//! time (no key moves, and a growth allocates a chunk, not a copy of the array), but for the
//! first, which starts at 512 bytes and doubles to 32 KiB: most positions of a wide state's
//! tree hold few distinct nodes, and a state of 2,048 words has 4,095 positions. They are
//! found through 256 hash tables of numbers, split by the hash's bits as
//! [`states`](super::states) splits its tables, each growing on its own. A number costs its
//! 8-byte key and a 5-byte slot (4 bytes and hashbrown's control byte) at 44–88% load.

use std::mem::size_of;

use hashbrown::HashTable;

use super::states::{doubled_bytes, reserve, segment_of, segments, segments_bytes};
use super::{mix, Growth, Lookup};

/// Keys per chunk (a power of two): 32 KiB.
const CHUNK_BITS: u32 = 12;
const CHUNK: usize = 1 << CHUNK_BITS;

/// Keys in the first chunk at first (a power of two, below [`CHUNK`]).
const FIRST_CHUNK: usize = 64;

/// The most keys a table numbers: numbers stay below 2^31, so that two of them interleave
/// into a word of at most 62 bits (the tree's root word).
pub(super) const MAX_NODES: usize = 1 << 31;

/// The growth part that adds a chunk of keys (the hash tables are parts 0 to 255).
const KEYS: usize = 256;

/// The number of growth parts of a table.
pub(super) const PARTS: usize = KEYS + 1;

/// Distinct keys, densely numbered: see the [module](self).
pub(super) struct Nodes {
    chunks: Vec<Box<[u64]>>,
    len: usize,
    tables: Box<[HashTable<u32>]>,
}

/// The key numbered `number`.
#[inline(always)]
fn key_at(chunks: &[Box<[u64]>], number: u32) -> u64 {
    let number = number as usize;
    chunks[number >> CHUNK_BITS][number & (CHUNK - 1)]
}

/// The keys `chunks` have room for.
fn room(chunks: &[Box<[u64]>]) -> usize {
    match chunks {
        [] => 0,
        [first] => first.len(),
        _ => chunks.len() * CHUNK,
    }
}

/// The keys of the next growth's chunk: the first, doubled while it is short of a whole
/// chunk, else a whole one.
fn next_chunk(chunks: &[Box<[u64]>]) -> usize {
    match chunks {
        [] => FIRST_CHUNK,
        [first] if first.len() < CHUNK => 2 * first.len(),
        _ => CHUNK,
    }
}

impl Nodes {
    /// An empty table; it allocates nothing until its first growth.
    pub(super) fn new() -> Nodes {
        Nodes {
            chunks: Vec::new(),
            len: 0,
            tables: segments(),
        }
    }

    /// The keys numbered.
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// The number of `key`, if it has one.
    #[inline]
    pub(super) fn find(&self, key: u64) -> Option<u32> {
        let hash = mix(key);
        let chunks = &self.chunks;
        self.tables[segment_of(hash)]
            .find(hash, |&number| key_at(chunks, number) == key)
            .copied()
    }

    /// The number of `key`, numbering it if it is new and there is room; otherwise what
    /// must happen first: a [`Lookup::Full`] growth (of a part below [`PARTS`]), or
    /// [`Lookup::Exhausted`] at [`MAX_NODES`] keys.
    #[inline]
    pub(super) fn intern(&mut self, key: u64) -> Result<u32, Lookup> {
        let hash = mix(key);
        let part = segment_of(hash);
        let chunks = &self.chunks;
        let table = &mut self.tables[part];
        if let Some(&number) = table.find(hash, |&number| key_at(chunks, number) == key) {
            return Ok(number);
        }
        if self.len == MAX_NODES {
            return Err(Lookup::Exhausted);
        }
        if self.len == room(chunks) {
            return Err(Lookup::Full(Growth {
                bytes: next_chunk(chunks) * size_of::<u64>(),
                part: KEYS,
            }));
        }
        if table.len() == table.capacity() {
            return Err(Lookup::Full(Growth {
                bytes: doubled_bytes(table),
                part,
            }));
        }
        let number = self.len as u32;
        self.chunks[self.len >> CHUNK_BITS][self.len & (CHUNK - 1)] = key;
        self.len += 1;
        let chunks = &self.chunks;
        // There is room: the hasher (for a resize) is never called.
        self.tables[part].insert_unique(hash, number, |&n| mix(key_at(chunks, n)));
        Ok(number)
    }

    /// Allocates what an [`intern`](Self::intern) asked for.
    pub(super) fn grow(&mut self, part: usize) {
        if part == KEYS {
            let keys = next_chunk(&self.chunks);
            match self.chunks.as_mut_slice() {
                [first] if first.len() < CHUNK => {
                    let mut longer = vec![0; keys];
                    longer[..first.len()].copy_from_slice(first);
                    *first = longer.into_boxed_slice();
                }
                _ => self.chunks.push(vec![0; keys].into_boxed_slice()),
            }
        } else if let Some(table) = self.tables.get_mut(part) {
            let chunks = &self.chunks;
            reserve(table, |&number| mix(key_at(chunks, number)));
        }
    }

    /// The memory the table holds: its chunks (and their list) and its hash tables.
    pub(super) fn bytes(&self) -> usize {
        room(&self.chunks) * size_of::<u64>()
            + self.chunks.capacity() * size_of::<Box<[u64]>>()
            + segments_bytes(&self.tables)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Interns, growing whenever the table asks to.
    fn intern(nodes: &mut Nodes, key: u64) -> u32 {
        loop {
            match nodes.intern(key) {
                Ok(number) => return number,
                Err(Lookup::Full(growth)) => nodes.grow(growth.part),
                Err(other) => panic!("{other:?}"),
            }
        }
    }

    #[test]
    fn keys_are_numbered_densely_in_the_order_first_met() {
        let mut nodes = Nodes::new();
        assert_eq!(nodes.bytes(), 0);
        assert_eq!(nodes.find(7), None);
        let keys: Vec<u64> = (0..20_000u64).map(|i| mix(i) ^ u64::MAX).collect();
        for (i, &key) in keys.iter().enumerate() {
            assert_eq!(intern(&mut nodes, key), i as u32);
        }
        for (i, &key) in keys.iter().enumerate() {
            assert_eq!(nodes.find(key), Some(i as u32));
            assert_eq!(intern(&mut nodes, key), i as u32);
        }
        assert_eq!(nodes.len(), keys.len());
        assert_eq!(nodes.find(12345), None);
        // 8 bytes a key and a slot of 5 at least 44% full: under 24 bytes a key.
        assert!(nodes.bytes() < 24 * keys.len(), "{}", nodes.bytes());
    }

    #[test]
    fn a_table_of_few_keys_holds_little() {
        let mut nodes = Nodes::new();
        let chunk_lengths = |nodes: &Nodes| -> Vec<usize> {
            nodes.chunks.iter().map(|chunk| chunk.len()).collect()
        };
        for key in 0..10 {
            intern(&mut nodes, key);
        }
        assert_eq!(chunk_lengths(&nodes), [FIRST_CHUNK]);
        for key in 10..5_000 {
            intern(&mut nodes, key);
        }
        assert_eq!(chunk_lengths(&nodes), [CHUNK, CHUNK]);
        assert_eq!(
            (nodes.find(4_095), nodes.find(4_096)),
            (Some(4_095), Some(4_096))
        );
    }

    #[test]
    fn growth_is_asked_for_before_any_allocation() {
        let mut nodes = Nodes::new();
        let Err(Lookup::Full(first)) = nodes.intern(1) else {
            panic!("an empty table has no room");
        };
        assert_eq!(nodes.bytes(), 0);
        nodes.grow(first.part);
        assert!(nodes.bytes() > 0 && nodes.bytes() <= first.bytes + 64);
        let Err(Lookup::Full(second)) = nodes.intern(1) else {
            panic!("the hash table has no room yet");
        };
        assert_ne!(second.part, first.part);
        nodes.grow(second.part);
        assert_eq!(nodes.intern(1), Ok(0));
    }
}
