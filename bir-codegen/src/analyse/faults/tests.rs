use std::str::FromStr;

use proc_macro2::TokenStream;

use super::*;

/// The certain faults of the system `S` whose globals are `globals` and whose thread
/// bodies are `threads`: each fault's kind, message and the source text its spans cover.
fn faults_in(globals: &str, threads: &str) -> Vec<(FaultKind, String, String)> {
    let source = format!("system S {{\n{globals}\n{threads}\n}}\n");
    let tokens = TokenStream::from_str(&source).expect("tokenizes");
    let system = crate::front_end(tokens)
        .unwrap_or_else(|d| panic!("{:?}", d.iter().map(|d| &d.message).collect::<Vec<_>>()));
    constant_faults(&system)
        .into_iter()
        .map(|fault| {
            let text = covered(&source, fault.spans);
            (fault.kind, fault.message, text)
        })
        .collect()
}

/// The source text from the start of `spans` to their end (on one line).
fn covered(source: &str, spans: Spans) -> String {
    let (start, end) = (spans.first.start(), spans.last.end());
    assert_eq!(start.line, end.line, "one line");
    let line = source.lines().nth(start.line - 1).expect("the line exists");
    line.chars()
        .skip(start.column)
        .take(end.column - start.column)
        .collect()
}

/// The globals most cases use.
const GLOBALS: &str = "boolean[2] a; int (0, 3) x; int y; byte b;
    const Param { Zero = 0; Two = 2; }";

/// The certain faults of one active thread `T` whose only location is `body`.
fn faults(body: &str) -> Vec<(FaultKind, String, String)> {
    faults_in(GLOBALS, &format!("active thread T() {{ loc l: {body} }}"))
}

/// The kinds and covered texts of `body`'s faults.
fn kinds(body: &str) -> Vec<(FaultKind, String)> {
    faults(body)
        .into_iter()
        .map(|(kind, _, text)| (kind, text))
        .collect()
}

#[test]
fn a_constant_index_outside_the_array_is_an_index_fault() {
    let found = faults("do { a[2] := true; } goto l;");
    assert_eq!(found.len(), 1, "{found:?}");
    let (kind, message, text) = &found[0];
    assert_eq!(*kind, FaultKind::Index);
    assert_eq!(text, "2", "the index is underlined");
    assert_eq!(
        message,
        "index 2 out of bounds in `a[2]`: `a` has 2 elements, so every execution of this \
         step that gets here is an index error"
    );
    // Read as well as written, negative, named or folded.
    assert_eq!(
        kinds("do { x := a[-1] ? 1 : 0; } goto l;"),
        [(FaultKind::Index, "-1".to_string())]
    );
    assert_eq!(
        kinds("do { a[Param.Two] := true; } goto l;"),
        [(FaultKind::Index, "Param.Two".to_string())]
    );
    assert_eq!(
        kinds("do { y := a[Param.Two * 3 - 1] ? 1 : 0; } goto l;"),
        [(FaultKind::Index, "Param.Two * 3 - 1".to_string())]
    );
}

#[test]
fn an_index_fault_in_a_guard_is_one_of_every_evaluation_of_the_guard() {
    let found = faults("when a[5] && x > 0 do { } goto l;");
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, FaultKind::Index);
    assert_eq!(found[0].2, "5");
    assert!(
        found[0]
            .1
            .ends_with("so every evaluation of this guard that gets here is an index error"),
        "{found:?}"
    );
}

#[test]
fn an_instance_index_outside_the_family_is_an_index_fault() {
    let found = faults_in(
        "int z; invariant Here: P[3]@l || z == 0;",
        "active [3] thread P(int i) { loc l: do { } goto l; }",
    );
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, FaultKind::Index);
    assert_eq!(found[0].2, "3");
    assert_eq!(
        found[0].1,
        "instance index 3 out of bounds in `P[3]@l`: `P` has 3 instances, so every \
         evaluation of invariant `Here` that gets here is an index error"
    );
}

#[test]
fn a_division_or_remainder_by_the_constant_zero_is_a_division_fault() {
    let found = faults("do { x := x / 0; } goto l;");
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, FaultKind::Division);
    assert_eq!(found[0].2, "0", "the divisor is underlined");
    assert_eq!(
        found[0].1,
        "division by zero in `x / 0`, so every execution of this step that gets here is a \
         division error"
    );
    assert_eq!(
        kinds("do { x := y % 0; } goto l;"),
        [(FaultKind::Division, "0".to_string())]
    );
    assert_eq!(
        kinds("do { x := y % Param.Zero; } goto l;"),
        [(FaultKind::Division, "Param.Zero".to_string())]
    );
    assert_eq!(
        kinds("do { x := y / (Param.Two - 2); } goto l;"),
        [(FaultKind::Division, "(Param.Two - 2)".to_string())]
    );
    // In a guard, and in a quantifier's body over a range that is not empty.
    assert_eq!(
        kinds("when forall k in 0 .. 2 : (k / 0 == 1) do { } goto l;"),
        [(FaultKind::Division, "0".to_string())]
    );
}

#[test]
fn a_constant_written_outside_the_variables_range_is_a_range_fault() {
    let found = faults("do { x := 5; } goto l;");
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, FaultKind::Range);
    assert_eq!(found[0].2, "5", "the value is underlined");
    assert_eq!(
        found[0].1,
        "`x := 5;` writes 5, outside `x`'s type int (0, 3), so every execution of this step \
         that gets here is a range error"
    );
    assert_eq!(
        kinds("do { x := Param.Two * 2; } goto l;"),
        [(FaultKind::Range, "Param.Two * 2".to_string())]
    );
    assert_eq!(
        kinds("do { x := -1; } goto l;"),
        [(FaultKind::Range, "-1".to_string())]
    );
}

