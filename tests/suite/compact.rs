//! Compact storage against exact storage on every reference model (`models/*.bir`): the same
//! counts, verdicts and first counterexamples, depth-first and breadth-first, stopping at the
//! first finding and exploring everything; and a complete compact search says verified.

use bir::{Checker, Model, Report, Storage};

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

/// What a report says: counts, verdict, completeness and the first counterexample's replay.
fn summary(report: &Report) -> (u64, u64, u64, u64, String, bool, Option<String>) {
    (
        report.states(),
        report.transitions(),
        report.errors(),
        report.deadlocks(),
        format!("{:?}", report.verdict()),
        report.is_complete(),
        report.first_finding().map(|cx| cx.replay().to_string()),
    )
}

/// Runs `checker` with exact and with compact storage, depth-first and breadth-first,
/// stopping at the first finding (`None`) or keeping going as given; they agree.
pub(crate) fn agree<M: Model + Clone>(checker: Checker<M>, keep_going: &[Option<usize>]) {
    let checker = checker.progress(false);
    for bfs in [false, true] {
        for &keep_going in keep_going {
            let configure = |storage| {
                let c = checker.clone().storage(storage);
                let c = if bfs { c.bfs() } else { c };
                match keep_going {
                    Some(n) => c.keep_going(n),
                    None => c,
                }
            };
            let exact = configure(Storage::Exact).run();
            let compact = configure(Storage::Compact).run();
            assert_eq!(
                summary(&exact),
                summary(&compact),
                "{} (bfs {bfs}, keep going {keep_going:?})",
                exact.name()
            );
            assert_eq!(exact.is_verified(), compact.is_verified());
            // States wider than a word are stored exactly, and the plan says so.
            let plan = compact.plan();
            assert!(
                plan.storage == Storage::Compact || plan.notes.iter().any(|n| n.contains("wide")),
                "{}: {plan:?}",
                compact.name()
            );
        }
    }
}

#[test]
fn compact_storage_agrees_with_exact_storage_on_every_reference_model() {
    let both = [None, Some(1)];
    agree(models::BoundedBuffer::checker(), &both);
    agree(models::DiningPhilosophers::checker(), &both);
    agree(models::DiningPhilosophersFixed::checker(), &both);
    agree(models::PetersonFilter::checker(), &both);
    agree(models::PetersonLocal::checker(), &both);
    agree(models::ReadersWriters::checker(), &both);
    agree(models::SumToN::checker(), &both);
    agree(models::TwoDiningPhilosophers::checker(), &both);
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
