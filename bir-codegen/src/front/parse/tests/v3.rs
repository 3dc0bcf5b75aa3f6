//! Version 3's functions, `fun`s, calls and high-level bodies parse into the tree they
//! stand for, and its reserved words are not names.

use super::*;

/// The statements of a thread's high-level body, printed one per line.
fn printed(body: &str) -> Vec<String> {
    let body = body_with("", body);
    assert!(body.locations.is_empty(), "a body of statements");
    body.statements.iter().map(ToString::to_string).collect()
}

/// The one statement of a thread's body.
fn statement(body: &str) -> Stmt {
    let mut statements = body_with("", body).statements;
    assert_eq!(statements.len(), 1, "{statements:#?}");
    statements.remove(0)
}

#[test]
fn functions_with_statements_or_locations() {
    let system = system(
        "system S {
            /// Sums.
            function [3] sum(int (0, 9) n, boolean b) returns int (0, 99) {
                int (0, 99) t;
                if n == 0 do return 0; end
                t := sum(n - 1);
                return t + n;
            }
            function tick() {
                loc l: do { } return;
            }
            fun max(int a, int b) returns int = a > b ? a : b;
            active thread T() { skip; }
        }",
    );
    let Decl::Function(sum) = &system.decls[0] else {
        panic!("a function")
    };
    assert_eq!(sum.doc, "Sums.");
    assert!(matches!(sum.bound, Some(Expr::Int { value: 3, .. })));
    assert_eq!(sum.name.text, "sum");
    let params: Vec<(String, String)> = sum
        .params
        .iter()
        .map(|p| (p.ty.to_string(), p.name.text.clone()))
        .collect();
    assert_eq!(
        params,
        [
            ("int (0, 9)".to_string(), "n".to_string()),
            ("boolean".to_string(), "b".to_string())
        ]
    );
    assert_eq!(
        (at(sum.param_spans.first), at(sum.param_spans.last)),
        ((3, 29), (3, 53))
    );
    assert_eq!(
        sum.returns.as_ref().map(ToString::to_string),
        Some("int (0, 99)".into())
    );
    assert_eq!(sum.body.locals.len(), 1);
    let statements: Vec<String> = sum
        .body
        .statements
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        statements,
        [
            "if n == 0 do return 0; end",
            "t := sum(n - 1);",
            "return t + n;"
        ]
    );
    let StmtKind::Jump(Jump::Return {
        value: Some(value), ..
    }) = &sum.body.statements[2].kind
    else {
        panic!("return e")
    };
    assert_eq!(value.to_string(), "t + n");
    let Decl::Function(tick) = &system.decls[1] else {
        panic!("a function")
    };
    assert!(tick.bound.is_none() && tick.params.is_empty() && tick.returns.is_none());
    assert_eq!(tick.body.locations.len(), 1);
    assert!(tick.body.statements.is_empty());
    let Decl::Fun(max) = &system.decls[2] else {
        panic!("a fun")
    };
    assert_eq!(max.params.len(), 2);
    assert_eq!(max.returns.to_string(), "int");
    assert_eq!(max.expr.to_string(), "a > b ? a : b");
}

#[test]
fn calls_are_told_from_assignments_by_their_shape() {
    let printed = printed(
        "f(1, 2); x := f(a); a[i] := g(); x := f(a) + 1; x := len(c); x := (f(a)); x := full;",
    );
    assert_eq!(
        printed,
        [
            "f(1, 2);",
            "x := f(a);",
            "a[i] := g();",
            "x := f(a) + 1;",
            "x := len(c);",
            "x := (f(a));",
            "x := full;"
        ]
    );
    let body = body_with(
        "",
        "f(1, 2); x := f(a); a[i] := g(); x := f(a) + 1; x := len(c);",
    );
    let kinds: Vec<&StmtKind> = body.statements.iter().map(|s| &s.kind).collect();
    assert!(matches!(kinds[0], StmtKind::Call(Call { target: None, args, .. }) if args.len() == 2));
    let StmtKind::Call(call) = kinds[1] else {
        panic!("a call with a target")
    };
    assert!(matches!(call.target, Some(Expr::Name(_))));
    assert_eq!(call.function.text, "f");
    assert_eq!(
        (at(call.spans.first), at(call.spans.last)),
        ((1, 42), (1, 50))
    );
    assert_eq!(
        at(body.statements[1].spans.last),
        (1, 51),
        "the statement takes the `;`"
    );
    assert!(matches!(
        kinds[2],
        StmtKind::Call(Call {
            target: Some(Expr::Index { .. }),
            ..
        })
    ));
    assert!(matches!(
        kinds[3],
        StmtKind::Action(Action::Assign {
            value: Expr::Binary { .. },
            ..
        })
    ));
    assert!(matches!(
        kinds[4],
        StmtKind::Action(Action::Assign {
            value: Expr::Builtin { .. },
            ..
        })
    ));
}

