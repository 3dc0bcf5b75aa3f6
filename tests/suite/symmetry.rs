//! Symmetry reduction through generated code: the group `bir!` finds, the exact orbit
//! counts of Peterson's filter (`models/peterson_filter.bir`: its instances but `P[0]`,
//! which the initial `victim` names, are interchangeable) and of Rumur's issue #51
//! (`models/toggle_bits.bir`), concrete counterexamples that replay without symmetry, the
//! combinations with the other options, and the refusals.

use crate::search::reduced;
use bir::{ConfigError, FindingKind, Verdict};

include!("../../models/families.rs");
peterson_filter!(Peterson3, 3);
peterson_filter!(Peterson4, 4);
dining_philosophers!(Philosophers4, 4);
toggle_bits!(Bits1, 1);
toggle_bits!(Bits2, 2);
toggle_bits!(Bits3, 3);
toggle_bits!(Bits4, 4);
toggle_bits!(Bits6, 6);

bir::bir!(file = "../../models/toggle_bits.bir");

bir::bir! {
/// A lock that lets in anyone who is not the owner: two instances meet in `cs`.
system BadLock {
  int (0, 3) owner := 3;
  int (0, 3) inside;
  active [3] thread P(int index) {
    loc idle: when owner == 3 || owner != index do { owner := index; } goto enter;
    loc enter: do { inside := inside + 1; assert (inside <= 1); } goto cs;
    loc cs: do { inside := inside - 1; owner := 3; } goto idle;
  }
  reachable Entered: inside == 1;
  ltl Calm: [](inside <= 1);
}
}

bir::bir! {
/// Two families that keep each other's ids: a client takes the server id on offer, and the
/// server learns which client took it. Both groups are full, and each family's locals hold
/// the other's ids, so the two must be canonicalised together.
system Pairing {
  int (0, 3) offer := 3;
  int (0, 3) taken := 3;
  active [3] thread Server(int index) {
    int (0, 3) client := 3;
    loc free: when offer == 3 do { offer := index; } goto offered;
    loc offered: when taken != 3 do { client := taken; taken := 3; } goto serving;
    loc serving: do { client := 3; } goto free;
  }
  active [3] thread Client(int index) {
    int (0, 3) server := 3;
    loc idle: when offer != 3 && taken == 3 do { server := offer; offer := 3; taken := index; }
      goto served;
    loc served: do { server := 3; } goto idle;
  }
}
}

#[test]
fn families_that_hold_each_others_ids_count_the_orbits() {
    assert_eq!(
        Pairing::SYMMETRY,
        "`Server`: every permutation of its 3 instances\n`Client`: every permutation of its 3 \
         instances"
    );
    let orbits = bir::oracle::orbit_count(&Pairing, 1 << 20).expect("a small model");
    for checker in [
        Pairing::checker(),
        Pairing::checker().bfs(),
        Pairing::checker().threads(2),
    ] {
        assert_eq!(reduced(checker).0, orbits as u64);
    }
    let full = Pairing::checker().progress(false).run();
    assert!(
        orbits * 6 < full.states() as usize,
        "{orbits} of {}",
        full.states()
    );
}

#[test]
fn the_group_is_said_at_compile_time_and_in_the_report() {
    assert_eq!(
        Peterson3::SYMMETRY,
        "`P`: the permutations of 2 of its 3 instances; P[0] fixed: the constant 0 in the \
         initial value of `victim` names it"
    );
    assert!(Philosophers4::SYMMETRY.contains("no symmetry"));
    assert_eq!(
        ToggleBits::SYMMETRY,
        "`T`: every permutation of its 5 instances"
    );
    let report = Peterson3::checker().symmetry(true).progress(false).run();
    let text = report.to_string();
    assert!(
        text.contains("symmetry reduction (all 2 permutations of P[1], P[2] (P[0] fixed))"),
        "{text}"
    );
    assert_eq!(
        report.plan().symmetry.as_deref(),
        Some("all 2 permutations of P[1], P[2] (P[0] fixed)")
    );
    // Without symmetry the model's counts and plan are untouched.
    let full = Peterson3::checker().progress(false).run();
    assert_eq!((full.states(), full.transitions()), (288, 651));
    assert_eq!(full.plan().symmetry, None);
}

#[test]
fn peterson_counts_are_the_orbits() {
    assert_eq!(reduced(Peterson3::checker()).0, 151);
    assert_eq!(reduced(Peterson4::checker()).0, 898);
    for checker in [
        Peterson4::checker().bfs(),
        Peterson4::checker().threads(2),
        Peterson4::checker().hash_compaction(),
    ] {
        assert_eq!(reduced(checker).0, 898);
    }
}

