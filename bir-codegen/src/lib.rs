//! Parser, checker and code generator behind the `bir!` macro, as a plain library so that
//! each stage is unit-tested on `proc_macro2` token streams and reused by tools.
//!
//! Data flows one way, through one module per stage, as [`expand`] reads: tokens →
//! [`parse`] → [`ast::System`] → [`check`] → [`ir::System`] → [`analyse`] →
//! [`analyse::Analysis`] → `lower` → lowered code → [`layout`] → [`layout::Layout`] →
//! [`tables`] → [`tables::Tables`] → `emit` → Rust tokens. A stage reads what the earlier
//! ones produced and never calls a later one.
//! Errors are collected in [`diag::Diagnostics`]; after a stage that reported errors,
//! `fallback` expands to the errors plus a stub of the system's type so that user code
//! naming it still compiles.

pub mod analyse;
pub mod check;
pub mod diag;
pub mod emit;
pub mod export;
pub mod file;
pub mod front;
pub mod ir;
mod lower;
pub mod ltl;
pub mod source;

use proc_macro2::TokenStream;

use crate::diag::Diagnostics;

pub use check::{Override, Overrides};

/// Parses and checks a `bir!` body: the checked model, or every error found.
pub fn front_end(input: TokenStream) -> Result<ir::System, Diagnostics> {
    front_end_with(input, &Overrides::default())
}

/// Like [`front_end`], with the named constants of `overrides` replaced by their values
/// (see [`Overrides`]); used by tools to check a model family at any size.
///
/// The front end is what `bir!` runs before lowering: parse, check and analyse, so that a
/// model it accepts is one the macro accepts, limits included.
pub fn front_end_with(
    input: TokenStream,
    overrides: &Overrides,
) -> Result<ir::System, Diagnostics> {
    let mut diags = Diagnostics::default();
    let Some(ast) = parse(input, &mut diags) else {
        return Err(diags);
    };
    let Some(system) = check::check_with(&ast, overrides, &mut diags) else {
        return Err(diags);
    };
    match analyse::analyse(&system, &mut diags) {
        Some(_) => Ok(system),
        None => Err(diags),
    }
}

/// Expands the body of a `bir!` invocation into the generated model checker, or into the
/// errors found and a stub of the system's type. A body `file = "path"` reads the model from
/// that file, relative to `base` (see [`mod@file`]).
pub fn expand_in(input: TokenStream, base: &std::path::Path) -> TokenStream {
    if file::is_file_argument(&input) {
        file::expand(input, base)
    } else {
        expand(input)
    }
}

/// Expands the body of a `bir!` invocation (a `system`) into the generated model checker,
/// or into the errors found and a stub of the system's type.
pub fn expand(input: TokenStream) -> TokenStream {
    expand_with(input, &Overrides::default())
}

/// Like [`expand`], with the named constants of `overrides` replaced by their values (see
/// [`Overrides`]): what `bir check --set` compiles, so that the generated checker and the
/// interpreter check the same model.
pub fn expand_with(input: TokenStream, overrides: &Overrides) -> TokenStream {
    generate(input, overrides, Warnings::AtTheirTokens)
}

/// Where the expansion reports the model's warnings ([`analyse::faults`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Warnings {
    /// Each on the tokens it is about.
    AtTheirTokens,
    /// Not at all: the caller reports them (a model read from a file, whose tokens have no
    /// place in the Rust source).
    Elsewhere,
}

/// [`expand_with`], reporting the model's warnings as `warnings` says.
fn generate(input: TokenStream, overrides: &Overrides, warnings: Warnings) -> TokenStream {
    let mut diags = Diagnostics::default();
    let Some(ast) = parse(input.clone(), &mut diags) else {
        return emit::fallback::expand(&input, &diags);
    };
    let Some(system) = check::check_with(&ast, overrides, &mut diags) else {
        return emit::fallback::expand(&input, &diags);
    };
    let Some(analysis) = analyse::analyse(&system, &mut diags) else {
        return emit::fallback::expand(&input, &diags);
    };
    let code = lower::lower(&system, &analysis);
    let layout = emit::layout::Layout::new(&system);
    let tables =
        emit::tables::Tables::new(&system, &layout).with_symmetry(&system, &analysis.symmetry);
    let constant_faults = match warnings {
        Warnings::AtTheirTokens => &analysis.constant_faults[..],
        Warnings::Elsewhere => &[],
    };
    emit::emit(&system, &code, &layout, &tables, &input, constant_faults)
}

/// [`front::parse::parse`], its errors recorded in `diags`.
fn parse(input: TokenStream, diags: &mut Diagnostics) -> Option<front::ast::System> {
    front::parse::parse(input)
        .map_err(|errors| diags.extend_syn(errors))
        .ok()
}
