//! The packed state type and its accessors: one `get_*`/`set_*` pair per field, with the
//! constant shifts and masks of the layout.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::{lit_i64, lit_u32, lit_u64, Gen};
use crate::ir::Owner;
use crate::layout::{Field, Placement};

impl Gen<'_> {
    /// The Rust type each storage word has.
    pub(super) fn word_type(&self) -> TokenStream {
        match self.layout.word_bits {
            8 => quote!(u8),
            16 => quote!(u16),
            32 => quote!(u32),
            _ => quote!(u64),
        }
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

    /// The storage literal of the initial state.
    pub(super) fn initial_storage(&self) -> TokenStream {
        let words = self.layout.pack(&self.initial_values());
        let word = self.word_type();
        if self.layout.words == 1 {
            let value = lit_u64(words[0]);
            quote!(#value as #word)
        } else {
            let values = words.iter().map(|w| lit_u64(*w));
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

    fn field_accessors(&self, field: &Field) -> TokenStream {
        let (get, set) = self.accessor_names(field.owner);
        let offset = lit_i64(field.offset);
        if field.width == 0 {
            let index = field.is_array.then(|| quote!(_index: usize));
            let comma = field.is_array.then(|| quote!(,));
            return quote! {
                #[inline(always)]
                fn #get(&self #comma #index) -> i64 { #offset }
                #[inline(always)]
                fn #set(&mut self #comma #index, _value: i64) {}
            };
        }
        let mask = lit_u64(field.mask());
        let (word, shift) = match (field.is_array, field.placement) {
            (false, _) => {
                let (word, shift) = field.locate(0);
                let word = word as usize;
                (self.word_index(quote!(#word)), lit_u32(shift))
            }
            (true, Placement::Packed { word, shift }) => {
                let word = word as usize;
                let width = lit_u32(field.width);
                let shift = lit_u32(shift);
                (
                    self.word_index(quote!(#word)),
                    quote!((#shift + index as u32 * #width)),
                )
            }
            (
                true,
                Placement::Spread {
                    first_word,
                    per_word,
                },
            ) => {
                let width = lit_u32(field.width);
                let first = first_word as usize;
                let per_word_usize = per_word as usize;
                let per_word = lit_u32(per_word);
                (
                    self.word_index(quote!(#first + index / #per_word_usize)),
                    quote!(((index as u32 % #per_word) * #width)),
                )
            }
        };
        let index = field.is_array.then(|| quote!(, index: usize));
        let word_type = self.word_type();
        quote! {
            #[inline(always)]
            fn #get(&self #index) -> i64 {
                ((#word as u64 >> #shift) & #mask) as i64 + #offset
            }
            #[inline(always)]
            fn #set(&mut self #index, value: i64) {
                let shift = #shift;
                let bits = ((value - #offset) as u64 & #mask) << shift;
                #word = ((#word as u64 & !(#mask << shift)) | bits) as #word_type;
            }
        }
    }

    /// The place of word `index` in `self`.
    fn word_index(&self, index: TokenStream) -> TokenStream {
        if self.layout.words == 1 {
            quote!(self.0)
        } else {
            quote!(self.0[#index])
        }
    }

    /// The names of a field's getter and setter.
    pub(super) fn accessor_names(&self, owner: Owner) -> (syn::Ident, syn::Ident) {
        let stem = match owner {
            Owner::Global(id) => format!("g_{}", self.system.globals[id].name),
            Owner::Status { instance, .. } => format!("s{instance}"),
            Owner::Local {
                thread,
                instance,
                local,
            } => format!(
                "l{instance}_{}",
                self.system.threads[thread].locals[local].name
            ),
        };
        (format_ident!("get_{}", stem), format_ident!("set_{}", stem))
    }
}
