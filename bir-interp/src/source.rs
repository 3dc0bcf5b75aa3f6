//! Source text to the checked IR: Rust's tokenizer (`proc_macro2`, whose spans carry lines
//! and columns outside a macro), then the same front end as `bir!`.

use std::str::FromStr;

use bir_codegen::ast::Spans;
use bir_codegen::diag::Diagnostic;
use bir_codegen::ir;
use bir_codegen::Overrides;
use proc_macro2::{LexError, TokenStream};

/// Tokenizes and checks `source`: the checked system, or every error found.
pub(crate) fn front_end(
    source: &str,
    overrides: &Overrides,
) -> Result<ir::System, Vec<Diagnostic>> {
    let tokens = TokenStream::from_str(source).map_err(|error| vec![lex_error(source, &error)])?;
    bir_codegen::front_end_with(tokens, overrides).map_err(|diags| diags.into_vec())
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
    }
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
}
