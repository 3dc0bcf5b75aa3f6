//! `bir!(file = "models/x.bir")`: the model read from a file at compile time.
//!
//! The path is relative to the directory of the source file that invokes the macro, as
//! `include_str!`'s is (or, where the compiler does not say which file that is, to the
//! crate's `Cargo.toml`). The expansion includes the file with `include_str!`, so that
//! cargo rebuilds when it changes. Errors in the model cannot be spanned in a file that
//! is not Rust source, so each is reported on the path literal with the place in the
//! file written out as rustc writes it: the file, line and column, the source line and
//! carets. So are the model's warnings (see [`crate::analyse::faults`]).

use std::path::{Path, PathBuf};

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::parse::{Parse, ParseStream};
use syn::LitStr;

use super::source;
use crate::check::Overrides;
use crate::diag::Diagnostics;
use crate::pipeline::{self, Warnings};

/// The most model text read from a file, as `bir check` reads.
pub const MAX_FILE_BYTES: u64 = 16 << 20;

/// The argument of `bir!(file = "...")`.
struct FileArgument {
    path: LitStr,
}

impl Parse for FileArgument {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let keyword: syn::Ident = input.parse()?;
        if keyword != "file" {
            return Err(syn::Error::new(keyword.span(), "expected `file`"));
        }
        input.parse::<syn::Token![=]>()?;
        let path = input.parse()?;
        if !input.is_empty() {
            return Err(input.error("expected only `file = \"path/to/model.bir\"`"));
        }
        Ok(FileArgument { path })
    }
}

/// True when a `bir!` body is `file = ...` rather than a system.
pub fn is_file_argument(input: &TokenStream) -> bool {
    let mut tokens = input.clone().into_iter();
    matches!(tokens.next(), Some(proc_macro2::TokenTree::Ident(ident)) if ident == "file")
        && matches!(tokens.next(), Some(proc_macro2::TokenTree::Punct(p)) if p.as_char() == '=')
}

/// Expands `file = "path"`: reads the model (relative to `base`), checks it, reports its
/// errors with their places in the file, or expands it as if written inside `bir!`.
pub fn expand(input: TokenStream, base: &Path) -> TokenStream {
    let argument: FileArgument = match syn::parse2(input) {
        Ok(argument) => argument,
        Err(error) => return error.to_compile_error(),
    };
    let span = argument.path.span();
    let written = argument.path.value();
    let path = base.join(&written);
    let text = match read(&path) {
        Ok(text) => text,
        Err(message) => return error_at(span, &format!("cannot read `{written}`: {message}")),
    };
    let located = check_located(&text, &written);
    let tokens: TokenStream = match text.parse() {
        Ok(tokens) => tokens,
        Err(_) => {
            let errors = located.err().unwrap_or_default();
            return errors
                .iter()
                .map(|message| error_at(span, message))
                .collect();
        }
    };
    let model = match located {
        Ok(warnings) => {
            let model = match generate_located(&text) {
                Some(model) => model,
                None => pipeline::generate(tokens, &Overrides::default(), Warnings::Elsewhere),
            };
            let warnings = crate::emit::warnings::warnings(
                warnings.iter().map(|warning| (span, warning.trim_end())),
            );
            quote!(#model #warnings)
        }
        // The errors, and the stub of the system's type so that code naming it compiles.
        Err(rendered) => {
            let stub = crate::emit::fallback::expand(&tokens, &Diagnostics::default());
            let errors = rendered.iter().map(|message| error_at(span, message));
            quote!(#(#errors)* #stub)
        }
    };
    let absolute = path.canonicalize().unwrap_or(path).display().to_string();
    quote! {
        #model
        // Cargo rebuilds this crate when the model file changes.
        const _: &::core::primitive::str = ::core::include_str!(#absolute);
    }
}

/// The directory paths are relative to when the compiler does not name the invoking file:
/// the crate's, from `CARGO_MANIFEST_DIR`.
pub fn default_base() -> PathBuf {
    std::env::var_os("CARGO_MANIFEST_DIR").map_or_else(PathBuf::new, PathBuf::from)
}

/// The file's text, at most [`MAX_FILE_BYTES`] of UTF-8.
fn read(path: &Path) -> Result<String, String> {
    let metadata = std::fs::metadata(path).map_err(|e| e.to_string())?;
    if metadata.len() > MAX_FILE_BYTES {
        return Err(format!("larger than {} MiB", MAX_FILE_BYTES >> 20));
    }
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "not UTF-8 text (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        )
    })
}

/// Runs the front end on `text` with lines and columns (`proc_macro2`'s own tokenizer,
/// forced for the duration: inside a macro the compiler's gives every token of a string
/// the macro's span), and renders each of its warnings, or of its errors if any, with its
/// place in the file.
fn check_located(text: &str, path: &str) -> Result<Vec<String>, Vec<String>> {
    proc_macro2::fallback::force();
    let render = |diagnostics: &[crate::diag::Diagnostic]| -> Vec<String> {
        diagnostics
            .iter()
            .map(|diagnostic| source::located(diagnostic, path, text))
            .collect()
    };
    let result = match source::front_end(text, &Overrides::default()) {
        Ok(system) => Ok(render(&source::warnings(&system))),
        Err(errors) => Err(render(&errors)),
    };
    proc_macro2::fallback::unforce();
    result
}

/// The checker generated from `text` with the lines of the file in its traces: tokens
/// parsed by the compiler here carry the macro's call site, whose line every step, assertion
/// and invariant would name, so the model is parsed and generated with proc-macro2's own
/// tokens (which know their place in `text`) and the code handed back to the compiler as
/// text. Every span of the result is the call site, as those of `text.parse()` are. `None`
/// when the text does not go through (it always does after [`check_located`] accepted it).
fn generate_located(text: &str) -> Option<TokenStream> {
    proc_macro2::fallback::force();
    let generated = text.parse::<TokenStream>().ok().map(|tokens| {
        pipeline::generate(tokens, &Overrides::default(), Warnings::Elsewhere).to_string()
    });
    proc_macro2::fallback::unforce();
    generated?.parse().ok()
}

/// `compile_error!` with `message` on `span`.
fn error_at(span: Span, message: &str) -> TokenStream {
    let message = message.trim_end();
    quote_spanned!(span=> ::core::compile_error! { #message })
}
