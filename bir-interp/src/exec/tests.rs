//! The rules of one step, each on a model small enough to read its successors by hand.

use bir_runtime::model::{Fault, Outcome};
use bir_runtime::Model;

use crate::Interpreter;

/// The outcomes of the initial state's successors: `Ok(next state)` or `Err(fault)`.
fn steps(source: &str) -> Vec<(u32, Result<Vec<i64>, Fault>)> {
    let model = Interpreter::from_source(source)
        .unwrap_or_else(|e| panic!("{:?}", e.iter().map(|d| &d.message).collect::<Vec<_>>()));
    let mut out = Vec::new();
    model.successors(&model.initial_state(), &mut out);
    out.into_iter()
        .map(|s| {
            let outcome = match s.outcome {
                Outcome::Next(next) => {
                    let mut values = Vec::new();
                    model.decode(&next, &mut values);
                    Ok(values)
                }
                Outcome::Fault(fault) => Err(fault),
            };
            (s.transition, outcome)
        })
        .collect()
}

#[test]
fn writes_wrap_in_wrapping_types_and_fault_outside_others() {
    let found = steps(
        "system S { byte b := 255; int wrap (-2, 2) w := 2; int (0, 3) n := 3;
           active thread T() { loc l: do { b := b + 2; w := w + 1; } goto l;
                                      do { n := n + 1; } goto l; } }",
    );
    // Slots: b, w, n, T's status.
    assert_eq!(found[0], (0, Ok(vec![1, -2, 3, 0])));
    assert!(matches!(found[1], (1, Err(Fault { value: 4, .. }))));
}

#[test]
fn each_action_sees_the_writes_before_it_and_the_index_comes_first() {
    let found = steps(
        "system S { int (0, 3)[2] a; int (0, 3) i;
           active thread T() { loc l: do { i := 1; a[i] := i + 1; i := 3; a[i] := 0; } goto l; } }",
    );
    // The last write's index 3 is out of bounds: an index error before its value matters.
    assert_eq!(found.len(), 1);
    let (_, outcome) = &found[0];
    let fault = outcome.clone().unwrap_err();
    assert_eq!(fault.value, 3);
}

#[test]
fn exit_ends_the_instance_and_skips_the_rest_of_the_block() {
    let found = steps(
        "system S { int (0, 1) x;
           active thread T() { loc l: do { x := 1; exit; x := 5; } goto m; loc m: do {} goto m; } }",
    );
    // T ended: its status is its number of locations (2).
    assert_eq!(found, [(0, Ok(vec![1, 2]))]);
}

#[test]
fn a_false_assume_discards_the_step_and_a_faulting_guard_is_an_error_step() {
    let found = steps(
        "system S { int x; boolean[1] f;
           active thread T() { loc l: do { x := 1; assume (x == 0); } goto l;
                                      when f[x + 1] do {} goto l;
                                      when 1 / x == 0 do {} goto l; } }",
    );
    let ids: Vec<_> = found.iter().map(|(id, _)| *id).collect();
    assert_eq!(ids, [1, 2]);
    assert!(matches!(found[0].1, Err(Fault { value: 1, .. })));
    assert!(matches!(found[1].1, Err(Fault { value: 0, .. })));
}

#[test]
fn start_checks_the_instance_then_the_argument_which_never_wraps() {
    let source = |arg: &str| {
        format!(
            "system S {{ active thread A() {{ loc l: do {{ start B({arg}); }} goto l; }}
               thread B(int wrap (0, 3) p) {{ loc m: do {{}} return; }} }}"
        )
    };
    // Slots: A, B, B.p. B is not started (status 2) and p is 0.
    assert_eq!(steps(&source("2")), [(0, Ok(vec![0, 0, 2]))]);
    let found = steps(&source("4"));
    assert!(matches!(found[0].1, Err(Fault { value: 4, .. })));
    // Starting it twice is a start error.
    let twice = "system S { active thread A() { loc l: do { start B(); start B(); } goto l; }
                   thread B() { loc m: do {} return; } }";
    assert!(matches!(steps(twice)[0].1, Err(Fault { value: 0, .. })));
}

#[test]
fn sixty_four_bit_overflow_is_a_range_error() {
    let found = steps(
        "system S { int x := 2147483647;
           active thread T() { loc l: do { x := x * x * x; } goto l; } }",
    );
    assert!(matches!(found[0].1, Err(Fault { value: 0, .. })));
}

#[test]
fn remainder_by_minus_one_is_zero_and_only_a_quotient_past_64_bits_faults() {
    // x * x * -2 is i64::MIN for x = -2^31: its remainder by -1 is 0, its quotient 2^63 is
    // a range error.
    let source = "system S { int x := -2147483648; boolean r;
        active thread T() { loc l: when x * x * -2 % -1 == 0 do { r := true; } goto l;
                                   do { r := x * x * -2 / -1 > 0; } goto l; } }";
    let found = steps(source);
    // Slots: x, r, T's status.
    assert_eq!(found[0], (0, Ok(vec![-2147483648, 1, 0])));
    let fault = found[1].1.clone().unwrap_err();
    let model = Interpreter::from_source(source).expect("checks");
    let site = &model.info().fault_sites[fault.site as usize];
    assert_eq!(site.kind, bir_runtime::model::FaultKind::Range);
    assert_eq!(site.message, "arithmetic overflow in `x * x * -2 / -1`");
}
