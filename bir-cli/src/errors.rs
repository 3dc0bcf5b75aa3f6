//! Errors that stop a command before any search: a model that is malformed or cannot be
//! read, options that cannot run together; and the warnings of a model that compiles, which
//! stop nothing. On stderr as rustc prints them; errors with `--json` also as one JSON
//! object on stdout:
//!
//! ```json
//! { "file": "bad.bir", "verdict": "malformed",
//!   "errors": [ { "message": "...", "line": 3, "column": 7,
//!                 "span": { "start": { "line": 3, "column": 7 }, "end": { "line": 3, "column": 8 } },
//!                 "notes": [ { "message": "...", "line": 2, "column": 11, "span": ... } ],
//!                 "rendered": "error: ...\n --> bad.bir:3:7\n..." } ] }
//! ```
//!
//! Lines and columns are 1-based, as printed; `line`, `column` and `span` are null for an
//! error with no place in the file (an unreadable file, options that cannot run together).
//! `end` is the position just after the offending tokens.

use std::io::Write as _;

use bir_codegen::diag::Diagnostic;
use bir_codegen::diag::Spans;
use serde::Serialize;

/// The JSON object of a command's errors.
#[derive(Serialize)]
struct JsonErrors {
    file: String,
    /// Always `malformed`: no search ran.
    verdict: &'static str,
    errors: Vec<JsonError>,
}

/// One error.
#[derive(Serialize)]
struct JsonError {
    message: String,
    line: Option<usize>,
    column: Option<usize>,
    span: Option<JsonSpan>,
    notes: Vec<JsonNote>,
    /// The error as printed on stderr.
    rendered: String,
}

/// A place an error involves besides its own.
#[derive(Serialize)]
struct JsonNote {
    message: String,
    line: Option<usize>,
    column: Option<usize>,
    span: Option<JsonSpan>,
}

/// From the first offending character to just after the last.
#[derive(Serialize)]
struct JsonSpan {
    start: JsonPosition,
    end: JsonPosition,
}

/// A 1-based line and column.
#[derive(Serialize)]
struct JsonPosition {
    line: usize,
    column: usize,
}

/// Prints the errors of the model `source` read from `path`: rendered on stderr and, with
/// `json`, as one object on stdout.
pub fn model_errors(errors: &[Diagnostic], path: &str, source: &str, json: bool) {
    eprint!(
        "{}",
        bir_codegen::drive::source::render(errors, path, source)
    );
    if json {
        let errors = errors
            .iter()
            .map(|error| {
                let place = span(&error.spans);
                JsonError {
                    message: error.message.clone(),
                    line: place.as_ref().map(|s| s.start.line),
                    column: place.as_ref().map(|s| s.start.column),
                    span: place,
                    notes: error
                        .notes
                        .iter()
                        .map(|note| {
                            let span = span(&note.spans);
                            JsonNote {
                                message: note.message.clone(),
                                line: span.as_ref().map(|s| s.start.line),
                                column: span.as_ref().map(|s| s.start.column),
                                span,
                            }
                        })
                        .collect(),
                    rendered: format!(
                        "error: {}",
                        bir_codegen::drive::source::located(error, path, source)
                    ),
                }
            })
            .collect();
        print(path, errors);
    }
}

/// Prints the warnings of the model `source` read from `path` on stderr, each as
/// `bir: warning: ` and the message, then its place as an error's (the warnings of a model
/// that compiles: nothing stops, and the JSON output has none).
pub fn model_warnings(warnings: &[Diagnostic], path: &str, source: &str) {
    for warning in warnings {
        // A blank line after each, as rustc separates its diagnostics.
        eprintln!(
            "bir: warning: {}",
            bir_codegen::drive::source::located(warning, path, source)
        );
    }
}

/// Prints a one-line error that has no place in the model: `bir: error: ...` on stderr
/// and, with `json`, one object on stdout.
pub fn one_line(message: &str, path: &str, json: bool) {
    eprintln!("bir: error: {message}");
    if json {
        let error = JsonError {
            message: message.to_string(),
            line: None,
            column: None,
            span: None,
            notes: Vec::new(),
            rendered: format!("bir: error: {message}\n"),
        };
        print(path, vec![error]);
    }
}

fn print(path: &str, errors: Vec<JsonError>) {
    let object = JsonErrors {
        file: path.to_string(),
        verdict: "malformed",
        errors,
    };
    if let Ok(text) = serde_json::to_string_pretty(&object) {
        let _ = writeln!(std::io::stdout().lock(), "{text}");
    }
}

/// The 1-based span of `spans`, or `None` where they carry no place (line 0).
fn span(spans: &Spans) -> Option<JsonSpan> {
    let (start, end) = (spans.first.start(), spans.last.end());
    (start.line > 0).then(|| JsonSpan {
        start: JsonPosition {
            line: start.line,
            column: start.column + 1,
        },
        end: JsonPosition {
            line: end.line,
            column: end.column + 1,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_are_one_based() {
        let source = "system S {\n  boolean x;\n  int x;\n}\n";
        let Err(errors) = bir_codegen::drive::source::front_end(source, &Default::default()) else {
            panic!("a duplicate");
        };
        let span = span(&errors[0].spans).expect("a place");
        assert_eq!((span.start.line, span.start.column), (3, 7));
        assert_eq!((span.end.line, span.end.column), (3, 8));
    }
}
