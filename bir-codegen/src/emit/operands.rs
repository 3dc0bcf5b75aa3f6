//! `Model::operands`: what a failing check read, computed only when a counterexample is
//! built. Per invariant, its condition again, each read recorded; per transition with an
//! `assert`, its statements again up to the failing assertion (so that each value is the
//! one the assertion saw), then the assertion's condition, each read recorded. The hot
//! successor and invariant functions are untouched.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::{lit_u32, Gen};
use crate::lower::Stmt;

impl Gen<'_> {
    /// The functions computing operands, and the `Model::operands` method calling them;
    /// nothing for a model with neither an invariant nor an `assert`.
    pub(super) fn operands(&self) -> (TokenStream, TokenStream) {
        let state_type = &self.state;
        let signature_tail = quote! {
            out: &mut ::std::vec::Vec<::bir::model::Operand>,
        };
        let mut functions = Vec::new();
        let mut arms = Vec::new();
        for (id, cond) in self.code.invariants.iter().enumerate() {
            let function = format_ident!("invariant{}_operands", id);
            let cond = self.recorder("state").expr(cond);
            functions.push(quote! {
                #[inline(never)]
                fn #function(state: &#state_type, #signature_tail)
                    -> ::core::result::Result<(), ::bir::model::Fault> {
                    let _ = #cond;
                    ::core::result::Result::Ok(())
                }
            });
            let id = lit_u32(id as u32);
            arms.push(quote!(::bir::model::FailedCheck::Invariant(#id) => #function(state, out),));
        }
        for (id, t) in self.code.transitions.iter().enumerate() {
            let Some(last) = t
                .body
                .iter()
                .rposition(|stmt| matches!(stmt, Stmt::Assert { .. }))
            else {
                continue;
            };
            let next = self.printer("next");
            let stmts = t.body[..=last].iter().map(|stmt| match stmt {
                Stmt::Assert { fails, site } => {
                    let fails = self.recorder("next").expr(fails);
                    let site = lit_u32(site.0);
                    quote! {
                        if site == #site {
                            let _ = #fails;
                            return ::core::result::Result::Ok(());
                        }
                    }
                }
                // The step passed every `assume` before its failing assertion.
                Stmt::Assume(_) => TokenStream::new(),
                other => self.stmt(&next, other),
            });
            let function = format_ident!("t{}_operands", id);
            functions.push(quote! {
                #[inline(never)]
                fn #function(state: &#state_type, site: ::core::primitive::u32, #signature_tail)
                    -> ::core::result::Result<(), ::bir::model::Fault> {
                    let mut next = *state;
                    #(#stmts)*
                    ::core::result::Result::Ok(())
                }
            });
            let id = lit_u32(id as u32);
            arms.push(quote! {
                ::bir::model::FailedCheck::Assertion { transition: #id, site } => #function(state, site, out),
            });
        }
        if arms.is_empty() {
            return (TokenStream::new(), TokenStream::new());
        }
        let method = quote! {
            fn operands(&self, state: &#state_type, check: ::bir::model::FailedCheck, #signature_tail) {
                // A fault ends the evaluation: what was read up to there is what the check saw.
                let _ = match check {
                    #(#arms)*
                    _ => ::core::result::Result::Ok(()),
                };
            }
        };
        (quote!(#(#functions)*), method)
    }
}
