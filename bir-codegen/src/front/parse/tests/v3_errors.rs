//! Syntax errors in version 3's constructs: each reported with what was expected, on the
//! offending token, and the ones after it still found.

use super::*;

/// The syntax errors of a thread whose body is `body`, after `globals`.
fn body_errors(globals: &str, body: &str) -> Vec<(String, usize, usize)> {
    errors_at(&format!(
        "system S {{ {globals}\nactive thread T() {{\n{body}\n}} }}"
    ))
}

/// Asserts that `errors` are, in order, at the given (line, column) and contain the given
/// text.
fn assert_errors(errors: &[(String, usize, usize)], expected: &[(usize, usize, &str)]) {
    assert_eq!(errors.len(), expected.len(), "{errors:#?}");
    for ((message, line, column), (want_line, want_column, text)) in errors.iter().zip(expected) {
        assert!(
            message.contains(text) && (line, column) == (want_line, want_column),
            "{message:?} at {line}:{column} should say {text:?} at {want_line}:{want_column}"
        );
    }
}

#[test]
fn a_missing_end_is_reported_where_it_was_expected() {
    // At the body's closing brace, for the innermost block left open.
    let errors = body_errors(
        "",
        "while x < 3 do\n  if x > 1 do x := 0; end\n  x := x + 1;",
    );
    assert_errors(&errors, &[(6, 1, "expected `end` to close the `while`")]);
    // A stray `end` is one too many.
    let errors = body_errors("", "x := 1; end\nx := 2;");
    assert_errors(&errors, &[(3, 9, "`end` without a block to close")]);
}

#[test]
fn a_missing_do_is_reported_and_the_branch_still_parsed() {
    let errors = body_errors(
        "",
        "if x > 1 x := 1; elseif y do x = 2; end\nwhile x x := 0; end\nchoose when a skip; end",
    );
    assert_errors(
        &errors,
        &[
            (
                3,
                10,
                "expected `do` after the condition: `if c do ... end`",
            ),
            (3, 32, "`:=`, not `=`"),
            (
                4,
                9,
                "expected `do` after the condition: `while c do ... end`",
            ),
            (5, 15, "expected `do` after the condition: `when c do ...`"),
        ],
    );
    let errors = body_errors("", "if a do skip; else skip; end");
    assert_errors(&errors, &[(3, 20, "expected `do` after `else`")]);
}

#[test]
fn a_missing_semicolon_is_reported_on_the_next_token() {
    let errors = body_errors("", "x := 1\ny := 2;\nf(x)\nskip\nc!(1)\nlock(m)\nreturn");
    assert_errors(
        &errors,
        &[
            (4, 1, "expected `;`"),
            (6, 1, "expected `;`"),
            (7, 1, "expected `;`"),
            (8, 1, "expected `;`"),
            (9, 1, "expected `;`"),
            (10, 1, "unexpected end of input, expected `;`"),
        ],
    );
}

#[test]
fn a_broken_catch_is_reported_and_its_handler_still_parsed() {
    let errors = body_errors(
        "",
        "try\n  f();\ncatch Bad b\n  x := 1;\ncatch (Bad)\n  x := 2;\nend\nx := = 2;",
    );
    assert_errors(
        &errors,
        &[
            (5, 7, "expected `(R x)` after `catch`"),
            (7, 7, "expected `(R x)` after `catch`"),
            (10, 6, "expected an expression"),
        ],
    );
}

#[test]
fn a_try_needs_a_catch_and_a_throw_its_exception() {
    let errors = body_errors("", "try\n  f();\nend\nthrow;");
    assert_errors(
        &errors,
        &[
            (3, 1, "a `try` without a `catch`"),
            (6, 6, "expected the exception after `throw`"),
        ],
    );
}

#[test]
fn a_low_level_catch_says_how_it_is_written() {
    let errors = body_errors(
        "",
        "loc a: do { } goto a;\ncatch (E e) at a goto a;\ncatch E e a goto a;\n\
         catch E e at a;\nloc b: do { } goto b;",
    );
    assert_errors(
        &errors,
        &[
            (4, 7, "without parentheses"),
            (5, 11, "expected `at`"),
            (6, 15, "expected `goto`"),
        ],
    );
}

#[test]
fn a_heuristic_is_a_name_a_colon_and_an_expression() {
    let errors = errors_at(
        "system S {
            int x;
            heuristic Near: 10 - x;
            heuristic Far 1;
            heuristic: 1;
            active thread T() { loc a: do { x := 1; } goto a; }
        }",
    );
    let expected = [(4, 27, "expected `:`"), (5, 22, "expected a name")];
    assert_errors(&errors, &expected);
}

#[test]
fn bad_channel_declarations_say_what_a_channel_is() {
    let errors = errors_at(
        "system S {
            channel int c;
            channel c buffer 2;
            channel () c;
            channel (int boolean) c;
            channel (int) buffer c;
            channel (int) c d;
            channel;
            lock(m);
            lock m n;
            int after;
        }",
    );
    assert_errors(
        &errors,
        &[
            (2, 21, "a channel's field types are written in parentheses"),
            (3, 23, "`buffer k` comes before the channel's name"),
            (
                4,
                21,
                "a channel without fields is declared without parentheses",
            ),
            (5, 26, "expected `,` between the field types of the channel"),
            (6, 35, "expected the channel's name"),
            (7, 29, "expected `;` after the channel's name `c`"),
            (8, 20, "expected the channel's name"),
            (9, 17, "expected the lock's name"),
            (10, 20, "expected `;` after the lock's name `m`"),
        ],
    );
}

