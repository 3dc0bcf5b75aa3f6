//! The packed state type and its accessors: one `get_*`/`set_*` pair per field, with the
//! constant shifts and masks of the layout.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::layout::{Field, Placement};
use super::{lit_i64, lit_u32, prim, Gen};
use crate::ir::Owner;

impl Gen<'_> {
    /// The Rust type each storage word has.
    pub(super) fn word_type(&self) -> TokenStream {
        prim(match self.layout.word_bits {
            8 => "u8",
            16 => "u16",
            32 => "u32",
            _ => "u64",
        })
    }

    /// A literal of the storage word's type, in hexadecimal with its digits in groups of
    /// four (a mask or a word reads best so).
    fn word_literal(&self, value: u64) -> TokenStream {
        let digits = format!("{value:x}");
        let mut grouped = String::new();
        for (i, digit) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i) % 4 == 0 {
                grouped.push('_');
            }
            grouped.push(digit);
        }
        let text = format!("0x{grouped}u{}", self.layout.word_bits);
        text.parse()
            .unwrap_or_else(|_| panic!("{text} is a valid literal"))
    }

    /// The storage of the state: one integer, or an array of `u64` words.
    pub(super) fn storage_type(&self) -> TokenStream {
        let word = self.word_type();
        if self.layout.words == 1 {
            word
        } else {
            let words = self.layout.words as usize;
            quote!([#word; #words])
        }
    }

    /// The equality of states: derived for one word; for several, the words' differences
    /// ORed together, compared once (branch-free and inline, where a derived comparison of an
    /// array calls `memcmp`: the seen set compares a state with every candidate slot).
    /// The hash stays the derived one. Returns the derives to add and the impls to write.
    pub(super) fn state_equality(&self) -> (TokenStream, TokenStream) {
        if self.layout.words == 1 {
            return (
                quote!(::core::cmp::PartialEq, ::core::cmp::Eq, ::core::hash::Hash),
                quote!(),
            );
        }
        let state = &self.state;
        let differences =
            (0..self.layout.words as usize).map(|word| quote!((self.0[#word] ^ other.0[#word])));
        let impls = quote! {
            impl ::core::cmp::PartialEq for #state {
                #[inline(always)]
                fn eq(&self, other: &Self) -> ::core::primitive::bool {
                    (#(#differences)|*) == 0
                }
            }
            impl ::core::cmp::Eq for #state {}
            // The derived hash, written out: Clippy asks that a hash beside a hand-written
            // equality be hand-written too.
            impl ::core::hash::Hash for #state {
                #[inline]
                fn hash<H: ::core::hash::Hasher>(&self, hasher: &mut H) {
                    ::core::hash::Hash::hash(&self.0, hasher);
                }
            }
        };
        (quote!(), impls)
    }

    /// The storage literal of the initial state.
    pub(super) fn initial_storage(&self) -> TokenStream {
        let words = self.layout.pack(&self.initial_values());
        if self.layout.words == 1 {
            self.word_literal(words[0])
        } else {
            let values = words.iter().map(|w| self.word_literal(*w));
            quote!([#(#values),*])
        }
    }

    /// The initial value of every element of every field, in field order.
    fn initial_values(&self) -> Vec<Vec<i64>> {
        self.tables
            .fields
            .iter()
            .map(|field| field.initial.clone())
            .collect()
    }

    /// The accessor methods of every field.
    pub(super) fn accessors(&self) -> TokenStream {
        self.layout
            .fields
            .iter()
            .map(|field| self.field_accessors(field))
            .collect()
    }

    /// A field's getter and setter. A stored value is `value - offset` in `width` bits at
    /// `shift` in its word; the setter is only ever given values of the field's domain, so
    /// that the bits it writes need no mask.
    fn field_accessors(&self, field: &Field) -> TokenStream {
        let (get, set) = self.accessor_names(field.owner);
        let (i64, u32, usize) = (prim("i64"), prim("u32"), prim("usize"));
        let index = field.is_array.then(|| quote!(, index: #usize));
        if field.width == 0 {
            let offset = lit_i64(field.offset);
            let index = field.is_array.then(|| quote!(, _index: #usize));
            return quote! {
                #[inline(always)]
                fn #get(&self #index) -> #i64 {
                    #offset
                }
                #[inline(always)]
                fn #set(&mut self #index, _value: #i64) {}
            };
        }
        let word_type = self.word_type();
        let mask = self.word_literal(field.mask());
        let times_width = (field.width > 1).then(|| {
            let width = lit_u32(field.width);
            quote!(* #width)
        });
        // The word, the shift (`None` for 0, a `let` for a computed one), and whether the
        // bits above the field are zero in the word (no mask is needed to read it).
        let (word, shift, top) = match (field.is_array, field.placement) {
            (false, _) => {
                let (word, shift) = field.locate(0);
                let word = self.word_index(word as usize, None);
                let top = shift + field.width == self.layout.word_bits;
                (word, (shift > 0).then(|| lit_u32(shift)), top)
            }
            (true, Placement::Packed { word, shift }) => {
                let first = (shift > 0).then(|| {
                    let shift = lit_u32(shift);
                    quote!(#shift +)
                });
                let word = self.word_index(word as usize, None);
                (word, Some(quote!(#first index as #u32 #times_width)), false)
            }
            (
                true,
                Placement::Spread {
                    first_word,
                    per_word,
                },
            ) => {
                let per_word_usize = per_word as usize;
                let word =
                    self.word_index(first_word as usize, Some(quote!(index / #per_word_usize)));
                let per_word = lit_u32(per_word);
                let within = if times_width.is_some() {
                    quote!((index as #u32 % #per_word) #times_width)
                } else {
                    quote!(index as #u32 % #per_word)
                };
                (word, Some(within), false)
            }
        };
        let computed = field.is_array;
        let shift_by = if computed {
            Some(quote!(shift))
        } else {
            shift.clone()
        };
        let let_shift = computed.then(|| quote!(let shift = #shift;));
        let bits = match &shift_by {
            Some(shift) => quote!((#word >> #shift)),
            None => word.clone(),
        };
        let bits = if top { bits } else { quote!((#bits & #mask)) };
        let offset = match field.offset {
            0 => TokenStream::new(),
            o if o < 0 => {
                let o = lit_i64(-o);
                quote!(- #o)
            }
            o => {
                let o = lit_i64(o);
                quote!(+ #o)
            }
        };
        let stored = match field.offset {
            0 => quote!(value),
            o if o < 0 => {
                let o = lit_i64(-o);
                quote!((value + #o))
            }
            o => {
                let o = lit_i64(o);
                quote!((value - #o))
            }
        };
        let written = match &shift_by {
            Some(shift) => quote!(((#stored as #word_type) << #shift)),
            None => quote!((#stored as #word_type)),
        };
        let cleared = if computed {
            quote!((#word & !(#mask << shift)))
        } else {
            let (_, at) = field.locate(0);
            let clear = self.word_literal(!(field.mask() << at) & self.word_mask());
            quote!((#word & #clear))
        };
        quote! {
            #[inline(always)]
            fn #get(&self #index) -> #i64 {
                #let_shift
                #bits as #i64 #offset
            }
            #[inline(always)]
            fn #set(&mut self #index, value: #i64) {
                #let_shift
                #word = #cleared | #written;
            }
        }
    }

    /// Every bit of a storage word.
    fn word_mask(&self) -> u64 {
        if self.layout.word_bits == 64 {
            u64::MAX
        } else {
            (1 << self.layout.word_bits) - 1
        }
    }

    /// The place of word `first` (plus `offset`, an expression) in `self`.
    fn word_index(&self, first: usize, offset: Option<TokenStream>) -> TokenStream {
        match (self.layout.words, offset) {
            (1, None) => quote!(self.0),
            (_, None) => quote!(self.0[#first]),
            (_, Some(offset)) if first == 0 => quote!(self.0[#offset]),
            (_, Some(offset)) => quote!(self.0[#first + #offset]),
        }
    }

    /// The names of a field's getter and setter.
    pub(super) fn accessor_names(&self, owner: Owner) -> (syn::Ident, syn::Ident) {
        let stem = match owner {
            Owner::Global(id) => format!("g_{}", plain(&self.system.globals[id].name, id.0)),
            Owner::Status { instance, .. } => format!("s{instance}"),
            Owner::Local {
                thread,
                instance,
                local,
            } => format!(
                "l{instance}_{}",
                plain(&self.system.threads[thread].locals[local].name, local.0)
            ),
        };
        (format_ident!("get_{}", stem), format_ident!("set_{}", stem))
    }
}

/// A variable's name as part of an accessor's: the name itself when it is an identifier,
/// else (the hidden state of channels and locks, the locals of a call's frame: `len(c)`,
/// `f@1.x`) its id and the name's letters, which start with a digit and so are no name of
/// the model's.
fn plain(name: &str, id: u32) -> String {
    if name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return name.to_string();
    }
    let letters: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    format!("{id}_{letters}")
}
