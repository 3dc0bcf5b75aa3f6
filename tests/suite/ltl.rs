//! LTL properties and reachability checks through generated code: the verdicts of the LTL
//! table of `models/README.md` (measured with SPIN) for the scalable families, with and
//! without weak fairness, and what strong fairness adds.

use bir::oracle::ltl_violated;
use bir::{Checker, Fairness, FindingKind, Model, Storage, Verdict};

include!("../../models/families.rs");

/// Whether the property holds, as a report says; a violation's lasso replays to itself.
fn holds<M: Model + Clone>(checker: Checker<M>) -> bool {
    let report = checker.clone().progress(false).run();
    match report.verdict() {
        Verdict::Verified => true,
        Verdict::Found(FindingKind::Property) => {
            let lasso = report.assert_violated();
            assert_eq!(checker.replay(lasso.replay()).as_ref(), Ok(lasso));
            false
        }
        _ => panic!("neither holds nor violated:\n{report}"),
    }
}

/// The verdicts (no fairness, weak, strong) of property `name` of `model`, each as the
/// oracle gives it too ([`ltl_violated`]: the whole product's strongly connected
/// components examined).
fn verdicts<M: Model + Clone>(model: M, name: &str) -> [bool; 3] {
    let check = || Checker::new(model.clone()).ltl(name);
    let verdicts = [
        holds(check()),
        holds(check().weak_fairness()),
        holds(check().strong_fairness()),
    ];
    for (fairness, holds) in [Fairness::None, Fairness::Weak, Fairness::Strong]
        .into_iter()
        .zip(verdicts)
    {
        let violated = ltl_violated(&model, name, fairness, 1 << 20);
        assert_eq!(violated, Some(!holds), "{name}, {fairness}");
    }
    verdicts
}

peterson_filter!(Peterson2, 2,
    ltl Waiting: [](P[0]@waiting -> <>P[0]@critical);
    ltl Idle: [](!P[0]@critical -> <>P[0]@critical);
    ltl One: []<>(incs == 1);
    reachable Critical: P[1]@critical;
);
peterson_filter!(Peterson3, 3,
    ltl Waiting: [](P[0]@waiting -> <>P[0]@critical);
    ltl Idle: [](!P[0]@critical -> <>P[0]@critical);
    ltl One: []<>(incs == 1);
);

#[test]
fn peterson_filter_meets_the_table() {
    assert_eq!(verdicts(Peterson2, "Waiting"), [true, true, true]);
    assert_eq!(verdicts(Peterson3, "Waiting"), [false, true, true]);
    assert_eq!(verdicts(Peterson2, "Idle"), [false, true, true]);
    assert_eq!(verdicts(Peterson3, "Idle"), [false, true, true]);
    assert_eq!(verdicts(Peterson2, "One"), [true, true, true]);
    assert_eq!(verdicts(Peterson3, "One"), [true, true, true]);
    assert_eq!(
        Peterson2::PROPERTIES,
        ["Waiting", "Idle", "One", "Critical"]
    );
    let witness = Peterson2::checker().reachable("Critical").run();
    assert_eq!(witness.assert_reachable().len(), 3);
}

peterson_filter!(Peterson4, 4,
    ltl Waiting: [](P[0]@waiting -> <>P[0]@critical);
    ltl Idle: [](!P[0]@critical -> <>P[0]@critical);
    ltl One: []<>(incs == 1);
);

#[test]
fn peterson_filter_4_meets_the_table() {
    assert_eq!(verdicts(Peterson4, "Waiting"), [false, true, true]);
    assert_eq!(verdicts(Peterson4, "Idle"), [false, true, true]);
    assert_eq!(verdicts(Peterson4, "One"), [true, true, true]);
}

/// The verdict of `checker` with symmetry reduction, which must be the full search's; a
/// lasso must be concrete (it replays without symmetry) and the reduced search smaller.
fn holds_with_symmetry<M: Model + Clone>(checker: Checker<M>) -> bool {
    let full = checker.clone().progress(false).run();
    let reduced = checker.clone().symmetry(true).progress(false).run();
    assert!(reduced.plan().symmetry.is_some(), "{reduced}");
    assert_eq!(reduced.verdict(), full.verdict(), "{reduced}");
    assert!(
        reduced.states() < full.states() || !full.is_complete(),
        "{reduced}"
    );
    if let Some(lasso) = reduced.first_finding() {
        assert_eq!(
            checker.replay(lasso.replay()).as_ref(),
            Ok(lasso),
            "{reduced}"
        );
    }
    reduced.verdict() == Verdict::Verified
}

