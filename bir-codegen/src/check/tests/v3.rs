//! The checked IR of small version-3 models, where a UI case cannot show it: calls laid out
//! in frames and what `T@loc` and `T@f.loc` become there, the instance a function's lock
//! built-ins ask about, the checker's warnings, and errors of the translation to steps.

use super::{checked, errors};
use crate::ir::{self, Expr};

/// The names of the locations an expression's `T@loc` atoms test, in order.
fn at_locations(system: &ir::System, expr: &Expr) -> Vec<String> {
    let mut found = Vec::new();
    let mut stack = vec![expr];
    while let Some(expr) = stack.pop() {
        if let Expr::At {
            thread, location, ..
        } = expr
        {
            found.push(system.threads[*thread].locations[*location].name.clone());
        }
        let mut children: Vec<&Expr> = expr.children().collect();
        children.reverse();
        stack.extend(children);
    }
    found
}

/// The `T@loc` atoms of the model's first invariant.
fn invariant_locations(source: &str) -> Vec<String> {
    let system = checked(source);
    at_locations(&system, &system.invariants[0].cond)
}

const CALLER: &str = "system S {
    int (0, 3) x;
    function f() {
        loc inside: x := 1;
        loc later: x := 2;
    }
    active thread T() {
        loc calling: f();
        loc again: f();
        loc after: x := 3;
    }
    invariant I: INVARIANT;
}";

#[test]
fn at_loc_of_a_caller_holds_in_every_frame_of_the_call_made_there() {
    let found = invariant_locations(&CALLER.replace("INVARIANT", "!T@calling || x < 3"));
    // The call made at `calling` has a frame of its own; the one made at `again` another,
    // which `T@calling` does not cover.
    assert_eq!(found[0], "calling");
    assert_eq!(found.len(), 3, "{found:?}");
    assert!(
        found[1..]
            .iter()
            .all(|name| name.ends_with(".inside") || name.ends_with(".later")),
        "{found:?}"
    );
    let again = invariant_locations(&CALLER.replace("INVARIANT", "!T@again || x < 3"));
    assert_eq!(again[0], "again");
    assert_eq!(again.len(), 3, "{again:?}");
    assert!(
        found[1..].iter().all(|name| !again.contains(name)),
        "{found:?} and {again:?} share a frame"
    );
}

#[test]
fn at_loc_of_a_location_without_a_call_is_that_location_alone() {
    let found = invariant_locations(&CALLER.replace("INVARIANT", "!T@after || x == 3"));
    assert_eq!(found, ["after"]);
}

#[test]
fn at_function_loc_holds_at_that_location_of_every_frame_of_the_function() {
    let found = invariant_locations(&CALLER.replace("INVARIANT", "!T@f.inside || x < 3"));
    assert_eq!(found.len(), 2, "{found:?}: one per call path");
    assert!(
        found.iter().all(|name| name.ends_with(".inside")),
        "{found:?}"
    );
    assert_ne!(found[0], found[1]);
}

#[test]
fn at_function_loc_of_a_thread_that_never_calls_it_is_false() {
    let system = checked(
        "system S {
            int (0, 3) x;
            function f() { loc inside: x := 1; }
            active thread T() { f(); }
            active thread U() { x := 2; }
            invariant I: !U@f.inside;
        }",
    );
    assert!(
        matches!(&system.invariants[0].cond, Expr::Not(inner) if matches!(**inner, Expr::Bool(false))),
        "{:?}",
        system.invariants[0].cond
    );
}

#[test]
fn functions_leave_no_body_of_their_own_and_no_placeholder_instance() {
    // `hasLock` in a function asks about the instance that runs it: the caller's, put in
    // place of the placeholder when the body is laid out in each caller.
    let system = checked(
        "system S {
            lock m;
            boolean held;
            function check() { held := hasLock(m); }
            active [2] thread T(int (0, 1) id) {
                lock(m);
                check();
                unlock(m);
            }
        }",
    );
    assert_eq!(
        system.threads.len(),
        1,
        "the function's body is laid out in T"
    );
    let placeholder = format!("{:?}", Expr::QuantVar(ir::QuantVarId(u32::MAX)));
    for transform in system.threads[ir::ThreadId(0)].transforms.iter() {
        let text = format!("{:?} {:?}", transform.guard, transform.actions);
        assert!(!text.contains(&placeholder), "{}: {text}", transform.text);
    }
}

