use super::{murphi, Errors};
use crate::drive::source::front_end;
use crate::ir::System;
use crate::Overrides;

fn checked(source: &str) -> System {
    match front_end(source, &Overrides::default()) {
        Ok(system) => system,
        Err(errors) => panic!("the model does not compile: {errors:?}"),
    }
}

/// The lines of `text`, trimmed, for asserting that some are there.
fn lines(text: &str) -> Vec<&str> {
    text.lines().map(str::trim).collect()
}

#[test]
fn globals_statuses_and_locals_are_variables_initialised_in_the_start_state() {
    let text = murphi(
        &checked(
            "system S {
           boolean[2] fork := { true, false };
           int (-3, 3) x := -2;
           active [2] thread P(int index) {
             int (0, 4) n := 1;
             loc a: do { n := n + 1; } return;
           }
           thread Q(int p) { loc b: do {} goto b; }
         }",
        ),
        Errors::Stop,
    )
    .expect("the encoding keeps the model");
    let lines = lines(&text);
    for expected in [
        "g_fork: array [0..1] of boolean;",
        "g_x: -3..3;",
        "st_P: array [0..1] of 0..2;",
        "l0_n: array [0..1] of 0..4;",
        "st_Q: array [0..0] of 0..2;",
        "g_fork[0] := true;",
        "g_fork[1] := false;",
        "g_x := -2;",
        "st_P[1] := 0;",
        "l0_n[1] := 1;",
        // Not started: one past "ended".
        "st_Q[0] := 2;",
    ] {
        assert!(lines.contains(&expected), "no `{expected}` in\n{text}");
    }
}

#[test]
fn a_transformation_is_a_rule_over_the_instances_guarded_by_location_and_guard() {
    let text = murphi(
        &checked(
            "system S {
           boolean[3] fork;
           active [3] thread P(int index) {
             loc take: when !fork[index] do { fork[index] := true; } goto put;
             loc put: do { fork[index] := false; exit; } goto take;
           }
         }",
        ),
        Errors::Stop,
    )
    .expect("the encoding keeps the model");
    let lines = lines(&text);
    for expected in [
        "ruleset inst: 0..2 do",
        "st_P[inst] = 0 & !(g_fork[inst])",
        "g_fork[inst] := true;",
        "st_P[inst] := 1;",
        "st_P[inst] = 1",
        // `exit` ends the instance whatever the jump says.
        "st_P[inst] := 2;",
    ] {
        assert!(lines.contains(&expected), "no `{expected}` in\n{text}");
    }
    assert!(!lines.contains(&"st_P[inst] := 0;"), "{text}");
}

#[test]
fn wrapping_writes_wrap_with_the_remainder_and_quantifiers_become_murphi_quantifiers() {
    let text = murphi(
        &checked(
            "system S {
           byte b;
           int (0, 3)[3] a;
           active thread T() {
             loc l: when forall i in 0 .. 3 : (a[i] < 3) && exists j in 1 .. 1 : (a[j] == 0)
                    do { b := b - 1; } goto l;
           }
         }",
        ),
        Errors::Stop,
    )
    .expect("the encoding keeps the model");
    assert!(
        text.contains("g_b := 0 + (((g_b - 1) - (0)) % 256 + 256) % 256;"),
        "{text}"
    );
    // An empty range: `exists` is false.
    assert!(
        text.contains("st_T[inst] = 0 & ((forall q0: 0..2 do (g_a[q0] < 3) endforall) & false)"),
        "{text}"
    );
}

#[test]
fn an_assume_after_a_write_is_decided_on_copies_in_the_guard() {
    let text = murphi(
        &checked(
            "system S {
           int (0, 3) x;
           active thread T() {
             loc l: do { x := x + 1; assert (x < 3); assume (x == 2); } goto l;
           }
         }",
        ),
        Errors::Stop,
    )
    .expect("the encoding keeps the model");
    let lines = lines(&text);
    for expected in [
        "function assumed_0_0(inst: 0..0): boolean;",
        "c_g_x: 0..3;",
        "c_g_x := g_x;",
        "c_g_x := (c_g_x + 1);",
        // The assert's failure is the step's error, met when the rule fires.
        "if !((c_g_x < 3)) then return true; endif;",
        "if !((c_g_x = 2)) then return false; endif;",
        "st_T[inst] = 0 & assumed_0_0(inst)",
        "g_x := (g_x + 1);",
        "assert (g_x < 3) \"assertion failed: x < 3\";",
    ] {
        assert!(lines.contains(&expected), "no `{expected}` in\n{text}");
    }
}