#[test]
fn symmetry_keeps_peterson_verdicts_without_fairness() {
    assert!(holds_with_symmetry(Peterson3::checker().ltl("One")));
    assert!(!holds_with_symmetry(Peterson3::checker().ltl("Waiting")));
    assert!(!holds_with_symmetry(Peterson4::checker().ltl("Waiting")));
    assert!(!holds_with_symmetry(Peterson4::checker().ltl("Idle")));
}

dining_philosophers!(Phils3, 3,
    ltl Eats: []<>Philosopher[0]@putRight;
    ltl Served: [](Philosopher[0]@takeRight -> <>Philosopher[0]@putRight);
    ltl Someone: []<>(exists i in 0 .. Param.N : (Philosopher[i]@putRight));
);
dining_philosophers!(Phils4, 4,
    ltl Eats: []<>Philosopher[0]@putRight;
    ltl Served: [](Philosopher[0]@takeRight -> <>Philosopher[0]@putRight);
    ltl Someone: []<>(exists i in 0 .. Param.N : (Philosopher[i]@putRight));
);
dining_philosophers_fixed!(Fixed3, 3,
    ltl Eats: []<>Philosopher[0]@putSecond;
    ltl Served: [](Philosopher[0]@takeSecond -> <>Philosopher[0]@putSecond);
    ltl Someone: []<>(exists i in 0 .. Param.N : (Philosopher[i]@putSecond));
);
dining_philosophers_fixed!(Fixed4, 4,
    ltl Eats: []<>Philosopher[0]@putSecond;
    ltl Served: [](Philosopher[0]@takeSecond -> <>Philosopher[0]@putSecond);
    ltl Someone: []<>(exists i in 0 .. Param.N : (Philosopher[i]@putSecond));
);

#[test]
fn dining_philosophers_meet_the_table() {
    for name in ["Eats", "Served", "Someone"] {
        // The deadlock, stuttered, violates every one of them, under any fairness.
        assert_eq!(verdicts(Phils3, name), [false; 3], "{name}");
        assert_eq!(verdicts(Phils4, name), [false; 3], "{name}");
    }
    // The fixed philosophers: someone always eats again, but not a given one (a
    // philosopher whose fork is taken infinitely often is not continuously enabled).
    for (name, weak) in [("Eats", false), ("Served", false), ("Someone", true)] {
        let [none, weak_verdict, _] = verdicts(Fixed3, name);
        assert_eq!([none, weak_verdict], [weak, weak], "{name}");
        let [none, weak_verdict, _] = verdicts(Fixed4, name);
        assert_eq!([none, weak_verdict], [weak, weak], "{name}");
    }
}

#[test]
fn a_lasso_prints_its_stem_and_cycle_and_replays() {
    let checker = Phils3::checker().ltl("Eats");
    let report = checker.run();
    let lasso = report.assert_violated();
    assert_eq!(checker.replay(lasso.replay()).as_ref(), Ok(lasso));
    let text = report.to_string();
    eprintln!("{text}");
    assert!(text.contains("part 1, the stem"), "{text}");
    assert!(text.contains("cycle entry:"), "{text}");
}

bir::bir! {
    system Shadowed {
        boolean U;
        boolean done;

        active thread T() {
            loc a: do { U := !U; } goto b;
            loc b: do { done := true; } goto b;
        }

        // `U` is the operator here: the global of that name is not meant, and no error.
        ltl Finishes: !done U done;
    }
}

#[test]
fn a_global_named_like_an_operator_does_not_stop_the_operator() {
    Shadowed::checker().ltl("Finishes").run().assert_holds();
}

bir::bir! {
    // Two full-range integers: states of 128 bits, which compact storage keeps as trees.
    system WideCounters {
      int a := 0;
      int b := 0;

      active [1] thread T(int index) {
        loc count:
          when a < 3 do { a := a + 1; } goto count;
          when a == 3 do { a := 0; b := 1 - b; } goto count;
      }

      ltl Flips: []<>(b == 1);
      ltl Settles: <>[](a == 0);
    }
}

