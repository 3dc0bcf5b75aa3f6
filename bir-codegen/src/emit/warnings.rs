//! Compiler warnings, which stable Rust gives a procedural macro no API for: each warning is
//! the use of a `#[deprecated]` constant whose note is the warning's text, spanned at the
//! token the warning is about, so that rustc reports a `deprecated` warning with that note
//! there. Users silence it as any other, with `#[allow(deprecated)]` on an item around the
//! `bir!` invocation (or on the crate).

use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

/// One warning per `(span, message)`, at `span`: a `const _` item each, which defines
/// nothing and costs nothing at run time.
pub(crate) fn warnings<'a>(found: impl IntoIterator<Item = (Span, &'a str)>) -> TokenStream {
    found
        .into_iter()
        .map(|(span, message)| {
            // Rule: rustc reports the use of a deprecated item on its path's last segment,
            // a single token, so the warning underlines one token (the operand's first).
            let used = Ident::new("BIR_WARNING", span);
            quote! {
                const _: () = {
                    #[deprecated(note = #message)]
                    const BIR_WARNING: () = ();
                    #used
                };
            }
        })
        .collect()
}
