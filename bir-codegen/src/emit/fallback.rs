//! The expansion of a model with errors: the errors, plus a stub of the system's type
//! with the same API, so that user code naming it (`Name::checker().run()`) compiles and
//! the user sees only the errors in the model, not a cascade of "cannot find type". The
//! stub is defined as the real model is (see `hygiene`).

use proc_macro2::{Ident, TokenStream, TokenTree};
use quote::quote;

use super::hygiene;
use crate::diag::Diagnostics;

/// The errors as `compile_error!`s, and a stub model if the system's name can be found.
pub(crate) fn expand(input: &TokenStream, diags: &Diagnostics) -> TokenStream {
    let errors = diags.to_compile_errors();
    let Some(model) = system_name(input) else {
        return errors;
    };
    let module = hygiene::hidden_module(&model, input);
    let stub = stub(&model);
    quote! {
        #errors

        #[allow(non_snake_case)]
        mod #module {
            #stub
        }
        #[allow(unused_imports)]
        pub use #module::#model;
    }
}

/// The stub model: the type, `checker()`, and a `Model` implementation that is never run.
fn stub(model: &Ident) -> TokenStream {
    quote! {
        /// Stub of a BIR system with errors.
        #[derive(
            ::core::clone::Clone,
            ::core::marker::Copy,
            ::core::fmt::Debug,
            ::core::default::Default,
            ::core::cmp::PartialEq,
            ::core::cmp::Eq,
            ::core::hash::Hash
        )]
        pub struct #model;

        impl #model {
            /// Stub: the system has errors.
            pub fn checker() -> ::bir::Checker<#model> {
                ::bir::Checker::new(#model)
            }
        }

        #[allow(unused)]
        const _: () = {
            #[automatically_derived]
            impl ::bir::Model for #model {
                type State = ();
                fn info(&self) -> &::bir::model::ModelInfo {
                    ::core::unreachable!("the BIR system has compile errors")
                }
                fn initial_state(&self) {}
                fn successors(&self, _: &(), _: &mut ::std::vec::Vec<::bir::model::Successor<()>>) {}
                fn check_invariants(&self, _: &()) -> ::core::result::Result<(), ::bir::model::InvariantFailure> {
                    ::core::result::Result::Ok(())
                }
                fn is_end_state(&self, _: &()) -> ::core::primitive::bool {
                    true
                }
                fn decode(&self, _: &(), _: &mut ::std::vec::Vec<::core::primitive::i64>) {}
            }
        };
    }
}

/// The identifier after `system` at the top level of the input, if it is a valid Rust
/// type name.
fn system_name(input: &TokenStream) -> Option<Ident> {
    let mut tokens = input.clone().into_iter();
    while let Some(token) = tokens.next() {
        if let TokenTree::Ident(ident) = &token {
            if ident == "system" {
                return match tokens.next() {
                    Some(TokenTree::Ident(name)) => syn::parse2::<Ident>(quote!(#name)).ok(),
                    _ => None,
                };
            }
        }
    }
    None
}
