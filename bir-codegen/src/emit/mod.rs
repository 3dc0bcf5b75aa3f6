//! The back end, checked model and lowered code to Rust. First the plain data that the
//! generated code and the reference interpreter share: the bit layout of a state
//! ([`layout`]) and the model's static tables ([`tables`]). Then the Rust: the system's
//! model type, its packed state type, and an implementation of `bir::Model` whose
//! successor function is a `match` per instance. Nothing here decides what the code does;
//! it is all in the lowered code (`lower`), the layout and the tables. A model with
//! errors expands instead to the errors and a stub of its type (`fallback`).
//!
//! Every name the generated code uses is an absolute path: the runtime through `::bir` (the
//! facade crate users depend on), the standard library through `::core` and `::std`, down
//! to primitive types (`::core::primitive::i64`) and derives, so that no item, import or
//! prelude of the user's can change its meaning. Every item it defines lives in a module
//! of the expansion's own, and only the model type is re-exported (see `hygiene`), so
//! that no item of the user's clashes with them; helpers live in a
//! `const _: () = { ... };` block inside it.

pub mod layout;
pub mod tables;

mod expr;
pub(crate) mod fallback;
mod heap;
mod hygiene;
mod info;
mod operands;
mod property;
mod state;
mod step;
mod symmetry;
mod vacuity;
pub(crate) mod warnings;

use proc_macro2::{Ident, Literal, TokenStream};
use quote::quote;

use crate::analyse::faults::ConstantFault;
use crate::ir;
use crate::lower::Code;
use layout::Layout;
use tables::Tables;

/// Code generation context for one system.
pub(crate) struct Gen<'a> {
    /// The checked model, for names and documentation.
    system: &'a ir::System,
    /// What each transition, invariant and the end-state test compute.
    code: &'a Code,
    layout: &'a Layout,
    /// The static tables, shared with the reference interpreter.
    tables: &'a Tables,
    /// The model type (the system's name).
    model: Ident,
    /// The state type (`<name>State`), in the hidden module.
    state: Ident,
    /// The module of the expansion's items (`hygiene::hidden_module`).
    module: Ident,
    /// The faults the model's constants make certain, each a warning.
    constant_faults: &'a [ConstantFault],
    /// The checker's warnings (`ir::System::warnings`).
    warnings: &'a [ir::Warning],
}

/// Generates the model checker of a checked system, and a warning for each of
/// `constant_faults` and `warnings`; `input` is the macro's input, which names the
/// expansion's module.
pub(crate) fn emit(
    system: &ir::System,
    code: &Code,
    layout: &Layout,
    tables: &Tables,
    input: &TokenStream,
    (constant_faults, warnings): (&[ConstantFault], &[ir::Warning]),
) -> TokenStream {
    let model = hygiene::model_type(&system.name, system.name_span);
    let gen = Gen {
        system,
        code,
        layout,
        tables,
        state: hygiene::state_type(&model),
        module: hygiene::hidden_module(&model, input),
        model,
        constant_faults,
        warnings,
    };
    gen.generate()
}

