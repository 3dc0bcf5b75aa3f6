//! The lowering of exceptions (`check::exceptions`, `steps::handlers`): what a throw
//! becomes in each frame copy of its transformation, and the clauses a `try` is made of.

use super::{checked, errors};
use crate::ir::{self, Action, Expr, Jump};

/// The transformations of thread `T` that throw (`do { throw e; }`), with the names of the
/// locations they leave and go to.
fn throws(system: &ir::System) -> Vec<(&ir::Transform, String, String)> {
    let thread = &system.threads[ir::ThreadId(0)];
    thread
        .transforms
        .iter()
        .filter(|t| t.text.contains("do { throw "))
        .map(|t| {
            let to = match t.jump {
                Jump::Goto(location) => thread.locations[location].name.clone(),
                Jump::Return => "return".to_string(),
            };
            (t, thread.locations[t.location].name.clone(), to)
        })
        .collect()
}

const TWO_CALLERS: &str = "system S {
    throwable record E { boolean b; }
    int (0, 3) where;
    function f() {
        E e;
        e := new E;
        throw e;
    }
    active thread T() {
        try f(); catch (E x) where := 1; end
        try f(); catch (E y) where := 2; end
    }
}";

#[test]
fn each_frame_copy_of_a_throw_goes_to_the_handler_around_its_own_call() {
    let system = checked(TWO_CALLERS);
    let found = throws(&system);
    assert_eq!(found.len(), 2, "one throw per frame of `f`");
    let thread = &system.threads[ir::ThreadId(0)];
    for (n, (transform, from, to)) in found.iter().enumerate() {
        assert_eq!(from, &format!("f@{}.throw#2", n + 1));
        // The handler's first statement (`where := 1`, `where := 2`).
        assert!(to.starts_with("step#"), "{to}");
        assert!(transform.text.ends_with("(caught by `catch E x` of `T`)") == (n == 0));
        // The null check, the catch variable bound, then `f@k.e` reset to null.
        let [Action::Assert { cond, .. }, Action::Assign { place, value, .. }, Action::Assign {
            place: reset,
            value: Expr::Int(0),
            ..
        }] = &transform.actions[..]
        else {
            panic!("{:?}", transform.actions);
        };
        assert!(matches!(
            cond,
            Expr::Cmp {
                op: ir::CmpOp::Ne,
                ..
            }
        ));
        let name = |place: &ir::Place| match place.var {
            ir::VarRef::Local(local) => thread.locals[local].name.clone(),
            ir::VarRef::Global(_) => String::new(),
        };
        assert_eq!(name(place), if n == 0 { "x" } else { "y" });
        assert!(matches!(value, Expr::Read(_)));
        assert_eq!(name(reset), format!("f@{}.e", n + 1));
    }
}

#[test]
fn an_exception_no_frame_catches_is_the_uncaught_error_of_its_step() {
    let system = checked(
        "system S {
            throwable record E { boolean b; }
            active thread T() {
                E e;
                e := new E;
                throw e;
            }
        }",
    );
    let found = throws(&system);
    let (transform, from, to) = &found[0];
    assert_eq!((from.as_str(), to.as_str()), ("throw#2", "throw#2"));
    assert!(transform.text.ends_with("(uncaught)"), "{}", transform.text);
    let Some(Action::Assert {
        cond: Expr::Bool(false),
        site,
    }) = transform.actions.last()
    else {
        panic!("{:?}", transform.actions);
    };
    assert_eq!(
        system.fault_sites[*site].kind,
        ir::FaultKind::UncaughtException
    );
}

#[test]
fn a_try_covers_its_statements_and_an_empty_handler_is_a_step_of_its_own() {
    let system = checked(
        "system S {
            throwable record E { boolean b; }
            int (0, 3) x;
            active thread T() {
                E e;
                e := new E;
                try
                    throw e;
                catch (E c)
                end
                x := 1;
            }
        }",
    );
    let found = throws(&system);
    let (_, from, to) = &found[0];
    assert_eq!(from, "throw#2");
    assert!(to.starts_with("catch#"), "{to}");
    let thread = &system.threads[ir::ThreadId(0)];
    let handler = thread
        .locations
        .iter()
        .find(|l| l.name.starts_with("catch#"))
        .expect("the handler's own step");
    let step = &thread.transforms[handler.transforms[0]];
    assert!(step.actions.is_empty());
    assert!(matches!(step.jump, Jump::Goto(l) if thread.locations[l].name.starts_with("step#")));
}

#[test]
fn a_function_that_returns_a_value_may_end_every_path_in_a_throw() {
    let system = checked(
        "system S {
            throwable record E { boolean b; }
            int (0, 3) x;
            function f() returns int (0, 3) {
                E e;
                e := new E;
                throw e;
            }
            active thread T() {
                try x := f(); catch (E c) x := 2; end
            }
        }",
    );
    assert_eq!(throws(&system).len(), 1);
}

#[test]
fn throws_and_catches_are_checked() {
    let found = errors(
        "system S {
            record Plain { boolean b; }
            throwable record E { boolean b; }
            int (0, 3) x;
            active thread T() {
                Plain p;
                E e;
                loc a: do { throw p; } goto b;
                loc b: do { throw x; } goto a;
                catch Plain q at a goto b;
                catch E x at a goto b;
                catch Nope n at a goto b;
                catch E c at zz goto b;
            }
        }",
    );
    let expected = [
        "`catch` of `Plain`, which is not declared `throwable`",
        "duplicate name `x`: a catch variable may not reuse the name of a global variable",
        "unknown type `Nope` in `catch`",
        "`throw p` throws a `Plain`, which is not declared `throwable`",
        "`throw x` throws int:",
        "unknown location `zz` in thread `T`: a `catch` covers locations of its own body",
    ];
    assert_eq!(found.len(), expected.len(), "{found:#?}");
    for want in expected {
        assert!(
            found.iter().any(|e| e.contains(want)),
            "{want:?} in {found:#?}"
        );
    }
}
