//! The reference interpreter and the generated checkers agree on every reference model and
//! on the scalable families at several sizes: the same tables, the same successors of every
//! reachable state (transition ids, next states, faults, invariants, end states), and the
//! same reports — verdict, counts and counterexamples — in depth-first and breadth-first
//! search, stopping at the first finding or going on past every one.

#[rustfmt::skip]
mod reference;

include!("../../models/families.rs");

use std::collections::{HashSet, VecDeque};
use std::fmt::Debug;

use bir::model::{FailedCheck, FaultKind, ModelInfo, Outcome};
use bir::{Checker, FindingKind, Model, OperandsDisplay, Report};
use bir_interp::{Interpreter, Overrides, State};

/// The interpreter of a reference model's text, placed at the lines where `embedding` (the
/// file that compiles it with `bir!`) holds it, so that source lines agree with the
/// compiled model's.
fn interpreter_at(model: &str, embedding: &str) -> Interpreter {
    let embedded = format!("bir! {{\n{model}}}");
    let at = embedding
        .find(&embedded)
        .expect("the model is embedded byte for byte");
    let lines_before = embedding[..at].matches('\n').count() + 1;
    let source = format!("{}{model}", "\n".repeat(lines_before));
    Interpreter::from_source(&source).unwrap_or_else(|errors| panic!("{errors:?}"))
}

/// The interpreter of a family's model file with `Param.N = n`.
fn family(model: &str, n: i64) -> Interpreter {
    let mut overrides = Overrides::default();
    overrides.set_int("Param", "N", n);
    Interpreter::from_source_with(model, &overrides).unwrap_or_else(|errors| panic!("{errors:?}"))
}

/// Explores the whole reachable graph of both models side by side (breadth-first from the
/// initial states), checking at every state that they decode alike, pack into the same
/// word when they fit in one, and have the same invariant result, end-state test,
/// successors and operands (of every invariant, and of every assertion in every enabled
/// transition, failing or not). Returns the number of states (those violating an invariant are not
/// expanded, as in the search).
fn lockstep<M: Model>(compiled: &M, interp: &Interpreter) -> usize {
    let decode = |state: &M::State| {
        let mut values = Vec::new();
        compiled.decode(state, &mut values);
        values
    };
    let decode_interp = |state: &State| {
        let mut values = Vec::new();
        interp.decode(state, &mut values);
        values
    };
    let same = |a: &M::State, b: &State, what: &dyn Fn() -> String| {
        assert_eq!(decode(a), decode_interp(b), "{}", what());
        assert_eq!(compiled.state_word(a), interp.state_word(b), "{}", what());
    };
    let initial = (compiled.initial_state(), interp.initial_state());
    same(&initial.0, &initial.1, &|| {
        "initial states differ".to_string()
    });
    let mut seen: HashSet<State> = HashSet::from([initial.1.clone()]);
    let mut queue = VecDeque::from([initial]);
    let (mut a_out, mut b_out) = (Vec::new(), Vec::new());
    let assertions: Vec<u32> = (0..interp.info().fault_sites.len() as u32)
        .filter(|&site| interp.info().fault_sites[site as usize].kind == FaultKind::Assertion)
        .collect();
    let same_operands = |a: &M::State, b: &State, check: FailedCheck| {
        let (mut x, mut y) = (Vec::new(), Vec::new());
        compiled.operands(a, check, &mut x);
        interp.operands(b, check, &mut y);
        assert_eq!(x, y, "operands of {check:?} in {a:?}");
    };
    assert_eq!(compiled.atoms_info(), interp.atoms_info());
    while let Some((a, b)) = queue.pop_front() {
        assert_eq!(
            compiled.atoms(&a),
            interp.atoms(&b),
            "invariant atoms in {a:?}"
        );
        for invariant in 0..interp.info().invariants.len() as u32 {
            same_operands(&a, &b, FailedCheck::Invariant(invariant));
        }
        let invariants = interp.check_invariants(&b);
        assert_eq!(compiled.check_invariants(&a), invariants, "{a:?}");
        assert_eq!(compiled.is_end_state(&a), interp.is_end_state(&b), "{a:?}");
        if invariants.is_err() {
            continue; // As in the search: a violating state is not expanded.
        }
        a_out.clear();
        b_out.clear();
        compiled.successors(&a, &mut a_out);
        interp.successors(&b, &mut b_out);
        let a_ids: Vec<_> = a_out.iter().map(|s| s.transition).collect();
        let b_ids: Vec<_> = b_out.iter().map(|s| s.transition).collect();
        assert_eq!(a_ids, b_ids, "enabled transitions of {a:?}");
        for &transition in &a_ids {
            for &site in &assertions {
                same_operands(&a, &b, FailedCheck::Assertion { transition, site });
            }
        }
        for (x, y) in a_out.drain(..).zip(b_out.drain(..)) {
            match (x.outcome, y.outcome) {
                (Outcome::Next(p), Outcome::Next(q)) => {
                    same(&p, &q, &|| {
                        format!("transition {} from {a:?}", x.transition)
                    });
                    if seen.insert(q.clone()) {
                        queue.push_back((p, q));
                    }
                }
                (Outcome::Fault(f), Outcome::Fault(g)) => assert_eq!(f, g, "from {a:?}"),
                (p, q) => panic!("transition {} from {a:?}: {p:?} vs {q:?}", x.transition),
            }
        }
    }
    seen.len()
}

