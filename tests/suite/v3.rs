//! Version 3 of the language through every engine of the runtime: the reference models of
//! `models/v3/` and `models/beem/` searched depth-first and breadth-first, on one thread
//! and on two, with exact, compact, hash-compacted and bitstate storage, by random walks
//! and by replay; LTL with both fairness kinds and `reachable` on channels. The counts are
//! the READMEs' (`bir-interp/tests/v3.rs` checks the interpreter against the same).

use bir::oracle::ltl_violated;
use bir::{Checker, Fairness, FindingKind, Model, Report, Verdict};

use crate::search::{explore, fits_a_word, summary};

mod abp {
    bir::bir!(file = "../../models/v3/big_abp.bir");
}
mod notify {
    bir::bir!(file = "../../models/v3/big_java_buffer_notify.bir");
}
mod rdv_phils {
    bir::bir!(file = "../../models/v3/big_rdv_phils.bir");
}
mod stack {
    bir::bir!(file = "../../models/v3/func_rec_stack.bir");
}
mod leader {
    bir::bir!(file = "../../models/beem/leader_election.1.bir");
}
mod exc_caller {
    bir::bir!(file = "../../models/v3/exc_caller.bir");
}
mod escapes {
    bir::bir!(file = "../../models/full_buffer_escapes.bir");
}

/// Every search and storage of `checker`, past every finding: depth-first and
/// breadth-first, exact and compact storage agree (`explore`), two threads find the same
/// counts, and the lossy storages cover no more states and never say verified when the
/// states are wider than a word. Returns the full search's report.
pub(crate) fn every_search<M: Model + Clone>(checker: Checker<M>) -> Report {
    let full = explore(checker.clone());
    let counts = |r: &Report| (r.states(), r.transitions(), r.errors(), r.deadlocks());
    let parallel = checker
        .clone()
        .threads(2)
        .keep_going(1)
        .progress(false)
        .run();
    assert_eq!(counts(&parallel), counts(&full), "two threads: {parallel}");
    let lossy = [
        checker.clone().hash_compaction(),
        checker.clone().bitstate(20, 3),
    ];
    for lossy in lossy {
        let report = lossy.keep_going(1).progress(false).run();
        assert!(report.states() <= full.states(), "{report}");
        if !fits_a_word(&checker) {
            assert!(!report.is_verified(), "{report}");
        }
    }
    full
}

/// The first finding of `checker` replays to itself, and a random walk finds one of its
/// kind too.
pub(crate) fn replays_and_walks_find<M: Model + Clone>(checker: Checker<M>, kind: FindingKind) {
    let report = checker.clone().progress(false).run();
    let found = report.assert_found(kind);
    assert_eq!(checker.replay(found.replay()).as_ref(), Ok(found));
    let walked = checker.simulate(200, 10_000, 7);
    assert_eq!(walked.verdict(), Verdict::Found(kind), "{walked}");
}

#[test]
fn the_alternating_bit_protocol_in_every_search() {
    let report = every_search(abp::AlternatingBit::checker());
    assert_eq!((summary(&report).0, summary(&report).1), (10_634, 35_838));
    report.assert_verified();
}

#[test]
fn the_java_buffer_with_notify_deadlocks_in_every_search() {
    let report = every_search(notify::JavaBoundedBufferNotify::checker());
    assert_eq!(
        (report.states(), report.transitions(), report.deadlocks()),
        (14_533, 22_878, 2)
    );
    replays_and_walks_find(
        notify::JavaBoundedBufferNotify::checker(),
        FindingKind::Deadlock,
    );
}

#[test]
fn rendezvous_philosophers_deadlock_in_every_search() {
    let report = every_search(rdv_phils::RdvPhilosophers::checker());
    assert_eq!(
        (report.states(), report.transitions(), report.deadlocks()),
        (19_682, 118_089, 1)
    );
    replays_and_walks_find(rdv_phils::RdvPhilosophers::checker(), FindingKind::Deadlock);
}

#[test]
fn the_stack_error_one_call_past_the_bound_in_every_search() {
    let report = every_search(stack::FuncRecStack::checker());
    assert_eq!(
        (report.states(), report.transitions(), report.errors()),
        (7, 7, 1)
    );
    replays_and_walks_find(stack::FuncRecStack::checker(), FindingKind::Stack);
}

#[test]
fn an_exception_caught_two_frames_up_in_every_search() {
    let report = every_search(exc_caller::ExcCaller::checker());
    assert_eq!(
        (report.states(), report.transitions(), report.errors()),
        (8, 7, 0)
    );
}

