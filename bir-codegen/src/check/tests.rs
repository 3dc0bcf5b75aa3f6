use std::str::FromStr;

use proc_macro2::TokenStream;

use crate::ir::{self, Scalar, ThreadKind};

/// The reference models, byte-identical copies of `../shared/models`.
pub(crate) const MODELS: &[(&str, &str)] = &[
    (
        "two_dining_philosophers",
        include_str!("../../../models/two_dining_philosophers.bir"),
    ),
    (
        "bounded_buffer",
        include_str!("../../../models/bounded_buffer.bir"),
    ),
    (
        "readers_writers",
        include_str!("../../../models/readers_writers.bir"),
    ),
    ("sum_to_n", include_str!("../../../models/sum_to_n.bir")),
    (
        "dining_philosophers",
        include_str!("../../../models/dining_philosophers.bir"),
    ),
    (
        "dining_philosophers_fixed",
        include_str!("../../../models/dining_philosophers_fixed.bir"),
    ),
    (
        "peterson_filter",
        include_str!("../../../models/peterson_filter.bir"),
    ),
];

fn checked(source: &str) -> ir::System {
    let tokens = TokenStream::from_str(source).expect("tokenizes");
    match crate::front_end(tokens) {
        Ok(system) => system,
        Err(diags) => panic!(
            "unexpected errors: {:?}",
            diags.iter().map(|d| d.message.clone()).collect::<Vec<_>>()
        ),
    }
}

/// The messages of the errors a model produces.
fn errors(source: &str) -> Vec<String> {
    let tokens = TokenStream::from_str(source).expect("tokenizes");
    match crate::front_end(tokens) {
        Ok(_) => Vec::new(),
        Err(diags) => diags.iter().map(|d| d.message.clone()).collect(),
    }
}

#[test]
fn every_reference_model_checks() {
    for (name, source) in MODELS {
        let system = checked(source);
        assert!(!system.threads.is_empty(), "{name}");
    }
}

#[test]
fn dining_philosophers_resolves_constants_replication_and_parameters() {
    let system = checked(MODELS[4].1);
    assert_eq!(system.name, "DiningPhilosophers");
    assert_eq!(system.consts[0].value, 5);
    assert_eq!(system.globals[ir::GlobalId(0)].ty.len, Some(5));
    let thread = &system.threads[ir::ThreadId(0)];
    assert_eq!(
        thread.kind,
        ThreadKind::Active {
            count: 5,
            replicated: true
        }
    );
    assert_eq!(thread.index_param.as_deref(), Some("index"));
    assert!(thread.locals.is_empty());
    assert!(!thread.can_end);
    assert_eq!(thread.status_count(), 4);
    assert_eq!(
        thread.transforms[ir::TransformId(0)].text,
        "when !fork[index] do { fork[index] := true; } goto takeRight;"
    );
}

#[test]
fn peterson_ranges_fold_from_constants() {
    let system = checked(MODELS[6].1);
    assert_eq!(
        system.globals[ir::GlobalId(0)].ty,
        ir::Ty {
            scalar: Scalar::Int {
                lo: 0,
                hi: 2,
                wrap: false
            },
            len: Some(3)
        }
    );
    assert_eq!(
        system.globals[ir::GlobalId(2)].ty.scalar,
        Scalar::Int {
            lo: 0,
            hi: 3,
            wrap: false
        }
    );
    assert_eq!(system.invariants[0].name, "MutualExclusion");
}

#[test]
fn sum_to_n_bytes_wrap_and_thread0_can_end() {
    let system = checked(MODELS[3].1);
    assert_eq!(system.globals[ir::GlobalId(0)].ty.scalar, Scalar::BYTE);
    assert_eq!(system.globals[ir::GlobalId(0)].init, vec![1]);
    assert!(system.threads[ir::ThreadId(0)].can_end);
    assert_eq!(system.threads[ir::ThreadId(0)].status_count(), 2);
    assert!(!system.threads[ir::ThreadId(1)].can_end);
}