/// Every way the tests run a search: DFS and BFS, stopping at the first finding or not.
fn searches<M: Model + Clone>(model: M) -> Vec<(String, Report)> {
    let mut reports = Vec::new();
    for bfs in [false, true] {
        for keep_going in [None, Some(3)] {
            let mut checker = Checker::new(model.clone()).progress(false);
            if bfs {
                checker = checker.bfs();
            }
            if let Some(n) = keep_going {
                checker = checker.keep_going(n);
            }
            let label = format!("bfs: {bfs}, keep going: {keep_going:?}");
            reports.push((label, checker.run()));
        }
    }
    reports
}

/// The two reports agree on everything but timing and memory.
fn assert_same_report(compiled: &Report, interp: &Report, label: &str, same_text: bool) {
    let counts = |r: &Report| {
        (
            r.verdict(),
            r.is_complete(),
            r.incomplete_reason(),
            r.states(),
            r.transitions(),
            r.errors(),
            r.deadlocks(),
            r.stats().max_depth,
        )
    };
    assert_eq!(counts(compiled), counts(interp), "{label}");
    assert_eq!(compiled.findings(), interp.findings(), "{label}");
    let replays = |r: &Report| {
        r.findings()
            .iter()
            .map(|c| c.replay().to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(replays(compiled), replays(interp), "{label}");
    if same_text {
        // The printed reports are identical but for the statistics line.
        let text = |r: &Report| {
            let text = r.to_string();
            text[..text.rfind('\n').unwrap_or(0)].to_string()
        };
        assert_eq!(text(compiled), text(interp), "{label}");
    }
}

/// Checks one model both ways; `same_info` when the tables must be identical (same text,
/// same lines), otherwise they must agree up to the system's name and source lines.
fn agree<M: Model + Clone>(compiled: M, interp: Interpreter, same_info: bool) -> usize {
    if same_info {
        assert_eq!(compiled.info(), interp.info());
    } else {
        assert_eq!(normalized(compiled.info()), normalized(interp.info()));
    }
    let states = lockstep(&compiled, &interp);
    let name = interp.info().name.to_string();
    for ((label, a), (_, b)) in searches(compiled).iter().zip(&searches(interp)) {
        assert_same_report(a, b, &format!("{name}, {label}"), same_info);
        if a.is_complete() {
            assert_eq!(a.states(), states as u64, "{name}, {label}");
        }
    }
    states
}

/// A model description without its name and source lines (`(line N)` in messages too).
fn normalized(info: &ModelInfo) -> impl PartialEq + Debug {
    let unlined = |text: &str| {
        let mut out = String::new();
        let mut rest = text;
        while let Some(at) = rest.find("(line ") {
            out.push_str(&rest[..at]);
            rest = rest[at..].trim_start_matches(|c: char| !c.is_ascii_digit());
            rest = rest.trim_start_matches(|c: char| c.is_ascii_digit());
            out.push_str("(line _");
        }
        out + rest
    };
    let transitions: Vec<_> = info
        .transitions
        .iter()
        .map(|t| {
            (
                t.thread.clone(),
                t.instance,
                t.from.clone(),
                t.to.clone(),
                t.text.clone(),
            )
        })
        .collect();
    let faults: Vec<_> = info
        .fault_sites
        .iter()
        .map(|f| (f.kind, unlined(&f.message)))
        .collect();
    let invariants: Vec<_> = info
        .invariants
        .iter()
        .map(|i| (i.name.clone(), i.text.clone()))
        .collect();
    (info.slots.clone(), transitions, faults, invariants)
}

macro_rules! reference_test {
    ($test:ident, $module:ident, $model:ident, $states:expr) => {
        #[test]
        fn $test() {
            let source = include_str!(concat!("../../models/", stringify!($module), ".bir"));
            let example = include_str!(concat!("../../examples/", stringify!($module), ".rs"));
            let states = agree(
                reference::$module::$model,
                interpreter_at(source, example),
                true,
            );
            assert_eq!(states, $states);
        }
    };
}

reference_test!(
    two_dining_philosophers,
    two_dining_philosophers,
    TwoDiningPhilosophers,
    10
);
reference_test!(bounded_buffer, bounded_buffer, BoundedBuffer, 10);
reference_test!(readers_writers, readers_writers, ReadersWriters, 11);
reference_test!(sum_to_n, sum_to_n, SumToN, 15_276);
reference_test!(
    dining_philosophers,
    dining_philosophers,
    DiningPhilosophers,
    392
);
reference_test!(
    dining_philosophers_fixed,
    dining_philosophers_fixed,
    DiningPhilosophersFixed,
    261
);
reference_test!(peterson_filter, peterson_filter, PetersonFilter, 288);

#[test]
fn features() {
    let source = include_str!("reference/features.bir");
    let embedding = include_str!("reference/mod.rs");
    let states = agree(
        reference::features::Features,
        interpreter_at(source, embedding),
        true,
    );
    assert_eq!(states, 1_059);
    // Every kind of finding occurs.
    let report = Checker::new(interpreter_at(source, embedding))
        .keep_going(usize::MAX)
        .progress(false)
        .run();
    let mut kinds: Vec<_> = report.findings().iter().map(|c| c.kind()).collect();
    kinds.sort();
    kinds.dedup();
    assert_eq!(kinds.len(), 7, "{kinds:?}");
}

#[test]
fn failing_checks_show_what_they_read() {
    let source = include_str!("reference/operands.bir");
    let embedding = include_str!("reference/mod.rs");
    let interp = interpreter_at(source, embedding);
    agree(reference::operands::Operands, interp.clone(), true);
    let report = Checker::new(interp)
        .keep_going(usize::MAX)
        .bfs()
        .progress(false)
        .run();
    let shown: Vec<String> = report
        .findings()
        .iter()
        .map(|c| {
            let operands = OperandsDisplay::new(report.info(), c.operands());
            let message = c.message();
            let unlined = message
                .rfind(" (line ")
                .map_or(message, |at| &message[..at]);
            format!("{unlined}: {operands}")
        })
        .collect();
    let expected = [
        // Runs after the step's own writes: `buf[0]` is 0 and `mine` 1, not their
        // values before the step; `head` (1) is read twice, shown once.
        "assertion failed: buf[head - 1] == expect || mine == 3 || W[head - 1]@b: \
         buf[0] = 0, head = 1, expect = 1, W[0].mine = 1, W[0] @ a",
        // The element before the reads of its index.
        "assertion failed: mode == Mode.On && buf[buf[0] + 1] == head: \
         mode = Mode.On, buf[2] = 0, buf[0] = 1, head = 1",
        // The quantifier stops at the first `i` where its body is false.
        "invariant Bounded violated: forall i in 0 .. Param.N : (buf[i] + head <= 2 || !flag): \
         buf[0] = 1, head = 2, flag = true",
    ];
    for line in expected {
        assert!(shown.iter().any(|s| s == line), "{line}\nnot in {shown:#?}");
    }
}

#[test]
fn vacuous_invariants_are_reported_alike() {
    let source = "system V {
        int (0, 2) x;
        boolean never;
        active [2] thread P(int id) {
          loc a: when x < 2 do { x := x + 1; } goto b;
          loc b: do { } goto a;
        }
        invariant Safe: !P[0]@b || x >= 1;
        invariant Idle: !never || forall i in 0 .. 2 : (P[i]@a);
        invariant Forced: x <= 2 && !(never || x == 3);
      }";
    let interp = Interpreter::from_source(source).unwrap_or_else(|e| panic!("{e:?}"));
    let texts: Vec<_> = interp
        .atoms_info()
        .iter()
        .map(|a| a.text.to_string())
        .collect();
    // The atoms each invariant forces (`x <= 2`, `never`, `x == 3`) are not tracked.
    assert_eq!(texts, ["P[0]@b", "x >= 1", "never", "P[i]@a"]);
    // The instances deadlock at `a` once `x` is 2; the search goes on past it.
    let report = Checker::new(interp)
        .keep_going(usize::MAX)
        .progress(false)
        .run();
    let coverage = report.coverage().expect("complete");
    let vacuous: Vec<String> = coverage.vacuous().iter().map(|v| v.to_string()).collect();
    assert_eq!(
        vacuous,
        ["invariant Idle holds vacuously: `never` is never true"]
    );
    assert!(!coverage.is_full());
}

#[test]
fn arithmetic_at_the_edges_of_64_bits() {
    let source = include_str!("reference/arithmetic.bir");
    let embedding = include_str!("reference/mod.rs");
    let interp = interpreter_at(source, embedding);
    // The step executing `exit` ends the instance, in both tables.
    let exit = &interp.info().transitions[7];
    assert!(exit.text.contains("exit"), "{exit:?}");
    assert_eq!(exit.to, "return");
    let states = agree(reference::arithmetic::Arithmetic, interp.clone(), true);
    assert_eq!(states, 5);
    // Every fault kind the model can reach: range (quotient and negation past 64 bits) and
    // division (by zero, twice), from the states after the remainders by -1 succeeded.
    let report = Checker::new(interp)
        .keep_going(usize::MAX)
        .progress(false)
        .run();
    let mut faults: Vec<_> = report
        .findings()
        .iter()
        .map(|finding| finding.kind())
        .collect();
    faults.sort();
    assert_eq!(faults.len(), 4, "{faults:?}");
}

#[test]
fn faults_that_every_evaluation_meets_are_run_time_errors() {
    let source = include_str!("reference/certain_faults.bir");
    let embedding = include_str!("reference/mod.rs");
    let interp = interpreter_at(source, embedding);
    // Every step of the initial state faults: it is the only state.
    let states = agree(
        reference::certain_faults::CertainFaults,
        interp.clone(),
        true,
    );
    assert_eq!(states, 1);
    let report = Checker::new(interp)
        .keep_going(usize::MAX)
        .progress(false)
        .run();
    let faults: Vec<_> = report
        .findings()
        .iter()
        .map(|finding| (finding.kind(), finding.message().to_string()))
        .collect();
    // In source order: two index, two division and three range errors; none of Helper,
    // never started.
    let kinds: Vec<_> = faults.iter().map(|(kind, _)| *kind).collect();
    assert_eq!(
        kinds,
        [
            FindingKind::Index,
            FindingKind::Index,
            FindingKind::Division,
            FindingKind::Division,
            FindingKind::Range,
            FindingKind::Range,
            FindingKind::Range
        ],
        "{faults:#?}"
    );
    assert!(
        faults.iter().all(|(_, message)| !message.contains("1 / 0")),
        "{faults:#?}"
    );
}

macro_rules! family_test {
    ($test:ident, $family:ident, $name:ident, $n:tt, $states:expr) => {
        #[test]
        fn $test() {
            $family!($name, $n);
            let source = include_str!(concat!("../../models/", stringify!($family), ".bir"));
            assert_eq!(agree($name, family(source, $n), false), $states);
        }
    };
}

family_test!(philosophers_2, dining_philosophers, P2, 2, 10);
family_test!(philosophers_3, dining_philosophers, P3, 3, 35);
family_test!(philosophers_6, dining_philosophers, P6, 6, 1_297);
family_test!(fixed_2, dining_philosophers_fixed, F2, 2, 7);
family_test!(fixed_4, dining_philosophers_fixed, F4, 4, 79);
family_test!(peterson_2, peterson_filter, Q2, 2, 20);
family_test!(peterson_4, peterson_filter, Q4, 4, 4_752);

#[test]
fn a_thread_never_started_does_not_pass_silently() {
    let source = "system S {
        int (0, 1) x;
        active thread Main() { loc a: do { x := 1; } return; }
        thread Helper() { loc h: do { x := 0; } return; }
      }";
    let report = Checker::new(Interpreter::from_source(source).unwrap_or_else(|e| panic!("{e:?}")))
        .progress(false)
        .run();
    report.assert_verified();
    let coverage = report.coverage().expect("complete");
    assert_eq!(coverage.idle_instances(), ["Helper"]);
    let text = report.to_string();
    assert!(
        text.contains("never took a step: Helper (never started, or blocked from its start)"),
        "{text}"
    );
    let full = std::panic::catch_unwind(|| report.assert_full_coverage());
    assert!(
        full.is_err(),
        "assert_full_coverage passed with Helper never started"
    );
}
