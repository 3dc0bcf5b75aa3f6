//! One small model per verdict kind: each must be found, with a trace that ends where the
//! model goes wrong, and a search that stopped short must never say verified.

use std::time::Duration;

use bir::{bir, FindingKind, IncompleteReason, Verdict};

bir! {
    system Asserts {
        int (0, 3) x;
        active thread T() {
            loc l: do { x := x + 1; assert (x < 2); } goto l;
        }
    }
}

#[test]
fn a_false_assertion_is_an_assertion_error_on_the_failing_step() {
    let report = Asserts::checker().run();
    assert_eq!(report.verdict(), Verdict::Found(FindingKind::Assertion));
    let cx = report.assert_assertion_failure();
    assert_eq!(cx.len(), 2, "x := 1 passes, x := 2 fails");
    assert!(
        cx.message().contains("assertion failed: x < 2"),
        "{}",
        cx.message()
    );
    assert!(cx.steps().last().is_some_and(|step| step.fault.is_some()));
    // The failing step yields no state: the final state is the one it was taken from.
    assert_eq!(cx.final_state()[0], 1);
}

bir! {
    system Invariants {
        int (0, 5) x;
        invariant Small: x < 2;
        active thread T() { loc l: do { x := x + 1; } goto l; }
    }
}

#[test]
fn a_state_violating_an_invariant_is_reported_and_not_expanded() {
    let report = Invariants::checker().keep_going(5).run();
    let cx = report.assert_invariant_violation();
    assert_eq!(cx.len(), 2);
    assert!(cx.message().contains("Small"), "{}", cx.message());
    // x = 0, 1 and the violating x = 2, which is a state but has no successors.
    assert_eq!(
        (report.states(), report.transitions(), report.errors()),
        (3, 2, 1)
    );
}

bir! {
    system Ranges {
        int (0, 2) x;
        active thread T() { loc l: do { x := x + 1; } goto l; }
    }
}

#[test]
fn writing_outside_a_range_is_a_range_error() {
    let report = Ranges::checker().run();
    assert_eq!(report.verdict(), Verdict::Found(FindingKind::Range));
    let cx = report.error().expect("a range error");
    assert_eq!(cx.len(), 3);
    assert!(
        cx.message()
            .starts_with("`x := x + 1;` writes 3, outside `x`'s type int (0, 2)"),
        "{}",
        cx.message()
    );
}

bir! {
    system Indexes {
        boolean[2] a;
        int (0, 5) i;
        active thread T() { loc l: do { a[i] := true; i := i + 1; } goto l; }
    }
}

#[test]
fn an_index_outside_the_array_is_an_index_error() {
    let report = Indexes::checker().run();
    assert_eq!(report.verdict(), Verdict::Found(FindingKind::Index));
    assert_eq!(report.first_finding().map(|cx| cx.len()), Some(3));
}

bir! {
    system Divides {
        int (0, 3) d := 2;
        active thread T() { loc l: do { d := d - 1; assert (6 / d > 0); } goto l; }
    }
}

#[test]
fn dividing_by_zero_is_a_division_error() {
    let report = Divides::checker().run();
    assert_eq!(report.verdict(), Verdict::Found(FindingKind::Division));
    assert_eq!(report.first_finding().map(|cx| cx.len()), Some(2));
}

/// Models whose faults are certain, which `bir!` warns about (a `deprecated` warning on the
/// operand: `a[2]`'s index, `x / 0`'s divisor, `x := 5`'s value): the faults are the point.
/// Rustc ignores lint attributes on a macro invocation, so the `allow` stands on a module.
#[allow(deprecated)]
mod certain {
    use bir::bir;

    bir! {
        system CertainFaults {
            boolean[2] a;
            int (0, 3) x;
            active thread T() {
                loc l: do { a[2] := true; } goto l;
            }
            active thread D() {
                loc l: do { x := x / 0; } goto l;
            }
            active thread R() {
                loc l: do { x := 5; } goto l;
            }
        }
    }

