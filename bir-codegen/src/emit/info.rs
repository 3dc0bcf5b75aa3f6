//! The model's static tables (slots, transitions, fault sites, invariants) and the
//! functions that read whole states: `decode`, invariants and the end-state test.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::tables::{Slot, SlotKind, TransitionRow};
use super::{doc, lit_i64, lit_u32, prim, Gen};
use crate::ir::FaultKind;
use crate::lower::EndState;

/// The most slots listed one by one in the static `ModelInfo`; a model with more (large
/// arrays) builds its slots in loops at first use. An array of 65,536 elements listed
/// made 11 MB of Rust, which took the compiler minutes and gigabytes to build.
const MOST_LISTED_SLOTS: usize = 1024;

impl Gen<'_> {
    /// `static INFO: ModelInfo = ...;` and the tables it borrows, all read from the shared
    /// [`Tables`](super::tables::Tables).
    pub(super) fn info(&self) -> TokenStream {
        let tables = self.tables;
        let name = &tables.name;
        let enums = self.system.enums.iter_enumerated().map(|(id, e)| {
            let ident = format_ident!("ENUM_{}", id.0);
            let variants = &e.variants;
            quote! {
                const #ident: &[::std::borrow::Cow<'static, ::core::primitive::str>] =
                    &[#(::std::borrow::Cow::Borrowed(#variants)),*];
            }
        });
        let locations = self.system.threads.iter_enumerated().map(|(id, t)| {
            let ident = format_ident!("LOCATIONS_{}", id.0);
            let names = t.locations.iter().map(|l| &l.name);
            quote! {
                const #ident: &[::std::borrow::Cow<'static, ::core::primitive::str>] =
                    &[#(::std::borrow::Cow::Borrowed(#names)),*];
            }
        });
        let instance_names = self
            .system
            .threads
            .iter()
            .flat_map(|t| (0..t.instances()).map(|index| t.instance_name(index)));
        // The names a `tid` slot reads its values by (only a model with tids has them).
        let has_tids = tables.slots.iter().any(|slot| slot.kind == SlotKind::Tid);
        let instances = has_tids.then(|| {
            quote! {
                const INSTANCE_NAMES: &[::std::borrow::Cow<'static, ::core::primitive::str>] =
                    &[#(::std::borrow::Cow::Borrowed(#instance_names)),*];
            }
        });
        let transitions = tables.transitions.iter().map(transition_info);
        let faults = tables.fault_sites.iter().map(|site| {
            let kind = match site.kind {
                FaultKind::Assertion => quote!(Assertion),
                FaultKind::Range => quote!(Range),
                FaultKind::Index => quote!(Index),
                FaultKind::Division => quote!(Division),
                FaultKind::Start => quote!(Start),
                FaultKind::Stack => quote!(Stack),
                FaultKind::Lock => quote!(Lock),
                FaultKind::Heap => quote!(Heap),
                FaultKind::Null => quote!(Null),
                FaultKind::UncaughtException => quote!(UncaughtException),
            };
            let message = &site.message;
            let line = site.line;
            quote! {
                ::bir::model::FaultSite {
                    kind: ::bir::model::FaultKind::#kind,
                    message: ::std::borrow::Cow::Borrowed(#message),
                    line: #line,
                }
            }
        });
        let invariants = tables.invariants.iter().map(|inv| {
            let (name, text, line) = (&inv.name, &inv.text, inv.line);
            quote! {
                ::bir::model::InvariantInfo {
                    name: ::std::borrow::Cow::Borrowed(#name),
                    text: ::std::borrow::Cow::Borrowed(#text),
                    line: #line,
                }
            }
        });
        let rest = quote! {
            transitions: ::std::borrow::Cow::Borrowed(&[#(#transitions),*]),
            fault_sites: ::std::borrow::Cow::Borrowed(&[#(#faults),*]),
            invariants: ::std::borrow::Cow::Borrowed(&[#(#invariants),*]),
        };
        if tables.slots.len() <= MOST_LISTED_SLOTS {
            let slots = tables.slots.iter().map(|slot| self.slot_info(slot));
            return quote! {
                #(#enums)*
                #(#locations)*
                #instances
                static INFO: ::bir::model::ModelInfo = ::bir::model::ModelInfo {
                    name: ::std::borrow::Cow::Borrowed(#name),
                    slots: ::std::borrow::Cow::Borrowed(&[#(#slots),*]),
                    #rest
                };
            };
        }
        let total = tables.slots.len();
        // A field's slots are consecutive: an array's elements in one loop.
        let pushes = tables.fields.iter().map(|field| {
            let slot = &tables.slots[field.first_slot];
            let all = &tables.slots[field.first_slot..][..field.elements as usize];
            let one_name = all.iter().all(|s| s.name == slot.name);
            if !one_name {
                // An array field's global: its slots' names differ (`R#x[0]`, `R#x[1]`).
                let infos = all.iter().map(|slot| self.slot_info(slot));
                quote!(#(slots.push(#infos);)*)
            } else if field.elements > 1 {
                let (first, end) = (0u32, field.elements);
                let element = quote!(::core::option::Option::Some(element));
                let info = self.slot_info_of(slot, element);
                quote! {
                    for element in #first..#end {
                        slots.push(#info);
                    }
                }
            } else {
                let info = self.slot_info(slot);
                quote!(slots.push(#info);)
            }
        });
        quote! {
            #(#enums)*
            #(#locations)*
            #instances
            static INFO: ::std::sync::LazyLock<::bir::model::ModelInfo> =
                ::std::sync::LazyLock::new(|| {
                    let mut slots = ::std::vec::Vec::with_capacity(#total);
                    #(#pushes)*
                    ::bir::model::ModelInfo {
                        name: ::std::borrow::Cow::Borrowed(#name),
                        slots: ::std::borrow::Cow::Owned(slots),
                        #rest
                    }
                });
        }
    }

    fn slot_info(&self, slot: &Slot) -> TokenStream {
        let element = match slot.element {
            Some(i) => quote!(::core::option::Option::Some(#i)),
            None => quote!(::core::option::Option::None),
        };
        self.slot_info_of(slot, element)
    }

    /// The `SlotInfo` of `slot` with the expression `element` for its element.
    fn slot_info_of(&self, slot: &Slot, element: TokenStream) -> TokenStream {
        let name = &slot.name;
        let kind = match slot.kind {
            SlotKind::Bool => quote!(::bir::model::SlotKind::Bool),
            SlotKind::Int => quote!(::bir::model::SlotKind::Int),
            SlotKind::Enum(id) => {
                let name = &self.system.enums[id].name;
                let ident = format_ident!("ENUM_{}", id.0);
                quote!(::bir::model::SlotKind::Enum {
                    name: ::std::borrow::Cow::Borrowed(#name),
                    variants: ::std::borrow::Cow::Borrowed(#ident),
                })
            }
            SlotKind::Ref(record) => {
                let name = &self.system.hidden.records[record].name;
                quote!(::bir::model::SlotKind::Reference {
                    record: ::std::borrow::Cow::Borrowed(#name),
                })
            }
            SlotKind::Status(thread) => {
                let ident = format_ident!("LOCATIONS_{}", thread.0);
                quote!(::bir::model::SlotKind::Status {
                    locations: ::std::borrow::Cow::Borrowed(#ident)
                })
            }
            SlotKind::Tid => quote!(::bir::model::SlotKind::Tid {
                instances: ::std::borrow::Cow::Borrowed(INSTANCE_NAMES)
            }),
        };
        quote! {
            ::bir::model::SlotInfo {
                name: ::std::borrow::Cow::Borrowed(#name),
                element: #element,
                kind: #kind,
            }
        }
    }

    /// The body of `Model::decode`: every slot's value, in slot order.
    pub(super) fn decode_body(&self) -> TokenStream {
        let pushes = self.layout.fields.iter().map(|field| {
            let (get, _) = self.accessor_names(field.owner);
            if field.is_array {
                let len = field.elements as usize;
                quote! {
                    for index in 0..#len {
                        values.push(state.#get(index));
                    }
                }
            } else {
                quote!(values.push(state.#get());)
            }
        });
        quote! {
            values.clear();
            #(#pushes)*
        }
    }

    /// One function per invariant, and the body of `Model::check_invariants`.
    pub(super) fn invariants(&self) -> (TokenStream, TokenStream) {
        let state_type = &self.state;
        let mut functions = Vec::new();
        let mut checks = Vec::new();
        let state = self.printer("state");
        for (id, (invariant, cond)) in self
            .system
            .invariants
            .iter()
            .zip(&self.code.invariants)
            .enumerate()
        {
            let function = format_ident!("invariant{}", id);
            let cond = state.expr(cond);
            let doc = doc(&format!(
                "Invariant `{}`, line {}: `{}`",
                invariant.name, invariant.line, invariant.text
            ));
            let bool = prim("bool");
            functions.push(quote! {
                #doc
                #[inline(always)]
                fn #function(state: &#state_type) -> ::core::result::Result<#bool, ::bir::model::Fault> {
                    ::core::result::Result::Ok(#cond)
                }
            });
            let id = lit_u32(id as u32);
            checks.push(quote! {
                match #function(state) {
                    ::core::result::Result::Ok(true) => {}
                    ::core::result::Result::Ok(false) => {
                        return ::core::result::Result::Err(::bir::model::InvariantFailure::Violated(#id))
                    }
                    ::core::result::Result::Err(fault) => {
                        return ::core::result::Result::Err(::bir::model::InvariantFailure::Fault(fault))
                    }
                }
            });
        }
        let body = quote! {
            #(#checks)*
            ::core::result::Result::Ok(())
        };
        (quote!(#(#functions)*), body)
    }

    /// The body of `Model::is_end_state`.
    pub(super) fn end_state_body(&self) -> TokenStream {
        match &self.code.end_state {
            EndState::Never => quote!(false),
            EndState::AllEnded(statuses) if statuses.is_empty() => quote!(true),
            EndState::AllEnded(statuses) => {
                let state = self.printer("state");
                let tests = statuses.iter().map(|(status, ended)| {
                    let status = state.get(*status);
                    let ended = lit_i64(*ended);
                    quote!(#status >= #ended)
                });
                quote!(#(#tests)&&*)
            }
        }
    }
}

/// One row of the transition table as a `TransitionInfo` literal.
fn transition_info(row: &TransitionRow) -> TokenStream {
    let (name, from, to) = (&row.instance_name, &row.from, &row.to);
    let (text, line, instance) = (&row.text, row.line, row.instance.0);
    let partner = match (row.partner, row.sides) {
        (Some((_, partner, _)), Some([send, receive])) => {
            let instance = partner.0;
            quote!(::core::option::Option::Some(::bir::model::Partner {
                instance: #instance,
                sides: [#send, #receive],
            }))
        }
        _ => quote!(::core::option::Option::None),
    };
    quote! {
        ::bir::model::TransitionInfo {
            thread: ::std::borrow::Cow::Borrowed(#name),
            instance: #instance,
            from: ::std::borrow::Cow::Borrowed(#from),
            to: ::std::borrow::Cow::Borrowed(#to),
            text: ::std::borrow::Cow::Borrowed(#text),
            line: #line,
            partner: #partner,
        }
    }
}