impl Gen<'_> {
    fn generate(&self) -> TokenStream {
        let (model, state, module) = (&self.model, &self.state, &self.module);
        let storage = self.storage_type();
        let (state_derives, state_equality) = self.state_equality();
        let initial = self.initial_storage();
        let accessors = self.accessors();
        let functions = self.transition_functions();
        let successors = self.successors_body();
        let state_word_impl = self.state_word_impl();
        let info = self.info();
        let decode = self.decode_body();
        let (invariant_functions, check_invariants) = self.invariants();
        let (operand_functions, operands_method) = self.operands();
        let (atom_table, atom_methods) = self.vacuity();
        let (property_table, property_methods) = self.properties();
        let (heuristic_table, heuristic_methods) = self.heuristics();
        let property_names = self.system.properties.iter().map(|p| &p.name);
        let properties_doc = doc(&self.properties_doc());
        let end_state = self.end_state_body();
        let state_word = self.state_word();
        let state_words = self.state_words();
        let ample_safe = self.ample_safe();
        let symmetry_methods = self.symmetry_methods();
        let heap_items = self.heap_items();
        // What the model cannot need is not compiled: the search over a quotient for a model
        // whose group is trivial, the product searches for a model without `ltl`.
        let has_symmetry = self
            .tables
            .symmetry
            .families
            .iter()
            .any(|family| family.permuted.len() >= 2);
        let has_ltl = self
            .system
            .properties
            .iter()
            .any(|property| property.automaton.is_some());
        let symmetry_doc = doc(&format!(
            "The symmetry `bir!` found in this model, one line per `active [N]` family: the\n\
             permutations of its instances that nothing in the model can tell apart (what\n\
             `Checker::symmetry(true)` reduces by), and why not more.\n\n{}",
            self.symmetry_text()
        ));
        let symmetry_text = self.symmetry_text();
        let model_doc = doc(&model_doc(
            self.system,
            self.layout,
            self.code.transitions.len(),
        ));
        let state_doc = doc(&format!(
            "A state of [`{model}`], packed into {} bits ({} used).",
            self.layout.words * self.layout.word_bits,
            self.layout.used_bits
        ));
        let (bool, i64) = (prim("bool"), prim("i64"));
        let items = quote! {
            #model_doc
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

            #state_doc
            #[derive(::core::clone::Clone, ::core::marker::Copy, #state_derives)]
            pub struct #state(#storage);

            #state_equality

            impl #model {
                /// A checker for this model, to configure and run.
                pub fn checker() -> ::bir::Checker<#model> {
                    ::bir::Checker::new(#model)
                }

                #properties_doc
                pub const PROPERTIES: &'static [&'static ::core::primitive::str] =
                    &[#(#property_names),*];

                #symmetry_doc
                pub const SYMMETRY: &'static ::core::primitive::str = #symmetry_text;
            }

            #[allow(
                unused,
                unreachable_code,
                unused_parens,
                non_snake_case,
                clippy::all,
                clippy::pedantic,
                clippy::nursery
            )]
            const _: () = {
                impl #state {
                    #accessors
                }

                #info
                #state_word_impl
                #heap_items

                /// The successors of `state`, appended to `out`: the body of
                /// `Model::successors`, of `Model::__successors_to`, and, as words, of
                /// `Model::__successors_as_words`.
                #[inline(always)]
                fn successors_into<O: ::bir::__private::Sink<#state>>(state: &#state, out: &mut O) {
                    #successors
                }

                #functions
                #invariant_functions
                #operand_functions
                #atom_table
                #property_table
                #heuristic_table

                #[automatically_derived]
                impl ::bir::Model for #model {
                    type State = #state;

                    fn info(&self) -> &::bir::model::ModelInfo {
                        &INFO
                    }

                    fn initial_state(&self) -> #state {
                        #state(#initial)
                    }

                    fn successors(
                        &self,
                        state: &#state,
                        out: &mut ::std::vec::Vec<::bir::model::Successor<#state>>,
                    ) {
                        successors_into(state, out);
                    }

                    #[inline]
                    fn __successors_to<K: ::bir::__private::Sink<#state>>(
                        &self,
                        state: &#state,
                        sink: &mut K,
                        _: &mut ::std::vec::Vec<::bir::model::Successor<#state>>,
                    ) {
                        successors_into(state, sink);
                    }

                    fn check_invariants(
                        &self,
                        state: &#state,
                    ) -> ::core::result::Result<(), ::bir::model::InvariantFailure> {
                        #check_invariants
                    }

                    fn is_end_state(&self, state: &#state) -> #bool {
                        #end_state
                    }

                    fn decode(&self, state: &#state, values: &mut ::std::vec::Vec<#i64>) {
                        #decode
                    }

                    #state_word

                    #state_words

                    #ample_safe

                    #operands_method

                    #atom_methods
                    const HAS_SYMMETRY: #bool = #has_symmetry;
                    const HAS_LTL: #bool = #has_ltl;

                    // Debug builds run the search compiled once in `bir-runtime`; release
                    // builds their own copy (unless the feature `quick-build` is on). Two
                    // methods under `cfg` rather than `if cfg!(..)`: rustc walks the code
                    // of an untaken branch too, here a whole search per model.
                    #[cfg(debug_assertions)]
                    fn __check<C: ::bir::__private::Call>(&self, call: C) -> C::Output {
                        call.erased(self)
                    }

                    #[cfg(not(debug_assertions))]
                    fn __check<C: ::bir::__private::Call>(&self, call: C) -> C::Output {
                        call.release(self)
                    }

                    #symmetry_methods

                    #property_methods

                    #heuristic_methods
                }

                #[automatically_derived]
                impl ::core::fmt::Display for #state {
                    fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                        let mut values = ::std::vec::Vec::new();
                        ::bir::Model::decode(&#model, self, &mut values);
                        ::core::fmt::Display::fmt(&::bir::StateDisplay::new(&INFO, &values), f)
                    }
                }

                #[automatically_derived]
                impl ::core::fmt::Debug for #state {
                    fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                        ::core::write!(f, "{}State {{ {} }}", INFO.name, self)
                    }
                }
            };
        };
        let warnings = warnings::warnings(
            self.warnings
                .iter()
                .map(|warning| (warning.spans.first, warning.message.as_str()))
                .chain(
                    self.constant_faults
                        .iter()
                        .map(|fault| (fault.spans.first, fault.message.as_str())),
                ),
        );
        // The warnings stand outside the module, so that rustc names the item it warns
        // about without the module's hashed name.
        quote! {
            #[allow(non_snake_case)]
            mod #module {
                #items
            }
            #[allow(unused_imports)]
            pub use #module::#model;
            #warnings
        }
    }
}

