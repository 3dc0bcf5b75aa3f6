//! The properties: their table (`Model::properties`, with each formula's automaton as data,
//! so that it can be inspected), the evaluation of their predicates as one bit set per
//! state (`Model::propositions`), and each automaton's steps as a `match` on its state
//! (`Model::__automaton_moves`, which `Model::automaton_step` collects).

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::{lit_u32, prim, Gen};
use crate::ltl::Automaton;

/// A `u64` literal in hexadecimal (a bit set).
fn bits(value: u64) -> TokenStream {
    let literal: TokenStream = format!("{value:#x}u64")
        .parse()
        .unwrap_or_else(|_| quote!(0u64));
    literal
}

impl Gen<'_> {
    /// The static table of properties and the three `Model` methods that read them; nothing
    /// for a model without properties (the trait's defaults then say so).
    pub(super) fn properties(&self) -> (TokenStream, TokenStream) {
        if self.system.properties.is_empty() {
            return (TokenStream::new(), TokenStream::new());
        }
        let state_type = &self.state;
        let (u32, u64, usize) = (prim("u32"), prim("u64"), prim("usize"));
        let table = self.system.properties.iter().map(|property| {
            let (name, text, line) = (&property.name, &property.text, property.line);
            let predicates = property
                .atom_texts
                .iter()
                .map(|text| quote!(::std::borrow::Cow::Borrowed(#text)));
            let kind = match &property.automaton {
                None => quote!(::bir::model::PropertyKind::Reachable),
                Some(automaton) => {
                    let states = automaton_table(automaton);
                    let next_free = property.next_free;
                    quote! {
                        ::bir::model::PropertyKind::Ltl {
                            automaton: ::bir::model::Automaton {
                                states: ::std::borrow::Cow::Borrowed(&[#(#states),*]),
                            },
                            next_free: #next_free,
                        }
                    }
                }
            };
            quote! {
                ::bir::model::PropertyInfo {
                    name: ::std::borrow::Cow::Borrowed(#name),
                    text: ::std::borrow::Cow::Borrowed(#text),
                    line: #line,
                    propositions: ::std::borrow::Cow::Borrowed(&[#(#predicates),*]),
                    kind: #kind,
                }
            }
        });
        let count = Literal::usize_unsuffixed(self.system.properties.len());
        let state = self.printer("state");
        let evaluations = self
            .code
            .properties
            .iter()
            .enumerate()
            .map(|(number, atoms)| {
                let number = Literal::usize_unsuffixed(number);
                let tests = atoms.iter().enumerate().map(|(bit, atom)| {
                    let atom = state.expr(atom);
                    let bit = bits(1 << bit);
                    quote!(if #atom { props |= #bit; })
                });
                quote! {
                    #number => {
                        let mut props: #u64 = 0;
                        #(#tests)*
                        ::core::result::Result::Ok(props)
                    }
                }
            });
        let steps = self
            .system
            .properties
            .iter()
            .enumerate()
            .filter_map(|(number, property)| Some((number, property.automaton.as_ref()?)))
            .flat_map(|(number, automaton)| {
                automaton
                    .edges
                    .iter()
                    .enumerate()
                    .map(move |(from, edges)| {
                        let number = Literal::usize_unsuffixed(number);
                        let from = lit_u32(from as u32);
                        let moves = edges.iter().map(|edge| {
                            let to = lit_u32(edge.to);
                            let push = quote!(each(#to););
                            match (edge.positive, edge.negative) {
                                (0, 0) => push,
                                (positive, negative) => {
                                    let (mask, want) = (bits(positive | negative), bits(positive));
                                    quote!(if props & #mask == #want { #push })
                                }
                            }
                        });
                        quote!((#number, #from) => { #(#moves)* })
                    })
            });
        let statics = quote! {
            /// The properties (see the model's `PROPERTIES`).
            static PROPERTIES: [::bir::model::PropertyInfo; #count] = [#(#table),*];
        };
        let methods = quote! {
            fn properties(&self) -> &[::bir::model::PropertyInfo] {
                &PROPERTIES
            }

            fn propositions(
                &self,
                property: #usize,
                state: &#state_type,
            ) -> ::core::result::Result<#u64, ::bir::model::Fault> {
                match property {
                    #(#evaluations)*
                    _ => ::core::result::Result::Ok(0),
                }
            }

            fn automaton_step(
                &self,
                property: #usize,
                from: #u32,
                props: #u64,
                out: &mut ::std::vec::Vec<#u32>,
            ) {
                self.__automaton_moves(property, from, props, &mut ::std::vec::Vec::new(), |to| {
                    out.push(to)
                });
            }

            #[inline]
            fn __automaton_moves<F: ::core::ops::FnMut(#u32)>(
                &self,
                property: #usize,
                from: #u32,
                props: #u64,
                _: &mut ::std::vec::Vec<#u32>,
                mut each: F,
            ) {
                match (property, from) {
                    #(#steps)*
                    _ => {}
                }
            }
        };
        (statics, methods)
    }

    /// The static table of heuristics and the two `Model` methods that read it; nothing for
    /// a model without heuristics (the trait's defaults then say so).
    pub(super) fn heuristics(&self) -> (TokenStream, TokenStream) {
        if self.system.heuristics.is_empty() {
            return (TokenStream::new(), TokenStream::new());
        }
        let state_type = &self.state;
        let (i64, usize) = (prim("i64"), prim("usize"));
        let table = self.system.heuristics.iter().map(|heuristic| {
            let (name, text, line) = (&heuristic.name, &heuristic.text, heuristic.line);
            quote! {
                ::bir::model::HeuristicInfo {
                    name: ::std::borrow::Cow::Borrowed(#name),
                    text: ::std::borrow::Cow::Borrowed(#text),
                    line: #line,
                }
            }
        });
        let count = Literal::usize_unsuffixed(self.system.heuristics.len());
        let state = self.printer("state");
        let values = self
            .code
            .heuristics
            .iter()
            .enumerate()
            .map(|(number, value)| {
                let number = Literal::usize_unsuffixed(number);
                let value = state.expr(value);
                quote!(#number => ::core::result::Result::Ok(#value),)
            });
        let statics = quote! {
            /// The heuristics, in declaration order.
            static HEURISTICS: [::bir::model::HeuristicInfo; #count] = [#(#table),*];
        };
        let methods = quote! {
            fn heuristics(&self) -> &[::bir::model::HeuristicInfo] {
                &HEURISTICS
            }

            fn heuristic(
                &self,
                heuristic: #usize,
                state: &#state_type,
            ) -> ::core::result::Result<#i64, ::bir::model::Fault> {
                match heuristic {
                    #(#values)*
                    _ => ::core::result::Result::Ok(0),
                }
            }
        };
        (statics, methods)
    }

    /// The documentation of the model's `PROPERTIES`: each property, its propositions, and
    /// its automaton's states and edges, so that the automaton can be inspected.
    pub(super) fn properties_doc(&self) -> String {
        let mut text = String::from(
            "The names of the model's `ltl` properties and `reachable` checks, in declaration\n\
             order: what `Checker::ltl` and `Checker::reachable` take.\n",
        );
        for property in &self.system.properties {
            text.push_str(&format!(
                "\n`{}` (line {}): `{}`\n",
                property.name, property.line, property.text
            ));
            for (bit, atom) in property.atom_texts.iter().enumerate() {
                text.push_str(&format!("- proposition {bit}: `{atom}`\n"));
            }
            if let Some(automaton) = &property.automaton {
                text.push_str("\nThe automaton of its negation (state 0 starts):\n");
                for (state, edges) in automaton.edges.iter().enumerate() {
                    let accepting = if automaton.accepting[state] {
                        " (accepting)"
                    } else {
                        ""
                    };
                    let edges: Vec<String> = edges
                        .iter()
                        .map(|e| format!("{} if +{:#x} -{:#x}", e.to, e.positive, e.negative))
                        .collect();
                    text.push_str(&format!("- {state}{accepting}: {}\n", edges.join(", ")));
                }
            }
        }
        text
    }
}

/// The states of an automaton as `AutomatonState` literals.
fn automaton_table(automaton: &Automaton) -> Vec<TokenStream> {
    automaton
        .edges
        .iter()
        .zip(&automaton.accepting)
        .map(|(edges, accepting)| {
            let edges = edges.iter().map(|e| {
                let (to, positive, negative) = (lit_u32(e.to), bits(e.positive), bits(e.negative));
                quote!(::bir::model::AutomatonEdge { to: #to, positive: #positive, negative: #negative })
            });
            quote! {
                ::bir::model::AutomatonState {
                    accepting: #accepting,
                    edges: ::std::borrow::Cow::Borrowed(&[#(#edges),*]),
                }
            }
        })
        .collect()
}
