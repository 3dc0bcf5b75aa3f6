//! Which locations are safe, on small models and the reference ones.

use std::str::FromStr;

use proc_macro2::TokenStream;

use super::*;

fn safe(source: &str) -> Vec<Vec<bool>> {
    let tokens = TokenStream::from_str(source).expect("tokenizes");
    let system = crate::front_end(tokens)
        .unwrap_or_else(|d| panic!("{:?}", d.iter().map(|d| &d.message).collect::<Vec<_>>()));
    let accesses = crate::analyse::access::of_system(&system);
    safe_locations(&system, &accesses)
        .iter()
        .map(|locations| locations.iter().copied().collect())
        .collect()
}

#[test]
fn the_reference_models_share_everything() {
    // Every transformation of the philosophers touches a fork another one takes.
    assert_eq!(
        safe(include_str!("../../../../models/dining_philosophers.bir")),
        [[false; 4]]
    );
    // Peterson's filter: each level step reads the other levels.
    let peterson = safe(include_str!("../../../../models/peterson_filter.bir"));
    assert!(peterson[0].iter().all(|&s| !s), "{peterson:?}");
}

#[test]
fn local_work_own_slots_and_constants_are_safe() {
    let safe = safe(
        "system S {
            const C { N = 3; }
            int (0, 9)[C.N] mine;
            int (0, 9) limit := 5;
            int (0, 9) shared;
            invariant Small: shared < 9;
            active [C.N] thread P(int index) {
                int (0, 9) j;
                loc a: when j < limit do { j := j + 1; mine[index] := j; } goto a;
                       when j == limit do { j := 0; } goto b;
                loc b: do { shared := mine[index]; } goto c;
                loc c: when Q@q do {} goto a;
            }
            active thread Q() {
                loc q: do {} goto q;
            }
        }",
    );
    // a: locals, its own slot, a constant. b: writes what the invariant reads.
    // c: reads a status. Q: its status is read.
    assert_eq!(safe, [vec![true, false, false], vec![false]]);
}

#[test]
fn a_thread_whose_status_a_guard_reads_has_no_safe_location() {
    // Found by the differential test (seed 1004003174): T[0] at l2 may fail while T[2]
    // is at l0; expanding T[2]'s local step alone moved it on and hid the failure.
    let safe = safe(
        "system S {
            int (0, 3) g;
            active [3] thread T(int index) {
                loc l0: do {} goto l2;
                loc l2: when T[2]@l0 do { g := 4; } goto l0;
            }
        }",
    );
    assert_eq!(safe, [[false, false]]);
}

#[test]
fn what_a_property_names_is_visible() {
    let safe = safe(
        "system S {
            active [2] thread P(int index) {
                int (0, 3) j;
                loc a: do { j := (j + 1) % 4; } goto a;
            }
            ltl Moves: []<>P[0]@a;
        }",
    );
    assert_eq!(safe, [[false]]);
}

/// A sender `P`, a receiver `Q` and `EXTRA` over channel `c` of capacity 2.
const PAIR: &str = "system S {
    channel (int (0, 3)) buffer 2 c;
    int (0, 3) got;
    int (0, 3) seen;
    active thread P() {
        int (0, 3) x;
        loc send: do { c!(x); } goto next;
        loc next: do { x := (x + 1) % 4; } goto send;
    }
    active thread Q() {
        int (0, 3) y;
        loc take: do { c?(y); } goto keep;
        loc keep: do { got := y; } goto take;
    }
    EXTRA
}";

fn pair(extra: &str) -> Vec<Vec<bool>> {
    safe(&PAIR.replace("EXTRA", extra))
}

