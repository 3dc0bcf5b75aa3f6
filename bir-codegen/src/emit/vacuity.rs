//! `Model::atoms_info` and `Model::atoms`: the invariant atoms tracked for vacuity, as a
//! table and as one function evaluating them all on a state (called once per stored
//! state, and only for models that have atoms).

use proc_macro2::TokenStream;
use quote::quote;

use super::{lit_u32, prim, Gen};

impl Gen<'_> {
    /// The table of atoms and the two `Model` methods; nothing for a model without atoms.
    pub(super) fn vacuity(&self) -> (TokenStream, TokenStream) {
        if self.code.atoms.is_empty() {
            return (TokenStream::new(), TokenStream::new());
        }
        let state_type = &self.state;
        let (bool, u64) = (prim("bool"), prim("u64"));
        let count = self.tables.atoms.len();
        let rows = self.tables.atoms.iter().map(|(invariant, text)| {
            let invariant = lit_u32(*invariant);
            quote! {
                ::bir::model::AtomInfo {
                    invariant: #invariant,
                    text: ::std::borrow::Cow::Borrowed(#text),
                }
            }
        });
        let state = self.printer("state");
        let tests = self
            .code
            .atoms
            .iter()
            .enumerate()
            .map(|(bit, (holds, fails))| {
                let bit = lit_u32(bit as u32);
                let tests = [(holds, 0usize), (fails, 1usize)].map(|(expr, set)| {
                    let expr = state.expr(expr);
                    quote! {
                        // An atom whose evaluation faults is left out.
                        if let ::core::result::Result::Ok(true) =
                            (|| -> ::core::result::Result<#bool, ::bir::model::Fault> {
                                ::core::result::Result::Ok(#expr)
                            })()
                        {
                            bits[#set] |= 1 << #bit;
                        }
                    }
                });
                quote!(#(#tests)*)
            });
        let statics = quote! {
            /// The invariant atoms tracked for vacuity.
            static ATOMS: [::bir::model::AtomInfo; #count] = [#(#rows),*];
        };
        let methods = quote! {
            fn atoms_info(&self) -> &[::bir::model::AtomInfo] {
                &ATOMS
            }

            fn atoms(&self, state: &#state_type) -> [#u64; 2] {
                let mut bits: [#u64; 2] = [0, 0];
                #(#tests)*
                bits
            }
        };
        (statics, methods)
    }
}
