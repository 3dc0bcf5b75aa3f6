//! The front end, tokens to syntax tree: [`parse`] reads a `bir!` body (a `proc_macro2`
//! token stream) into an [`ast::System`], the model exactly as written, with the spans of
//! every construct for the diagnostics. BIR's reserved words are recognised in one place
//! (`kw`), and the tree prints back as BIR text (`print`, the `Display` of its nodes, as
//! traces and messages show them). Nothing here knows what a name means: that is
//! [`check`](crate::check)'s job.

pub mod ast;
pub(crate) mod kw;
pub mod parse;
mod print;
