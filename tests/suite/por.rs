//! Partial-order reduction through generated code: on Peterson's filter as BEEM writes it
//! (`models/peterson_local.bir`, local loop counters), the full counts are SPIN's
//! (`peers/peterson_local.pml` with `-DNOREDUCE`) and the reduced search keeps no more
//! states than SPIN's own reduction (8,145 states for N=3, measured with SPIN 6.5.2);
//! on the all-global reference models nothing is safe and nothing changes.

use bir::{Checker, Model};

include!("../../models/families.rs");
peterson_local!(PetersonLocal3, 3,
    ltl Entered: []<>(pos[0] > 0);
    ltl Bounded: [](pos[0] <= 2);
    ltl Leaves: [](pos[1] == 1 -> <>(pos[1] != 1));
    ltl Steps: [](pos[0] == 1 -> X (pos[0] >= 0));
);
dining_philosophers_fixed!(Fixed5, 5);
peterson_filter!(Peterson4, 4);

#[test]
fn the_local_steps_of_beems_peterson_are_reduced_at_least_as_spin_does() {
    let full = PetersonLocal3::checker().progress(false).run();
    full.assert_verified();
    assert_eq!((full.states(), full.transitions()), (12_498, 33_369));
    let reduced = PetersonLocal3::checker().por(true).progress(false).run();
    reduced.assert_verified();
    assert_eq!(reduced.states(), 8_115);
    assert!(reduced.states() <= 8_145, "SPIN's reduction keeps 8,145");
    for checker in [
        PetersonLocal3::checker().por(true).bfs(),
        PetersonLocal3::checker().por(true).threads(2),
    ] {
        let report = checker.progress(false).run();
        report.assert_verified();
        assert!(report.states() < full.states(), "{report}");
    }
}

#[test]
fn ltl_verdicts_are_those_of_the_full_search() {
    for name in ["Entered", "Bounded", "Leaves"] {
        let full = PetersonLocal3::checker().ltl(name).run();
        let reduced = PetersonLocal3::checker().ltl(name).por(true).run();
        assert_eq!(
            full.verdict(),
            reduced.verdict(),
            "{name}:\n{full}\n{reduced}"
        );
        // A search that stops at its first lasso explores what its order reaches first,
        // so only the exhaustive ones compare.
        if reduced.findings().is_empty() {
            assert!(reduced.states() < full.states(), "{name}");
        }
        if let Some(lasso) = reduced.findings().first() {
            // The lasso of the reduced search is a run of the model: it replays.
            let checker = PetersonLocal3::checker().ltl(name);
            assert_eq!(checker.replay(lasso.replay()).as_ref(), Ok(lasso));
        }
    }
    // `X` counts steps, which reduction removes; fairness is about the interleavings it
    // drops: both refused, with the reason.
    let error = PetersonLocal3::checker()
        .ltl("Steps")
        .por(true)
        .plan()
        .unwrap_err();
    assert!(error.to_string().contains("`X`"), "{error}");
    let error = PetersonLocal3::checker()
        .ltl("Bounded")
        .weak_fairness()
        .por(true)
        .plan()
        .unwrap_err();
    assert!(error.to_string().contains("fairness"), "{error}");
}

fn unchanged<M: Model + Clone>(model: M) {
    let full = Checker::new(model.clone()).keep_going(1).run();
    let reduced = Checker::new(model).keep_going(1).por(true).run();
    assert_eq!(
        (reduced.states(), reduced.transitions()),
        (full.states(), full.transitions())
    );
    assert!(!reduced.plan().por);
    assert!(reduced
        .to_string()
        .contains("no location of the model is safe"));
}

#[test]
fn all_global_models_gain_nothing_and_say_so() {
    unchanged(Fixed5);
    unchanged(Peterson4);
}