#[test]
fn a_rendezvous_channel_without_a_partner_is_a_warning() {
    let warnings = |source: &str| -> Vec<String> {
        checked(source)
            .warnings
            .iter()
            .map(|warning| warning.message.clone())
            .collect()
    };
    let paired = warnings(
        "system S {
            int (0, 3) x;
            channel (int (0, 3)) c;
            active thread A() { c!(1); }
            active thread B() { c?(x); }
        }",
    );
    assert!(paired.is_empty(), "{paired:?}");
    let unused = warnings(
        "system S {
            channel c;
            channel (int (0, 3)) buffer 1 queue;
            active thread A() { queue!(1); }
        }",
    );
    // A buffered channel needs no partner; an unused rendezvous channel is warned about.
    assert_eq!(unused.len(), 1, "{unused:?}");
    assert!(unused[0].contains("`c` is never used"), "{unused:?}");
    // A send in a function counts where the function is called, and only there.
    let called = warnings(
        "system S {
            int (0, 3) x;
            channel c;
            function f() { c!; }
            active thread A() { f(); }
            active thread B() { c?; }
        }",
    );
    assert!(called.is_empty(), "{called:?}");
    let never_called = warnings(
        "system S {
            int (0, 3) x;
            channel c;
            function f() { c!; }
            active thread A() { x := 1; }
            active thread B() { c?; }
        }",
    );
    assert_eq!(never_called.len(), 1, "{never_called:?}");
    assert!(
        never_called[0].starts_with("no thread sends on"),
        "{never_called:?}"
    );
}

#[test]
fn errors_of_the_translation_to_steps_fail_the_front_end() {
    let found = errors(
        "system S {
            int (0, 3) x;
            active thread T() {
                atomic
                    while x < 3 do x := x + 1; end
                end
            }
        }",
    );
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].starts_with("a loop inside `atomic`"), "{found:?}");
}

#[test]
fn a_function_that_returns_a_value_reports_its_first_bare_return_once() {
    let found = errors(
        "system S {
            int (0, 9) x;
            function pick(int (0, 9) n) returns int (0, 9) {
                if n > 4 do return; end
                if n > 2 do return; end
                return n;
            }
            active thread T() { x := pick(5); }
        }",
    );
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].starts_with("`return;` without a value in `pick`"),
        "{found:?}"
    );
}

#[test]
fn a_bare_return_that_a_constant_false_guard_hides_is_no_error() {
    let system = checked(
        "system S {
            int (0, 9) x;
            function pick(int (0, 9) n) returns int (0, 9) {
                if false do return; end
                return n;
            }
            active thread T() { x := pick(5); }
        }",
    );
    assert_eq!(system.threads.len(), 1);
}

#[test]
fn the_reference_models_over_rendezvous_warn_about_nothing() {
    let models = [
        include_str!("../../../../models/v3/rdv_pair.bir"),
        include_str!("../../../../models/v3/big_rdv_phils.bir"),
        include_str!("../../../../models/beem/bridge.1.bir"),
        include_str!("../../../../models/beem/leader_election.1.bir"),
        include_str!("../../../../models/beem/needham.1.bir"),
    ];
    for source in models {
        let system = checked(source);
        assert!(
            system.warnings.is_empty(),
            "{}: {:?}",
            system.name,
            system.warnings
        );
    }
}

