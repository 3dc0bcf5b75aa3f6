use super::{promela, Unsupported};
use crate::drive::source::front_end;
use crate::ir::System;
use crate::Overrides;

fn checked(source: &str) -> System {
    match front_end(source, &Overrides::default()) {
        Ok(system) => system,
        Err(errors) => panic!("the model does not compile: {errors:?}"),
    }
}

fn written(source: &str) -> String {
    promela(&checked(source)).expect("the model can be written in Promela")
}

#[test]
fn every_variable_starts_at_its_value_and_each_instance_is_a_process_of_d_steps() {
    let text = written(
        "system S {
           boolean[2] fork := { true, false };
           active [2] thread P(int index) {
             int (0, 4) n := 1;
             loc take: when !fork[index] do { fork[index] := true; n := n + 1; } goto put;
             loc put: do { fork[index] := false; } return;
           }
           thread Q(int p) { loc b: do {} goto b; }
         }",
    );
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    for expected in [
        "bool g_fork_0 = 1;",
        "bool g_fork_1 = 0;",
        "int st_P_1 = 0;",
        "int l0_1_n = 1;",
        // Not started: one past "ended".
        "int st_Q_0 = 2;",
        "active proctype p0_1() {",
        ":: d_step { (st_P_1 == 0 && !(g_fork_1)); g_fork_1 = true; l0_1_n = (l0_1_n + 1); \
         st_P_1 = 1 }",
        ":: d_step { (st_P_1 == 1); g_fork_1 = false; st_P_1 = 2 }",
    ] {
        assert!(lines.contains(&expected), "no `{expected}` in\n{text}");
    }
    // The stutter process steps exactly where no instance can.
    assert!(text.contains("active proctype stutter()"), "{text}");
    assert!(text.contains("do :: d_step { !((st_P_0 == 0 && !(g_fork_0)) || (st_P_0 == 1)"));
}

#[test]
fn computed_indices_choose_among_the_elements_and_quantifiers_are_expanded() {
    let text = written(
        "system S {
           int (0, 2) i;
           int (0, 3)[3] a;
           active thread T() {
             loc l: when exists k in 0 .. 3 : (a[k] == 0) do { a[i] := a[i] + 1; } goto l;
           }
         }",
    );
    assert!(
        text.contains(
            "(st_T_0 == 0 && ((g_a_0 == 0) || (g_a_1 == 0) || (g_a_2 == 0))); if :: (g_i) == 0 \
             -> g_a_0 = (((g_i) == 0 -> g_a_0 : ((g_i) == 1 -> g_a_1 : g_a_2)) + 1)"
        ),
        "{text}"
    );
}

#[test]
fn properties_are_ltl_blocks_unless_spin_cannot_read_them() {
    let text = written(
        "system S {
           int (0, 2) i;
           boolean[3] b;
           active [2] thread T(int index) { loc l: do { b[index] := !b[index]; } goto l; }
           ltl Fair: [](T[0]@l -> <>(b[0] R !b[1]));
           ltl Next: X b[0];
           ltl Computed: []<>b[i];
           reachable Some: b[2];
         }",
    );
    let lines: Vec<&str> = text.lines().collect();
    for expected in [
        "ltl Fair { []((((st_T_0 == 0)) -> <>(((g_b_0) V !((g_b_1)))))) }",
        "/* ltl Next left out: it has `X`, which SPIN's Debian build lacks */",
        "/* ltl Computed left out: a predicate indexes with a computed value */",
    ] {
        assert!(lines.contains(&expected), "no `{expected}` in\n{text}");
    }
    assert!(!text.contains("Some"), "{text}");
}

#[test]
fn an_assume_joins_the_guard_unless_it_reads_what_its_step_wrote() {
    let text = written(
        "system S {
           int (0, 3) x;
           int (0, 3) y;
           active thread T() {
             loc l: do { assume (x < 2); x := x + 1; } goto m;
             loc m: do { y := 1; assume (x > 0); x := 0; } goto l;
           }
         }",
    );
    for expected in [
        "d_step { (st_T_0 == 0 && (g_x < 2)); g_x = (g_x + 1);",
        // `y := 1` does not change what the assume reads.
        "d_step { (st_T_0 == 1 && (g_x > 0)); g_y = 1; g_x = 0;",
    ] {
        assert!(text.contains(expected), "no `{expected}` in\n{text}");
    }
    let refused = promela(&checked(
        "system S {
           int (0, 3) x;
           active thread T() { loc l: do { x := x + 1; assume (x < 2); } goto l; }
         }",
    ));
    assert!(
        matches!(&refused, Err(Unsupported(why)) if why.contains("an assume reads `g_x` after")),
        "{refused:?}"
    );
}