#[test]
fn every_block_parses_with_its_branches() {
    let printed = printed(
        "atomic x := 1; skip; end
         if a do x := 1; elseif b do x := 2; elseif c do end
         if a do skip; else do x := 3; end
         while x < 3 do x := x + 1; end
         choose when a do skip; when b do c!(1); else do goto done; end
         choose when ready do skip; end
         loc done: return;",
    );
    assert_eq!(
        printed,
        [
            "atomic x := 1; skip; end",
            "if a do x := 1; elseif b do x := 2; elseif c do end",
            "if a do skip; else do x := 3; end",
            "while x < 3 do x := x + 1; end",
            "choose when a do skip; when b do c!(1); else do goto done; end",
            "choose when ready do skip; end",
            "loc done: return;"
        ]
    );
    let StmtKind::If {
        branches,
        otherwise,
        keyword,
    } = statement("if a do x := 1; elseif b do end").kind
    else {
        panic!("if")
    };
    assert_eq!(at(keyword), (1, 33));
    assert_eq!(branches.len(), 2);
    assert_eq!(at(branches[1].keyword), (1, 49));
    assert!(branches[1].body.is_empty() && otherwise.is_none());
    let StmtKind::Choose {
        branches,
        otherwise,
        ..
    } = statement("choose when a do skip; else do end").kind
    else {
        panic!("choose")
    };
    assert_eq!(branches.len(), 1);
    assert_eq!(otherwise.map(|body| body.len()), Some(0));
}

#[test]
fn blocks_nest_and_spans_run_from_keyword_to_end() {
    let statement = statement(
        "while true do
             if x do atomic lock(m); n := n + 1; end else do wait(m); end
         end",
    );
    assert_eq!(at(statement.spans.first), (1, 33));
    assert_eq!(
        at(statement.spans.last),
        (3, 10),
        "the `end` of the `while`"
    );
    let StmtKind::While { cond, body, .. } = &statement.kind else {
        panic!("while")
    };
    assert!(matches!(cond, Expr::Bool { value: true, .. }));
    let StmtKind::If { otherwise, .. } = &body[0].kind else {
        panic!("if")
    };
    assert!(matches!(
        otherwise.as_deref(),
        Some([Stmt {
            kind: StmtKind::Action(Action::Lock {
                op: LockOp::Wait,
                ..
            }),
            ..
        }])
    ));
}

#[test]
fn labels_and_doc_comments_on_statements() {
    let body = body_with(
        "",
        "int x;
         /// First.
         loc top: x := 1;
         loc again: while x < 3 do loc inner: x := x + 1; end
         goto top;",
    );
    assert_eq!(body.locals.len(), 1);
    let [first, again, jump] = &body.statements[..] else {
        panic!("three statements")
    };
    assert_eq!(first.doc, "First.");
    assert_eq!(first.label.as_ref().map(|l| l.text.as_str()), Some("top"));
    assert_eq!(at(first.spans.first), (3, 19), "after the label");
    assert_eq!(again.label.as_ref().map(|l| l.text.as_str()), Some("again"));
    let StmtKind::While { body, .. } = &again.kind else {
        panic!("while")
    };
    assert_eq!(
        body[0].label.as_ref().map(|l| l.text.as_str()),
        Some("inner")
    );
    assert!(jump.label.is_none() && matches!(jump.kind, StmtKind::Jump(Jump::Goto { .. })));
}

#[test]
fn a_body_is_locations_or_statements() {
    // `loc name:` followed by a transformation starts locations ...
    let body = body_with("", "int x; loc l: when x > 0 do { } goto l;");
    assert!(body.statements.is_empty() && body.locations.len() == 1);
    let body = body_with("", "loc l: /// Doc.\n do { } goto l;");
    assert_eq!(body.locations[0].transforms[0].doc, "Doc.");
    // ... and followed by anything else labels a statement.
    let body = body_with("", "int x; loc l: x := 1;");
    assert!(body.locations.is_empty() && body.statements.len() == 1);
    let body = body_with("", "loc l: skip; goto l;");
    assert_eq!(body.statements.len(), 2);
    // A body may start with a statement right away, even one that looks like a name.
    for start in [
        "x := 1;",
        "c!(1);",
        "c?;",
        "f();",
        "a[0] := 1;",
        "skip;",
        "return;",
    ] {
        let body = body_with("", start);
        assert_eq!(body.statements.len(), 1, "{start}");
    }
    // An empty location is one of locations (the checker reports it), before another or
    // at the end.
    let body = body_with("", "loc a: loc b: do { } goto a;");
    assert_eq!(body.locations.len(), 2);
    assert!(body.locations[0].transforms.is_empty());
    assert_eq!(body_with("", "int x; loc a:").locations.len(), 1);
    // Locals are a type and a name, whatever the type's name.
    let body = body_with("", "Level l; Level[3] ls; int (0, 1) i; l := 1;");
    assert_eq!(body.locals.len(), 3);
}