    bir! {
        system CertainFaultsNeverReached {
            boolean[2] a;
            int (0, 3) x;
            thread W(int (0, 1) job) { loc w: do {} return; }
            active thread T() {
                loc l: when x == 0 do { x := 1; } return;
                       when x > 1 && a[2] do {} goto l;
                       when x > 1 do { a[2] := true; x := x / 0; x := 5; start W(2); } goto l;
            }
        }
    }

    bir! {
        system StartRange {
            thread Worker(int (0, 1) job) { loc work: do {} return; }
            active thread Main() { loc go: do { start Worker(2); } return; }
        }
    }
}

use certain::{CertainFaults, CertainFaultsNeverReached, StartRange};

/// A fault that every evaluation of a construct meets (an index outside the array for
/// every value, a division by the constant zero, an out-of-range constant written) is a
/// run-time error like any other (LANGUAGE.md, "Steps, states and verdicts"), not a compile
/// error ("Compile-time checks" has no such check): `bir!` warns about it at compile time
/// (a `deprecated` warning, allowed above), the model compiles, the search reports the
/// fault when it reaches it, and a model that never reaches it is verified.
#[test]
fn faults_that_every_evaluation_meets_are_run_time_errors_not_compile_errors() {
    let report = CertainFaults::checker().keep_going(10).run();
    assert_eq!(report.verdict(), Verdict::Found(FindingKind::Index));
    assert_eq!(report.first_finding().map(|cx| cx.len()), Some(1));
    // One state; each thread's step is an error: index, division, range.
    assert_eq!(
        (report.states(), report.transitions(), report.errors()),
        (1, 3, 3)
    );
    let report = CertainFaultsNeverReached::checker().run();
    report.assert_verified();
    assert_eq!((report.states(), report.transitions()), (2, 1));
}

bir! {
    system Starts {
        int (0, 9) started;
        thread Worker(int (0, 1) job) {
            loc work: do { started := started + job; } return;
        }
        active thread Main() {
            loc first: do { start Worker(1); } goto again;
            loc again: do { start Worker(0); } goto again;
        }
    }
}

#[test]
fn starting_an_instance_twice_is_a_start_error_and_ended_is_not_deadlock() {
    let report = Starts::checker().keep_going(10).run();
    let cx = report.first_finding().expect("a start error");
    assert_eq!(cx.kind(), FindingKind::Start);
    assert!(cx.message().contains("already started"), "{}", cx.message());
    // Main blocks nowhere: every state has a step (the failing start is enabled).
    assert_eq!(report.deadlocks(), 0);
}

#[test]
fn a_start_argument_outside_the_parameter_type_is_a_range_error() {
    // `StartRange` is among the models with certain faults above.
    let report = StartRange::checker().run();
    assert_eq!(report.verdict(), Verdict::Found(FindingKind::Range));
}

bir! {
    system Blocks {
        boolean go;
        active thread Waiter() { loc wait: when go do {} goto wait; }
    }
}

#[test]
fn no_enabled_transition_before_the_end_is_a_deadlock() {
    let report = Blocks::checker().run();
    let cx = report.assert_deadlock();
    assert_eq!(cx.len(), 0, "the initial state itself deadlocks");
    assert!(cx.message().contains("Waiter"), "{}", cx.message());
    let report = Blocks::checker().deadlock_detection(false).run();
    report.assert_verified();
}

bir! {
    system Ends {
        int (0, 3) x;
        active [2] thread T(int index) {
            loc a: do { x := x + 1; } goto b;
            loc b: when x == 2 do { exit; x := 3; } goto a;
        }
    }
}

#[test]
fn instances_that_all_ended_are_a_valid_end_state() {
    let report = Ends::checker().run();
    report.assert_verified();
    // (x, T[0], T[1]): (0,a,a) (1,b,a) (1,a,b) (2,b,b) (2,end,b) (2,b,end) (2,end,end);
    // exit skips the rest of its block, so x never becomes 3.
    assert_eq!(report.states(), 7);
}