#[test]
fn broken_sends_and_receives() {
    let errors = body_errors(
        "",
        "c!1;\nc!(1 2);\nc!();\nc?(x y);\nc?(x, );\nc[0 1]?;\nc?x;\nc!(1)(2);",
    );
    assert_errors(
        &errors,
        &[
            (
                3,
                3,
                "expected `(` or `;` after `c!`: the values sent are written in parentheses",
            ),
            (4, 6, "expected `,` between the values sent"),
            (
                5,
                3,
                "empty parentheses: a message without fields is written `c!;`",
            ),
            (6, 6, "expected `,` between the receive targets"),
            (7, 7, "expected one of the receive targets after `,`"),
            (8, 5, "unexpected token after the index"),
            (9, 3, "expected `(` or `;` after `c?`"),
            (10, 6, "expected `;`"),
        ],
    );
}

#[test]
fn functions_and_funs_with_broken_headers() {
    let errors = errors_at(
        "system S {
            function f(int a int b) { skip; }
            function g { skip; }
            function h() returns int = 1;
            fun k(int a) = a;
            fun m(int a) returns int := a;
            fun n(int a) returns int { return a; }
            function e() { }
        }",
    );
    assert_errors(
        &errors,
        &[
            (2, 30, "expected `,` between the parameters"),
            (
                3,
                24,
                "expected `(`: a function declares its parameters in parentheses",
            ),
            (4, 38, "a `function` has a body in braces"),
            (
                5,
                26,
                "expected `returns` and the result type: `fun k(..) returns T = e;`",
            ),
            (6, 38, "a `fun` is defined with `=`, not `:=`"),
            (7, 38, "a `fun` is one expression"),
        ],
    );
    // An empty body is reported once the rest is right.
    let errors = errors_at("system S { function e() { } active thread T() { skip; } }");
    assert_errors(&errors, &[(1, 21, "function `e` has no body")]);
}

#[test]
fn misplaced_statements_and_actions() {
    let errors = body_errors(
        "",
        "loc l: do { f(x); skip; lock m; len(c); atomic } goto l;\n\
         loc m: do { } invoke f(x);\n\
         loc n: do { } invoke goto l;\n\
         invoke f() goto l;",
    );
    assert_errors(
        &errors,
        &[
            (
                3,
                13,
                "a function is called after the block of a transformation, with `invoke`",
            ),
            (3, 19, "`skip` is a statement of high-level bodies"),
            (
                3,
                30,
                "expected `(`: a lock action names its lock in parentheses",
            ),
            (3, 33, "`len(..)` is a value, not a statement"),
            (3, 41, "`atomic` belongs to high-level bodies"),
            (4, 26, "expected `goto` after the call"),
            (5, 22, "expected the function to call"),
            (6, 1, "`invoke` follows a transformation's braces"),
        ],
    );
}

#[test]
fn statements_and_locations_do_not_mix() {
    let errors = body_errors(
        "",
        "x := 1;\nloc l: do { } goto l;\nloc m: when x = do { } goto m;",
    );
    assert_errors(&errors, &[(4, 8, "a transformation among statements")]);
    // Statements after locations are transformations gone wrong.
    let errors = body_errors("", "loc l: do { } goto l;\nx := 1;");
    assert_errors(&errors, &[(4, 1, "expected a transformation")]);
}

#[test]
fn habits_of_other_languages_in_blocks() {
    let errors = body_errors(
        "",
        "if a { x := 1; } else { x := 2; }\n\
         if a do skip; else if b do skip; end\n\
         while a do { skip; }\n\
         for i in 0..3 do skip; end",
    );
    assert_errors(
        &errors,
        &[
            (
                3,
                6,
                "BIR does not put statements in braces: write `if c do ... end`",
            ),
            (
                3,
                23,
                "BIR does not put statements in braces: write `else do ... end`",
            ),
            (4, 15, "BIR writes `elseif c do`, not `else if c do`"),
            (
                5,
                12,
                "BIR does not put statements in braces: write `while c do ... end`",
            ),
            (6, 1, "BIR has no `for`: loop with `while c do ... end`"),
        ],
    );
}

#[test]
fn branches_in_the_wrong_place() {
    let errors = body_errors(
        "",
        "if a do skip; else do skip; elseif b do skip; end\n\
         choose x := 1; when a do skip; elseif b do skip; end\n\
         when a do skip;\n\
         else do skip; end\n\
         loc l:\n\
         end",
    );
    assert_errors(
        &errors,
        &[
            (3, 29, "the `else` branch is the last of an `if`"),
            (4, 8, "expected `when`, `else` or `end`"),
            (4, 32, "`elseif` belongs to an `if`"),
            (5, 1, "`when` outside a `choose`"),
            (6, 1, "`else` outside an `if`"),
            (8, 1, "expected a statement after the label"),
            (8, 1, "`end` without a block to close"),
        ],
    );
}

#[test]
fn several_mistakes_in_a_body_of_statements_are_all_reported() {
    let errors = body_errors(
        "channel (int) c;",
        "int x;\n\
         x := ;\n\
         while x < 3 do\n\
           c!(x +);\n\
           if x == 1 x := 2; end\n\
         end\n\
         atomic x := 1 end\n\
         skip;",
    );
    assert_errors(
        &errors,
        &[
            (4, 6, "expected an expression"),
            (6, 7, "expected an expression"),
            (7, 11, "expected `do` after the condition"),
            (9, 15, "expected `;`"),
        ],
    );
}

#[test]
fn doc_comments_before_branches_are_misplaced() {
    let errors = body_errors(
        "",
        "if a do skip;\n/// Else.\nelse do skip; end\nchoose\n/// A branch.\nwhen a do skip; end\nx := 1;",
    );
    assert_errors(
        &errors,
        &[
            (
                4,
                1,
                "a doc comment stands before a statement, not before a branch",
            ),
            (
                7,
                1,
                "a doc comment stands before a statement, not before a branch",
            ),
        ],
    );
}