#[test]
fn invoke_calls_a_function_after_the_block() {
    let body = body_with(
        "",
        "loc l: do { x := 1; } invoke r := f(x, 2) goto m;
         loc m: when b do { } invoke g() goto l;",
    );
    let first = &body.locations[0].transforms[0];
    let call = first.invoke.as_ref().expect("an invoke");
    assert!(matches!(call.target, Some(Expr::Name(_))));
    assert_eq!(call.function.text, "f");
    assert_eq!(call.args.len(), 2);
    assert!(matches!(&first.outer_jump, Some(Jump::Goto { target, .. }) if target.text == "m"));
    assert_eq!(at(first.spans.last), (1, 81), "to the `;` of the goto");
    assert_eq!(
        first.to_string(),
        "do { x := 1; } invoke r := f(x, 2) goto m;"
    );
    let second = &body.locations[1].transforms[0];
    assert!(second
        .invoke
        .as_ref()
        .is_some_and(|call| call.target.is_none()));
    assert_eq!(second.to_string(), "when b do { } invoke g() goto l;");
}

#[test]
fn a_function_returns_a_value_after_a_transformation() {
    let system = system(
        "system S { function f() returns int { loc l: do { } return 1 + 2; } \
         function g() { loc l: do { return; } } }",
    );
    let Decl::Function(f) = &system.decls[0] else {
        panic!("a function")
    };
    let transform = &f.body.locations[0].transforms[0];
    assert!(matches!(
        &transform.outer_jump,
        Some(Jump::Return { value: Some(_), .. })
    ));
    assert_eq!(transform.to_string(), "do { } return 1 + 2;");
    let Decl::Function(g) = &system.decls[1] else {
        panic!("a function")
    };
    assert!(matches!(
        g.body.locations[0].transforms[0].inner_jump,
        Some(Jump::Return { value: None, .. })
    ));
}

#[test]
fn names_that_version_3_reserved_are_errors_that_say_so() {
    for word in kw::RESERVED_SINCE_V3 {
        let errors = syntax_errors(&format!("system S {{ int {word}; }}"));
        assert_eq!(errors.len(), 1, "{word}: {errors:#?}");
        assert_eq!(
            errors[0],
            format!(
                "`{word}` is a reserved word since version 3 of BIR and cannot be used as a name"
            )
        );
    }
    // In every place a name is declared.
    let errors = errors_at(
        "system S {
            enum E { skip, Busy }
            active thread T(int end) {
                boolean choose;
                loc atomic: do { } goto atomic;
            }
        }",
    );
    let places: Vec<(usize, usize)> = errors.iter().map(|(_, l, c)| (*l, *c)).collect();
    assert_eq!(
        places,
        [(2, 22), (3, 33), (4, 25), (5, 21), (5, 41)],
        "{errors:#?}"
    );
    assert!(errors
        .iter()
        .all(|(message, _, _)| message.contains("since version 3")));
    // Where such a variable is assigned, too.
    let errors = syntax_errors(
        "system S { active thread T() { loc l: do { skip := true; end[0] := 1; } goto l; } }",
    );
    assert_eq!(
        errors,
        [
            "`skip` is a reserved word since version 3 of BIR and cannot be used as a name",
            "`end` is a reserved word since version 3 of BIR and cannot be used as a name"
        ]
    );
    // Version 1's words keep their message.
    assert_eq!(
        syntax_errors("system S { int loc; }"),
        ["`loc` is a reserved word and cannot be used as a name"]
    );
}

#[test]
fn try_blocks_throws_and_catch_clauses() {
    assert_eq!(
        printed(
            "try f(); throw e; catch (Full x) x := null; catch (Empty y) end \
             throw new_one;"
        ),
        [
            "try f(); throw e; catch (Full x) x := null; catch (Empty y) end",
            "throw new_one;"
        ]
    );
    let StmtKind::Try { handlers, body, .. } = statement("try skip; catch (E e) skip; end").kind
    else {
        panic!("a try")
    };
    assert_eq!((body.len(), handlers.len()), (1, 1));
    assert_eq!(
        (
            handlers[0].record.text.as_str(),
            handlers[0].var.text.as_str()
        ),
        ("E", "e")
    );
    let low = body_with(
        "",
        "loc a: do { throw e; }
         catch Full f at a, b goto b;
         loc b: do { } return;",
    );
    assert_eq!(low.locations.len(), 2);
    assert_eq!(low.catches[0].to_string(), "catch Full f at a, b goto b;");
    assert_eq!(
        low.locations[0].transforms[0].to_string(),
        "do { throw e; }"
    );
}
