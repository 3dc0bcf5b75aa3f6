//! Compile errors: collected by every phase, never thrown, so that a model with several
//! mistakes shows all of them; rendered as `compile_error!` invocations spanning the
//! offending tokens (or, by the command line tool, as text with line and column).

use proc_macro2::{Span, TokenStream};
use quote::quote_spanned;

use crate::ast::Spans;

/// One compile error: what is wrong and what was expected, on the offending tokens.
#[derive(Clone, Debug)]
pub struct Diagnostic {
    /// The offending tokens: the error underlines from the first to the last.
    pub spans: Spans,
    /// The message users read.
    pub message: String,
}

impl Diagnostic {
    /// Renders as `::core::compile_error! { "message" }` spanning the offending tokens.
    pub fn to_compile_error(&self) -> TokenStream {
        let Spans { first, last } = self.spans;
        let path = quote_spanned!(first=> ::core::compile_error!);
        let message = &self.message;
        let body = quote_spanned!(last=> { #message });
        quote_spanned!(last=> #path #body)
    }
}

/// The errors collected so far. Phases take `&mut Diagnostics`, keep going on bad input,
/// and the driver stops at the first phase boundary where errors exist.
#[derive(Default, Debug)]
pub struct Diagnostics {
    list: Vec<Diagnostic>,
}

impl Diagnostics {
    /// Records an error on `spans`.
    pub fn error(&mut self, spans: Spans, message: impl Into<String>) {
        self.list.push(Diagnostic {
            spans,
            message: message.into(),
        });
    }

    /// Records an error on a single token.
    pub fn error_at(&mut self, span: Span, message: impl Into<String>) {
        self.error(Spans::one(span), message);
    }

    /// Records the errors of a `syn` parse.
    pub fn extend_syn(&mut self, errors: impl IntoIterator<Item = syn::Error>) {
        for error in errors.into_iter().flatten() {
            // `syn::Error::span` is only the first token of a spanned error; its
            // `compile_error!` rendering carries the first and the last.
            let rendered: Vec<_> = error.to_compile_error().into_iter().collect();
            let spans = match (rendered.first(), rendered.last()) {
                (Some(first), Some(last)) => Spans {
                    first: first.span(),
                    last: last.span(),
                },
                _ => Spans::one(error.span()),
            };
            self.error(spans, error.to_string());
        }
    }

    /// True when no error has been recorded.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The number of errors recorded.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// The errors, in the order they were found.
    pub fn iter(&self) -> impl Iterator<Item = &Diagnostic> {
        self.list.iter()
    }

    /// Every error as a `compile_error!` invocation.
    pub fn to_compile_errors(&self) -> TokenStream {
        self.list.iter().map(Diagnostic::to_compile_error).collect()
    }

    /// The errors, sorted by position when positions are known so that they read top-down.
    pub fn into_vec(self) -> Vec<Diagnostic> {
        self.list
    }
}
