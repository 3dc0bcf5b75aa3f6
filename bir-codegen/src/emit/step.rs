//! The successor function: for each instance a `match` on its status with one arm per
//! location, calling one function per transition (guard, statements, status) as lowered.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::expr::ExprPrinter;
use super::{doc, lit_i64, lit_u32, prim, Gen};
use crate::ir::{Freeing, Owner};
use crate::lower::{Conversion, Expr, Index, StartPool, Stmt, Stored, Transition};

/// The most transitions whose functions are inlined into the successor function. Inlining
/// lets the compiler share a state's loads across its transitions, which saves the search
/// time, but the optimiser's time grows faster than the function: Peterson's filter's
/// checker (`bir check`, release) takes little longer to build with a few hundred
/// transitions inlined than with none, and several times as long with 600 or more.
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
                        // The body ends with the freeing of the pool instances the step ended
                        // (`Stmt::Free`); the heap's walk, when the step needs it, comes
                        // after, so that the references the freeing reset are no roots.
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
                arguments,
                result,
            } => {
                let get_status = next.get(*status);
                let not_started = lit_i64(*not_started);
                let site = lit_u32(site.0);
                let arguments = arguments.iter().map(|(param, value)| {
                    let value = self.stored(next, value);
                    let (_, set) = self.accessor_names(*param);
                    quote!(next.#set(#value);)
                });
                let go = self.set_status(*status, 0);
                let result = result.as_ref().map(|(target, element, tid)| {
                    self.store_tid(next, *target, element.as_ref(), lit_i64(*tid))
                });
                quote! {
                    if #get_status != #not_started {
                        return ::core::result::Result::Err(::bir::model::Fault { site: #site, value: 0 });
                    }
                    #(#arguments)*
                    #go
                    #result
                }
            }
            Stmt::StartPool(start) => self.start_pool(next, start),
            Stmt::Free(freeing) => self.free(freeing),
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

    /// `target[element] := tid;`: the element is computed (and checked) on the next state.
    fn store_tid(
        &self,
        next: &ExprPrinter,
        target: Owner,
        element: Option<&Index>,
        tid: TokenStream,
    ) -> TokenStream {
        let (_, set) = self.accessor_names(target);
        let element = element.map(|index| {
            let index = next.index(index);
            quote!(#index,)
        });
        quote!(next.#set(#element #tid);)
    }

    /// A pool's `start`: the arguments into temporaries, then the free instance of lowest
    /// index bound (the chain's value is its `tid`), or the start error.
    fn start_pool(&self, next: &ExprPrinter, start: &StartPool) -> TokenStream {
        let i64 = prim("i64");
        let temps: Vec<syn::Ident> = (0..start.args.len())
            .map(|n| format_ident!("__arg{}", n))
            .collect();
        let evaluate = start.args.iter().zip(&temps).map(|((value, _), temp)| {
            let value = next.expr(value);
            quote!(let #temp: #i64 = #value;)
        });
        let free = lit_i64(start.free);
        let site = lit_u32(start.site.0);
        let arms = start
            .instances
            .iter()
            .enumerate()
            .map(|(index, (status, params))| {
                let get_status = next.get(*status);
                let binds = params.iter().zip(&start.args).zip(&temps).map(
                    |((param, (_, conversion)), temp)| {
                        let value = converted(quote!(#temp), *conversion);
                        let (_, set) = self.accessor_names(*param);
                        quote!(next.#set(#value);)
                    },
                );
                let go = self.set_status(*status, 0);
                let tid = lit_i64(start.first_tid + index as i64);
                quote! {
                    if #get_status == #free {
                        #(#binds)*
                        #go
                        #tid
                    } else
                }
            });
        let result = match &start.result {
            Some((target, element)) => {
                self.store_tid(next, *target, element.as_ref(), quote!(__tid))
            }
            None => quote!(let _ = __tid;),
        };
        quote! {
            #(#evaluate)*
            let __tid: #i64 = #(#arms)* {
                return ::core::result::Result::Err(::bir::model::Fault { site: #site, value: 0 });
            };
            #result
        }
    }

    /// Frees a pool instance (`ir::System::freeing`): its locals back to their initial
    /// values, its status free, every `tid` naming it `null`.
    fn free(&self, freeing: &Freeing) -> TokenStream {
        let locals = freeing.locals.iter().map(|(owner, init)| {
            let (_, set) = self.accessor_names(*owner);
            if self.is_array(*owner) {
                let sets = init.iter().enumerate().map(|(index, value)| {
                    let value = lit_i64(*value);
                    quote!(next.#set(#index, #value);)
                });
                quote!(#(#sets)*)
            } else {
                let value = lit_i64(init.first().copied().unwrap_or(0));
                quote!(next.#set(#value);)
            }
        });
        let status = self.set_status(freeing.status, freeing.free);
        let tid = lit_i64(freeing.tid);
        let tids = freeing.tids.iter().map(|(owner, len)| {
            let (get, set) = self.accessor_names(*owner);
            if self.is_array(*owner) {
                let len = *len as usize;
                quote! {
                    for index in 0..#len {
                        if next.#get(index) == #tid {
                            next.#set(index, 0);
                        }
                    }
                }
            } else {
                quote! {
                    if next.#get() == #tid {
                        next.#set(0);
                    }
                }
            }
        });
        let (number, nobody) = (lit_i64(freeing.number), lit_i64(freeing.nobody));
        let owners = freeing.owners.iter().map(|(owner, len)| {
            let (get, set) = self.accessor_names(*owner);
            if self.is_array(*owner) {
                let len = *len as usize;
                quote! {
                    for index in 0..#len {
                        if next.#get(index) == #number {
                            next.#set(index, #nobody);
                        }
                    }
                }
            } else {
                quote! {
                    if next.#get() == #number {
                        next.#set(#nobody);
                    }
                }
            }
        });
        let waits = freeing.waits.iter().map(|(owner, element, init)| {
            let (_, set) = self.accessor_names(*owner);
            let init = lit_i64(*init);
            if self.is_array(*owner) {
                let element = *element as usize;
                quote!(next.#set(#element, #init);)
            } else {
                quote!(next.#set(#init);)
            }
        });
        quote! {
            #(#locals)*
            #status
            #(#tids)*
            #(#owners)*
            #(#waits)*
        }
    }

    /// True when the stored value `owner` is an array (its accessors take an index).
    fn is_array(&self, owner: Owner) -> bool {
        self.layout
            .fields
            .iter()
            .any(|field| field.owner == owner && field.is_array)
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

/// An already computed `value` converted as `conversion` says.
fn converted(value: TokenStream, conversion: Conversion) -> TokenStream {
    match conversion {
        Conversion::Plain => value,
        Conversion::Wrap { lo, hi } => {
            let (lo, hi) = (lit_i64(lo), lit_i64(hi));
            quote!(::bir::__private::wrap(#value, #lo, #hi))
        }
        Conversion::InRange { lo, hi, site } => {
            let (lo, hi) = (lit_i64(lo), lit_i64(hi));
            let site = lit_u32(site.0);
            quote!(::bir::__private::in_range(#value, #lo, #hi, #site)?)
        }
    }
}
