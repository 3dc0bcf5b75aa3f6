//! BIR's reserved words, and peeking and parsing them. Rust's tokenizer delivers every
//! keyword (Rust's `do`, `in`, `return`, `const`, `enum` as well as BIR's `loc`, `when`)
//! as an identifier, so keywords are recognised by their text, in this one place.

use proc_macro2::Span;
use syn::ext::IdentExt;
use syn::parse::ParseStream;
use syn::Ident;

/// Words that are never names (LANGUAGE.md, "Reserved words").
pub const RESERVED: &[&str] = &[
    "system",
    "const",
    "typealias",
    "enum",
    "invariant",
    "boolean",
    "int",
    "wrap",
    "byte",
    "active",
    "thread",
    "loc",
    "when",
    "do",
    "goto",
    "return",
    "exit",
    "assert",
    "assume",
    "start",
    "true",
    "false",
    "forall",
    "exists",
    "in",
];

/// True when `text` is a reserved word.
pub fn is_reserved(text: &str) -> bool {
    RESERVED.contains(&text)
}

/// True when the next token is the identifier `keyword`.
pub fn peek(input: ParseStream, keyword: &str) -> bool {
    input
        .cursor()
        .ident()
        .is_some_and(|(ident, _)| ident == keyword)
}

/// Parses the identifier `keyword` and returns its span.
pub fn parse(input: ParseStream, keyword: &str) -> syn::Result<Span> {
    if peek(input, keyword) {
        let ident = Ident::parse_any(input)?;
        Ok(ident.span())
    } else {
        Err(input.error(format!("expected `{keyword}`")))
    }
}

/// Parses `keyword` if it is next, returning its span.
pub fn parse_if(input: ParseStream, keyword: &str) -> syn::Result<Option<Span>> {
    if peek(input, keyword) {
        parse(input, keyword).map(Some)
    } else {
        Ok(None)
    }
}
