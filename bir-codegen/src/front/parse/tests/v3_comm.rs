//! Version 3's channels and locks, their actions and built-ins, and `T@f.loc` parse into
//! the tree they stand for.

use super::*;

#[test]
fn channel_declarations_take_every_optional_part() {
    let system = system(
        "system S {
            channel c;
            channel (int (0, 3), boolean) buffer 2 d[3];
            /// Synchronisation only.
            channel buffer P.N e;
            channel (Color) f[2];
        }",
    );
    let channels: Vec<&ChannelDecl> = system
        .decls
        .iter()
        .map(|decl| match decl {
            Decl::Channel(channel) => channel,
            other => panic!("a channel: {other:?}"),
        })
        .collect();
    let [c, d, e, f] = channels[..] else {
        panic!("four channels")
    };
    assert!(c.fields.is_empty() && c.buffer.is_none() && c.len.is_none());
    assert_eq!(c.name.text, "c");
    assert_eq!(at(c.spans.first), (2, 13));
    assert_eq!(at(c.spans.last), (2, 22), "to the `;`");
    let fields: Vec<String> = d.fields.iter().map(ToString::to_string).collect();
    assert_eq!(fields, ["int (0, 3)", "boolean"]);
    assert!(matches!(d.buffer, Some(Expr::Int { value: 2, .. })));
    assert!(matches!(d.len, Some(Expr::Int { value: 3, .. })));
    assert_eq!(e.doc, "Synchronisation only.");
    assert!(e.fields.is_empty());
    assert!(matches!(e.buffer, Some(Expr::Member { .. })));
    assert_eq!(f.fields[0].to_string(), "Color");
    assert!(f.buffer.is_none() && f.len.is_some());
}

#[test]
fn lock_declarations_and_lock_actions() {
    let system = system(
        "system S {
            lock m;
            lock ms[3];
            active thread T() {
                lock(m); unlock(m); wait(ms[1]); unwait(ms[1]); notify(m); notifyAll(m);
            }
        }",
    );
    let Decl::Lock(m) = &system.decls[0] else {
        panic!("a lock")
    };
    assert!(m.name.text == "m" && m.len.is_none());
    let Decl::Lock(ms) = &system.decls[1] else {
        panic!("a lock")
    };
    assert!(matches!(ms.len, Some(Expr::Int { value: 3, .. })));
    let Decl::Thread(thread) = &system.decls[2] else {
        panic!("a thread")
    };
    let ops: Vec<LockOp> = thread
        .body
        .statements
        .iter()
        .map(|statement| match &statement.kind {
            StmtKind::Action(Action::Lock { op, .. }) => *op,
            other => panic!("a lock action: {other:?}"),
        })
        .collect();
    use LockOp::*;
    assert_eq!(ops, [Lock, Unlock, Wait, Unwait, Notify, NotifyAll]);
    let StmtKind::Action(Action::Lock { operand, spans, .. }) = &thread.body.statements[2].kind
    else {
        panic!("wait")
    };
    assert_eq!(operand.to_string(), "ms[1]");
    assert_eq!(at(spans.first), (5, 37));
    assert_eq!(at(spans.last), (5, 48), "to the `;`");
}

#[test]
fn lock_actions_stand_in_transformations_too() {
    let body = body_with(
        "lock m;",
        "loc l: when lockAvailable(m) do { lock(m); notifyAll(m); } goto l;",
    );
    let transform = &body.locations[0].transforms[0];
    assert!(matches!(
        transform.guard,
        Some(Expr::Builtin {
            builtin: Builtin::LockAvailable,
            ..
        })
    ));
    assert!(matches!(
        transform.actions[..],
        [
            Action::Lock {
                op: LockOp::Lock,
                ..
            },
            Action::Lock {
                op: LockOp::NotifyAll,
                ..
            }
        ]
    ));
}

#[test]
fn the_built_ins_of_locks_are_names_without_parentheses() {
    // Only `lock` is reserved; `wait`, `notify`, ... may name variables, and `full` too.
    let body = body_with(
        "int wait; boolean full; int notifyAll;",
        "loc l: when full do { wait := wait + 1; notifyAll := 0; full := !full; } goto l;",
    );
    let actions = &body.locations[0].transforms[0].actions;
    assert_eq!(actions.len(), 3);
    assert!(actions
        .iter()
        .all(|action| matches!(action, Action::Assign { .. })));
    assert_eq!(
        body.locations[0].transforms[0].to_string(),
        "when full do { wait := wait + 1; notifyAll := 0; full := !full; } goto l;"
    );
}

