//! Compact storage against exact storage on every reference model (`models/*.bir`): the same
//! counts, verdicts and first counterexamples, depth-first and breadth-first, stopping at the
//! first finding and exploring everything; and a complete compact search says verified. The
//! models whose states are wider than a word (`readers_writers`, and `peterson_local` from
//! N = 5 and `peterson_filter` from N = 8, up to a state limit: both storages search in the
//! same order, so even a truncated search must agree) are stored as trees.

use bir::{Model, Storage};

include!("../../models/families.rs");

mod models {
    bir::bir!(file = "../../models/bounded_buffer.bir");
    bir::bir!(file = "../../models/dining_philosophers.bir");
    bir::bir!(file = "../../models/dining_philosophers_fixed.bir");
    bir::bir!(file = "../../models/peterson_filter.bir");
    bir::bir!(file = "../../models/peterson_local.bir");
    bir::bir!(file = "../../models/readers_writers.bir");
    bir::bir!(file = "../../models/sum_to_n.bir");
    bir::bir!(file = "../../models/two_dining_philosophers.bir");
}

#[test]
fn compact_storage_agrees_with_exact_storage_on_every_reference_model() {
    let both = [None, Some(1)];
    crate::search::agree(models::BoundedBuffer::checker(), &both);
    crate::search::agree(models::DiningPhilosophers::checker(), &both);
    crate::search::agree(models::DiningPhilosophersFixed::checker(), &both);
    crate::search::agree(models::PetersonFilter::checker(), &both);
    crate::search::agree(models::PetersonLocal::checker(), &both);
    crate::search::agree(models::ReadersWriters::checker(), &both);
    crate::search::agree(models::SumToN::checker(), &both);
    crate::search::agree(models::TwoDiningPhilosophers::checker(), &both);
}

#[test]
fn a_complete_compact_search_verifies() {
    let report = models::DiningPhilosophersFixed::checker()
        .storage(Storage::Compact)
        .progress(false)
        .run();
    report.assert_verified();
    assert!(report.to_string().contains("verified"), "{report}");
}

#[test]
fn compact_storage_on_several_threads_is_refused() {
    let error = models::PetersonFilter::checker()
        .storage(Storage::Compact)
        .threads(2)
        .plan()
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(
        error.contains("compact storage on several threads"),
        "{error}"
    );
}

#[test]
fn wide_states_are_stored_as_trees_and_agree_with_exact_storage() {
    peterson_local!(PetersonLocal5, 5);
    peterson_filter!(Peterson8, 8);
    // Two 32-bit counters and three statuses: 70 bits, 3^6 + 3 states or so.
    bir::bir! {
        system ReadersWriters6 {
            const Param { NUM_READERS = 6; NUM_WRITERS = 2; }
            int nr := 0;
            int nw := 0;
            active [Param.NUM_READERS] thread Reader(int index) {
                loc loc0: when nw == 0 do { nr := nr + 1; } goto loc1;
                loc loc1: do {} goto loc2;
                loc loc2: do { nr := nr - 1; } goto loc0;
            }
            active [Param.NUM_WRITERS] thread Writer(int index) {
                loc loc0: when nr == 0 && nw < 1 do { nw := nw + 1; } goto loc1;
                loc loc1: do {} goto loc2;
                loc loc2: do { nw := nw - 1; } goto loc0;
            }
            invariant RW: (nr == 0 || nw == 0) && nw <= 1;
        }
    }
    let model = PetersonLocal5;
    assert!(model.state_word(&model.initial_state()).is_none());
    let both = [None, Some(1)];
    crate::search::agree(PetersonLocal5::checker().max_states(30_000), &both);
    crate::search::agree(Peterson8::checker().max_states(30_000), &both);
    crate::search::agree(ReadersWriters6::checker(), &both);
    crate::search::agree(models::ReadersWriters::checker(), &both);
    let report = ReadersWriters6::checker()
        .storage(Storage::Compact)
        .progress(false)
        .run();
    report.assert_verified();
    assert!(
        report.plan().layout.starts_with("trees"),
        "{:?}",
        report.plan()
    );
    // Reduced by symmetry too: the canonical states' words.
    for bfs in [false, true] {
        let run = |storage| {
            let checker = Peterson8::checker()
                .symmetry(true)
                .max_states(20_000)
                .keep_going(1)
                .storage(storage)
                .progress(false);
            if bfs {
                checker.bfs().run()
            } else {
                checker.run()
            }
        };
        let (exact, compact) = (run(Storage::Exact), run(Storage::Compact));
        assert_eq!(
            crate::search::summary(&exact),
            crate::search::summary(&compact)
        );
        assert!(compact.plan().symmetry.is_some(), "{:?}", compact.plan());
    }
}