#[test]
fn a_rendezvous_is_a_send_and_a_receive_per_partner_that_runs_both_blocks() {
    let text = written(
        "system S {
           channel (int (0, 9)) c[2];
           int (0, 9) g;
           active [2] thread P(int index) {
             int (0, 9) x;
             loc a: when g < 5 do { c[index]!(g + 1); g := 2; } goto b;
             loc b: do { c[1 - index]?(x); g := x; exit; } goto a;
           }
         }",
    );
    for expected in [
        "chan rdv_0 = [0] of { int, int, int };",
        "int rdv_v0 = 0;",
        // The ticket of the sender (instance 1's send is the channel's second), the
        // element and the value, where the sender takes part.
        ":: rdv_0!(((st_P_1 == 0 && (g_g < 5))) -> 1 : (0 - 1)), (((st_P_1 == 0 && (g_g < \
         5))) -> (1) : 0), (((st_P_1 == 0 && (g_g < 5))) -> ((g_g + 1)) : 0)",
        // Instance 0 receives from instance 1 only: the sender's block, the target, its
        // own block, both jumps (`exit` ends the receiver), the temporary back to 0.
        ":: d_step { rdv_0?eval((((st_P_0 == 1)) -> 1 : (0 - 2))), eval((((st_P_0 == 1)) -> \
         ((1 - 0)) : 0)), rdv_v0; g_g = 2; l0_0_x = rdv_v0; g_g = l0_0_x; st_P_1 = 1; \
         st_P_0 = 2; rdv_v0 = 0 }",
    ] {
        assert!(
            text.lines().any(|l| l.trim() == expected),
            "no `{expected}` in\n{text}"
        );
    }
    assert!(!text.contains("eval((((st_P_0 == 1)) -> 0 :"), "{text}");
    // The counting build leaves out the stutter and the properties.
    assert!(text.contains("#ifndef COUNTS\n"), "{text}");
}

#[test]
fn an_assume_of_the_receiver_after_the_transfer_is_refused() {
    let refused = promela(&checked(
        "system S {
           channel (int (0, 9)) c;
           int (0, 9) x;
           active thread A() { loc a: do { c!(3); } goto a; }
           active thread B() { loc b: do { c?(x); assume (x > 2); } goto b; }
         }",
    ));
    assert!(
        matches!(&refused, Err(Unsupported(why)) if why.contains("the rendezvous of `do { c!(3); } goto a;` with")
            && why.contains("reads `g_x`")),
        "{refused:?}"
    );
}

#[test]
fn negative_numbers_are_subtractions_and_a_write_outside_an_array_an_assertion() {
    let text = written(
        "system S {
           int (-3, 3) x := -2;
           int (0, 1)[2] a;
           active thread T() {
             loc l: when x > -3 do { x := -x; } goto l;
             loc m: do { a[2] := 1; } goto m;
           }
           ltl Low: [](x < -1 || x > -5);
         }",
    );
    for expected in [
        "int g_x = -2;",
        ":: d_step { (st_T_0 == 0 && (g_x > (0 - 3))); g_x = (0 - g_x); st_T_0 = 0 }",
        ":: d_step { (st_T_0 == 1); assert(false); st_T_0 = 1 }",
        // SPIN's `ltl` parser would read `<-1` as the start of `<->`.
        "ltl Low { []((((g_x < (0 - 1)) || (g_x > (0 - 5))))) }",
    ] {
        assert!(
            text.lines().any(|l| l.trim() == expected),
            "no `{expected}` in\n{text}"
        );
    }
}

#[test]
fn a_model_with_records_is_refused_with_the_reason() {
    let system = checked(include_str!("../../../../models/v3/heap_renumber.bir"));
    let refused = promela(&system).expect_err("Promela has no heap");
    assert!(refused.0.contains("declares `record Obj`"), "{refused:?}");
    let refused = crate::export::murphi::murphi(&system, crate::export::murphi::Errors::Stop)
        .expect_err("Murphi has no heap");
    assert!(refused.0.contains("Murphi has no heap"), "{refused:?}");
}

#[test]
fn pools_and_tids_are_refused() {
    let pool = checked(
        "system S {
            thread[2] W() { loc w: do { } return; }
            active thread M() { loc m: do { start W(); } return; }
        }",
    );
    let refused = promela(&pool);
    assert!(
        matches!(&refused, Err(Unsupported(why)) if why.contains("the pool `thread[2] W`")),
        "{refused:?}"
    );
    let tid = checked(
        "system S {
            thread W() { loc w: do { } return; }
            tid t;
            active thread M() { loc m: do { t := start W(); } return; }
        }",
    );
    let refused = promela(&tid);
    assert!(
        matches!(&refused, Err(Unsupported(why)) if why.contains("a `tid`")),
        "{refused:?}"
    );
    let refused = crate::export::murphi::murphi(&pool, crate::export::murphi::Errors::Stop);
    assert!(refused.is_err(), "{refused:?}");
}

#[test]
fn a_model_with_records_and_exceptions_is_refused() {
    let system = checked(include_str!("../../../../models/full_buffer_caught.bir"));
    let refused = promela(&system);
    assert!(
        matches!(&refused, Err(Unsupported(why))
            if why.contains("records and the heap") && why.contains("exceptions")),
        "{refused:?}"
    );
}
