//! The successor function: for each instance a `match` on its status with one arm per
//! location, calling one function per transition (guard, statements, status) as lowered.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::expr::ExprPrinter;
use super::{lit_i64, lit_u32, Gen};
use crate::ir::Owner;
use crate::lower::{Stmt, Stored, Transition};

impl Gen<'_> {
    /// The body of `Model::successors`.
    pub(super) fn successors_body(&self) -> TokenStream {
        let instances = self.code.dispatch.iter().map(|dispatch| {
            let arms = dispatch.arms.iter().map(|(location, ids)| {
                let calls = ids.iter().map(|id| {
                    let function = format_ident!("t{}", id);
                    let id = lit_u32(*id);
                    quote!(::bir::__private::push(out, #id, #function(state));)
                });
                let location = lit_i64(i64::from(location.0));
                quote!(#location => { #(#calls)* })
            });
            let (get, _) = self.accessor_names(dispatch.status);
            quote! {
                match state.#get() {
                    #(#arms)*
                    _ => {}
                }
            }
        });
        quote!(#(#instances)*)
    }

    /// One function per transition.
    pub(super) fn transition_functions(&self) -> TokenStream {
        self.code
            .transitions
            .iter()
            .enumerate()
            .map(|(id, t)| self.transition_function(id, t))
            .collect()
    }

    fn transition_function(&self, id: usize, t: &Transition) -> TokenStream {
        let state_type = &self.state;
        let function = format_ident!("t{}", id);
        let guard = t.guard.as_ref().map(|guard| {
            let guard = self.printer("state").expr(guard);
            quote! {
                if !#guard { return ::core::result::Result::Ok(::core::option::Option::None); }
            }
        });
        let next = self.printer("next");
        let body = t.body.iter().map(|stmt| self.stmt(&next, stmt));
        let thread = &self.system.threads[t.thread];
        let transform = &thread.transforms[t.transform];
        let doc = format!(
            "{} {}: {}",
            thread.instance_name(thread.index_of(t.instance)),
            thread.locations[transform.location].name,
            transform.text
        );
        quote! {
            #[doc = #doc]
            #[inline(always)]
            fn #function(state: &#state_type) -> ::core::result::Result<::core::option::Option<#state_type>, ::bir::Fault> {
                #guard
                let mut next = *state;
                #(#body)*
                ::core::result::Result::Ok(::core::option::Option::Some(next))
            }
        }
    }

    /// A printer of expressions reading the state variable `state`.
    pub(super) fn printer(&self, state: &str) -> ExprPrinter<'_, '_> {
        ExprPrinter {
            gen: self,
            state: format_ident!("{}", state),
        }
    }

    fn stmt(&self, next: &ExprPrinter, stmt: &Stmt) -> TokenStream {
        match stmt {
            Stmt::Store {
                target,
                element,
                value,
            } => {
                let (_, set) = self.accessor_names(*target);
                let element = element.as_ref().map(|index| next.index(index));
                let stored = self.stored(next, value);
                match element {
                    Some(element) => quote! {
                        let element: usize = #element;
                        let value: i64 = #stored;
                        next.#set(element, value);
                    },
                    None => quote! {
                        let value: i64 = #stored;
                        next.#set(value);
                    },
                }
            }
            Stmt::Assert { cond, site } => {
                let cond = next.expr(cond);
                let site = lit_u32(site.0);
                quote! {
                    if !#cond {
                        return ::core::result::Result::Err(::bir::Fault { site: #site, value: 0 });
                    }
                }
            }
            Stmt::Assume(cond) => {
                let cond = next.expr(cond);
                quote! {
                    if !#cond { return ::core::result::Result::Ok(::core::option::Option::None); }
                }
            }
            Stmt::Start {
                status,
                not_started,
                site,
                argument,
            } => {
                let get_status = next.get(*status);
                let not_started = lit_i64(*not_started);
                let site = lit_u32(site.0);
                let argument = argument.as_ref().map(|(param, value)| {
                    let value = self.stored(next, value);
                    let (_, set) = self.accessor_names(*param);
                    quote! {
                        let argument: i64 = #value;
                        next.#set(argument);
                    }
                });
                let go = self.set_status(*status, 0);
                quote! {
                    if #get_status != #not_started {
                        return ::core::result::Result::Err(::bir::Fault { site: #site, value: 0 });
                    }
                    #argument
                    #go
                }
            }
            Stmt::SetStatus { status, value } => self.set_status(*status, *value),
        }
    }

    fn set_status(&self, status: Owner, value: i64) -> TokenStream {
        let (_, set) = self.accessor_names(status);
        let value = lit_i64(value);
        quote!(next.#set(#value);)
    }

    /// A value as stored in its variable: as is, wrapped or range-checked.
    fn stored(&self, next: &ExprPrinter, stored: &Stored) -> TokenStream {
        match stored {
            Stored::Plain(value) => next.expr(value),
            Stored::Wrap { value, lo, hi } => {
                let value = next.expr(value);
                let (lo, hi) = (lit_i64(*lo), lit_i64(*hi));
                quote!(::bir::__private::wrap(#value, #lo, #hi))
            }
            Stored::InRange {
                value,
                lo,
                hi,
                site,
            } => {
                let value = next.expr(value);
                let (lo, hi) = (lit_i64(*lo), lit_i64(*hi));
                let site = lit_u32(site.0);
                quote!(::bir::__private::in_range(#value, #lo, #hi, #site)?)
            }
        }
    }
}
