//! Threads created at run time in the checked IR: a pool's instances and statuses, the
//! type `tid` and its encoding, what `start` and `threadTerminated` become, and the
//! mistakes the checker reports about them.

use super::{checked, errors};
use crate::ir::{self, Action, Expr, Scalar, ThreadKind};

const POOL: &str = "system S {
    thread[2] W(int (0, 3) req, tid from) {
        int (0, 3) seen;
        loc body: seen := req;
    }
    tid t;
    tid[2] ts;
    active thread M() {
        t := start W(1, null);
        ts[1] := start W(2, t);
        assert(threadTerminated(t) || t != ts[1]);
    }
}";

#[test]
fn a_pool_has_k_instances_and_its_parameters_first() {
    let system = checked(POOL);
    let pool = &system.threads[ir::ThreadId(0)];
    assert_eq!(pool.kind, ThreadKind::Pool { count: 2 });
    assert!(pool.is_pool() && pool.is_replicated());
    assert_eq!(pool.instances(), 2);
    assert_eq!(pool.start_params, vec![ir::LocalId(0), ir::LocalId(1)]);
    assert_eq!(pool.instance_name(1), "W[1]");
    // A location, ended (the step writes it before freeing) and free.
    assert_eq!(pool.status_count(), 3);
    // Three instances in all: a tid holds 0 (null) to 3.
    assert_eq!(
        system.globals[ir::GlobalId(0)].ty.scalar,
        Scalar::Tid { instances: 3 }
    );
    assert_eq!(
        pool.locals[ir::LocalId(1)].ty.scalar,
        Scalar::Tid { instances: 3 }
    );
    assert_eq!(ir::System::tid_of(ir::InstanceId(1)), 2);
    assert_eq!(system.tid_instance(2), Some(ir::InstanceId(1)));
    assert_eq!(system.tid_instance(0), None);
    assert_eq!(system.tid_instance(4), None);
}

#[test]
fn starts_carry_their_arguments_and_result() {
    let system = checked(POOL);
    let main = &system.threads[ir::ThreadId(1)];
    let starts: Vec<(usize, bool, bool)> = main
        .transforms
        .iter()
        .flat_map(|t| &t.actions)
        .filter_map(|action| match action {
            Action::Start {
                args,
                arg_sites,
                result,
                ..
            } => Some((
                args.len(),
                arg_sites.len() == args.len(),
                result.as_ref().is_some_and(|place| place.index.is_some()),
            )),
            _ => None,
        })
        .collect();
    assert_eq!(starts, [(2, true, false), (2, true, true)]);
}

#[test]
fn freeing_lists_the_instance_locals_and_every_tid() {
    let system = checked(POOL);
    assert!(system.has_pools());
    // t, ts (2 elements), and `from` of each of the two instances.
    let tids = system.tid_slots();
    assert_eq!(tids.len(), 4, "{tids:?}");
    assert_eq!(tids[1].1, 2);
    let freeing = system.freeing(ir::InstanceId(1)).expect("a pool instance");
    assert_eq!(freeing.tid, 2);
    assert_eq!(freeing.free, 2);
    assert_eq!(freeing.locals.len(), 3);
    assert!(
        system.freeing(ir::InstanceId(2)).is_none(),
        "M is no pool's"
    );
    // The pool's step ends its instance (the end of its body is a `return`).
    let ends: Vec<ir::InstanceId> = system
        .transitions()
        .flat_map(|t| system.freed_by(&t))
        .collect();
    assert_eq!(ends, [ir::InstanceId(0), ir::InstanceId(1)]);
}

#[test]
fn thread_terminated_is_null_or_at_no_location() {
    let system = checked(POOL);
    let main = &system.threads[ir::ThreadId(1)];
    let cond = main
        .transforms
        .iter()
        .flat_map(|t| &t.actions)
        .find_map(|action| match action {
            Action::Assert { cond, .. } => Some(cond),
            _ => None,
        })
        .expect("the assertion");
    let Expr::Or(terminated, _) = cond else {
        panic!("{cond:?}")
    };
    // `t == 0 || (t == 1 && !W[0]@body) || (t == 2 && !W[1]@body)`.
    let mut ats = 0;
    let mut stack = vec![&**terminated];
    while let Some(expr) = stack.pop() {
        if let Expr::At {
            instance: Some(_), ..
        } = expr
        {
            ats += 1;
        }
        stack.extend(expr.children());
    }
    assert_eq!(ats, 2);
}

#[test]
fn a_version_1_start_may_keep_its_tid() {
    let system = checked(
        "system S {
            thread W() { loc l: do { } return; }
            tid t;
            active thread M() { loc l: do { t := start W(); } goto m; loc m: when threadTerminated(t) do { } return; }
        }",
    );
    assert_eq!(system.threads[ir::ThreadId(0)].kind, ThreadKind::Started);
}

#[test]
fn mistakes_with_pools_and_tids_are_reported() {
    let cases = [
        ("thread[0] W() { skip; }", "", "at least 1 instance"),
        ("thread[2] W() { skip; }", "x := 1 + t;", "is not a number"),
        ("thread[2] W() { skip; }", "x := t;", "is not a number"),
        (
            "thread[2] W() { skip; }",
            "b := t < t;",
            "does not apply to a `tid`",
        ),
        (
            "thread[2] W() { skip; }",
            "b := t == 1;",
            "must have the same type",
        ),
        ("thread[2] W() { skip; }", "t := 1;", "never a number"),
        ("thread[2] W() { skip; }", "x := start W();", "yields a tid"),
        (
            "thread[2] W() { loc w: skip; }",
            "b := W@w;",
            "a pool (`thread[2]`)",
        ),
        (
            "thread[2] W() { skip; }",
            "b := threadTerminated(x);",
            "must be tid",
        ),
        (
            "thread[2] W(tid p) { skip; }",
            "start W(1);",
            "`W` takes tid, found int",
        ),
        (
            "active thread W(int a, int b) { skip; }",
            "",
            "at most one parameter",
        ),
        ("const K { X = null; }", "", "not `null`"),
        (
            "thread[2] W() { skip; }",
            "x := null;",
            "cannot assign `null` to `x`",
        ),
    ];
    for (pool, step, expected) in cases {
        let source = format!(
            "system S {{ {pool} tid t; int x; boolean b;
                active thread M() {{ loc body: do {{ {step} }} goto body; }} }}"
        );
        let found = errors(&source);
        assert_eq!(found.len(), 1, "{source}: {found:?}");
        assert!(found[0].contains(expected), "{source}: {found:?}");
    }
}