#[test]
fn widths_are_ceil_log2_of_the_number_of_values() {
    assert_eq!(ir::bits_for(1), 0);
    assert_eq!(ir::bits_for(2), 1);
    assert_eq!(ir::bits_for(3), 2);
    assert_eq!(ir::bits_for(4), 2);
    assert_eq!(ir::bits_for(5), 3);
    assert_eq!(ir::bits_for(256), 8);
    assert_eq!(ir::bits_for(1 << 32), 32);
    let enums = ir::IdVec::new();
    assert_eq!(
        Scalar::Int {
            lo: -4,
            hi: 4,
            wrap: false
        }
        .width(&enums),
        4
    );
    assert_eq!(Scalar::INT.width(&enums), 32);
    assert_eq!(Scalar::BYTE.width(&enums), 8);
    assert_eq!(Scalar::Bool.width(&enums), 1);
    assert_eq!(
        Scalar::Int {
            lo: 7,
            hi: 7,
            wrap: false
        }
        .width(&enums),
        0
    );
}

#[test]
fn defaults_are_zero_or_the_lower_bound() {
    assert_eq!(
        Scalar::Int {
            lo: -4,
            hi: 4,
            wrap: false
        }
        .default_value(),
        0
    );
    assert_eq!(
        Scalar::Int {
            lo: 3,
            hi: 9,
            wrap: false
        }
        .default_value(),
        3
    );
    assert_eq!(
        Scalar::Int {
            lo: -9,
            hi: -3,
            wrap: true
        }
        .default_value(),
        -9
    );
}

#[test]
fn constants_fold_across_blocks_and_order() {
    let system = checked(
        "system S {
            const A { X = B.Y * 2 + 1; F = !(A.X > 3) || true; }
            const B { Y = 7 / 2; Z = -7 % 3; }
            int (0, A.X) v := A.X;
            active thread T() { loc l: do { v := B.Z + 1; } goto l; }
        }",
    );
    let value = |name: &str| {
        system
            .consts
            .iter()
            .find(|c| c.name == name)
            .map(|c| c.value)
    };
    assert_eq!(value("X"), Some(7));
    assert_eq!(value("Y"), Some(3));
    assert_eq!(value("Z"), Some(-1));
    assert_eq!(value("F"), Some(1));
    assert_eq!(system.globals[ir::GlobalId(0)].init, vec![7]);
}

#[test]
fn enums_aliases_and_array_initialisers_resolve() {
    let system = checked(
        "system S {
            enum Color { Red, Green, Blue, }
            typealias Level int (-2, 5);
            Color c := Color.Blue;
            Level[3] levels := { -2, 0, 5 };
            Color[2] cs;
            active [2] thread T(Level me) {
                boolean seen;
                loc l: when c != Color.Red && levels[me] < 5 do { seen := true; cs[me] := c; } goto l;
            }
        }",
    );
    assert_eq!(
        system.enums[ir::EnumId(0)].variants,
        ["Red", "Green", "Blue"]
    );
    assert_eq!(system.globals[ir::GlobalId(0)].init, vec![2]);
    assert_eq!(system.globals[ir::GlobalId(1)].init, vec![-2, 0, 5]);
    assert_eq!(system.globals[ir::GlobalId(2)].init, vec![0, 0]);
    assert_eq!(
        system.globals[ir::GlobalId(1)]
            .ty
            .scalar
            .width(&system.enums),
        3
    );
}

#[test]
fn started_threads_store_their_parameter_as_a_local() {
    let system = checked(
        "system S {
            thread Worker(int (0, 3) job) {
                int count;
                loc run: do { count := job; } return;
            }
            active thread Main() { loc go: do { start Worker(2); } goto go; }
        }",
    );
    let worker = &system.threads[ir::ThreadId(0)];
    assert_eq!(worker.kind, ThreadKind::Started);
    assert_eq!(worker.start_params, vec![ir::LocalId(0)]);
    assert_eq!(worker.locals[ir::LocalId(0)].name, "job");
    assert_eq!(worker.locals[ir::LocalId(1)].name, "count");
    assert_eq!(worker.status_count(), 3);
    assert_eq!(
        system.threads[ir::ThreadId(1)].first_instance,
        ir::InstanceId(1)
    );
}

#[test]
fn independent_mistakes_are_all_reported() {
    let errors = errors(
        "system S {
            boolean b := 3;
            int x;
            active thread T() {
                loc l: when x do { y := 1; } goto nowhere;
            }
        }",
    );
    assert_eq!(errors.len(), 4, "{errors:#?}");
}

