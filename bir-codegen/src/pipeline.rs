//! The stages run in order: [`front_end`] (parse, check, analyse: what `bir!` accepts,
//! limits included) and [`expand`] (the front end, then lower and emit), stopping after the
//! first stage that reports errors and expanding those with a stub of the system's type
//! ([`emit::fallback`]). The drivers (`crate::drive`) call these; nothing here calls a
//! driver.

use proc_macro2::TokenStream;

use crate::check::{self, Overrides};
use crate::diag::Diagnostics;
use crate::steps;
use crate::{analyse, emit, front, ir, lower};

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
    let Some(system) = checked(&ast, overrides, &mut diags) else {
        return Err(diags);
    };
    match analyse::analyse(&system, &mut diags) {
        Some(_) => Ok(system),
        None => Err(diags),
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
pub(crate) enum Warnings {
    /// Each on the tokens it is about.
    AtTheirTokens,
    /// Not at all: the caller reports them (a model read from a file, whose tokens have no
    /// place in the Rust source).
    Elsewhere,
}

/// [`expand_with`], reporting the model's warnings as `warnings` says.
pub(crate) fn generate(
    input: TokenStream,
    overrides: &Overrides,
    warnings: Warnings,
) -> TokenStream {
    let mut diags = Diagnostics::default();
    let Some(ast) = parse(input.clone(), &mut diags) else {
        return emit::fallback::expand(&input, &diags);
    };
    let Some(system) = checked(&ast, overrides, &mut diags) else {
        return emit::fallback::expand(&input, &diags);
    };
    let Some(analysis) = analyse::analyse(&system, &mut diags) else {
        return emit::fallback::expand(&input, &diags);
    };
    let code = lower::lower(&system, &analysis);
    let layout = emit::layout::Layout::new(&system);
    let tables =
        emit::tables::Tables::new(&system, &layout).with_symmetry(&system, &analysis.symmetry);
    let warnings = match warnings {
        Warnings::AtTheirTokens => (&analysis.constant_faults[..], &system.warnings[..]),
        Warnings::Elsewhere => (&[][..], &[][..]),
    };
    emit::emit(&system, &code, &layout, &tables, &input, warnings)
}

/// [`front::parse::parse`], then [`steps::steps`]: the system with every body made of
/// locations. Syntax errors are recorded in `diags` and end the pipeline; errors of the
/// translation are recorded too, and the checker still runs, so that it reports its own.
fn parse(input: TokenStream, diags: &mut Diagnostics) -> Option<front::ast::System> {
    let mut system = front::parse::parse(input)
        .map_err(|errors| diags.extend_syn(errors))
        .ok()?;
    steps::steps(&mut system, diags);
    Some(system)
}

/// [`check::check_with`], which also reports its own errors when the translation of
/// [`parse`] had some: the system only when neither had any.
fn checked(
    ast: &front::ast::System,
    overrides: &Overrides,
    diags: &mut Diagnostics,
) -> Option<ir::System> {
    let translated = diags.is_empty();
    let system = check::check_with(ast, overrides, diags)?;
    translated.then_some(system)
}
