//! Doc comments before the system, declarations, threads, functions, locations,
//! transformations and statements: the only attributes BIR accepts.

use proc_macro2::{Delimiter, TokenStream};
use quote::ToTokens;
use syn::parse::{ParseStream, Parser as _};
use syn::{Ident, Token};

/// Doc comments (`///`, which arrive as `#[doc = "..."]`); any other attribute is an error.
pub(super) fn docs(input: ParseStream) -> syn::Result<String> {
    attributes(input, false)
}

/// Inner doc comments (`//!`) at the start of the macro input describe the system.
pub(super) fn inner_docs(input: ParseStream) -> syn::Result<String> {
    attributes(input, true)
}

/// The text of the outer (`#[...]`) or inner (`#![...]`) attributes at the cursor, each of
/// which must be a doc comment. Read token by token rather than with
/// `syn::Attribute::parse_outer`, which parses any attribute's value as a Rust expression,
/// recursively and without a depth limit (`#[doc = !!!...!1]` would overflow the stack).
fn attributes(input: ParseStream, inner: bool) -> syn::Result<String> {
    let mut doc = String::new();
    while input.peek(Token![#]) && (!inner || input.peek2(Token![!])) {
        let pound: Token![#] = input.parse()?;
        let bang = if inner {
            Some(input.parse::<Token![!]>()?)
        } else {
            None
        };
        let group: proc_macro2::Group = input.parse()?;
        if group.delimiter() != Delimiter::Bracket {
            return Err(syn::Error::new(group.span_open(), "expected `[`"));
        }
        match doc_value.parse2(group.stream()) {
            Ok(text) => {
                if !doc.is_empty() {
                    doc.push('\n');
                }
                doc.push_str(text.strip_prefix(' ').unwrap_or(&text));
            }
            Err(_) => {
                let mut attr = TokenStream::new();
                pound.to_tokens(&mut attr);
                bang.to_tokens(&mut attr);
                group.to_tokens(&mut attr);
                return Err(syn::Error::new_spanned(
                    attr,
                    "attributes are not BIR; only doc comments (`///`) may stand before a \
                     declaration, thread, function, location, transformation or statement",
                ));
            }
        }
    }
    Ok(doc)
}

/// The inside of a doc attribute, `doc = "text"`: the text.
fn doc_value(input: ParseStream) -> syn::Result<String> {
    let ident: Ident = input.parse()?;
    if ident != "doc" {
        return Err(syn::Error::new(ident.span(), "expected `doc`"));
    }
    input.parse::<Token![=]>()?;
    let text: syn::LitStr = input.parse()?;
    Ok(text.value())
}
