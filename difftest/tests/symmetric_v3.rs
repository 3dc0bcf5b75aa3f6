//! Symmetry reduction of version-3 models whose arrays of locks and of channels are indexed
//! by a family's instances (`symmetric/*.bir`, and `models/v3/lock_notify.bir` for the wait
//! marks), through the generated checker and the interpreter:
//!
//! - the group found is a symmetry of the reachable states: every image of every reachable
//!   state under every permutation of the group is reachable, and has as many faulting
//!   steps and successors;
//! - a complete reduced search stores one state per orbit, finds one deadlock per orbit of
//!   deadlocks and every error step of each orbit's representative, in every frontier
//!   (the shared check of the differential tests, [`reduction::symmetry_differences`],
//!   also replays each counterexample without symmetry);
//! - both engines find the same group and reduce to the same counts.

#[path = "common/reduction.rs"]
#[allow(dead_code)]
mod reduction;

use std::collections::{HashMap, HashSet};

use bir::model::{Model, Outcome};
use bir::Checker;
use reduction::{interpreted, searched, Orbits};

mod handoff {
    bir::bir!(file = "symmetric/handoff.bir");
}
mod desks {
    bir::bir!(file = "symmetric/desks.bir");
}
mod mailboxes {
    bir::bir!(file = "symmetric/mailboxes.bir");
}
mod couriers {
    bir::bir!(file = "symmetric/couriers.bir");
}
mod lock_notify {
    bir::bir!(file = "../../models/v3/lock_notify.bir");
}

/// Every reachable state of `model`, decoded, with its number of successors and of
/// faulting steps; then checks that the group maps the reachable states onto themselves,
/// keeping both numbers, and counts the orbits.
fn orbits<M: Model>(model: &M) -> Orbits {
    let symmetry = model.symmetry().expect("the model has a group");
    assert!(!symmetry.is_trivial(), "{}", symmetry.describe());
    let mut seen = HashSet::new();
    let mut stack = vec![model.initial_state()];
    seen.insert(model.initial_state());
    // Decoded state: (successors, faults).
    let mut found: HashMap<Vec<i64>, (usize, usize)> = HashMap::new();
    let (mut successors, mut values) = (Vec::new(), Vec::new());
    while let Some(state) = stack.pop() {
        model.decode(&state, &mut values);
        assert!(
            model.check_invariants(&state).is_ok(),
            "no model has invariants"
        );
        successors.clear();
        model.successors(&state, &mut successors);
        let faults = successors
            .iter()
            .filter(|s| matches!(s.outcome, Outcome::Fault(_)))
            .count();
        found.insert(values.clone(), (successors.len(), faults));
        for successor in successors.drain(..) {
            if let Outcome::Next(next) = successor.outcome {
                if seen.insert(next.clone()) {
                    stack.push(next);
                }
            }
        }
    }
    let mut orbits = Orbits {
        states: 0,
        deadlocks: 0,
        errors: 0,
    };
    let mut counted = HashSet::new();
    for (values, &(steps, faults)) in &found {
        let images = symmetry.orbit(values);
        for image in &images {
            assert_eq!(
                found.get(image),
                Some(&(steps, faults)),
                "the image {image:?} of the reachable state {values:?} under the group ({}) \
                 is unreachable or steps otherwise",
                symmetry.describe()
            );
        }
        if counted.insert(images[0].clone()) {
            orbits.states += 1;
            orbits.deadlocks += u64::from(steps == 0);
            orbits.errors += faults as u64;
        }
    }
    orbits
}

/// The whole check of one model, compiled and interpreted; `group` is the group's
/// description the report gives.
fn check<M: Model + Clone>(compiled: M, path: &str, group: &str) {
    let interpreter = interpreted(path);
    let brute = orbits(&compiled);
    assert_eq!(
        brute,
        orbits(&interpreter),
        "{path}: the interpreter's orbits"
    );
    let (counts, found) = searched(compiled.clone(), true);
    assert_eq!(found.as_deref(), Some(group), "{path}");
    assert_eq!(
        counts, brute,
        "{path}: the reduced search against the orbits"
    );
    assert_eq!(
        searched(interpreter.clone(), true),
        (counts, found),
        "{path}: the interpreter"
    );
    let full = Checker::new(compiled.clone())
        .progress(false)
        .keep_going(0)
        .run();
    assert!(brute.states < full.states(), "{path}: nothing to reduce");
    for (engine, check) in [
        (
            "compiled",
            reduction::symmetry_differences(&Checker::new(compiled)),
        ),
        (
            "interpreted",
            reduction::symmetry_differences(&Checker::new(interpreter)),
        ),
    ] {
        assert!(
            check.failures.is_empty(),
            "{path} ({engine}):\n{}",
            check.failures.join("\n\n")
        );
        assert!(check.exact && check.shrank, "{path} ({engine})");
    }
}

#[test]
fn an_array_of_locks_indexed_by_instances_moves_with_them() {
    check(
        handoff::Handoff,
        "tests/symmetric/handoff.bir",
        "all 6 permutations of P[0], P[1], P[2]",
    );
}

#[test]
fn locks_of_one_family_taken_by_another_move_with_both() {
    check(
        desks::Desks,
        "tests/symmetric/desks.bir",
        "all 2 permutations of Server[0], Server[1]; all 2 permutations of Client[0], \
         Client[1]",
    );
}

#[test]
fn an_array_of_buffered_channels_indexed_by_instances_moves_with_them() {
    check(
        mailboxes::Mailboxes,
        "tests/symmetric/mailboxes.bir",
        "all 6 permutations of W[0], W[1], W[2]",
    );
}

#[test]
fn an_array_of_rendezvous_channels_carrying_instances_moves_with_them() {
    check(
        couriers::Couriers,
        "tests/symmetric/couriers.bir",
        "all 6 permutations of W[0], W[1], W[2]",
    );
}

#[test]
fn wait_marks_move_with_the_instances() {
    check(
        lock_notify::LockNotify,
        "../models/v3/lock_notify.bir",
        "all 2 permutations of W[0], W[1]",
    );
}
