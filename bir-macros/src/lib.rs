//! The `bir!` procedural macro. All the work is done by [`bir_codegen::expand`], a plain
//! library function that is unit-tested on `proc_macro2` token streams; this crate only
//! converts the token stream types. Use the macro through the `bir` crate.

/// Checks a BIR `system` at compile time and generates its model checker: a unit struct
/// named after the system implementing `bir::Model`, with `Name::checker()` and
/// `Name::PROPERTIES`. Every mistake in the model is a compile error on its token.
///
/// The model can also live in a file of its own, read at compile time and rebuilt when it
/// changes: `bir!(file = "models/lock.bir");` (relative to the directory of the invoking
/// source file, as `include_str!`). Errors in the file are reported on the path, each with
/// its file, line and column, the source line and carets.
///
/// The language it accepts, its semantics and its limits follow.
///
// `LANGUAGE.md` links to `docs/LANGUAGE.md`, so that the packaged crate carries it.
#[doc = include_str!("../LANGUAGE.md")]
#[proc_macro]
pub fn bir(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    // `file = "..."` paths are relative to the invoking file's directory, as
    // `include_str!`'s are; the crate's directory where the compiler does not say.
    let base = proc_macro::Span::call_site()
        .local_file()
        .and_then(|file| file.parent().map(std::path::Path::to_path_buf))
        // A relative file name is relative to the compiler's working directory.
        .and_then(|dir| Some(std::env::current_dir().ok()?.join(dir)))
        .unwrap_or_else(bir_codegen::drive::file::default_base);
    bir_codegen::expand_in(input.into(), &base).into()
}