#[test]
fn sends_and_receives_in_every_form() {
    let body = body_with(
        "",
        "loc l: do { c!; c!(1, x + 1); c[i + 1]!(e); c ! (e); c?; c?(x, _, a[i]); c[0]?(_); } goto l;",
    );
    let actions = &body.locations[0].transforms[0].actions;
    let printed: Vec<String> = actions.iter().map(ToString::to_string).collect();
    assert_eq!(
        printed,
        [
            "c!;",
            "c!(1, x + 1);",
            "c[i + 1]!(e);",
            "c!(e);",
            "c?;",
            "c?(x, _, a[i]);",
            "c[0]?(_);"
        ]
    );
    let Action::Send {
        channel,
        values,
        spans,
    } = &actions[2]
    else {
        panic!("a send")
    };
    assert_eq!(channel.name.text, "c");
    assert_eq!(
        channel.index.as_deref().map(ToString::to_string),
        Some("i + 1".into())
    );
    assert_eq!(
        at(channel.spans.last),
        (1, 70),
        "the channel ends at its `]`"
    );
    assert_eq!(values.len(), 1);
    assert_eq!(at(spans.first), (1, 63));
    let Action::Receive { targets, .. } = &actions[5] else {
        panic!("a receive")
    };
    assert!(matches!(
        targets[..],
        [Some(Expr::Name(_)), None, Some(Expr::Index { .. })]
    ));
    assert!(actions[0].is_blocking() && actions[4].is_blocking());
}

#[test]
fn built_ins_and_calls_in_expressions() {
    assert!(matches!(
        expr("len(c)"),
        Expr::Builtin {
            builtin: Builtin::Len,
            ..
        }
    ));
    let Expr::Unary { expr: full, .. } = expr("!full(c[2])") else {
        panic!("!")
    };
    let Expr::Builtin {
        builtin: Builtin::Full,
        operand,
        spans,
        ..
    } = *full
    else {
        panic!("full(..)")
    };
    assert!(matches!(*operand, Expr::Index { .. }));
    assert_eq!((at(spans.first), at(spans.last)), ((1, 2), (1, 11)));
    assert!(matches!(expr("full"), Expr::Name(_)), "a variable");
    for (source, builtin) in [
        ("empty(c)", Builtin::Empty),
        ("hasLock(m)", Builtin::HasLock),
        ("wasNotified(ms[0])", Builtin::WasNotified),
    ] {
        assert!(
            matches!(expr(source), Expr::Builtin { builtin: b, .. } if b == builtin),
            "{source}"
        );
    }
    let Expr::Binary { lhs, rhs, .. } = expr("f(1, x + 2) + g()") else {
        panic!("+")
    };
    assert!(matches!(&*lhs, Expr::Call { function, args, .. }
        if function.text == "f" && args.len() == 2));
    assert!(matches!(&*rhs, Expr::Call { args, .. } if args.is_empty()));
    assert_eq!(
        expr("max(len(c), 1) > 0 && hasLock(m)").to_string(),
        "max(len(c), 1) > 0 && hasLock(m)"
    );
}

#[test]
fn at_names_a_function_location_with_a_dot() {
    let Expr::At {
        thread,
        index,
        function,
        location,
    } = expr("T[1]@f.loop")
    else {
        panic!("@")
    };
    assert_eq!(thread.text, "T");
    assert!(index.is_some());
    assert_eq!(function.map(|f| f.text), Some("f".to_string()));
    assert_eq!(location.text, "loop");
    assert!(matches!(
        expr("T@f.l"),
        Expr::At {
            function: Some(_),
            index: None,
            ..
        }
    ));
    assert!(matches!(expr("T@l"), Expr::At { function: None, .. }));
    assert_eq!(expr("T[1]@f.l || U@m").to_string(), "T[1]@f.l || U@m");
    let spans = expr("T@f.l").spans();
    assert_eq!(
        (at(spans.first), at(spans.last)),
        ((1, 1), (1, 5)),
        "to the location"
    );
}

#[test]
fn lock_fields_parse_beside_the_other_fields_of_a_record() {
    let system = system(
        "system S {
            record Box {
                int (0, 2) n;
                /// Guards `n`.
                lock guard;
                lock l[2];
                Box next;
            }
        }",
    );
    let Decl::Record(record) = &system.decls[0] else {
        panic!("a record")
    };
    let fields: Vec<&str> = record.fields.iter().map(|f| f.name.text.as_str()).collect();
    assert_eq!(fields, ["n", "next"]);
    let [guard, l] = &record.locks[..] else {
        panic!("two lock fields: {:?}", record.locks)
    };
    assert!(guard.name.text == "guard" && guard.len.is_none());
    assert_eq!(guard.doc, "Guards `n`.");
    assert_eq!(at(guard.keyword), (5, 17));
    assert!(l.name.text == "l" && matches!(l.len, Some(Expr::Int { value: 2, .. })));
}

#[test]
fn a_broken_lock_field_is_reported_and_the_next_field_parsed() {
    let errors = errors_at(
        "system S {
            record Box {
                lock(b);
                lock m n;
                int (0, 2) n := 1;
            }
        }",
    );
    let messages: Vec<(usize, usize, &str)> = errors
        .iter()
        .map(|(message, line, column)| (*line, *column, message.as_str()))
        .collect();
    assert_eq!(messages.len(), 3, "{messages:?}");
    assert!(
        messages[0].2.starts_with("expected the lock's name"),
        "{messages:?}"
    );
    assert_eq!(messages[0].0, 3);
    assert!(
        messages[1]
            .2
            .starts_with("expected `;` after the lock's name `m`"),
        "{messages:?}"
    );
    assert!(
        messages[2].2.starts_with("a field has no initial value"),
        "{messages:?}"
    );
}