#[test]
fn cyclic_constants_and_aliases_are_reported_once() {
    let errors = errors(
        "system S {
            const C { A = C.B; B = C.A; }
            typealias T U; typealias U T;
            active thread P() { loc l: do {} goto l; }
        }",
    );
    assert_eq!(errors.len(), 2, "{errors:#?}");
    assert!(errors[0].contains("cyclic constant"));
    assert!(errors[1].contains("cyclic typealias"));
}

#[test]
fn the_state_holds_at_most_max_state_values() {
    use super::threads::MAX_STATE_VALUES;
    let thread = "active thread T() { loc l: do { } goto l; }";
    // Two longest arrays and the thread's status: one value too many, then exactly enough.
    let over = errors(&format!(
        "system S {{ int[65536] a; int[65536] b; {thread} }}"
    ));
    assert_eq!(over.len(), 1, "{over:?}");
    assert!(
        over[0].starts_with("the state is too large: 131073 values"),
        "{over:?}"
    );
    checked(&format!(
        "system S {{ int[65536] a; int[65535] b; {thread} }}"
    ));
    assert_eq!(MAX_STATE_VALUES, 65536 + 65535 + 1);
    // Instances multiply their locals (2^28 values here): found before anything is laid out.
    let many =
        errors("system S { active [4096] thread T() { int[65536] a; loc l: do { } goto l; } }");
    assert!(many[0].contains("bir stores at most 131072"), "{many:?}");
}

#[test]
fn constants_fold_division_and_remainder_to_their_mathematical_value() {
    // C.M is i64::MIN: its remainder by -1 is 0, its quotient by -1 (2^63) does not fit.
    let system = checked(
        "system S {
            const C { M = -2147483648 * 2147483648 * 2; R = C.M % -1; Q = C.M / 1 == C.M; }
            int x := C.R; boolean q := C.Q;
            active thread T() { loc l: do { } goto l; }
        }",
    );
    let values: Vec<_> = system.consts.iter().map(|c| c.value).collect();
    assert_eq!(values, [i64::MIN, 0, 1]);
    let errors = errors(
        "system S {
            const C { M = -2147483648 * 2147483648 * 2; Q = C.M / -1; }
            int x := C.Q;
            active thread T() { loc l: do { } goto l; }
        }",
    );
    assert_eq!(
        errors,
        ["this constant expression fails: arithmetic overflow in `C.M / -1`"]
    );
}

#[test]
fn runtime_quantifiers_take_at_most_max_quantifier_steps() {
    use super::expr::MAX_QUANTIFIER_STEPS;
    assert_eq!(MAX_QUANTIFIER_STEPS, 65_536);
    let guard = |guard: &str| {
        errors(&format!(
            "system S {{ int x; active thread T() {{ loc l: when {guard} do {{ }} goto l; }} }}"
        ))
    };
    // 2^16 body evaluations, in one quantifier or nested (256 + 256 * 255): accepted.
    assert!(guard("forall a in 0 .. 65536 : (a != x)").is_empty());
    assert!(guard("forall a in 0 .. 256 : (forall b in 0 .. 255 : (a + b != x))").is_empty());
    // 256 + 256 * 256: one error, on the quantifier that passes the bound.
    let nested = guard("forall a in 0 .. 256 : (forall b in 0 .. 256 : (a + b != x))");
    assert_eq!(nested.len(), 1, "{nested:?}");
    assert!(
        nested[0].starts_with("too many quantifier steps") && nested[0].contains(" 65792 "),
        "{nested:?}"
    );
    // Quantifiers side by side add up, once reported however many pass.
    let siblings = guard(
        "(forall a in 0 .. 40000 : (a != x)) && (exists b in 0 .. 40000 : (b == x)) \
         && (exists c in 0 .. 40000 : (c == x))",
    );
    assert_eq!(siblings.len(), 1, "{siblings:?}");
    // Each guard, action and invariant has its own budget.
    let wide = "forall a in 0 .. 60000 : (a != x)";
    assert_eq!(
        errors(&format!(
            "system S {{ int x; boolean b; invariant I: {wide};
               active thread T() {{ loc l: when {wide} do {{ b := {wide}; assert ({wide}); }} goto l; }} }}"
        )),
        Vec::<String>::new()
    );
    // Constants are folded at compile time, under their own bound.
    assert_eq!(
        errors(
            "system S { const C { B = forall a in 0 .. 300 : (forall b in 0 .. 300 : (a != b + 300)); }
               boolean v := C.B; active thread T() { loc l: do { } goto l; } }"
        ),
        Vec::<String>::new()
    );
}