bir! {
    system Assumes {
        int (0, 3) x;
        active thread T() {
            loc l: do { x := x + 1; assume (x < 2); } goto l;
                   when x == 1 do { x := 0; } goto l;
        }
    }
}

#[test]
fn a_false_assumption_discards_the_step() {
    let report = Assumes::checker().run();
    report.assert_verified();
    assert_eq!((report.states(), report.transitions()), (2, 2));
}

bir! {
    system GuardFaults {
        boolean[2] a;
        int (0, 2) i;
        active thread T() {
            loc l: when i < 2 do { i := i + 1; } goto l;
                   when a[i] do {} goto l;
        }
    }
}

#[test]
fn a_guard_that_faults_is_an_error_step_not_a_disabled_one() {
    let report = GuardFaults::checker().keep_going(1).run();
    assert_eq!(report.verdict(), Verdict::Found(FindingKind::Index));
    assert_eq!(
        (report.states(), report.transitions(), report.errors()),
        (3, 3, 1)
    );
    assert_eq!(report.deadlocks(), 0);
}

bir! {
    system Overflows {
        int x := 2147483647;
        int y;
        active thread T() { loc l: do { y := x * x * x % 7; } goto l; }
    }
}

#[test]
fn arithmetic_beyond_64_bits_is_a_range_error() {
    let report = Overflows::checker().run();
    assert_eq!(report.verdict(), Verdict::Found(FindingKind::Range));
    let message = report.first_finding().map(|cx| cx.message().to_string());
    assert!(
        message.as_deref().is_some_and(|m| m.contains("overflow")),
        "{message:?}"
    );
}

bir! {
    system Wraps {
        byte b := 254;
        int wrap (-2, 1) w := 1;
        active thread T() {
            loc l: when b != 1 do { b := b + 1; w := w + 1; } goto l;
                   when b == 1 do {} return;
        }
    }
}

#[test]
fn wrapping_types_wrap_instead_of_failing() {
    let report = Wraps::checker().run();
    report.assert_verified();
    // (b, w): (254, 1) (255, -2) (0, -1) (1, 0), then T ends.
    assert_eq!(report.states(), 5);
}

bir! {
    system At {
        int (0, 5) i;
        active [2] thread P(int index) { loc here: do { i := i + 1; } goto there; loc there: do {} goto there; }
        invariant Bad: P[i]@here || true;
    }
}

#[test]
fn an_instance_index_out_of_bounds_in_an_invariant_is_an_index_error() {
    let report = At::checker().run();
    assert_eq!(report.verdict(), Verdict::Found(FindingKind::Index));
}

bir! {
    system Deep {
        int (0, 100000) x;
        active thread T() { loc l: do { x := x + 1; assert (x < 50000); } goto l; }
    }
}

#[test]
fn limits_short_of_the_error_give_incomplete_never_verified() {
    let by_states = Deep::checker().max_states(10).run();
    assert_eq!(
        by_states.incomplete_reason(),
        Some(IncompleteReason::StateLimit)
    );
    let by_depth = Deep::checker().bfs().max_depth(20).run();
    assert_eq!(
        by_depth.incomplete_reason(),
        Some(IncompleteReason::DepthLimit)
    );
    let by_memory = Deep::checker().memory_limit(1).run();
    assert_eq!(
        by_memory.incomplete_reason(),
        Some(IncompleteReason::MemoryLimit)
    );
    let by_time = Deep::checker().time_limit(Duration::ZERO).run();
    assert_eq!(
        by_time.incomplete_reason(),
        Some(IncompleteReason::TimeLimit)
    );
    for report in [by_states, by_depth, by_memory, by_time] {
        assert!(!report.is_verified());
        assert!(!report.to_string().contains("verified:"), "{report}");
    }
    let simulated = Deep::checker().simulate(3, 10, 1);
    assert_eq!(
        simulated.incomplete_reason(),
        Some(IncompleteReason::Simulation)
    );
    let found = Deep::checker().simulate(1, 60_000, 1);
    assert_eq!(found.verdict(), Verdict::Found(FindingKind::Assertion));
}
