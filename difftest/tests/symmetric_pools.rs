//! Symmetry reduction of pools (`thread[k] W`, `models/v3/pool_*.bir`), through the
//! generated checker and the interpreter:
//!
//! - the group found is a symmetry up to orbit of the reachable states: every image of every
//!   reachable state steps as the state does, into the same orbits
//!   ([`pool_orbits::pool_orbits`]; `start` takes the lowest free instance, so the images
//!   need not be reachable themselves);
//! - a complete reduced search stores one state per orbit and finds one deadlock per orbit
//!   of deadlocks and every error step of each orbit's representative; in every frontier,
//!   with and without partial-order reduction, it finds the kinds of finding the full search
//!   finds, and its counterexamples replay without symmetry
//!   ([`reduction::symmetry_differences`]);
//! - both engines find the same group and reduce to the same counts.

#[path = "common/pool_orbits.rs"]
mod pool_orbits;
#[path = "common/reduction.rs"]
#[allow(dead_code)]
mod reduction;

use bir::model::Model;
use bir::Checker;
use pool_orbits::pool_orbits;
use reduction::{interpreted, searched, Orbits};

mod dispatch {
    bir::bir!(file = "../../models/v3/pool_dispatch.bir");
}
mod clients {
    bir::bir!(file = "../../models/v3/pool_clients.bir");
}
mod race {
    bir::bir!(file = "../../models/v3/pool_race.bir");
}
mod thread_pool {
    bir::bir!(file = "../../models/thread_pool.bir");
}

/// The whole check of one model, compiled and interpreted; `group` is the group's
/// description the report gives. Returns the full counts and the orbits.
fn check<M: Model + Clone>(compiled: M, path: &str, group: &str) -> (Orbits, Orbits) {
    let interpreter = interpreted(path);
    let brute = pool_orbits(&compiled, 100_000)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .expect("small enough");
    assert_eq!(
        pool_orbits(&interpreter, 100_000),
        Ok(Some(brute)),
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
    let (full, _) = searched(compiled.clone(), false);
    assert_eq!(searched(interpreter.clone(), false).0, full, "{path}");
    assert!(brute.states < full.states, "{path}: nothing to reduce");
    assert_eq!(
        (brute.errors > 0, brute.deadlocks > 0),
        (full.errors > 0, full.deadlocks > 0),
        "{path}: the verdicts"
    );
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
    (full, brute)
}

#[test]
fn a_dispatched_pool_with_tids_in_an_array_a_lock_and_a_channel() {
    let (full, orbits) = check(
        dispatch::PoolDispatch,
        "../models/v3/pool_dispatch.bir",
        "all 6 permutations of W[0], W[1], W[2]",
    );
    println!("pool_dispatch: full {full:?}, orbits {orbits:?}");
}

#[test]
fn a_pool_started_by_a_symmetric_family() {
    let (full, orbits) = check(
        clients::PoolClients,
        "../models/v3/pool_clients.bir",
        "all 6 permutations of W[0], W[1], W[2]; all 2 permutations of C[0], C[1]",
    );
    println!("pool_clients: full {full:?}, orbits {orbits:?}");
}

#[test]
fn a_racing_pool_fails_and_deadlocks_under_symmetry_too() {
    let (full, orbits) = check(
        race::PoolRace,
        "../models/v3/pool_race.bir",
        "all 2 permutations of W[0], W[1]",
    );
    println!("pool_race: full {full:?}, orbits {orbits:?}");
    assert!(orbits.errors > 0 && orbits.deadlocks > 0, "{orbits:?}");
}

#[test]
fn the_thread_pool_example() {
    let (full, orbits) = check(
        thread_pool::ThreadPool,
        "../models/thread_pool.bir",
        "all 2 permutations of Worker[0], Worker[1]",
    );
    println!("thread_pool: full {full:?}, orbits {orbits:?}");
}
