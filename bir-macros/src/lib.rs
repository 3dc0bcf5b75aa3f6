//! The `bir!` procedural macro. All the work is done by [`bir_codegen::expand`], a plain
//! library function that is unit-tested on `proc_macro2` token streams; this crate only
//! converts the token stream types. Use the macro through the `bir` crate.

/// Checks a BIR `system` at compile time and generates its model checker: a unit struct
/// named after the system implementing `bir::Model`, with `Name::checker()` and
/// `Name::PROPERTIES`. Every mistake in the model is a compile error on its token.
///
/// The language it accepts, its semantics and its limits follow.
///
#[doc = include_str!("../../docs/LANGUAGE.md")]
#[proc_macro]
pub fn bir(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    bir_codegen::expand(input.into()).into()
}
