//! The drivers: the entry points that take a model from somewhere other than the tokens
//! of a `bir!` body. [`expand_in`], what the `bir!` macro calls, expands a body
//! `file = "path"` from that file ([`mod@file`]) and any other body as written; [`source`]
//! runs the front end on a model given as text (for the command line tool, the interpreter
//! and `bir!(file = ...)`) and prints its errors and warnings as rustc prints them. They run
//! the stages through `crate::pipeline`, as `bir!` does, and add only reading the text and
//! placing the messages in it; no stage calls them.

pub mod file;
pub mod source;

use proc_macro2::TokenStream;

/// Expands the body of a `bir!` invocation into the generated model checker, or into the
/// errors found and a stub of the system's type. A body `file = "path"` reads the model from
/// that file, relative to `base` (see [`mod@file`]).
pub fn expand_in(input: TokenStream, base: &std::path::Path) -> TokenStream {
    if file::is_file_argument(&input) {
        file::expand(input, base)
    } else {
        crate::pipeline::expand(input)
    }
}
