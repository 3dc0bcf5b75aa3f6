//! The successor function: for each instance a `match` on its status with one arm per
//! location, calling one function per transition (guard, statements, status) as lowered.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::expr::ExprPrinter;
use super::{doc, lit_i64, lit_u32, Gen};
use crate::ir::Owner;
use crate::lower::{Expr, Stmt, Stored, Transition};

/// The most transitions whose functions are inlined into the successor function. Inlining
/// lets the compiler share a state's loads across its transitions, 5–15% of a search's
/// time, but the optimiser's time grows faster than the function: Peterson's filter's
/// checker (`bir check`, release) built in 7.1 s with 150 transitions inlined and 6.7 s
/// with none, 10.9 and 9.2 s with 300, 45 and 10 s with 600, over 300 and 21 s with 1,500.
const MOST_INLINED_TRANSITIONS: usize = 256;

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
        let thread = &self.system.threads[t.thread];
        let transform = &thread.transforms[t.transform];
        let partner = t.partner.map_or(String::new(), |(other, instance, id)| {
            let receiver = &self.system.threads[other];
            format!(
                ", with `{}` at `{}`: `{}`",
                receiver.instance_name(receiver.index_of(instance)),
                receiver.locations[receiver.transforms[id].location].name,
                receiver.transforms[id].text
            )
        });
        let doc = doc(&format!(
            "Transition {id}: `{}` at `{}`, line {}: `{}`{partner}",
            thread.instance_name(thread.index_of(t.instance)),
            thread.locations[transform.location].name,
            transform.line,
            transform.text
        ));
        let body = match &t.disabled {
            // The guard is false: the transition is never enabled.
            Some(Expr::Bool(true)) => {
                quote!(::core::result::Result::Ok(::core::option::Option::None))
            }
            disabled => {
                let disabled = disabled.as_ref().map(|disabled| {
                    let disabled = self.printer("state").condition(disabled);
                    quote! {
                        if #disabled {
                            return ::core::result::Result::Ok(::core::option::Option::None);
                        }
                    }
                });
                let next = self.printer("next");
                let walk = self.heap_walk(id);
                match t.quiet {
                    None => {
                        let stmts = t.body.iter().map(|stmt| self.stmt(&next, stmt));
                        quote! {
                            #disabled
                            let mut next = *state;
                            #(#stmts)*
                            #walk
                            ::core::result::Result::Ok(::core::option::Option::Some(next))
                        }
                    }
                    // An outcome of a step with several: a fault before the outcomes part
                    // discards it (the first outcome reports the fault).
                    Some(quiet) => {
                        let (before, after) = t.body.split_at(quiet.min(t.body.len()));
                        let before = before.iter().map(|stmt| self.stmt(&next, stmt));
                        let after = after.iter().map(|stmt| self.stmt(&next, stmt));
                        quote! {
                            let shared = (|| -> ::core::result::Result<
                                ::core::option::Option<#state_type>,
                                ::bir::model::Fault,
                            > {
                                #disabled
                                #[allow(unused_mut)]
                                let mut next = *state;
                                #(#before)*
                                ::core::result::Result::Ok(::core::option::Option::Some(next))
                            })();
                            let ::core::result::Result::Ok(::core::option::Option::Some(mut next)) = shared else {
                                return ::core::result::Result::Ok(::core::option::Option::None);
                            };
                            #(#after)*
                            #walk
                            ::core::result::Result::Ok(::core::option::Option::Some(next))
                        }
                    }
                }
            }
        };
        let inline = if self.code.transitions.len() <= MOST_INLINED_TRANSITIONS {
            quote!(#[inline(always)])
        } else {
            quote!(#[inline(never)])
        };
        quote! {
            #doc
            #inline
            fn #function(
                state: &#state_type,
            ) -> ::core::result::Result<::core::option::Option<#state_type>, ::bir::model::Fault> {
                #body
            }
        }
    }

    /// A printer of expressions reading the state variable `state`.
    pub(super) fn printer(&self, state: &str) -> ExprPrinter<'_, '_> {
        ExprPrinter {
            gen: self,
            state: format_ident!("{}", state),
            record: false,
        }
    }

    /// A printer of expressions reading the state variable `state` that records every
    /// value read into the operands `out`.
    pub(super) fn recorder(&self, state: &str) -> ExprPrinter<'_, '_> {
        ExprPrinter {
            record: true,
            ..self.printer(state)
        }
    }

    /// The first slot (of `ModelInfo::slots`) of a stored value.
    pub(super) fn first_slot(&self, owner: Owner) -> u32 {
        self.tables
            .field(owner)
            .map_or(0, |field| field.first_slot as u32)
    }

    pub(super) fn stmt(&self, next: &ExprPrinter, stmt: &Stmt) -> TokenStream {
        match stmt {
            Stmt::Store {
                target,
                element,
                value,
            } => {
                let (_, set) = self.accessor_names(*target);
                // The element is computed (and checked) before the value.
                let element = element.as_ref().map(|index| {
                    let index = next.index(index);
                    quote!(#index,)
                });
                let value = self.stored(next, value);
                quote!(next.#set(#element #value);)
            }
            Stmt::Assert { fails, site } => {
                let fails = next.condition(fails);
                let site = lit_u32(site.0);
                quote! {
                    if #fails {
                        return ::core::result::Result::Err(::bir::model::Fault { site: #site, value: 0 });
                    }
                }
            }
            Stmt::Assume(discards) => {
                let discards = next.condition(discards);
                quote! {
                    if #discards {
                        return ::core::result::Result::Ok(::core::option::Option::None);
                    }
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
                    quote!(next.#set(#value);)
                });
                let go = self.set_status(*status, 0);
                quote! {
                    if #get_status != #not_started {
                        return ::core::result::Result::Err(::bir::model::Fault { site: #site, value: 0 });
                    }
                    #argument
                    #go
                }
            }
            Stmt::Check(value) => {
                let value = self.stored(&self.printer("state"), value);
                quote!(let _ = #value;)
            }
            Stmt::Deliver {
                target,
                element,
                value,
            } => {
                let (_, set) = self.accessor_names(*target);
                let element = element.as_ref().map(|index| {
                    let index = next.index(index);
                    quote!(#index,)
                });
                let value = self.stored(&self.printer("state"), value);
                quote!(next.#set(#element #value);)
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