#[test]
fn the_uncaught_exception_in_every_search() {
    let report = every_search(escapes::FullBufferEscapes::checker());
    assert_eq!(
        (report.states(), report.transitions(), report.errors()),
        (107, 182, 6)
    );
    // A random walk rarely fills the buffer before the consumer drains it: the searches'
    // first finding is the uncaught exception.
    report.assert_found(FindingKind::Uncaught);
}

#[test]
fn beem_leader_election_in_every_search() {
    let report = every_search(leader::LeaderElection1::checker());
    assert_eq!(
        (report.states(), report.transitions(), report.deadlocks()),
        (14_252, 52_944, 1)
    );
}

bir::bir! {
    // A sender meets either of two receivers on a rendezvous, forever; each receiver flips
    // its own flag at each meeting. A fourth thread can spin forever on its own.
    system Meet {
        channel (boolean) c;
        boolean one;
        boolean two;
        boolean spun;
        active thread S() {
            loc s0: do { c!(true); } goto s0;
        }
        active thread R1() {
            boolean v;
            loc r0: do { c?(v); one := !one; } goto r0;
        }
        active thread R2() {
            boolean v;
            loc r0: do { c?(v); two := !two; } goto r0;
        }
        active thread Spin() {
            loc p0: do { spun := !spun; } goto p0;
        }
        ltl SettlesOne: <>[]one;
        ltl FlipsTwo: []<>two;
    }
}

/// The verdicts (no fairness, weak, strong) of property `name`, each the oracle's too.
fn verdicts<M: Model + Clone>(model: M, name: &str) -> [bool; 3] {
    let check = || Checker::new(model.clone()).ltl(name).progress(false);
    let verdicts = [check(), check().weak_fairness(), check().strong_fairness()].map(|checker| {
        let report = checker.run();
        match report.verdict() {
            Verdict::Verified => true,
            Verdict::Found(FindingKind::Property) => {
                let lasso = report.assert_violated();
                assert_eq!(checker.replay(lasso.replay()).as_ref(), Ok(lasso));
                false
            }
            _ => panic!("neither holds nor violated:\n{report}"),
        }
    });
    for (fairness, holds) in [Fairness::None, Fairness::Weak, Fairness::Strong]
        .into_iter()
        .zip(verdicts)
    {
        assert_eq!(
            ltl_violated(&model, name, fairness, 1 << 16),
            Some(!holds),
            "{name}, {fairness}"
        );
    }
    verdicts
}

#[test]
fn a_rendezvous_is_a_step_of_both_instances_for_fairness() {
    // Without fairness `Spin` (or `S` with `R1`) may run forever alone, so neither property
    // holds. `S` and `R2` can always meet, so under either fairness they must meet again
    // and again: a meeting is enabled for, and a step of, the receiver too. Were it the
    // sender's alone, `R2` would never count as enabled, a run of `S` with `R1` only would
    // be fair, and `FlipsTwo` would fail.
    assert_eq!(verdicts(Meet, "SettlesOne"), [false, false, false]);
    assert_eq!(verdicts(Meet, "FlipsTwo"), [false, true, true]);
}

bir::bir! {
    // P sends 1 and 2 into a buffer of two; Q takes one message.
    system Fill {
        channel (int (0, 3)) buffer 2 c;
        int (0, 3) got;
        active thread P() {
            c!(1);
            c!(2);
        }
        active thread Q() {
            c?(got);
        }
        reachable Full: full(c);
        reachable FullAfterOne: full(c) && got == 1;
    }
}

#[test]
fn reachable_states_of_a_channel() {
    let found = Fill::checker().reachable("Full").progress(false).run();
    let path = found.assert_reachable();
    assert_eq!(path.len(), 2, "{path}");
    // Once Q has taken the 1, one message is left to send: the buffer never fills again.
    let never = Fill::checker()
        .reachable("FullAfterOne")
        .progress(false)
        .run();
    assert_eq!(never.verdict(), Verdict::Unreachable, "{never}");
    assert!(never.is_complete(), "{never}");
}

mod leader_ring {
    bir::bir!(file = "../../models/leader_election.bir");
}

#[test]
fn leader_election_on_a_ring_of_buffered_channels_in_every_search() {
    // models/README.md: N = 4, K = 2 (a `fun` assigned inside `atomic`, arrays of channels).
    let report = every_search(leader_ring::LeaderElection::checker());
    assert_eq!((report.states(), report.transitions()), (921, 2_534));
    report.assert_verified();
}