#[test]
fn one_sender_and_one_receiver_make_sends_and_receives_safe() {
    assert_eq!(pair(""), [[true, true], [true, true]]);
    // Guards that only narrow the lengths as the readiness does keep them safe: SPIN's
    // `nfull` for the sender and `nempty` for the receiver.
    let guarded = safe(
        &PAIR
            .replace("do { c!(x); }", "when !full(c) && len(c) < 2 do { c!(x); }")
            .replace("do { c?(y); }", "when !empty(c) do { c?(y); }")
            .replace("EXTRA", ""),
    );
    assert_eq!(guarded, [[true, true], [true, true]]);
}

#[test]
fn a_second_sender_makes_the_sends_unsafe_but_not_the_receives() {
    let found = pair(
        "active thread R() {
            loc send: do { c!(1); } goto send;
        }",
    );
    assert_eq!(found, [vec![false, true], vec![true, true], vec![false]]);
    // A second receiver likewise makes the receives unsafe.
    let found = pair(
        "active thread R() {
            int (0, 3) z;
            loc take: do { c?(z); } goto take;
        }",
    );
    assert_eq!(found, [vec![true, true], vec![false, true], vec![false]]);
    // So does a family of senders: each instance of it sends.
    let family = safe(
        &PAIR
            .replace("active thread P()", "active [2] thread P(int index)")
            .replace("EXTRA", ""),
    );
    assert_eq!(family, [[false, true], [true, true]]);
}

#[test]
fn what_observes_the_length_makes_the_steps_that_change_it_unsafe() {
    // Another instance tests a length that a send or a receive changes, in a guard.
    let polled = pair(
        "active thread R() {
            loc l: when len(c) == 1 do { seen := 1; } goto l;
        }",
    );
    assert_eq!(polled, [vec![false, true], vec![false, true], vec![false]]);
    // Testing `full(c)` is kept by sends, so the sender stays safe; the receiver does not.
    let full = pair(
        "active thread R() {
            loc l: when full(c) do { seen := 1; } goto l;
        }",
    );
    assert_eq!(full, [vec![true, true], vec![false, true], vec![false]]);
    // A length read in an action: that step depends on it, and the sends change it; the
    // receiver's own receive is still independent of the sends.
    let read = safe(
        &PAIR
            .replace("do { got := y; }", "do { got := len(c); }")
            .replace("EXTRA", ""),
    );
    assert_eq!(read, [[false, true], [true, false]]);
    // An invariant on the length makes every step that changes it visible.
    let invariant = pair("invariant I: len(c) < 3;");
    assert_eq!(invariant, [[false, true], [false, true]]);
}

#[test]
fn every_step_of_a_safe_location_must_allow_the_same_lengths() {
    // The sender may also do something else: while the channel is full, that other step
    // alone is enabled, and a receive would enable the send.
    let mixed = safe(
        &PAIR
            .replace(
                "loc send: do { c!(x); } goto next;",
                "loc send: do { c!(x); } goto next; do { x := 0; } goto send;",
            )
            .replace("EXTRA", ""),
    );
    assert_eq!(mixed, [[false, true], [true, true]]);
    // Two sends at one location wait alike: safe.
    let two = safe(
        &PAIR
            .replace(
                "loc send: do { c!(x); } goto next;",
                "loc send: when x == 0 do { c!(x); } goto next; when x != 0 do { c!(1); } goto next;",
            )
            .replace("EXTRA", ""),
    );
    assert_eq!(two, [[true, true], [true, true]]);
}

#[test]
fn elements_of_an_array_of_channels_named_by_constants_are_channels_of_their_own() {
    let model = "system S {
        channel (boolean) buffer 1 c[2];
        active thread P() {
            loc l: do { c[0]!(true); } goto m;
            loc m: do { c[1]!(true); } goto l;
        }
        active thread Q() {
            loc l: do { c[0]?(_); } goto l;
        }
        active thread R() {
            boolean b;
            loc l: do { c[1]?(b); } goto l;
            EXTRA
        }
    }";
    assert_eq!(
        safe(&model.replace("EXTRA", "")),
        [vec![true, true], vec![true], vec![true]]
    );
    // An element named by a computed index may be any of them: nothing is safe.
    let computed =
        safe(&model.replace("EXTRA", "loc m: when len(c[b ? 1 : 0]) == 0 do { } goto l;"));
    // (R may: its own uses are its own.)
    assert_eq!(
        computed,
        [vec![false, false], vec![false], vec![true, false]]
    );
}