#[test]
fn rumurs_issue_51_counts_n_plus_one_states() {
    assert_eq!(reduced(ToggleBits::checker()), (6, 30));
    let sizes: [(u64, (u64, u64)); 5] = [
        (1, reduced(Bits1::checker())),
        (2, reduced(Bits2::checker())),
        (3, reduced(Bits3::checker())),
        (4, reduced(Bits4::checker())),
        (6, reduced(Bits6::checker())),
    ];
    for (n, (states, _)) in sizes {
        assert_eq!(states, n + 1, "N = {n}");
        assert!(states <= 1 << n);
    }
    let full = Bits6::checker().progress(false).run();
    assert_eq!(full.states(), 64);
}

#[test]
fn a_model_without_symmetry_is_searched_in_full_with_the_reason() {
    let full = Philosophers4::checker().keep_going(1).progress(false).run();
    let asked = Philosophers4::checker()
        .symmetry(true)
        .keep_going(1)
        .progress(false)
        .run();
    assert_eq!(asked.states(), full.states());
    assert_eq!(asked.plan().symmetry, None);
    let notes = asked.plan().notes.join("\n");
    assert!(
        notes.contains("the model has no symmetry")
            && notes.contains("is used in arithmetic (line"),
        "{notes}"
    );
}

#[test]
fn counterexamples_are_concrete_and_replay_without_symmetry() {
    for checker in [
        BadLock::checker(),
        BadLock::checker().bfs(),
        BadLock::checker().threads(2),
        BadLock::checker().shortest(false),
        BadLock::checker().por(true),
    ] {
        let report = checker.symmetry(true).progress(false).run();
        let found = report.assert_assertion_failure();
        let again = BadLock::checker().replay(found.replay());
        assert_eq!(again.as_ref(), Ok(found), "{report}");
    }
    // A reachability witness too.
    let report = BadLock::checker()
        .reachable("Entered")
        .symmetry(true)
        .progress(false)
        .run();
    assert_eq!(report.verdict(), Verdict::Reached);
    let witness = report.assert_reachable();
    let checker = BadLock::checker().reachable("Entered");
    assert_eq!(checker.replay(witness.replay()).as_ref(), Ok(witness));
}

#[test]
fn with_partial_order_reduction_the_verdicts_stay() {
    let both = BadLock::checker()
        .symmetry(true)
        .por(true)
        .keep_going(1)
        .progress(false)
        .run();
    assert_eq!(both.verdict(), Verdict::Found(FindingKind::Assertion));
    let (states, _) = reduced(Peterson4::checker().por(true));
    assert!(states <= 898);
}

bir::bir! {
/// A token that any instance but its holder may take: once taken, it is never free again.
system Passing {
  int (0, 3) holder := 3;
  active [3] thread P(int index) {
    loc l: when holder == 3 || holder != index do { holder := index; } goto l;
  }
  ltl Freed: []<>(holder == 3);
  ltl Taken: <>[](holder != 3);
}
}

#[test]
fn an_ltl_lasso_of_the_quotient_is_unrolled_into_a_concrete_one() {
    let checker = Passing::checker().ltl("Freed");
    let full = checker.clone().progress(false).run();
    let report = checker.clone().symmetry(true).progress(false).run();
    assert!(report.states() < full.states(), "{report}\n{full}");
    let lasso = report.assert_violated();
    assert_eq!(
        checker.replay(lasso.replay()).as_ref(),
        Ok(lasso),
        "{report}"
    );
    // The quotient's cycle is one step (another instance takes the token); concretely the
    // token goes to a second instance and back, so the cycle is two steps.
    let cycle = lasso.cycle_start().map(|start| lasso.len() - start);
    assert_eq!(cycle, Some(2), "{report}");
    let holds = Passing::checker().ltl("Taken").symmetry(true).run();
    holds.assert_holds();
}

#[test]
fn fairness_walks_and_ltl_with_both_reductions_refuse_symmetry() {
    for checker in [
        BadLock::checker()
            .ltl("Calm")
            .weak_fairness()
            .symmetry(true),
        BadLock::checker()
            .ltl("Calm")
            .strong_fairness()
            .symmetry(true),
        BadLock::checker().ltl("Calm").symmetry(true).por(true),
    ] {
        let plan = checker.plan();
        assert!(
            matches!(&plan, Err(ConfigError::Unsupported { combination, .. })
                if combination.contains("LTL")),
            "{plan:?}"
        );
        assert!(checker.try_run().is_err());
    }
    let calm = BadLock::checker()
        .ltl("Calm")
        .symmetry(true)
        .progress(false)
        .run();
    assert_eq!(
        calm.verdict(),
        Verdict::Found(FindingKind::Assertion),
        "{calm}"
    );
}