#[test]
fn a_start_checks_its_target_and_invariants_are_murphi_invariants() {
    let text = murphi(
        &checked(
            "system S {
           boolean go;
           thread W(int (0, 5) p) { loc w: do { go := true; } return; }
           active thread M() { loc m: do { start W(3); } goto m; }
           invariant Quiet: !go || W@w == false;
         }",
        ),
        Errors::Stop,
    )
    .expect("the encoding keeps the model");
    let lines = lines(&text);
    for expected in [
        "if st_W[0] != 2 then error \"cannot start `W`: it has already started\"; endif;",
        "l0_p[0] := 3;",
        "st_W[0] := 0;",
        "invariant \"Quiet: !go || W@w == false\"",
    ] {
        assert!(
            lines.iter().any(|line| line.starts_with(expected)),
            "no `{expected}` in\n{text}"
        );
    }
}

#[test]
fn counting_past_errors_decides_each_fault_in_an_outcome_function() {
    let text = murphi(
        &checked(
            "system S {
               int (0, 3)[2] a;
               int (0, 3) x;
               active thread T() {
                 loc l: when a[x] > 0 || x / a[0] == 1
                        do { a[x] := x + 2; assert (x < 3); assume (x != 1); } goto l;
               }
               invariant Small: a[0] < 3;
             }",
        ),
        Errors::CountPast,
    )
    .expect("the encoding keeps the model");
    let lines = lines(&text);
    for expected in [
        "function outcome_0_0(inst: 0..0): 0..2;",
        // The guard: `a[x]` first; the division only when `a[x] > 0` is false.
        "if (((g_x < 0) | (g_x >= 2)) | (!((c_g_a[g_x] > 0)) & (((0 < 0) | (0 >= 2)) | \
         (c_g_a[0] = 0)))) then return 1; endif;",
        "if !(((c_g_a[g_x] > 0) | ((g_x / c_g_a[0]) = 1))) then return 0; endif;",
        // The write: its index, its value, its range.
        "if ((g_x < 0) | (g_x >= 2)) then return 1; endif;",
        "if ((g_x + 2) < 0) | ((g_x + 2) > 3) then return 1; endif;",
        "c_g_a[g_x] := (g_x + 2);",
        "if !((g_x < 3)) then return 1; endif;",
        "if !((g_x != 1)) then return 0; endif;",
        "return 2;",
        // A violating state is counted and not expanded; a fault changes nothing.
        "invariants_hold() & st_T[inst] = 0 & outcome_0_0(inst) != 0",
        "if outcome_0_0(inst) = 2 then",
    ] {
        assert!(lines.contains(&expected), "no `{expected}` in\n{text}");
    }
    // No invariant of Murphi's own: Rumur must count past the violation.
    assert!(!text.contains("\ninvariant "), "{text}");
}

#[test]
fn a_quantifier_faults_where_its_loop_reaches_a_faulting_body() {
    let text = murphi(
        &checked(
            "system S {
               boolean[2] b;
               active thread T() {
                 loc l: when forall i in 0 .. 3 : (b[i]) do {} goto l;
               }
             }",
        ),
        Errors::CountPast,
    )
    .expect("the encoding keeps the model");
    // `b[2]` faults only when `b[0]` and `b[1]` hold: the loop stops at a false element.
    assert!(
        text.contains(
            "(exists q0: 0..2 do (((q0 < 0) | (q0 >= 2))) & (forall q0e: 0..2 do \
             (q0e >= q0) | (!(((q0e < 0) | (q0e >= 2))) & (g_b[q0e])) endforall) endexists)"
        ),
        "{text}"
    );
}

