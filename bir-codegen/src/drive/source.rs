//! Models as text (a `.bir` file, not tokens inside `bir!`): Rust's tokenizer
//! (`proc_macro2`, whose spans carry lines and columns outside a macro), the same front end
//! as `bir!`, and compile errors printed as rustc prints them: the message, the file, line
//! and column, the source line and carets under the offending tokens, then a count; the
//! warnings of a model that compiles ([`warnings`]) are printed the same way. Used by the
//! command line tool, the interpreter, and `bir!(file = "...")`.

use std::fmt::Write;
use std::str::FromStr;

use proc_macro2::{LexError, TokenStream};

use crate::check::Overrides;
use crate::diag::{Diagnostic, Spans};
use crate::ir;

/// Tokenizes and checks `source`: the checked system, or every error found, in source
/// order. Outside a procedural macro (or with `proc_macro2`'s fallback forced) the errors'
/// spans carry lines and columns for [`render`].
pub fn front_end(source: &str, overrides: &Overrides) -> Result<ir::System, Vec<Diagnostic>> {
    let tokens = TokenStream::from_str(source).map_err(|error| vec![lex_error(source, &error)])?;
    crate::pipeline::front_end_with(tokens, overrides).map_err(|diags| diags.into_vec())
}

/// The warnings of a checked model, in source order: the checker's (a rendezvous channel
/// without a sender or a receiver), then the faults its constants make certain (see
/// [`crate::analyse::faults`]), each to print with [`located`].
pub fn warnings(system: &ir::System) -> Vec<Diagnostic> {
    let checker = system.warnings.iter().map(|warning| Diagnostic {
        spans: warning.spans,
        message: warning.message.clone(),
        notes: Vec::new(),
    });
    let faults = crate::analyse::faults::constant_faults(system)
        .into_iter()
        .map(|fault| Diagnostic {
            spans: fault.spans,
            message: fault.message,
            notes: Vec::new(),
        });
    checker.chain(faults).collect()
}

/// A tokenizer error, described by the character it stopped at: an unclosed delimiter (the
/// tokenizer points at the opening one), a stray closing one, or a character that starts no
/// token.
fn lex_error(source: &str, error: &LexError) -> Diagnostic {
    let span = error.span();
    let at = span.start();
    let found = source
        .lines()
        .nth(at.line.saturating_sub(1))
        .and_then(|line| line.chars().nth(at.column));
    let message = match found {
        Some(c @ ('(' | '[' | '{')) => format!("unclosed delimiter `{c}`"),
        Some(c @ (')' | ']' | '}')) => format!("unexpected closing delimiter `{c}`"),
        Some(c) => format!("unexpected character `{c}`: it starts no token"),
        None => "the model cannot be tokenized".to_string(),
    };
    Diagnostic {
        spans: Spans::one(span),
        message,
        notes: Vec::new(),
    }
}

/// Every error of `diagnostics` in `source` (read from `path`), then the count.
pub fn render(diagnostics: &[Diagnostic], path: &str, source: &str) -> String {
    let mut out = String::new();
    for diagnostic in diagnostics {
        render_one(&mut out, diagnostic, path, source);
        out.push('\n');
    }
    let count = diagnostics.len();
    let errors = if count == 1 {
        "1 previous error".to_string()
    } else {
        format!("{count} previous errors")
    };
    let _ = writeln!(out, "error: aborting due to {errors}");
    out
}

/// One error, as rustc prints it.
fn render_one(out: &mut String, diagnostic: &Diagnostic, path: &str, source: &str) {
    out.push_str("error: ");
    out.push_str(&located(diagnostic, path, source));
}

/// One error's message and where it is, then its notes (`note: ...` with their own source
/// lines).
pub fn located(diagnostic: &Diagnostic, path: &str, source: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}", diagnostic.message);
    render_spans(&mut out, &diagnostic.spans, path, source);
    for note in &diagnostic.notes {
        let _ = writeln!(out, "note: {}", note.message);
        render_spans(&mut out, &note.spans, path, source);
    }
    out
}

