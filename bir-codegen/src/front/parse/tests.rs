use std::str::FromStr;

use proc_macro2::TokenStream;

use super::*;

mod v3;
mod v3_comm;
mod v3_errors;
mod v3_models;
mod v3_pools;

fn system(source: &str) -> System {
    let tokens = TokenStream::from_str(source).expect("tokenizes");
    parse(tokens).unwrap_or_else(|errors| {
        panic!(
            "{:?}",
            errors.iter().map(ToString::to_string).collect::<Vec<_>>()
        )
    })
}

fn syntax_errors(source: &str) -> Vec<String> {
    let tokens = TokenStream::from_str(source).expect("tokenizes");
    match parse(tokens) {
        Ok(_) => Vec::new(),
        Err(errors) => errors.iter().map(ToString::to_string).collect(),
    }
}

/// Each syntax error with the line and column (1-based) where it starts.
fn errors_at(source: &str) -> Vec<(String, usize, usize)> {
    let tokens = TokenStream::from_str(source).expect("tokenizes");
    match parse(tokens) {
        Ok(_) => Vec::new(),
        Err(errors) => errors
            .iter()
            .map(|error| {
                let start = error.span().start();
                (error.to_string(), start.line, start.column + 1)
            })
            .collect(),
    }
}

/// The body of the system's only thread `T`, in a system that declares `globals` first.
fn body_with(globals: &str, body: &str) -> Body {
    let system = system(&format!(
        "system S {{ {globals} active thread T() {{ {body} }} }}"
    ));
    let Some(Decl::Thread(thread)) = system.decls.into_iter().last() else {
        panic!("the last declaration is the thread")
    };
    thread.body
}

/// The (line, column) of a span's start, 1-based.
fn at(span: Span) -> (usize, usize) {
    let start = span.start();
    (start.line, start.column + 1)
}

fn expr(source: &str) -> Expr {
    parse_expr(TokenStream::from_str(source).expect("tokenizes")).expect("parses")
}

#[test]
fn every_declaration_form_parses() {
    let system = system(
        "/// A doc.
        system All {
            const Param { N = 3; B = true; }
            typealias Level int (0, Param.N);
            enum Color { Red, Green, }
            boolean flag := true;
            byte b;
            int i := -2147483648;
            int wrap (-1, 1) w;
            Level[Param.N] levels := { 0, 1, 2 };
            Color c := Color.Green;
            invariant Small: i < 10;
            active thread A() { loc l: do { flag := false; } return; }
            active [Param.N] thread R(int index) {
                int (0, 9) local := 1;
                /// The only location.
                loc l:
                    /// Guarded.
                    when R[index]@l do { goto l; }
                    do { exit; } goto l;
            }
            thread S(Color first) { loc l: do { assume (c == first); start S(c); assert (true); } goto l; }
        }",
    );
    assert_eq!(system.doc, "A doc.");
    assert_eq!(system.name.text, "All");
    assert_eq!(system.decls.len(), 13);
    let Decl::Thread(replicated) = &system.decls[11] else {
        panic!("a thread")
    };
    assert!(replicated
        .active
        .as_ref()
        .is_some_and(|a| a.count.is_some()));
    assert_eq!(replicated.body.locals.len(), 1);
    assert_eq!(replicated.body.locations[0].doc, "The only location.");
    let transforms = &replicated.body.locations[0].transforms;
    assert_eq!(transforms[0].doc, "Guarded.");
    assert!(transforms[0].inner_jump.is_some() && transforms[0].outer_jump.is_none());
    assert!(matches!(transforms[1].actions[0], Action::Exit { .. }));
    assert!(transforms[1].outer_jump.is_some());
}

#[test]
fn precedence_follows_the_grammar() {
    assert_eq!(
        expr("a || b && c == d + e * -f").to_string(),
        "a || b && c == d + e * -f"
    );
    let Expr::Binary {
        op: BinOp::Or, rhs, ..
    } = expr("a || b && c")
    else {
        panic!("||")
    };
    assert!(matches!(*rhs, Expr::Binary { op: BinOp::And, .. }));
    let Expr::Binary {
        op: BinOp::Sub,
        lhs,
        ..
    } = expr("a - b - c")
    else {
        panic!("-")
    };
    assert!(
        matches!(*lhs, Expr::Binary { op: BinOp::Sub, .. }),
        "left associative"
    );
    let Expr::Binary {
        op: BinOp::Add,
        rhs,
        ..
    } = expr("a + b % c")
    else {
        panic!("+")
    };
    assert!(matches!(*rhs, Expr::Binary { op: BinOp::Rem, .. }));
    let Expr::Cond { otherwise, .. } = expr("a ? b : c ? d : e") else {
        panic!("?:")
    };
    assert!(matches!(*otherwise, Expr::Cond { .. }), "right nested");
    assert!(matches!(expr("!!a"), Expr::Unary { op: UnOp::Not, .. }));
    assert!(matches!(
        expr("x <= -1"),
        Expr::Binary { op: BinOp::Le, .. }
    ));
}

