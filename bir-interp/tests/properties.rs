//! LTL properties and reachability checks through the interpreter, the oracle: every row
//! of the LTL table of `models/README.md` (measured with SPIN, without and with weak
//! fairness) on the reference models' own text with the properties appended, and the
//! interpreter against the generated checkers on the same properties — same verdicts,
//! counts and counterexamples, lassos included, under each fairness.

include!("../../models/families.rs");

use bir::{Checker, FindingKind, Model, Report, Verdict};
use bir_interp::{Interpreter, Overrides};

/// The model file `name` of `models/` with `properties` declared before its last `}`,
/// at `Param.N = n` when given.
fn model(name: &str, n: Option<i64>, properties: &str) -> Interpreter {
    let path = format!("{}/../models/{name}.bir", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let end = text.rfind('}').unwrap_or(text.len());
    let source = format!("{}{properties}\n}}\n", &text[..end]);
    let mut overrides = Overrides::default();
    if let Some(n) = n {
        overrides.set_int("Param", "N", n);
    }
    Interpreter::from_source_with(&source, &overrides).unwrap_or_else(|e| panic!("{e:?}"))
}

/// Whether the property holds (no fairness, weak, strong), as the checks say.
fn verdicts<M: Model + Clone>(model: &M, name: &str) -> [bool; 3] {
    let check = || Checker::new(model.clone()).ltl(name).progress(false);
    [check(), check().weak_fairness(), check().strong_fairness()].map(|checker| {
        let report = checker.run();
        match report.verdict() {
            Verdict::Verified => true,
            Verdict::Found(FindingKind::Property) => {
                let lasso = report.assert_violated();
                assert_eq!(checker.replay(lasso.replay()).as_ref(), Ok(lasso));
                false
            }
            _ => panic!("{name}: neither holds nor violated:\n{report}"),
        }
    })
}

/// Rows of the table: model, N, property, formula, verdict without and with weak fairness.
const TABLE: &[(&str, Option<i64>, &str, bool, bool)] = &[
    (
        "peterson_filter",
        Some(2),
        "[](P[0]@waiting -> <>P[0]@critical)",
        true,
        true,
    ),
    (
        "peterson_filter",
        Some(3),
        "[](P[0]@waiting -> <>P[0]@critical)",
        false,
        true,
    ),
    (
        "peterson_filter",
        Some(4),
        "[](P[0]@waiting -> <>P[0]@critical)",
        false,
        true,
    ),
    (
        "peterson_filter",
        Some(2),
        "[](!P[0]@critical -> <>P[0]@critical)",
        false,
        true,
    ),
    (
        "peterson_filter",
        Some(3),
        "[](!P[0]@critical -> <>P[0]@critical)",
        false,
        true,
    ),
    (
        "peterson_filter",
        Some(4),
        "[](!P[0]@critical -> <>P[0]@critical)",
        false,
        true,
    ),
    ("peterson_filter", Some(2), "[]<>(incs == 1)", true, true),
    ("peterson_filter", Some(3), "[]<>(incs == 1)", true, true),
    ("peterson_filter", Some(4), "[]<>(incs == 1)", true, true),
    (
        "dining_philosophers",
        Some(3),
        "[]<>Philosopher[0]@putRight",
        false,
        false,
    ),
    (
        "dining_philosophers",
        Some(4),
        "[]<>Philosopher[0]@putRight",
        false,
        false,
    ),
    (
        "dining_philosophers",
        Some(3),
        "[](Philosopher[0]@takeRight -> <>Philosopher[0]@putRight)",
        false,
        false,
    ),
    (
        "dining_philosophers",
        Some(4),
        "[](Philosopher[0]@takeRight -> <>Philosopher[0]@putRight)",
        false,
        false,
    ),
    (
        "dining_philosophers",
        Some(3),
        "[]<>(exists i in 0 .. Param.N : (Philosopher[i]@putRight))",
        false,
        false,
    ),
    (
        "dining_philosophers",
        Some(4),
        "[]<>(exists i in 0 .. Param.N : (Philosopher[i]@putRight))",
        false,
        false,
    ),
    (
        "dining_philosophers_fixed",
        Some(3),
        "[]<>Philosopher[0]@putSecond",
        false,
        false,
    ),
    (
        "dining_philosophers_fixed",
        Some(4),
        "[]<>Philosopher[0]@putSecond",
        false,
        false,
    ),
    (
        "dining_philosophers_fixed",
        Some(3),
        "[](Philosopher[0]@takeSecond -> <>Philosopher[0]@putSecond)",
        false,
        false,
    ),
    (
        "dining_philosophers_fixed",
        Some(4),
        "[](Philosopher[0]@takeSecond -> <>Philosopher[0]@putSecond)",
        false,
        false,
    ),
    (
        "dining_philosophers_fixed",
        Some(3),
        "[]<>(exists i in 0 .. Param.N : (Philosopher[i]@putSecond))",
        true,
        true,
    ),
    (
        "dining_philosophers_fixed",
        Some(4),
        "[]<>(exists i in 0 .. Param.N : (Philosopher[i]@putSecond))",
        true,
        true,
    ),
    (
        "two_dining_philosophers",
        None,
        "[]<>Philosopher1@loc2",
        false,
        false,
    ),
    (
        "two_dining_philosophers",
        None,
        "[]<>(Philosopher1@loc2 || Philosopher2@loc2)",
        false,
        false,
    ),
    ("readers_writers", None, "[]<>Writer[0]@loc1", false, false),
    (
        "readers_writers",
        None,
        "[](Reader[0]@loc0 -> <>Reader[0]@loc1)",
        false,
        false,
    ),
    (
        "readers_writers",
        None,
        "[]((nr == 0 || nw == 0) && nw <= 1)",
        true,
        true,
    ),
    ("bounded_buffer", None, "[]<>Producer@loc2", false, false),
    ("bounded_buffer", None, "[]<>Consumer@loc2", false, false),
];

#[test]
fn every_verdict_of_the_ltl_table() {
    for &(name, n, formula, none, weak) in TABLE {
        let model = model(name, n, &format!("ltl P: {formula};"));
        let [got_none, got_weak, got_strong] = verdicts(&model, "P");
        let row = format!("{name} N={n:?} {formula}");
        assert_eq!((got_none, got_weak), (none, weak), "{row}");
        // Strong fairness admits fewer runs than weak: what holds under weak holds under it.
        assert!(got_strong || !got_weak, "{row}");
    }
}

/// The interpreter's report and the generated checker's agree on everything they show.
fn assert_same(compiled: &Report, interp: &Report, label: &str) {
    assert_eq!(compiled.verdict(), interp.verdict(), "{label}");
    assert_eq!(
        (compiled.states(), compiled.transitions()),
        (interp.states(), interp.transitions()),
        "{label}"
    );
    assert_eq!(compiled.findings(), interp.findings(), "{label}");
}

peterson_filter!(Peterson3, 3,
    ltl Waiting: [](P[0]@waiting -> <>P[0]@critical);
    ltl Idle: [](!P[0]@critical -> <>P[0]@critical);
    ltl One: []<>(incs == 1);
    ltl Next: [](P[0]@waiting -> X (P[0]@announce || P[0]@waiting || P[0]@critical));
    reachable Critical: P[1]@critical;
);
dining_philosophers_fixed!(Fixed3, 3,
    ltl Eats: []<>Philosopher[0]@putSecond;
    ltl Someone: []<>(exists i in 0 .. Param.N : (Philosopher[i]@putSecond));
    reachable Eating: Philosopher[0]@putSecond;
    reachable AllHungry: forall i in 0 .. Param.N : (Philosopher[i]@takeSecond);
);

#[test]
fn generated_checkers_and_the_interpreter_agree_on_properties() {
    let peterson = model(
        "peterson_filter",
        Some(3),
        "ltl Waiting: [](P[0]@waiting -> <>P[0]@critical);
         ltl Idle: [](!P[0]@critical -> <>P[0]@critical);
         ltl One: []<>(incs == 1);
         ltl Next: [](P[0]@waiting -> X (P[0]@announce || P[0]@waiting || P[0]@critical));
         reachable Critical: P[1]@critical;",
    );
    let fixed = model(
        "dining_philosophers_fixed",
        Some(3),
        "ltl Eats: []<>Philosopher[0]@putSecond;
         ltl Someone: []<>(exists i in 0 .. Param.N : (Philosopher[i]@putSecond));
         reachable Eating: Philosopher[0]@putSecond;
         reachable AllHungry: forall i in 0 .. Param.N : (Philosopher[i]@takeSecond);",
    );
    fn compare<M: Model + Clone>(compiled: M, interp: &Interpreter, ltl: &[&str], reach: &str) {
        for name in ltl {
            type Configure<M> = fn(Checker<M>) -> Checker<M>;
            let fairness: [(&str, Configure<M>, Configure<Interpreter>); 3] = [
                ("none", |c| c, |c| c),
                ("weak", |c| c.weak_fairness(), |c| c.weak_fairness()),
                ("strong", |c| c.strong_fairness(), |c| c.strong_fairness()),
            ];
            for (label, compiled_fair, interp_fair) in fairness {
                let a = compiled_fair(Checker::new(compiled.clone()).ltl(name)).run();
                let b = interp_fair(Checker::new(interp.clone()).ltl(name)).run();
                assert_same(&a, &b, &format!("{name}, {label} fairness"));
            }
        }
        let a = Checker::new(compiled).reachable(reach).run();
        let b = Checker::new(interp.clone()).reachable(reach).run();
        assert_same(&a, &b, reach);
        assert_eq!(a.verdict(), Verdict::Reached);
    }
    compare(
        Peterson3,
        &peterson,
        &["Waiting", "Idle", "One", "Next"],
        "Critical",
    );
    compare(Fixed3, &fixed, &["Eats", "Someone"], "Eating");
    // Every philosopher holding one fork at once is the deadlock the fix removes.
    let a = Checker::new(Fixed3).reachable("AllHungry").run();
    let b = Checker::new(fixed).reachable("AllHungry").run();
    assert_same(&a, &b, "AllHungry");
    assert_eq!(a.verdict(), Verdict::Unreachable);
}

/// Found by the `interpreter` fuzz target: Peterson's filter N=6 whose threads enter at
/// level 3 fails its assertion all along, and a search for fair cycles that keeps going
/// past the failures merged the marks of the edge into a component's root as if they were
/// the component's own. Every later merge then looked for a fair cycle the component did
/// not hold (a breadth-first search of it each time; a debug assertion now says so), and
/// each failure rebuilt the whole stack's path for a counterexample it did not keep.
#[test]
fn fair_searches_keep_going_past_many_faults() {
    let path = format!(
        "{}/../models/peterson_filter.bir",
        env!("CARGO_MANIFEST_DIR")
    );
    let source = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .replace("level[index] := 1;", "level[index] := 3;")
    .replacen(
        "invariant MutualExclusion: incs <= 1;",
        "invariant MutualExclusion: incs <= 1;\n  ltl Waiting: [](P[0]@waiting -> <>P[0]@critical);",
        1,
    );
    let mut overrides = Overrides::default();
    overrides.set_int("Param", "N", 6);
    let model =
        Interpreter::from_source_with(&source, &overrides).unwrap_or_else(|e| panic!("{e:?}"));
    for checker in [
        Checker::new(model.clone()).ltl("Waiting").weak_fairness(),
        Checker::new(model).ltl("Waiting").strong_fairness(),
    ] {
        let report = checker
            .max_states(2_000)
            .keep_going(1)
            .progress(false)
            .run();
        assert_eq!(
            report.verdict(),
            Verdict::Found(FindingKind::Assertion),
            "{report}"
        );
        assert_eq!((report.states(), report.errors()), (2_000, 350), "{report}");
    }
}

/// Found by the interpreter's LTL differential (seed 1796305890): `T0` may loop at `l0`
/// forever after `T1` went to `l1`, so `[]<>(T1@l0)` fails; under partial-order reduction
/// the initial state's ample set (`T0`'s self-loop and its step to `l1`) was kept because
/// one of its successors left the stack, and the reduced graph had no run on which `T1`
/// moves first. The nested search now expands a state fully when any ample successor is
/// on the stack, the rule of SPIN and of Peled's C3.
#[test]
fn a_reduced_ltl_search_does_not_ignore_an_instance_round_a_self_loop() {
    mod ignoring {
        bir::bir!(file = "models/ltl_por_ignoring.bir");
    }
    let interp = Interpreter::from_source(include_str!("models/ltl_por_ignoring.bir"))
        .unwrap_or_else(|e| panic!("{e:?}"));
    for por in [false, true] {
        let compiled = Checker::new(ignoring::L4571)
            .ltl("P0")
            .por(por)
            .progress(false);
        let a = compiled.clone().run();
        let b = Checker::new(interp.clone())
            .ltl("P0")
            .por(por)
            .progress(false)
            .run();
        assert_same(&a, &b, &format!("por {por}"));
        let lasso = a.assert_violated();
        assert_eq!(compiled.replay(lasso.replay()).as_ref(), Ok(lasso));
    }
}
