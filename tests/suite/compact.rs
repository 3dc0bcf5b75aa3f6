//! Compact storage against exact storage on every reference model (`models/*.bir`): the same
//! counts, verdicts and first counterexamples, depth-first and breadth-first, stopping at the
//! first finding and exploring everything; and a complete compact search says verified.

use bir::Storage;

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
