//! Compile errors printed as rustc prints them: the message, the file, line and column, the
//! source line and carets under the offending tokens; then how many errors there were.

use std::fmt::Write;

use bir_interp::Diagnostic;

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

/// One error. Lines are 1-based and columns 0-based in spans; printed columns are 1-based.
fn render_one(out: &mut String, diagnostic: &Diagnostic, path: &str, source: &str) {
    let _ = writeln!(out, "error: {}", diagnostic.message);
    let start = diagnostic.spans.first.start();
    let end = diagnostic.spans.last.end();
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

    fn errors_of(source: &str) -> String {
        match bir_interp::Interpreter::from_source(source) {
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