#[test]
fn a_rendezvous_is_a_rule_over_both_instances_in_bir_order() {
    let source = "system S {
           channel (int (0, 9)) c[2];
           int (0, 9) g;
           active [2] thread P(int index) {
             int (0, 9) x;
             loc a: do { c[index]!(g + 1); g := 2; } goto b;
             loc b: do { c[1 - index]?(x); g := x; exit; } goto a;
           }
         }";
    let text = murphi(&checked(source), Errors::Stop).expect("the encoding keeps the model");
    let lines = lines(&text);
    for expected in [
        "ruleset inst: 0..1; pin: 0..1 do",
        // One thread: two instances, never one with itself; one channel element.
        "st_P[inst] = 0 & st_P[pin] = 1 & inst != pin & inst = (1 - pin)",
        "m0: 0..9;",
        // The value before the sender's block, the target after it, the receiver's block.
        "m0 := (g_g + 1);",
        "g_g := 2;",
        "l0_x[pin] := m0;",
        "g_g := l0_x[pin];",
        // Both jumps after both blocks, the sender's first; `exit` ends the receiver.
        "st_P[inst] := 1;",
        "st_P[pin] := 2;",
    ] {
        assert!(lines.contains(&expected), "no `{expected}` in\n{text}");
    }
    let order: Vec<usize> = [
        "m0 := (g_g + 1);",
        "g_g := 2;",
        "l0_x[pin] := m0;",
        "g_g := l0_x[pin];",
    ]
    .iter()
    .map(|line| lines.iter().position(|l| l == line).unwrap_or(usize::MAX))
    .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{text}");
    let text = murphi(&checked(source), Errors::CountPast).expect("the encoding keeps the model");
    let lines = self::lines(&text);
    for expected in [
        "function outcome_0_0_with_0_1(inst: 0..1; pin: 0..1): 0..2;",
        // The channels' indices disable the pairing where they fault or differ.
        "if ((inst < 0) | (inst >= 2)) then return 0; endif;",
        "if inst != (1 - pin) then return 0; endif;",
        // A sent value outside its field is the transition's error.
        "if ((c_g_g + 1) < 0) | ((c_g_g + 1) > 9) then return 1; endif;",
        "st_P[inst] = 0 & st_P[pin] = 1 & inst != pin & outcome_0_0_with_0_1(inst, pin) != 0",
        "if outcome_0_0_with_0_1(inst, pin) = 2 then",
    ] {
        assert!(lines.contains(&expected), "no `{expected}` in\n{text}");
    }
}

#[test]
fn the_later_outcomes_of_a_notify_leave_its_faults_to_the_first() {
    let text = murphi(
        &checked(
            "system S {
               lock m;
               active [2] thread W(int index) {
                 loc a: do { lock(m); } goto b;
                 loc b: do { wait(m); } goto c;
                 loc c: do { unwait(m); } goto d;
                 loc d: do { notify(m); } goto a;
               }
             }",
        ),
        Errors::CountPast,
    )
    .expect("the encoding keeps the model");
    // The first outcome (nobody waits) reports a `notify` by an instance that does not
    // hold the lock (`g_0`, its owner); the later ones are disabled there.
    let lines = lines(&text);
    let function = |name: &str| lines.iter().position(|l| l.starts_with(name)).unwrap_or(0);
    let (first, second) = (
        function("function outcome_0_3("),
        function("function outcome_0_4("),
    );
    let check = |from: usize, expected: &str| {
        let found = lines[from..].iter().find(|l| l.contains("(g_0 = inst)"));
        assert_eq!(found, Some(&expected), "{text}");
    };
    check(first, "if !((g_0 = inst)) then return 1; endif;");
    check(second, "if !((g_0 = inst)) then return 0; endif;");
}

#[test]
fn a_model_with_records_and_exceptions_is_refused() {
    let system = checked(include_str!("../../../../models/full_buffer_caught.bir"));
    let refused = murphi(&system, Errors::Stop);
    assert!(
        matches!(&refused, Err(super::super::Unsupported(why))
            if why.contains("records and the heap") && why.contains("`record Full`")),
        "{refused:?}"
    );
}
