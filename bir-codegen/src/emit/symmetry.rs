//! What symmetry reduction needs of the generated model: `Model::symmetry` (the table of
//! the groups found, [`super::tables::SymmetryTable`]), `Model::encode` (a state from its
//! decoded values), and the model type's `SYMMETRY` text, which says at compile time which
//! group was found and why not more.

use proc_macro2::TokenStream;
use quote::quote;

use super::{prim, Gen};

impl Gen<'_> {
    /// The text of the model type's `SYMMETRY` constant: one line per family.
    pub(super) fn symmetry_text(&self) -> String {
        let notes = &self.tables.symmetry.notes;
        if notes.is_empty() {
            "no family of `active [N]` threads or pool of N >= 2 instances: no symmetry".to_string()
        } else {
            notes.join("\n")
        }
    }

    /// `Model::symmetry` and `Model::encode`.
    pub(super) fn symmetry_methods(&self) -> TokenStream {
        let families = self.tables.symmetry.families.iter().map(|family| {
            let thread = &family.thread;
            let instances = family.instances;
            let (permuted, rows) = (&family.permuted, &family.rows);
            let (row_pids, pid_slots) = (&family.row_pids, &family.pid_slots);
            let (row_offsets, pid_offsets) = (&family.row_offsets, &family.pid_offsets);
            quote! {
                ::bir::model::FamilySymmetry {
                    thread: ::std::borrow::Cow::Borrowed(#thread),
                    instances: #instances,
                    permuted: ::std::borrow::Cow::Borrowed(&[#(#permuted),*]),
                    rows: ::std::borrow::Cow::Borrowed(&[#(#rows),*]),
                    row_pids: ::std::borrow::Cow::Borrowed(&[#(#row_pids),*]),
                    pid_slots: ::std::borrow::Cow::Borrowed(&[#(#pid_slots),*]),
                    row_offsets: ::std::borrow::Cow::Borrowed(&[#(#row_offsets),*]),
                    pid_offsets: ::std::borrow::Cow::Borrowed(&[#(#pid_offsets),*]),
                }
            }
        });
        let notes = &self.tables.symmetry.notes;
        let state = &self.state;
        let slots = self.tables.slots.len();
        let zero = if self.layout.words == 1 {
            quote!(0)
        } else {
            let words = self.layout.words as usize;
            quote!([0; #words])
        };
        let mut slot = 0usize;
        let sets = self.layout.fields.iter().map(|field| {
            let (_, set) = self.accessor_names(field.owner);
            let first = slot;
            slot += field.elements as usize;
            if field.is_array {
                let len = field.elements as usize;
                quote! {
                    for index in 0..#len {
                        state.#set(index, values[#first + index]);
                    }
                }
            } else {
                quote!(state.#set(values[#first]);)
            }
        });
        let i64 = prim("i64");
        quote! {
            fn symmetry(&self) -> ::core::option::Option<&::bir::model::SymmetryInfo> {
                static SYMMETRY: ::bir::model::SymmetryInfo = ::bir::model::SymmetryInfo {
                    families: ::std::borrow::Cow::Borrowed(&[#(#families),*]),
                    notes: ::std::borrow::Cow::Borrowed(&[
                        #(::std::borrow::Cow::Borrowed(#notes)),*
                    ]),
                };
                ::core::option::Option::Some(&SYMMETRY)
            }

            fn encode(&self, values: &[#i64]) -> ::core::option::Option<#state> {
                if values.len() != #slots {
                    return ::core::option::Option::None;
                }
                let mut state = #state(#zero);
                #(#sets)*
                ::core::option::Option::Some(state)
            }
        }
    }
}
