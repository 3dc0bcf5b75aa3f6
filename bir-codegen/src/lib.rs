//! Parser, checker and code generator behind the `bir!` macro, as a plain library so that
//! each phase is unit-tested on `proc_macro2` token streams and reused by tools.
//!
//! Data flows one way: tokens → [`parse`] → [`ast::System`] → [`check`] →
//! [`ir::System`] → [`layout`] → `emit` → Rust tokens. Errors are collected in
//! [`diag::Diagnostics`]; after a phase that reported errors, `fallback` expands to the
//! errors plus a stub of the system's type so that user code naming it still compiles.

pub mod ast;
pub mod check;
pub mod diag;
mod emit;
mod fallback;
pub mod ir;
mod kw;
pub mod layout;
mod lower;
pub mod ltl;
pub mod parse;
mod print;
pub mod tables;

use proc_macro2::TokenStream;

use crate::diag::Diagnostics;

pub use check::{Override, Overrides};

/// Parses and checks a `bir!` body: the checked model, or every error found.
pub fn front_end(input: TokenStream) -> Result<ir::System, Diagnostics> {
    front_end_with(input, &Overrides::default())
}

/// Like [`front_end`], with the named constants of `overrides` replaced by their values
/// (see [`Overrides`]); used by tools to check a model family at any size.
pub fn front_end_with(
    input: TokenStream,
    overrides: &Overrides,
) -> Result<ir::System, Diagnostics> {
    let mut diags = Diagnostics::default();
    let ast = match parse::parse(input) {
        Ok(ast) => ast,
        Err(errors) => {
            diags.extend_syn(errors);
            return Err(diags);
        }
    };
    match check::check_with(&ast, overrides, &mut diags) {
        Some(system) => Ok(system),
        None => Err(diags),
    }
}

/// Expands the body of a `bir!` invocation into the generated model checker, or into the
/// errors found and a stub of the system's type.
pub fn expand(input: TokenStream) -> TokenStream {
    match front_end(input.clone()) {
        Ok(system) => {
            let layout = layout::Layout::new(&system);
            emit::emit(&system, &layout)
        }
        Err(diags) => fallback::expand(&input, &diags),
    }
}