#[test]
fn primaries_parse() {
    assert!(matches!(expr("Param.N"), Expr::Member { .. }));
    assert!(matches!(expr("a[i + 1]"), Expr::Index { .. }));
    assert!(matches!(expr("T@here"), Expr::At { index: None, .. }));
    assert!(matches!(expr("T[2]@here"), Expr::At { index: Some(_), .. }));
    assert!(matches!(
        expr("exists k in 0..N : (a[k])"),
        Expr::Quant {
            kind: Quantifier::Exists,
            ..
        }
    ));
    assert!(matches!(expr("1_000"), Expr::Int { value: 1000, .. }));
    assert!(matches!(
        expr("2147483648"),
        Expr::Int {
            value: 2_147_483_648,
            ..
        }
    ));
}

#[test]
fn malformed_literals_and_operators_are_rejected() {
    let bad = |source: &str| {
        parse_expr(TokenStream::from_str(source).expect("tokenizes"))
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default()
    };
    assert!(bad("5u8").contains("no suffix"));
    assert!(bad("0x10").contains("decimal"));
    assert!(bad("2147483649").contains("too large"));
    assert!(bad("1.5").contains("integer and boolean"));
    assert!(bad("a < b < c").contains("cannot be chained"));
    assert!(bad("forall k in 0..=3 : (true)").contains("half-open"));
    assert!(bad("when").contains("keyword `when`"));
}

#[test]
fn jumps_inside_or_after_the_block_are_both_recorded() {
    let system = system("system S { active thread T() { loc l: do { goto l; } goto l; } }");
    let Decl::Thread(thread) = &system.decls[0] else {
        panic!("a thread")
    };
    let transform = &thread.body.locations[0].transforms[0];
    assert!(transform.inner_jump.is_some() && transform.outer_jump.is_some());
}

#[test]
fn syntax_errors_in_separate_places_are_all_reported() {
    let errors = syntax_errors(
        "system S {
            boolean b = true;
            int x;
            active thread T() {
                int y := ;
                loc l: when x > do { x := 1; } goto l;
                loc m: do { x = 2; assert x; } goto l;
            }
            enum E { }
        }",
    );
    assert_eq!(errors.len(), 6, "{errors:#?}");
    assert!(errors[0].contains("`:=`, not `=`"));
    assert!(errors[4].contains("parentheses"));
    assert!(errors[5].contains("at least one value"));
}

#[test]
fn reserved_words_and_attributes_are_rejected() {
    let errors =
        syntax_errors("system S { boolean int; active thread when() { loc l: do {} goto l; } }");
    assert_eq!(errors.len(), 2, "{errors:#?}");
    assert!(errors[0].contains("built-in type"));
    assert!(errors[1].contains("reserved word"));
    let errors = syntax_errors("system S { #[inline] boolean b; }");
    assert!(errors[0].contains("only doc comments"));
    let errors = syntax_errors("system match { }");
    assert!(errors[0].contains("Rust keyword"));
}

#[test]
fn empty_input_and_trailing_tokens_are_errors() {
    assert!(syntax_errors("")[0].contains("expected a BIR system"));
    assert!(syntax_errors("system S {} system T {}")[0].contains("one system"));
    assert!(syntax_errors("system S { active thread T() { } }")[0].contains("no locations"));
}

#[test]
fn an_error_in_braces_does_not_hide_the_next_declaration() {
    // The enum's braces end the broken declaration: `int x = 1;` is parsed, not skipped.
    let errors = syntax_errors("system S { enum E { A B } int x = 1; boolean b; }");
    assert_eq!(errors.len(), 2, "{errors:#?}");
    assert!(errors[0].contains("expected `,`"));
    assert!(errors[1].contains("`:=`, not `=`"));
    // A declaration that breaks before its `;` is skipped up to the next declaration.
    let errors = syntax_errors("system S { int x y invariant I: ; }");
    assert_eq!(errors.len(), 2, "{errors:#?}");
    assert!(errors[1].contains("expected an expression"));
    // A declaration's name that is a reserved word is reported, and the rest parsed.
    let errors = syntax_errors("system S { typealias byte int (0, 255); enum E { A B } }");
    assert_eq!(errors.len(), 2, "{errors:#?}");
    assert!(errors[0].contains("built-in type"));
    assert!(errors[1].contains("between the values of enum `E`"));
}

