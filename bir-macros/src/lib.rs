//! The `bir!` procedural macro. All the work is done by [`bir_codegen::expand`], a plain
//! library function that is unit-tested on `proc_macro2` token streams; this crate only
//! converts the token stream types. Use the macro through the `bir` crate.

/// Checks a BIR `system` at compile time and generates its model checker; see the `bir` crate.
#[proc_macro]
pub fn bir(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    bir_codegen::expand(input.into()).into()
}