#[test]
fn the_hidden_state_and_each_buffered_operation_are_recorded() {
    let system = checked(
        "system S {
            channel (int (0, 3), boolean) buffer 2 c[2];
            lock m;
            active thread P() {
                int (0, 3) x;
                loc l: do { c[1]!(x, true); notify(m); } goto r;
                loc r: do { c[0]?(x, _); x := 1; } goto w;
                loc w: do { lock(m); wait(m); } goto l;
            }
        }",
    );
    let hidden = &system.hidden;
    let [channel] = &hidden.channels[..] else {
        panic!("{hidden:?}")
    };
    assert_eq!((channel.capacity, channel.len), (2, Some(2)));
    assert_eq!(channel.slots.len(), 2);
    assert_eq!(system.globals[channel.length].ty.len, Some(2));
    assert_eq!(system.globals[channel.slots[0]].ty.len, Some(4));
    assert_eq!(hidden.channel_of(channel.slots[1]), Some(0));
    let [lock] = &hidden.locks[..] else {
        panic!("{hidden:?}")
    };
    assert_eq!((lock.len, lock.first), (None, 0));
    assert!(hidden.is_owner(lock.owner));
    let waits = hidden.waits.expect("the model waits");
    assert!(hidden.is_wait_array(waits.mark) && hidden.is_wait_array(waits.count));
    let ops: Vec<_> = system.threads[ir::ThreadId(0)]
        .transforms
        .iter()
        .map(|t| t.buffered.as_deref())
        .collect();
    // The send with its element, in both of the notify's outcomes; the receive; the lock
    // and the wait are no channel operation.
    assert_eq!(ops.len(), 4);
    let send = ops[0].expect("a send");
    assert!(matches!(send.index, Some(Expr::Int(1))));
    assert!(matches!(&send.role, ir::RendezvousRole::Send(values) if values.len() == 2));
    // One slot write per field, then the length.
    assert_eq!(send.actions, 3);
    assert_eq!(ops[1].map(|op| op.actions), Some(3));
    let receive = ops[2].expect("a receive");
    assert!(matches!(&receive.role, ir::RendezvousRole::Receive(t) if t[1].is_none()));
    // The length, the one target, and two slots moved up per field.
    assert_eq!(receive.actions, 1 + 1 + 2 * 2);
    assert!(ops[3].is_none());
}

/// A message slot past the length holds its field's default (0 when in range), whatever
/// the range: the value a receive gives the last slot again, so that equal queues are
/// equal states. A lock's owner alone starts at -1.
#[test]
fn empty_message_slots_hold_their_field_s_default() {
    let system = checked(
        "system S {
            channel (int (-1, 2), int (1, 3)) buffer 2 c;
            lock m;
            active thread P() {
                loc l: do { c!(-1, 3); } goto r;
                loc r: do { c?(_, _); } goto k;
                loc k: do { lock(m); } goto l;
            }
        }",
    );
    let channel = &system.hidden.channels[0];
    assert_eq!(system.globals[channel.slots[0]].init, [0, 0]);
    assert_eq!(system.globals[channel.slots[1]].init, [1, 1]);
    assert_eq!(system.globals[system.hidden.locks[0].owner].init, [-1]);
}

/// A model whose record has two lock fields, one an array; `own` is an operation on the
/// lock of the object itself, or nothing.
fn lock_fields(own: &str) -> String {
    format!(
        "system S {{
            lock m;
            record[2] Box {{ int (0, 2) n; lock guard; lock l[3]; }}
            Box b;
            active [2] thread W(int (0, 1) id) {{
                loc a: do {{ b := new Box; }} goto c;
                loc c: do {{ lock(b.guard); b.n := 1; }} goto d;
                loc d: do {{ wait(b.l[id]); }} goto e;
                loc e: do {{ {own} notify(m); }} goto a;
            }}
        }}"
    )
}

#[test]
fn lock_fields_are_hidden_fields_and_locks_numbered_after_the_declared_ones() {
    let system = checked(&lock_fields(""));
    let hidden = &system.hidden;
    let record = &hidden.records[ir::RecordId(0)];
    let fields: Vec<(&str, Option<u32>, i64)> = record
        .fields
        .iter()
        .map(|f| (f.name.as_str(), f.len, f.default))
        .collect();
    // No operation takes the object's own lock: no `lock` field.
    assert_eq!(
        fields,
        [
            ("n", None, 0),
            ("guard", None, -1),
            ("guard.count", None, 0),
            ("l", Some(3), -1),
            ("l.count", Some(3), 0),
        ]
    );
    let names: Vec<(&str, u32, Option<u32>)> = hidden
        .locks
        .iter()
        .map(|l| (l.name.as_str(), l.first, l.len))
        .collect();
    // The array field has one number per element, for every object alike; its owners
    // one element per lock of each object (2 objects of 3).
    assert_eq!(
        names,
        [
            ("m", 0, None),
            ("Box.guard", 1, Some(2)),
            ("Box.l", 2, Some(6))
        ]
    );
    let guard = &hidden.locks[1];
    assert!(hidden.is_owner(guard.owner));
    assert_eq!(system.globals[guard.owner].name, "Box#guard");
    assert_eq!(system.globals[hidden.locks[2].count].name, "Box#l.count");
    assert_eq!(system.globals[hidden.locks[2].owner].init, [-1; 6]);
    // Owners of 2 instances (and -1), counts 0 to 3, whatever the field.
    assert_eq!(
        system.globals[guard.owner].ty.scalar,
        ir::Scalar::Int {
            lo: -1,
            hi: 1,
            wrap: false
        }
    );
    let waits = hidden.waits.expect("the model waits");
    assert_eq!(waits.locks, 5);
    assert!(
        record.waiting.is_some(),
        "an instance waits on an object's lock"
    );
}