#[test]
fn locks_are_shared_state_once_two_instances_take_them() {
    let model = "system S {
        lock m;
        active thread P() {
            loc l: do { lock(m); } goto u;
            loc u: do { unlock(m); } goto l;
        }
        OTHER
    }";
    // A lock that one instance alone takes is private to it.
    assert_eq!(safe(&model.replace("OTHER", "")), [[true, true]]);
    let shared = safe(&model.replace(
        "OTHER",
        "active thread Q() { loc l: do { lock(m); } goto u; loc u: do { unlock(m); } goto l; }",
    ));
    assert_eq!(shared, [[false, false], [false, false]]);
}

#[test]
fn a_ring_of_channels_indexed_by_the_instances_is_judged_element_by_element() {
    // Leader election: instance `index` alone receives from `ring[index]` and alone sends
    // on `ring[(index + 1) % N]`, so each element has one sender and one receiver (SPIN's
    // `xs`/`xr`); the steps of a location that wait for different lengths are told apart by
    // the node's own locals (`done`, `kind`, `passive`, `know`). Only the step that counts
    // the leader, which the invariant reads, is unsafe.
    let text = include_str!("../../../../models/leader_election.bir");
    let tokens = TokenStream::from_str(text).expect("tokenizes");
    let system = crate::front_end(tokens).expect("the model compiles");
    let accesses = crate::analyse::access::of_system(&system);
    let safe = safe_locations(&system, &accesses);
    let node = &system.threads[ThreadId(0)];
    let unsafe_: Vec<&str> = node
        .locations
        .iter_enumerated()
        .filter(|(l, _)| !safe[ThreadId(0)][*l])
        .map(|(_, location)| location.name.as_str())
        .collect();
    assert_eq!(unsafe_, ["if#7"]);
}

#[test]
fn elements_that_two_instances_name_are_shared() {
    let model = "system S {
        channel (boolean) buffer 1 c[3];
        active [3] thread P(int index) {
            loc s: do { c[SEND]!(true); } goto r;
            loc r: do { c[index]?(_); } goto s;
        }
    }";
    // Each instance sends to the next one's channel: one sender, one receiver each.
    assert_eq!(
        safe(&model.replace("SEND", "(index + 1) % 3")),
        [[true, true]]
    );
    // An index not built of `index` and constants alone may name any element: neither
    // step is safe.
    assert_eq!(
        safe(&model.replace("SEND", "index == 1 ? 1 : 0")),
        [[false, false]]
    );
    // P[0] and P[2] both send on `c[1]`: the send is not safe; the receives still are (a
    // receive of the one message of a full channel is kept by sends, which wait).
    assert_eq!(
        safe(&model.replace("SEND", "(index + 1) % 2")),
        [[false, true]]
    );
}

#[test]
fn steps_that_end_a_pool_instance_or_touch_a_tid_are_unsafe() {
    let safe = safe(
        "system S {
            thread[2] W() {
                int (0, 3) n;
                loc count: do { n := 1; } goto last;
                loc last: do { } return;
            }
            active thread M() {
                tid t;
                int (0, 3) k;
                loc mine: do { k := 1; } goto peek;
                loc peek: when t == null do { k := 2; } goto begin;
                loc begin: do { t := start W(); } goto mine;
            }
        }",
    );
    // W: a start reads its statuses, so none of its steps is safe (and the one that ends an
    // instance frees it, writing the tids that name it, wherever they are).
    assert_eq!(safe[0], [false, false]);
    // M: its local work is safe; reading its tid is not (a freeing may null it), nor is a
    // start (it reads and writes W's statuses).
    assert_eq!(safe[1], [true, false, false]);
}