/// The nested search with compact storage against exact storage: the same verdict, counts
/// and lasso, and a property that holds after a complete compact search holds.
fn compact_agrees<M: Model + Clone>(model: M, name: &str) {
    let check = |storage, por| {
        let checker = Checker::new(model.clone())
            .ltl(name)
            .storage(storage)
            .por(por)
            .progress(false);
        let plan = checker.plan().expect("a plan");
        assert_eq!(plan.storage, storage, "{name}: {plan:?}");
        let report = checker.run();
        let replay = report
            .first_finding()
            .map(|lasso| lasso.replay().to_owned());
        (
            report.verdict(),
            report.states(),
            report.transitions(),
            replay,
        )
    };
    // With partial-order reduction too: the compact path numbers the successors of the
    // ample sets among all of a state's.
    for por in [false, true] {
        assert_eq!(
            check(Storage::Compact, por),
            check(Storage::Exact, por),
            "{name}, por {por}"
        );
    }
}

#[test]
fn compact_storage_agrees_with_exact_storage_without_fairness() {
    for name in ["Waiting", "Idle", "One"] {
        compact_agrees(Peterson3, name);
        compact_agrees(Peterson4, name);
    }
    for name in ["Eats", "Served", "Someone"] {
        compact_agrees(Phils4, name);
        compact_agrees(Fixed4, name);
    }
    // States wider than a word: the product's as trees.
    let plan = WideCounters::checker()
        .ltl("Flips")
        .storage(Storage::Compact)
        .plan()
        .expect("a plan");
    assert!(plan.layout.starts_with("trees"), "{plan:?}");
    compact_agrees(WideCounters, "Flips");
    compact_agrees(WideCounters, "Settles");
    // Under fairness the search numbers every live state: exact storage, with a note.
    let plan = Peterson3::checker()
        .ltl("One")
        .weak_fairness()
        .storage(Storage::Compact)
        .plan()
        .expect("a plan");
    assert_eq!(plan.storage, Storage::Exact);
    assert!(
        plan.notes.iter().any(|note| note.contains("fair cycles")),
        "{plan:?}"
    );
}

bir::bir! {
    // One cycle through 131,072 values of `x`, beside 31 bits that never change: product
    // words of about 50 bits, whose spare bits hold search numbers up to at most 2^14 or
    // 2^15. The fair search keeps the whole cycle live at once, so its numbers outgrow
    // those bits and move to arrays beside the table's slots in the middle of the search.
    system LongCycle {
      int wrap (0, 131071) x := 0;
      int (0, 2147483647) pad := 0;

      active thread T() {
        loc step: do { x := x + 1; } goto step;
      }

      ltl Returns: []<>(x == 0);
      ltl Leaves: <>[](x != 0);
    }
}

#[test]
fn fair_search_numbers_that_outgrow_the_words_move_beside_them() {
    for fairness in [1, 2] {
        let check = |name: &str| {
            let checker = LongCycle::checker().ltl(name).progress(false);
            let checker = match fairness {
                1 => checker.weak_fairness(),
                _ => checker.strong_fairness(),
            };
            checker.run()
        };
        let holds = check("Returns");
        holds.assert_holds();
        assert_eq!(holds.states(), 262_143, "{holds}");
        let lasso = check("Leaves");
        assert!(lasso.assert_violated().len() > 131_072, "{lasso}");
    }
}

bir::bir! {
    // 70 thread instances: with the property's, 71 fairness marks, more than one word
    // holds. Instance 0 alone toggles `b`; the others only spin.
    system Crowd {
      boolean b;

      active [70] thread T(int index) {
        loc spin:
          when index == 0 do { b := !b; } goto spin;
          when index != 0 do { } goto spin;
      }

      ltl Toggles: []<>(b);
    }
}

#[test]
fn fairness_over_more_instances_than_a_word_has_bits() {
    // Unfair, the others may spin forever while instance 0 waits; fair, it must step.
    assert_eq!(verdicts(Crowd, "Toggles"), [false, true, true]);
    // The unfair lasso replays to itself.
    let checker = Crowd::checker().ltl("Toggles");
    let report = checker.run();
    let lasso = report.assert_violated();
    assert_eq!(checker.replay(lasso.replay()).as_ref(), Ok(lasso));
}
