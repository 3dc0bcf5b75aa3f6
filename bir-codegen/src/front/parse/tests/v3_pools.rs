//! Threads created at run time parse: pools `thread[k]` with several parameters, the type
//! `tid`, `null`, `threadTerminated(t)` and `t := start T(args)`.

use super::*;

#[test]
fn pools_tids_and_starts_parse() {
    let system = system(
        "system S {
            thread[2] W(int (0, 3) req, tid from) { skip; }
            tid t;
            active thread M() {
                t := start W(1, null);
                start W(2, t);
                choose when threadTerminated(t) do skip; end
            }
        }",
    );
    let Decl::Thread(pool) = &system.decls[0] else {
        panic!("a thread")
    };
    assert!(pool.active.is_none());
    assert!(matches!(pool.pool, Some(Expr::Int { value: 2, .. })));
    let params: Vec<String> = pool
        .params
        .iter()
        .map(|p| format!("{} {}", p.ty, p.name.text))
        .collect();
    assert_eq!(params, ["int (0, 3) req", "tid from"]);
    let Decl::Global(t) = &system.decls[1] else {
        panic!("a global")
    };
    assert!(matches!(t.ty.base, BaseType::Tid(_)));
    let Some(Decl::Thread(main)) = system.decls.last() else {
        panic!("a thread")
    };
    let printed: Vec<String> = main
        .body
        .statements
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(printed[0], "t := start W(1, null);");
    assert_eq!(printed[1], "start W(2, t);");
    assert!(printed[2].contains("threadTerminated(t)"), "{printed:?}");
}

#[test]
fn an_assigned_start_spans_its_target() {
    let body = body_with("tid t;", "loc l: do { t := start W(); } goto l;");
    let Action::Start {
        target: Some(target),
        spans,
        ..
    } = &body.locations[0].transforms[0].actions[0]
    else {
        panic!("a start with a target")
    };
    assert_eq!(target.to_string(), "t");
    assert_eq!(at(spans.first), at(target.spans().first));
}

#[test]
fn an_active_pool_is_an_error() {
    let errors = syntax_errors("system S { active thread[2] W() { skip; } }");
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert!(
        errors[0].contains("a pool `thread[k]` is not active"),
        "{errors:?}"
    );
}