#[test]
fn broken_headers_do_not_hide_their_bodies() {
    let errors = syntax_errors(
        "system S {
            active [] thread T(int a, int b c) {
                loc a do { x = 1; } goto a;
                loc b: when x > do { } goto b;
                       do { x := 1; } goto b;
            }
            thread U { loc u: do { x := } goto u; }
        }",
    );
    let expected = [
        "expected an expression",
        "expected `,` between the parameters",
        "expected `:` after the location's name: `loc a:`",
        "`:=`, not `=`",
        "expected an expression",
        "expected `(`",
        "expected an expression",
    ];
    assert_eq!(errors.len(), expected.len(), "{errors:#?}");
    for (error, expected) in errors.iter().zip(expected) {
        assert!(
            error.contains(expected),
            "{error:?} should say {expected:?}"
        );
    }
}

#[test]
fn broken_statements_do_not_hide_the_next_ones() {
    let errors = syntax_errors(
        "system S {
            active thread T() {
                int a := ;
                int b;
                loc l: do { goto ; } when b > 1 do { b := ; a := (1 + ) ; goto l; }
                       do { } return
            }
            const C { N := 1; M = ; }
        }",
    );
    let expected = [
        "expected an expression",
        "expected a name",
        "expected an expression",
        "expected an expression",
        "expected `;`",
        "defined with `=`, not `:=`",
        "expected an expression",
    ];
    assert_eq!(errors.len(), expected.len(), "{errors:#?}");
    for (error, expected) in errors.iter().zip(expected) {
        assert!(
            error.contains(expected),
            "{error:?} should say {expected:?}"
        );
    }
}

#[test]
fn syntax_errors_stop_at_the_cap_with_a_note() {
    let transforms = "do { x = 1; } goto l; ".repeat(MAX_SYNTAX_ERRORS + 5);
    let errors = syntax_errors(&format!(
        "system S {{ int x; active thread T() {{ loc l: {transforms} }} }}"
    ));
    assert_eq!(errors.len(), MAX_SYNTAX_ERRORS + 1, "{errors:#?}");
    assert!(errors[..MAX_SYNTAX_ERRORS]
        .iter()
        .all(|e| e.contains("`:=`, not `=`")));
    assert!(errors[MAX_SYNTAX_ERRORS].contains("bir reports the first 10"));
    // Exactly the cap: no note.
    let transforms = "do { x = 1; } goto l; ".repeat(MAX_SYNTAX_ERRORS);
    let errors = syntax_errors(&format!(
        "system S {{ int x; active thread T() {{ loc l: {transforms} }} }}"
    ));
    assert_eq!(errors.len(), MAX_SYNTAX_ERRORS, "{errors:#?}");
}

#[test]
fn habits_from_other_languages_get_hints() {
    let first = |body: &str| {
        let errors = syntax_errors(&format!(
            "system S {{ int x; boolean and; active thread T() {{ loc l: {body} }} }}"
        ));
        errors.first().cloned().unwrap_or_default()
    };
    assert!(first("when x = 1 do { } goto l;").contains("did you mean `==`?"));
    assert!(first("when x => 1 do { } goto l;").contains("did you mean `>=`?"));
    assert!(first("when (x = 1) do { } goto l;").contains("did you mean `==`?"));
    assert!(first("do { assert (x = 1); } goto l;").contains("did you mean `==`?"));
    assert!(first("when x > 1 and x < 3 do { } goto l;").contains("`&&`"));
    assert!(first("when x > 1 or x < 3 do { } goto l;").contains("`||`"));
    assert!(first("when x > 1 & x < 3 do { } goto l;").contains("`&&`"));
    assert!(first("when not and do { } goto l;").contains("`!`"));
    assert!(first("when x <> 1 do { } goto l;").contains("write `!=`"));
    assert!(first("do { x == 1; } goto l;").contains("assigns with `:=`"));
    assert!(first("do { x += 1; } goto l;").contains("`x := x + e;`"));
    assert!(first("do { x++; } goto l;").contains("`x := x + 1;`"));
    // `if` and `while` are statements of high-level bodies, not of transformations.
    assert!(
        first("do { if x > 1 { x := 1; } else { x := 2; } } goto l;")
            .contains("guard transformations instead")
    );
    assert!(first("do { } goto l; while x > 1 do { } goto l;").contains("loop through a location"));
    assert!(first("do { for i in 0..3 { } } goto l;").contains("BIR has no `for`"));
    // `loc l: while` starts a body of statements, where braces are the habit.
    assert!(first("while x > 1 do { } goto l;").contains("BIR does not put statements in braces"));
    // A name that is a keyword elsewhere is still a name where one fits.
    assert!(first("when and do { and := !and; } goto l;").is_empty());
    let errors = syntax_errors(
        "system S { int for; active thread T() { loc l: do { for := 1; } goto l; } }",
    );
    assert!(errors.is_empty(), "{errors:#?}");
}
