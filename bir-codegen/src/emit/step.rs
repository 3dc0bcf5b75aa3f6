//! The successor function: for each instance a `match` on its status with one arm per
//! location, and for each transformation of that location a straight-line function
//! (guard, actions in order, jump) specialised to the instance.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::expr::ExprGen;
use super::{lit_i64, lit_u32, Gen};
use crate::analyse::interval::{within, Ranges};
use crate::ir::{self, Action, InstanceId, Jump, Scalar, SiteId, ThreadId, ThreadKind};
use crate::layout::Owner;
use crate::lower::specialize;

/// One transition: a transformation of one instance, with its id (its successor order).
pub(super) struct Transition<'a> {
    pub id: u32,
    pub thread: ThreadId,
    pub instance: InstanceId,
    pub transform: &'a ir::Transform,
}

impl Gen<'_> {
    /// Every transition in successor order (threads in declaration order, instances by
    /// index, transformations in source order), as listed by the shared tables.
    pub(super) fn transitions(&self) -> Vec<Transition<'_>> {
        self.tables
            .transitions
            .iter()
            .enumerate()
            .map(|(id, row)| Transition {
                id: id as u32,
                thread: row.thread,
                instance: row.instance,
                transform: &self.system.threads[row.thread].transforms[row.transform],
            })
            .collect()
    }

    /// The body of `Model::successors`.
    pub(super) fn successors_body(&self, transitions: &[Transition]) -> TokenStream {
        let mut instances = Vec::new();
        for (thread_id, thread) in self.system.threads.iter_enumerated() {
            for instance in thread.instance_ids() {
                let arms = thread.locations.ids().map(|location| {
                    let calls = transitions
                        .iter()
                        .filter(|t| t.instance == instance && t.transform.location == location)
                        .map(|t| {
                            let function = format_ident!("t{}", t.id);
                            let id = lit_u32(t.id);
                            quote!(::bir::__private::push(out, #id, #function(state));)
                        });
                    let location = lit_i64(i64::from(location.0));
                    quote!(#location => { #(#calls)* })
                });
                let (get, _) = self.accessor_names(Owner::Status {
                    thread: thread_id,
                    instance,
                });
                instances.push(quote! {
                    match state.#get() {
                        #(#arms)*
                        _ => {}
                    }
                });
            }
        }
        quote!(#(#instances)*)
    }

    /// One function per transition.
    pub(super) fn transition_functions(&self, transitions: &[Transition]) -> TokenStream {
        transitions
            .iter()
            .map(|t| self.transition_function(t))
            .collect()
    }

    fn transition_function(&self, t: &Transition) -> TokenStream {
        let state_type = &self.state;
        let function = format_ident!("t{}", t.id);
        let thread = &self.system.threads[t.thread];
        let index = i64::from(thread.index_of(t.instance));
        let mut exprs = ExprGen {
            gen: self,
            thread: Some(t.thread),
            instance: t.instance,
            state: format_ident!("state"),
            ranges: Ranges::new(&self.analysis.domains, Some(t.thread)),
        };
        let guard = t
            .transform
            .guard
            .as_ref()
            .map(|guard| exprs.boolean(&specialize(guard, index)))
            .map(|guard| {
                quote! {
                    if !#guard { return ::core::result::Result::Ok(::core::option::Option::None); }
                }
            });
        exprs.state = format_ident!("next");
        let mut body = Vec::new();
        let mut exited = false;
        for action in &t.transform.actions {
            if let Action::Exit = action {
                body.push(self.set_status(t.thread, t.instance, thread.ended_status()));
                exited = true;
                break;
            }
            body.push(self.action(&mut exprs, action, index));
        }
        if !exited {
            let status = match t.transform.jump {
                Jump::Goto(location) => i64::from(location.0),
                Jump::Return => thread.ended_status(),
            };
            body.push(self.set_status(t.thread, t.instance, status));
        }
        let doc = format!(
            "{} {}: {}",
            thread.instance_name(thread.index_of(t.instance)),
            thread.locations[t.transform.location].name,
            t.transform.text
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

    fn set_status(&self, thread: ThreadId, instance: InstanceId, status: i64) -> TokenStream {
        let (_, set) = self.accessor_names(Owner::Status { thread, instance });
        let status = lit_i64(status);
        quote!(next.#set(#status);)
    }

    fn action(&self, exprs: &mut ExprGen, action: &Action, index: i64) -> TokenStream {
        match action {
            Action::Assign { place, value, site } => {
                let scalar = exprs.scalar(place.var);
                let (_, set) = self.accessor_names(exprs.owner(place.var));
                let element = place.index.as_ref().map(|(i, index_site)| {
                    let len = exprs.len(place.var);
                    exprs.index(&specialize(i, index), len, *index_site)
                });
                let value = specialize(value, index);
                let stored = self.stored_value(exprs, &value, scalar, *site, true);
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
            Action::Assert { cond, site } => {
                let cond = exprs.boolean(&specialize(cond, index));
                let site = lit_u32(site.0);
                quote! {
                    if !#cond {
                        return ::core::result::Result::Err(::bir::Fault { site: #site, value: 0 });
                    }
                }
            }
            Action::Assume(cond) => {
                let cond = exprs.boolean(&specialize(cond, index));
                quote! {
                    if !#cond { return ::core::result::Result::Ok(::core::option::Option::None); }
                }
            }
            Action::Start {
                thread,
                arg,
                site,
                arg_site,
            } => self.start(exprs, *thread, arg.as_ref(), *site, *arg_site, index),
            Action::Exit => TokenStream::new(),
        }
    }

    /// The value to store in a variable of type `scalar`: range-checked, or wrapped for a
    /// wrapping type when `wrapping` (assignments; a `start` argument never wraps), unless
    /// the value's range already fits.
    fn stored_value(
        &self,
        exprs: &mut ExprGen,
        value: &ir::Expr,
        scalar: Scalar,
        site: SiteId,
        wrapping: bool,
    ) -> TokenStream {
        let range = exprs.ranges.of(value);
        let value = exprs.int(value);
        match scalar {
            Scalar::Int { lo, hi, wrap } if !within(range, lo, hi) => {
                let (lo, hi) = (lit_i64(lo), lit_i64(hi));
                if wrap && wrapping {
                    quote!(::bir::__private::wrap(#value, #lo, #hi))
                } else {
                    let site = lit_u32(site.0);
                    quote!(::bir::__private::in_range(#value, #lo, #hi, #site)?)
                }
            }
            _ => value,
        }
    }

    /// `start T(arg);`: a start error unless T has not started; then T's parameter takes
    /// the argument and T goes to its first location.
    fn start(
        &self,
        exprs: &mut ExprGen,
        thread: ThreadId,
        arg: Option<&ir::Expr>,
        site: SiteId,
        arg_site: SiteId,
        index: i64,
    ) -> TokenStream {
        let target = &self.system.threads[thread];
        debug_assert_eq!(target.kind, ThreadKind::Started);
        let instance = target.first_instance;
        let (get_status, _) = self.accessor_names(Owner::Status { thread, instance });
        let not_started = lit_i64(target.not_started_status());
        let site = lit_u32(site.0);
        let param = match (arg, target.start_param) {
            (Some(arg), Some(local)) => {
                let scalar = target.locals[local].ty.scalar;
                let arg = specialize(arg, index);
                let value = self.stored_value(exprs, &arg, scalar, arg_site, false);
                let (_, set) = self.accessor_names(Owner::Local {
                    thread,
                    instance,
                    local,
                });
                quote! {
                    let argument: i64 = #value;
                    next.#set(argument);
                }
            }
            _ => TokenStream::new(),
        };
        let go = self.set_status(thread, instance, 0);
        quote! {
            if next.#get_status() != #not_started {
                return ::core::result::Result::Err(::bir::Fault { site: #site, value: 0 });
            }
            #param
            #go
        }
    }
}