/// Where `spans` stand: file, line and column, the source line and carets under them.
/// Lines are 1-based and columns 0-based in spans; printed columns are 1-based.
fn render_spans(out: &mut String, spans: &Spans, path: &str, source: &str) {
    let start = spans.first.start();
    let end = spans.last.end();
    let Some(text) = start
        .line
        .checked_sub(1)
        .and_then(|index| source.lines().nth(index))
    else {
        // No position (a span without location): name the file only.
        let _ = writeln!(out, " --> {path}");
        return;
    };
    let number = start.line.to_string();
    let pad = " ".repeat(number.len());
    let _ = writeln!(out, "{pad}--> {path}:{}:{}", start.line, start.column + 1);
    let _ = writeln!(out, "{pad} |");
    let _ = writeln!(out, "{number} | {text}");
    // The carets run to the end of the span on its first line, or to the end of that line.
    let line_chars = text.chars().count();
    let last = if end.line == start.line {
        end.column.min(line_chars)
    } else {
        line_chars
    };
    let width = last.saturating_sub(start.column).max(1);
    // Tabs before the span are kept so that the carets line up under them.
    let indent: String = text
        .chars()
        .take(start.column)
        .map(|c| if c == '\t' { '\t' } else { ' ' })
        .collect();
    let _ = writeln!(out, "{pad} | {indent}{}", "^".repeat(width));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn errors(source: &str) -> Vec<(String, usize, usize)> {
        match front_end(source, &Overrides::default()) {
            Ok(_) => Vec::new(),
            Err(errors) => errors
                .into_iter()
                .map(|d| {
                    let at = d.spans.first.start();
                    (d.message, at.line, at.column)
                })
                .collect(),
        }
    }

    #[test]
    fn tokenizer_errors_say_where_and_what() {
        assert_eq!(
            errors("system S {\n  boolean x;\n"),
            [("unclosed delimiter `{`".to_string(), 1, 9)]
        );
        assert_eq!(
            errors("system S { }\n}"),
            [("unexpected closing delimiter `}`".to_string(), 2, 0)]
        );
        assert_eq!(
            errors("system S {\n  boolean x; \\ }"),
            [(
                "unexpected character `\\`: it starts no token".to_string(),
                2,
                13
            )]
        );
    }

    #[test]
    fn check_errors_carry_lines_and_columns() {
        let found = errors("system S {\n  boolean x;\n  int x;\n}");
        assert_eq!(found.len(), 1);
        assert_eq!((found[0].1, found[0].2), (3, 6));
    }

    fn errors_of(source: &str) -> String {
        match front_end(source, &Overrides::default()) {
            Ok(_) => panic!("the model has no error"),
            Err(diagnostics) => render(&diagnostics, "m.bir", source),
        }
    }

    #[test]
    fn an_error_shows_file_line_column_source_and_carets() {
        let source = "system S {\n  int x;\n  active thread T() {\n    loc l: when x + 1 do {} goto l;\n  }\n}\n";
        let text = errors_of(source);
        let (message, rest) = text.split_once('\n').unwrap();
        assert!(
            message.starts_with("error: ") && message.contains("boolean"),
            "{text}"
        );
        // The carets underline the whole operand `x + 1`, from its first token to its last.
        assert_eq!(
            rest,
            " --> m.bir:4:17\n  |\n4 |     loc l: when x + 1 do {} goto l;\n  |                 ^^^^^\n\n\
             error: aborting due to 1 previous error\n"
        );
    }

    #[test]
    fn a_note_follows_its_error_with_its_own_place() {
        let source = "system S {\n  boolean x;\n  int x;\n}\n";
        let text = errors_of(source);
        assert!(
            text.contains(
                "  |       ^\nnote: `x` is first declared here\n --> m.bir:2:11\n  |\n\
                 2 |   boolean x;\n  |           ^\n"
            ),
            "{text}"
        );
        assert!(
            text.ends_with("error: aborting due to 1 previous error\n"),
            "{text}"
        );
    }

    #[test]
    fn a_warning_shows_its_place_and_underlines_the_whole_operand() {
        let source = "system S {\n  int (0, 3) x;\n  active thread T() {\n    \
                      loc l: do { x := x / (1 - 1); } goto l;\n  }\n}\n";
        let system = front_end(source, &Overrides::default()).expect("the model compiles");
        let found = warnings(&system);
        assert_eq!(found.len(), 1);
        assert_eq!(
            located(&found[0], "m.bir", source),
            "division by zero in `x / (1 - 1)`, so every execution of this step that gets \
             here is a division error\n --> m.bir:4:26\n  |\n\
             4 |     loc l: do { x := x / (1 - 1); } goto l;\n  |                          ^^^^^^^\n"
        );
    }

    #[test]
    fn every_error_is_shown_then_counted() {
        let source = "system S {\n  boolean x;\n  int x;\n  Nope y;\n}\n";
        let text = errors_of(source);
        assert_eq!(text.matches("\nerror: ").count() + 1, 3, "{text}");
        assert!(text.contains(" --> m.bir:3:7\n"), "{text}");
        assert!(
            text.ends_with("error: aborting due to 2 previous errors\n"),
            "{text}"
        );
    }
}