/// The errors of a model with the line of each, and the line of each note.
fn errors_with_notes(source: &str) -> Vec<(String, usize, Vec<usize>)> {
    let tokens = TokenStream::from_str(source).expect("tokenizes");
    let Err(diags) = crate::front_end(tokens) else {
        return Vec::new();
    };
    diags
        .into_vec()
        .into_iter()
        .map(|d| {
            let notes = d.notes.iter().map(|n| n.spans.first.start().line).collect();
            (d.message, d.spans.first.start().line, notes)
        })
        .collect()
}

#[test]
fn a_duplicate_points_at_the_first_declaration() {
    let found = errors_with_notes(
        "system S {
            int x;
            const C { N = 1; N = 2; }
            enum E { A, A }
            boolean x;
            invariant I: true;
            invariant I: true;
            active thread T(int p) {
                int q;
                int p;
                loc l: do { } goto l;
                loc l: when forall k in 0 .. 2 : (exists k in 0 .. 2 : (true)) do { } goto l;
            }
            ltl I: []true;
        }",
    );
    let summary: Vec<(usize, Vec<usize>)> = found
        .iter()
        .filter(|(message, ..)| message.starts_with("duplicate"))
        .map(|(_, line, notes)| (*line, notes.clone()))
        .collect();
    assert_eq!(
        summary,
        [
            (3, vec![3]),
            (4, vec![4]),
            (5, vec![2]),
            (7, vec![6]),
            (10, vec![8]),
            (12, vec![11]),
            (12, vec![12]),
            (14, vec![6]),
        ],
        "{found:#?}"
    );
}

#[test]
fn unknown_names_suggest_the_closest_declared_one() {
    let found = errors(
        "system S {
            const Param { N = 3; }
            enum Color { Red, Green }
            typealias Level int (0, 3);
            boolean locked;
            Levle lv;
            bool b;
            int x := Param.Size + Parm.N;
            Color c := Color.Gren;
            active thread T() {
                int count;
                loc begin:
                    when lockd do { count := cont; } goto bgin;
                    when True do { c := Red; count := N; } goto begin;
                    when Tt@begin || T@bgin do { start Helper(); } goto begin;
            }
            thread Worker() { loc w: do { } goto w; }
        }",
    );
    let expected = [
        "unknown type `Levle`; did you mean `Level`?",
        "unknown type `bool`; BIR writes the boolean type `boolean`",
        "unknown constant `Size` in const block `Param`",
        "unknown const block or enum `Parm`; did you mean `Param`?",
        "enum `Color` has no value `Gren`; did you mean `Green`?",
        "unknown name `lockd`; did you mean `locked`?",
        "unknown name `cont`; did you mean `count`?",
        "unknown location `bgin` in thread `T`; did you mean `begin`?",
        "unknown name `True`; BIR writes booleans in lower case: `true`",
        "unknown name `Red`; did you mean `Color.Red`?",
        "unknown name `N`; did you mean `Param.N`?",
        "unknown thread `Tt`; did you mean `T`?",
        "thread `T` has no location `bgin`; did you mean `begin`?",
        "unknown thread `Helper`",
    ];
    assert_eq!(found.len(), expected.len(), "{found:#?}");
    for (found, expected) in found.iter().zip(expected) {
        assert!(
            found.starts_with(expected),
            "{found:?} should say {expected:?}"
        );
    }
    assert!(!found[2].contains("did you mean"), "{:?}", found[2]);
    assert!(!found[13].contains("did you mean"), "{:?}", found[13]);
}

#[test]
fn a_transformation_that_exits_needs_no_jump() {
    let system = checked(
        "system S {
            int x;
            active thread T() {
                loc a: when x == 0 do { x := 1; exit; } do { exit; x := 2; } goto a;
            }
        }",
    );
    let thread = &system.threads[ir::ThreadId(0)];
    assert!(thread.can_end);
    for transform in thread.transforms.iter() {
        assert_eq!(transform.destination(), ir::Jump::Return);
    }
    // Without `exit`, a jump is still required.
    let found = errors("system S { active thread T() { loc a: do { } } }");
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("has no jump"), "{found:?}");
}

mod exceptions;
mod pools;
mod v3;