#[test]
fn a_constant_passed_outside_the_parameters_range_is_a_range_fault() {
    let found = faults_in(
        GLOBALS,
        "thread W(int (0, 3) job) { loc w: do { } return; }
         active thread T() { loc l: do { start W(5); } return; }",
    );
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, FaultKind::Range);
    assert_eq!(found[0].2, "5", "the argument is underlined");
    assert_eq!(
        found[0].1,
        "`start W(..)` passes 5, outside the parameter's type int (0, 3), so every execution \
         of this step that gets here is a range error"
    );
    // Rule: an argument is never wrapped, even into a wrapping parameter.
    let found = faults_in(
        GLOBALS,
        "thread W(byte job) { loc w: do { } return; }
         active thread T() { loc l: do { start W(256); } return; }",
    );
    assert_eq!(found.len(), 1, "{found:?}");
}

#[test]
fn constants_alone_that_overflow_are_a_range_fault() {
    assert_eq!(
        kinds("do { y := 2147483647 * 2147483647 * 2147483647 > 0 ? 1 : 0; } goto l;"),
        [(
            FaultKind::Range,
            "2147483647 * 2147483647 * 2147483647".to_string()
        )]
    );
}

#[test]
fn in_range_constants_are_no_fault() {
    for body in [
        "do { a[1] := true; a[0] := a[1]; } goto l;",
        "do { x := y / 2; x := y % -1; } goto l;",
        "do { x := 3; x := 0; y := -2147483648; } goto l;",
        // A wrapping type wraps.
        "do { b := 300; b := -1; } goto l;",
        "when a[Param.Two - 1] do { x := Param.Two + 1; } goto l;",
    ] {
        assert_eq!(faults(body), [], "{body}");
    }
    let started = faults_in(
        GLOBALS,
        "thread W(int (0, 3) job) { loc w: do { } return; }
         active thread T() { loc l: do { start W(3); } return; }",
    );
    assert_eq!(started, []);
}

#[test]
fn operands_that_depend_on_the_state_are_no_fault() {
    for body in [
        "do { a[y] := true; } goto l;",
        "do { x := y / x; x := y % y; } goto l;",
        "do { x := y; x := x + 1; } goto l;",
        "when a[x + 2] do { } goto l;",
    ] {
        assert_eq!(faults(body), [], "{body}");
    }
    // The instance index differs between instances: `a[i + 1]` fails for one of two.
    let found = faults_in(
        GLOBALS,
        "active [2] thread P(int i) { loc l: do { a[i + 1] := true; x := 1 / i; } goto l; }",
    );
    assert_eq!(found, []);
    let started = faults_in(
        GLOBALS,
        "thread W(int (0, 3) job) { loc w: do { } return; }
         active thread T() { loc l: do { start W(y); } return; }",
    );
    assert_eq!(started, []);
}

#[test]
fn faults_that_some_evaluations_skip_are_no_fault() {
    for body in [
        // Only some states evaluate the right operand of `&&` and `||`, or a branch of `? :`.
        "when x > 1 && a[2] do { } goto l;",
        "when x > 1 || y / 0 == 1 do { } goto l;",
        "do { x := x > 1 ? 5 : 0; y := x == 0 ? y : y / 0; } goto l;",
        // A quantifier over an empty range never evaluates its body.
        "when forall k in 0 .. 0 : (a[2]) do { } goto l;",
        // A guard that is the constant false: the actions never run.
        "when false do { a[2] := true; } goto l;",
        "when 1 > 2 && a[2] do { a[2] := true; } goto l;",
        // Nothing runs after `exit`, a false `assume` or a false `assert`.
        "do { exit; a[2] := true; }",
        "do { assume (false); x := x / 0; } goto l;",
        "do { assert (false); x := 5; } goto l;",
    ] {
        assert_eq!(faults(body), [], "{body}");
    }
}

#[test]
fn constant_operands_that_decide_are_followed() {
    // A constant left operand that does not decide: the right one is always evaluated.
    assert_eq!(
        kinds("when true && a[2] do { } goto l;"),
        [(FaultKind::Index, "2".to_string())]
    );
    assert_eq!(
        kinds("do { y := Param.Zero == 0 ? y / Param.Zero : 1; } goto l;"),
        [(FaultKind::Division, "Param.Zero".to_string())]
    );
    // A state-dependent `assume` before: what the step does after it, it always does.
    assert_eq!(
        kinds("do { assume (x > 0); x := 4; } goto l;"),
        [(FaultKind::Range, "4".to_string())]
    );
}

#[test]
fn only_the_first_fault_of_a_step_is_reported() {
    // The step never gets past `a[2]`; the guard's fault stops it before its actions.
    assert_eq!(
        kinds("do { a[2] := true; x := x / 0; x := 5; } goto l;"),
        [(FaultKind::Index, "2".to_string())]
    );
    assert_eq!(
        kinds("when y / 0 > 1 do { a[2] := true; } goto l;"),
        [(FaultKind::Division, "0".to_string())]
    );
    // One per transformation, in source order.
    let found = kinds("do { x := 5; } goto l; when a[3] do { } goto l;");
    assert_eq!(
        found,
        [
            (FaultKind::Range, "5".to_string()),
            (FaultKind::Index, "3".to_string())
        ]
    );
}
