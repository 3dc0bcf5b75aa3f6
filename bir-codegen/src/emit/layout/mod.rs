//! The bit layout of a state: every stored value at its exact width
//! (⌈log2(number of values)⌉ bits, stored as `value - lo`), packed into the smallest
//! unsigned integer that holds them all, or into `u64` words for wide models.
//!
//! No value ever straddles two words: an array whose elements fit in one word together is
//! placed contiguously; a longer array puts `64 / width` elements in each of its own words,
//! so any element is one shift and one mask away. Fields are packed first-fit in
//! decreasing size, which keeps wide states close to the minimum number of words.

use crate::ir::{self, Owner, Scalar};

/// Where a field's elements lie.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    /// All elements side by side in one word, element `i` at `shift + i * width`.
    Packed {
        /// The word.
        word: u32,
        /// Bit offset of element 0.
        shift: u32,
    },
    /// `per_word` elements in each word from `first_word` on, element `i` in word
    /// `first_word + i / per_word` at bit `(i % per_word) * width`.
    Spread {
        /// The first word.
        first_word: u32,
        /// Elements per word.
        per_word: u32,
    },
}

/// One stored variable (scalar or array) or status.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    /// What it stores.
    pub owner: Owner,
    /// Bits per element.
    pub width: u32,
    /// The value stored as 0 (the domain's lower bound).
    pub offset: i64,
    /// Number of elements (1 for scalars and statuses).
    pub elements: u32,
    /// Whether the variable is an array (even of length 1).
    pub is_array: bool,
    /// The domain of each element.
    pub scalar: Scalar,
    /// Where it lies.
    pub placement: Placement,
}

impl Field {
    /// The word and bit offset of element `i`.
    pub fn locate(&self, i: u32) -> (u32, u32) {
        match self.placement {
            Placement::Packed { word, shift } => (word, shift + i * self.width),
            Placement::Spread {
                first_word,
                per_word,
            } => (first_word + i / per_word, (i % per_word) * self.width),
        }
    }

    /// The mask of one element's bits, unshifted.
    pub fn mask(&self) -> u64 {
        if self.width == 64 {
            u64::MAX
        } else {
            (1u64 << self.width) - 1
        }
    }
}

/// The layout of a whole state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Every field, in slot order: globals, then for each instance its status and locals.
    pub fields: Vec<Field>,
    /// Bits of the storage word: 8, 16, 32 or 64.
    pub word_bits: u32,
    /// Number of storage words (1 unless the state needs more than 64 bits).
    pub words: u32,
    /// Bits actually used by values.
    pub used_bits: u32,
}

impl Layout {
    /// Lays out every value of `system`.
    pub fn new(system: &ir::System) -> Layout {
        let mut fields = Vec::new();
        for (id, var) in system.globals.iter_enumerated() {
            fields.push(field(Owner::Global(id), var.ty, &system.enums));
        }
        for (thread_id, thread) in system.threads.iter_enumerated() {
            for instance in thread.instance_ids() {
                let status_values = thread.status_count();
                fields.push(Field {
                    owner: Owner::Status {
                        thread: thread_id,
                        instance,
                    },
                    width: ir::bits_for(status_values),
                    offset: 0,
                    elements: 1,
                    is_array: false,
                    scalar: Scalar::Int {
                        lo: 0,
                        hi: status_values as i64 - 1,
                        wrap: false,
                    },
                    placement: Placement::Packed { word: 0, shift: 0 },
                });
                for (local, var) in thread.locals.iter_enumerated() {
                    let owner = Owner::Local {
                        thread: thread_id,
                        instance,
                        local,
                    };
                    fields.push(field(owner, var.ty, &system.enums));
                }
            }
        }
        let used_bits: u32 = fields.iter().map(|f| f.width * f.elements).sum();
        let (word_bits, words) = if used_bits <= 64 {
            pack_one_word(&mut fields);
            (storage_bits(used_bits), 1)
        } else {
            (64, pack_words(&mut fields))
        };
        Layout {
            fields,
            word_bits,
            words,
            used_bits,
        }
    }

    /// The field storing `owner`.
    pub fn field(&self, owner: Owner) -> &Field {
        self.fields
            .iter()
            .find(|field| field.owner == owner)
            .unwrap_or_else(|| panic!("no field for {owner:?}"))
    }

    /// Bytes of one stored state.
    pub fn state_bytes(&self) -> u32 {
        self.words * self.word_bits / 8
    }

    /// Packs `values` (one per element of each field, in field order) into words.
    pub fn pack(&self, values: &[Vec<i64>]) -> Vec<u64> {
        let mut words = vec![0u64; self.words as usize];
        for (field, values) in self.fields.iter().zip(values) {
            for (i, value) in values.iter().enumerate() {
                let (word, shift) = field.locate(i as u32);
                if field.width > 0 {
                    words[word as usize] |= ((value - field.offset) as u64 & field.mask()) << shift;
                }
            }
        }
        words
    }
}

fn field(owner: Owner, ty: ir::Ty, enums: &ir::IdVec<ir::EnumId, ir::Enum>) -> Field {
    Field {
        owner,
        width: ty.scalar.width(enums),
        offset: ty.scalar.bounds(enums).0,
        elements: ty.elements(),
        is_array: ty.len.is_some(),
        scalar: ty.scalar,
        placement: Placement::Packed { word: 0, shift: 0 },
    }
}

/// The smallest unsigned integer holding `bits`.
fn storage_bits(bits: u32) -> u32 {
    match bits {
        0..=8 => 8,
        9..=16 => 16,
        17..=32 => 32,
        _ => 64,
    }
}

/// Everything fits in one word: place the fields side by side in order.
fn pack_one_word(fields: &mut [Field]) {
    let mut shift = 0;
    for field in fields {
        field.placement = Placement::Packed { word: 0, shift };
        shift += field.width * field.elements;
    }
}

/// First-fit decreasing over 64-bit words; returns the number of words used.
fn pack_words(fields: &mut [Field]) -> u32 {
    let mut free: Vec<u32> = Vec::new();
    let mut order: Vec<usize> = (0..fields.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(fields[i].width * fields[i].elements));
    for i in order {
        let field = &mut fields[i];
        let bits = field.width * field.elements;
        if bits == 0 {
            field.placement = Placement::Packed { word: 0, shift: 0 };
        } else if bits <= 64 {
            let word = match free.iter().position(|&f| f >= bits) {
                Some(word) => word,
                None => {
                    free.push(64);
                    free.len() - 1
                }
            };
            field.placement = Placement::Packed {
                word: word as u32,
                shift: 64 - free[word],
            };
            free[word] -= bits;
        } else {
            let per_word = 64 / field.width;
            let full_words = field.elements / per_word;
            let rest = field.elements % per_word;
            let first_word = free.len() as u32;
            field.placement = Placement::Spread {
                first_word,
                per_word,
            };
            free.extend(std::iter::repeat_n(0, full_words as usize));
            if rest > 0 {
                free.push(64 - rest * field.width);
            }
        }
    }
    free.len().max(1) as u32
}

#[cfg(test)]
mod tests;
