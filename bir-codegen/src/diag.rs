//! Compile errors: collected by every phase, never thrown, so that a model with several
//! mistakes shows all of them; rendered as `compile_error!` invocations spanning the
//! offending tokens (or, by the command line tool, as text with line and column).

use std::collections::HashSet;

use proc_macro2::{Span, TokenStream};
use quote::quote_spanned;

/// The first and last token of a construct. Diagnostics underline from `first` to `last`.
#[derive(Clone, Copy, Debug)]
pub struct Spans {
    /// The construct's first token.
    pub first: Span,
    /// The construct's last token.
    pub last: Span,
}

impl Spans {
    /// A construct of one token.
    pub fn one(span: Span) -> Spans {
        Spans {
            first: span,
            last: span,
        }
    }

    /// From the start of `self` to the end of `other`.
    pub fn to(self, other: Spans) -> Spans {
        Spans {
            first: self.first,
            last: other.last,
        }
    }
}

/// One compile error: what is wrong and what was expected, on the offending tokens.
#[derive(Clone, Debug)]
pub struct Diagnostic {
    /// The offending tokens: the error underlines from the first to the last.
    pub spans: Spans,
    /// The message users read.
    pub message: String,
    /// Other places the error involves (the first declaration of a duplicate name).
    pub notes: Vec<Note>,
}

/// A place an error involves besides the offending tokens, with what it is.
#[derive(Clone, Debug)]
pub struct Note {
    /// The tokens the note points at.
    pub spans: Spans,
    /// What they are (`` `x` is first declared here ``).
    pub message: String,
}

impl Diagnostic {
    /// Renders as `::core::compile_error! { "message" }` spanning the offending tokens,
    /// followed by one `compile_error!` per note, `note: ` before its text: stable Rust
    /// gives a macro no other way to point at a second place, and the note comes right
    /// after its error whatever its position.
    pub fn to_compile_error(&self) -> TokenStream {
        let mut tokens = compile_error(self.spans, &self.message);
        for note in &self.notes {
            tokens.extend(compile_error(
                note.spans,
                &format!("note: {}", note.message),
            ));
        }
        tokens
    }
}

/// `::core::compile_error! { "message" }` spanning `spans`.
fn compile_error(spans: Spans, message: &str) -> TokenStream {
    let Spans { first, last } = spans;
    let path = quote_spanned!(first=> ::core::compile_error!);
    let body = quote_spanned!(last=> { #message });
    quote_spanned!(last=> #path #body)
}

/// Where a diagnostic starts: its first token's line and column.
fn position(diagnostic: &Diagnostic) -> (usize, usize) {
    let start = diagnostic.spans.first.start();
    (start.line, start.column)
}

/// The errors collected so far. Phases take `&mut Diagnostics`, keep going on bad input,
/// and the driver stops at the first phase boundary where errors exist.
#[derive(Default, Debug)]
pub struct Diagnostics {
    list: Vec<Diagnostic>,
    /// Where each error recorded so far starts and ends, with its message: an error
    /// recorded again is one error (the translation to steps copies a condition into the
    /// guards of several branches, which the checker then checks one by one).
    seen: HashSet<(Position, Position, String)>,
}

/// A line and a column.
type Position = (usize, usize);

impl Diagnostics {
    /// Records an error on `spans`.
    pub fn error(&mut self, spans: Spans, message: impl Into<String>) {
        self.push(Diagnostic {
            spans,
            message: message.into(),
            notes: Vec::new(),
        });
    }

    /// Records an error on `spans` that also points at `note`'s tokens.
    pub fn error_with_note(&mut self, spans: Spans, message: impl Into<String>, note: Note) {
        self.push(Diagnostic {
            spans,
            message: message.into(),
            notes: vec![note],
        });
    }

    /// Records `diagnostic` unless the same error, on the same tokens, is recorded already
    /// (only where the tokens' positions are known).
    fn push(&mut self, diagnostic: Diagnostic) {
        let (start, end) = (diagnostic.spans.first.start(), diagnostic.spans.last.end());
        if start.line > 0 {
            let key = (
                (start.line, start.column),
                (end.line, end.column),
                diagnostic.message.clone(),
            );
            if !self.seen.insert(key) {
                return;
            }
        }
        self.list.push(diagnostic);
    }

    /// Records a duplicate declaration: `message` on the later one (`spans`), and a note
    /// that `name` is first declared at `first`.
    pub fn duplicate(
        &mut self,
        spans: Spans,
        message: impl Into<String>,
        name: &str,
        first: Spans,
    ) {
        let note = Note {
            spans: first,
            message: format!("`{name}` is first declared here"),
        };
        self.error_with_note(spans, message, note);
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

    /// The errors in source order (see [`Diagnostics::into_vec`]).
    pub fn iter(&self) -> impl Iterator<Item = &Diagnostic> {
        let mut sorted: Vec<&Diagnostic> = self.list.iter().collect();
        sorted.sort_by_key(|diagnostic| position(diagnostic));
        sorted.into_iter()
    }

    /// Every error as a `compile_error!` invocation, in source order.
    pub fn to_compile_errors(&self) -> TokenStream {
        self.iter().map(Diagnostic::to_compile_error).collect()
    }

    /// The errors in source order, as rustc reports its own: by the line and column where
    /// each starts; errors at one position keep the order in which they were found (a
    /// stable sort), and so do errors whose position is unknown (line 0), first.
    pub fn into_vec(mut self) -> Vec<Diagnostic> {
        self.list.sort_by_key(position);
        self.list
    }
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use proc_macro2::TokenStream;

    #[test]
    fn errors_are_reported_in_source_order() {
        // The checker finds the errors of thread bodies (the unknown `y`) after those of
        // globals and thread signatures (the duplicate local `z`, on a later line).
        let source = "system S {
            active thread T() {
                loc a: do { y := 1; } goto a;
            }
            active thread U() {
                int z; int z;
                loc b: do { } goto b;
            }
            int (0, 3) x := 4;
        }";
        let tokens = TokenStream::from_str(source).expect("tokenizes");
        let diags = crate::front_end(tokens).expect_err("the model has errors");
        let lines: Vec<usize> = diags.iter().map(|d| d.spans.first.start().line).collect();
        assert_eq!(
            lines,
            [3, 6, 9],
            "{:?}",
            diags.iter().map(|d| &d.message).collect::<Vec<_>>()
        );
        let found: Vec<String> = diags.into_vec().into_iter().map(|d| d.message).collect();
        assert!(found[0].contains("unknown name `y`"), "{found:?}");
        assert!(found[1].contains("duplicate name `z`"), "{found:?}");
        assert!(found[2].contains("initial value 4"), "{found:?}");
    }
}