impl Gen<'_> {
    /// `Model::ample_safe`: per transition, whether its instance may be expanded alone
    /// (partial-order reduction); nothing when no location is safe.
    fn ample_safe(&self) -> TokenStream {
        if !self.code.safe.contains(&true) {
            return TokenStream::new();
        }
        let flags = &self.code.safe;
        let bool = prim("bool");
        quote! {
            fn ample_safe(&self) -> &'static [#bool] {
                &[#(#flags),*]
            }
        }
    }

    /// Whether the state is one word of at most 63 bits (`Model::WORD_STATE`).
    fn is_word_state(&self) -> bool {
        self.layout.words == 1 && self.layout.used_bits < 64
    }

    /// For states of at most 63 bits, the state as its word for the successor function's
    /// `Words` sink (`Model::__successors_as_words`).
    fn state_word_impl(&self) -> TokenStream {
        if !self.is_word_state() {
            return TokenStream::new();
        }
        let state = &self.state;
        let u64 = prim("u64");
        quote! {
            impl ::bir::__private::StateWord for #state {
                #[inline(always)]
                fn word(self) -> #u64 {
                    #u64::from(self.0)
                }
            }
        }
    }

    /// `Model::state_word` for states of at most 63 bits: the storage word itself, which is
    /// never `u64::MAX` because its top bit is unused.
    fn state_word(&self) -> TokenStream {
        if !self.is_word_state() {
            return TokenStream::new();
        }
        let state = &self.state;
        let u64 = prim("u64");
        let word = if self.layout.word_bits == 64 {
            quote!(state.0)
        } else {
            quote!(#u64::from(state.0))
        };
        let bits = self.layout.used_bits;
        let (u32, bool) = (prim("u32"), prim("bool"));
        let storage = self.word_type();
        quote! {
            fn state_word(&self, state: &#state) -> ::core::option::Option<#u64> {
                ::core::option::Option::Some(#word)
            }

            fn state_word_bits(&self) -> ::core::option::Option<#u32> {
                ::core::option::Option::Some(#bits)
            }

            const WORD_STATE: ::core::primitive::bool = true;

            fn __successors_as_words(
                &self,
                word: #u64,
                out: &mut ::std::vec::Vec<::bir::model::Successor<#u64>>,
            ) -> #bool {
                match #storage::try_from(word) {
                    ::core::result::Result::Ok(word) => {
                        successors_into(&#state(word), &mut ::bir::__private::Words(out));
                        true
                    }
                    ::core::result::Result::Err(_) => false,
                }
            }
        }
    }
}

impl Gen<'_> {
    /// `Model::write_state_words` and `Model::state_from_words`: the storage's words as they
    /// are, for sending states between processes.
    fn state_words(&self) -> TokenStream {
        let state = &self.state;
        let (u64, bool) = (prim("u64"), prim("bool"));
        let (write, read) = if self.layout.words == 1 {
            let word = self.word_type();
            (
                quote!(out.push(#u64::from(state.0))),
                quote! {
                    match words {
                        [word] => #word::try_from(*word).ok().map(#state),
                        _ => ::core::option::Option::None,
                    }
                },
            )
        } else {
            let words = self.layout.words as usize;
            (
                quote!(out.extend_from_slice(&state.0)),
                quote!(<[#u64; #words]>::try_from(words).ok().map(#state)),
            )
        };
        quote! {
            fn write_state_words(
                &self,
                state: &#state,
                out: &mut ::std::vec::Vec<#u64>,
            ) -> #bool {
                #write;
                true
            }

            fn state_from_words(&self, words: &[#u64]) -> ::core::option::Option<#state> {
                #read
            }
        }
    }
}

/// The doc comment of the model type: the system's own docs and its shape.
fn model_doc(system: &ir::System, layout: &Layout, transitions: usize) -> String {
    let mut doc = String::new();
    if !system.doc.is_empty() {
        doc.push_str(&system.doc);
        doc.push_str("\n\n");
    }
    doc.push_str(&format!(
        "The BIR system `{}`: {} thread instance(s), {} transition(s), states of {} bits \
         ({} bytes). Check it with `{}::checker().run()`.",
        system.name,
        system.instance_count(),
        transitions,
        layout.used_bits,
        layout.state_bytes(),
        system.name
    ));
    doc
}

/// The primitive type `name`, by its absolute path.
fn prim(name: &str) -> TokenStream {
    let name = Ident::new(name, proc_macro2::Span::call_site());
    quote!(::core::primitive::#name)
}

/// Doc attributes holding `text`, one per line, each line after a space (as `///` writes
/// them).
fn doc(text: &str) -> TokenStream {
    text.lines()
        .map(|line| {
            let line = if line.is_empty() {
                String::new()
            } else {
                format!(" {line}")
            };
            quote!(#[doc = #line])
        })
        .collect()
}

/// An `i64` literal, negative values included (as a negation, which binds like a unary
/// operator).
fn lit_i64(value: i64) -> TokenStream {
    if value == i64::MIN {
        let i64 = prim("i64");
        quote!(#i64::MIN)
    } else if value < 0 {
        let magnitude = Literal::i64_suffixed(-value);
        quote!(-#magnitude)
    } else {
        let literal = Literal::i64_suffixed(value);
        quote!(#literal)
    }
}

/// A `u32` literal.
fn lit_u32(value: u32) -> TokenStream {
    let literal = Literal::u32_suffixed(value);
    quote!(#literal)
}