#[test]
fn the_lock_of_the_object_itself_comes_before_its_lock_fields() {
    let system = checked(&lock_fields("lock(b);"));
    let record = &system.hidden.records[ir::RecordId(0)];
    let fields: Vec<&str> = record.fields.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(
        fields,
        [
            "n",
            "lock",
            "lock.count",
            "guard",
            "guard.count",
            "l",
            "l.count"
        ]
    );
    let names: Vec<(&str, u32)> = system
        .hidden
        .locks
        .iter()
        .map(|l| (l.name.as_str(), l.first))
        .collect();
    assert_eq!(
        names,
        [("m", 0), ("Box", 1), ("Box.guard", 2), ("Box.l", 3)]
    );
    assert_eq!(system.hidden.waits.map(|w| w.locks), Some(6));
}

#[test]
fn a_lock_field_is_no_value() {
    let model = |body: &str| {
        format!(
            "system S {{
                channel (int (0, 3)) buffer 1 c;
                record Box {{ int (0, 3) n; lock guard; lock l[2]; }}
                Box b;
                active thread T() {{
                    int (0, 3) x;
                    loc a: do {{ {body} }} goto a;
                }}
            }}"
        )
    };
    for (body, text) in [
        ("x := b.guard;", "lock(b.guard);"),
        ("b.guard := 1;", "lock(b.guard);"),
        ("x := b.l[1];", "lock(b.l[1]);"),
        ("b.l[0] := x;", "lock(b.l[0]);"),
        ("x := b.l;", "lock(b.l[i]);"),
    ] {
        let errors = errors(&model(body));
        let [error] = &errors[..] else {
            panic!("{body}: {errors:?}")
        };
        assert!(
            error.contains("is a lock field of record `Box`, not a value") && error.contains(text),
            "{body}: {error}"
        );
    }
    for body in ["x := b.guard == b.guard ? 1 : 0;", "c!(b.guard);"] {
        let errors = errors(&model(body));
        assert!(
            !errors.is_empty() && errors.iter().all(|e| e.contains("not a value")),
            "{body}: {errors:?}"
        );
    }
}

#[test]
fn lock_field_operands_are_checked_as_locks() {
    let model = |decls: &str, action: &str| {
        format!(
            "system S {{
                record Box {{ int (0, 3) n; lock guard; lock l[2]; {decls} }}
                Box b;
                active thread T() {{
                    int (0, 3) x;
                    loc a: do {{ {action} }} goto a;
                }}
            }}"
        )
    };
    let cases = [
        (
            "",
            "lock(b.l);",
            "`b.l` is an array of 2 locks; name one of them: `b.l[i]`",
        ),
        (
            "",
            "lock(b.guard[0]);",
            "the lock field `guard` of record `Box` is a single lock, not an array of locks",
        ),
        (
            "",
            "lock(b.l[true]);",
            "mismatched types: the index of an array of lock fields",
        ),
        ("", "lock(b.n);", "expected a lock: `b.n` is"),
        ("", "lock(b.lk);", "record `Box` has no field `lk`"),
        (
            "int (0, 1) guard;",
            "",
            "duplicate field `guard` in record `Box`",
        ),
        ("lock l;", "", "duplicate field `l` in record `Box`"),
        ("lock z[0];", "", "an array of lock fields has 1 to"),
    ];
    for (decls, action, expected) in cases {
        let errors = errors(&model(decls, action));
        assert!(
            errors.iter().any(|e| e.contains(expected)),
            "{action} {decls}: {errors:?}"
        );
    }
    // Every operation and built-in takes a lock field, through any reference.
    checked(
        "system S {
            record Box { lock guard; lock l[2]; Box next; }
            Box b;
            active thread T() {
                int (0, 1) x;
                loc a: do { lock(b.next.l[x]); } goto c;
                loc c: when hasLock(b.guard) || lockAvailable(b.l[1]) || wasNotified(b.next.guard)
                    do { notifyAll(b.next.l[x]); } goto a;
            }
        }",
    );
}
