//! The builder, the plan, and every limit under every frontier.

use super::*;
use crate::plan::{Options, MAX_THREADS};
use crate::test_models::{Graph, Philosophers, SumToN};
use crate::{FindingKind, IncompleteReason, Verdict};
use std::time::Duration;

fn incomplete(reason: IncompleteReason) -> Verdict {
    Verdict::Incomplete { reason }
}

#[test]
fn every_kept_counterexample_replays_to_itself() {
    for checker in [
        Checker::new(SumToN).keep_going(50),
        Checker::new(SumToN).bfs().keep_going(50),
    ] {
        let report = checker.run();
        assert_eq!(report.findings().len(), 43);
        for found in report.findings() {
            assert_eq!(checker.replay(found.replay()).as_ref(), Ok(found));
        }
    }
    let checker = Checker::new(Philosophers::two());
    let deadlock = checker.run().assert_deadlock().clone();
    assert_eq!(checker.replay(deadlock.replay()), Ok(deadlock));
}

#[test]
fn replay_explains_what_does_not_fit() {
    let checker = Checker::new(Philosophers::two());
    assert!(matches!(
        checker.replay("0.4"),
        Err(ReplayError::Malformed { .. })
    ));
    let error = checker.replay("bir1:0.0").unwrap_err();
    assert_eq!(
        error,
        ReplayError::NotEnabled {
            step: 2,
            transition: 0,
            enabled: vec![1, 4]
        }
    );
    assert!(error
        .to_string()
        .contains("step 2: transition 0 is not enabled"));
    assert_eq!(
        checker.replay("bir1:"),
        Err(ReplayError::NoFinding { steps: 0 })
    );
}

#[test]
fn keep_going_counts_everything_and_keeps_the_first_traces() {
    let report = Checker::new(SumToN).keep_going(2).run();
    assert!(report.is_complete());
    assert_eq!((report.errors(), report.deadlocks()), (42, 1));
    assert_eq!(report.findings().len(), 2);
    assert_eq!(report.verdict(), Verdict::Found(FindingKind::Deadlock));
    assert_eq!(report.findings()[0].kind(), FindingKind::Deadlock);
    assert_eq!(report.findings()[1].kind(), FindingKind::Assertion);
    // Stopping at the first finding leaves the search incomplete.
    let first = Checker::new(SumToN).run();
    assert!(!first.is_complete());
    assert_eq!(first.incomplete_reason(), None);
}

#[test]
fn a_state_limit_gives_incomplete_never_verified() {
    let report = Checker::new(Philosophers::new(5, true))
        .max_states(100)
        .run();
    assert_eq!(report.verdict(), incomplete(IncompleteReason::StateLimit));
    assert_eq!(report.states(), 100);
    let text = report.to_string();
    assert!(
        text.starts_with(
            "DiningPhilosophersFixed: no error and no deadlock found in 100 states \
             (depth-first search; state limit reached); not verified"
        ),
        "{text}"
    );
    // Exactly enough room: nothing was left out.
    let exact = Checker::new(Philosophers::new(5, true))
        .max_states(261)
        .run();
    exact.assert_verified();
    // The error lies beyond the limit, for every frontier.
    for checker in [
        Checker::new(Graph::chain_to_fault(10)).max_states(5),
        Checker::new(Graph::chain_to_fault(10)).max_states(5).bfs(),
        Checker::new(Graph::chain_to_fault(10))
            .max_states(5)
            .threads(2),
    ] {
        let report = checker.run();
        assert_eq!(report.verdict(), incomplete(IncompleteReason::StateLimit));
        assert_eq!(report.states(), 5);
    }
    let none = Checker::new(SumToN).max_states(0).run();
    assert_eq!(none.verdict(), incomplete(IncompleteReason::StateLimit));
    assert_eq!(none.states(), 0);
}

#[test]
fn a_parallel_search_stores_at_most_the_state_limit() {
    for limit in [1, 2, 63, 64, 65, 300, 1_000, 9_402] {
        let report = Checker::new(Philosophers::new(8, true))
            .threads(3)
            .max_states(limit)
            .run();
        assert_eq!(report.verdict(), incomplete(IncompleteReason::StateLimit));
        assert!(report.states() <= limit, "{limit}: {}", report.states());
    }
}

#[test]
fn a_depth_limit_gives_incomplete_in_every_frontier() {
    for checker in [
        Checker::new(Philosophers::new(4, true)).max_depth(3),
        Checker::new(Philosophers::new(4, true)).max_depth(3).bfs(),
    ] {
        let report = checker.run();
        assert_eq!(report.verdict(), incomplete(IncompleteReason::DepthLimit));
        assert_eq!(report.stats().max_depth, 3);
    }
    let bfs = Checker::new(Graph::chain_to_fault(10))
        .bfs()
        .max_depth(10)
        .run();
    assert_eq!(bfs.verdict(), incomplete(IncompleteReason::DepthLimit));
}

#[test]
fn without_a_memory_limit_the_default_is_most_of_the_available_memory() {
    let options = crate::search::with_default_memory_limit(&Options::default());
    if cfg!(target_os = "linux") {
        let limit = options.memory_limit.unwrap_or(0);
        assert!(limit > 1 << 20, "{limit}");
    }
    let explicit = Options {
        memory_limit: Some(5),
        ..Options::default()
    };
    assert_eq!(
        crate::search::with_default_memory_limit(&explicit).memory_limit,
        Some(5)
    );
}

/// A change to a checker: a limit, or a frontier.
type Configure = fn(Checker<Philosophers>) -> Checker<Philosophers>;

/// The six ways a search can be cut short, each to be applied to a checker.
fn limits() -> Vec<(IncompleteReason, Configure)> {
    vec![
        (IncompleteReason::DepthLimit, |c| c.max_depth(5)),
        (IncompleteReason::StateLimit, |c| c.max_states(500)),
        (IncompleteReason::TimeLimit, |c| {
            c.time_limit(Duration::ZERO)
        }),
        // Below what the process holds already: the first reading stops the search.
        (IncompleteReason::MemoryLimit, |c| c.memory_limit(1 << 16)),
        (IncompleteReason::HashCompaction, |c| c.hash_compaction()),
        (IncompleteReason::Bitstate, |c| c.bitstate(20, 3)),
    ]
}

#[test]
fn no_limit_under_any_frontier_ever_says_verified() {
    let model = Philosophers::new(7, true);
    let frontiers: [(&str, Configure); 3] = [
        ("depth-first", |c| c.dfs()),
        ("breadth-first", |c| c.bfs()),
        ("parallel", |c| c.threads(2)),
    ];
    let full = Checker::new(model.clone()).progress(false).run();
    full.assert_verified();
    for (reason, limit) in limits() {
        for (frontier, order) in frontiers {
            let checker = limit(order(Checker::new(model.clone()).progress(false)));
            let report = checker.run();
            let case = format!("{reason:?} under {frontier} search:\n{report}");
            assert_eq!(report.verdict(), incomplete(reason), "{case}");
            assert!(!report.is_verified() && !report.is_complete(), "{case}");
            assert!(report.to_string().contains("not verified"), "{case}");
            assert!(report.states() <= full.states(), "{case}");
            if !reason.stops_search() {
                // Pruning limits and lossy storage still visit what they reach.
                assert!(report.states() > 1, "{case}");
            }
        }
    }
}

#[test]
fn a_memory_limit_above_what_the_process_holds_stops_the_search_before_it() {
    let Some(resident) = crate::search::memory::RssReader::new().resident() else {
        return; // no /proc: the limit falls back on the search's accounting
    };
    // Room for a few thousand states, far fewer than the 1.1 million of the model; the
    // seen set's next growth is refused before it is allocated.
    let limit = resident + (2 << 20);
    for checker in [
        Checker::new(Philosophers::new(12, true)),
        Checker::new(Philosophers::new(12, true)).bfs(),
        Checker::new(Philosophers::new(12, true)).threads(2),
    ] {
        let report = checker.memory_limit(limit).progress(false).run();
        assert_eq!(
            report.verdict(),
            incomplete(IncompleteReason::MemoryLimit),
            "{report}"
        );
        assert!(report.states() < 1_118_878, "{report}");
    }
}

#[test]
fn a_search_the_memory_limit_stops_names_compact_storage_where_it_would_serve() {
    // Room for a few MiB above what the process holds when each search starts (each
    // search leaves the process a little larger).
    let room = |mib: usize| {
        crate::search::memory::RssReader::new()
            .resident()
            .map(|now| now + (mib << 20))
    };
    let hinted = |report: &Report| report.notes().iter().any(|n| n.contains("--compact"));
    let model = || Checker::new(Philosophers::new(12, true)).progress(false);
    let orders: [Configure; 2] = [|c| c, |c| c.bfs()];
    for order in orders {
        let Some(limit) = room(2) else {
            return; // no /proc: the limit falls back on the search's accounting
        };
        let report = order(model()).memory_limit(limit).run();
        assert_eq!(
            report.incomplete_reason(),
            Some(IncompleteReason::MemoryLimit)
        );
        assert!(hinted(&report), "{report}");
        assert!(report.states() < 1_118_878, "{report}");
        let text = report.to_string();
        assert!(
            text.contains("note: the memory limit stopped the search"),
            "{text}"
        );
    }
    // Not where compact storage would not serve (several threads), nor where the limit is
    // below what the process held at the start, nor once storage is compact.
    let refused: [Configure; 3] = [
        |c| c.threads(2),
        |c| c.memory_limit(1 << 16),
        |c| c.storage(Storage::Compact),
    ];
    for configure in refused {
        let Some(limit) = room(1) else { return };
        let report = configure(model().memory_limit(limit)).run();
        assert_eq!(
            report.incomplete_reason(),
            Some(IncompleteReason::MemoryLimit)
        );
        assert!(!hinted(&report), "{report}");
    }
}

#[test]
fn impossible_plans_are_refused_before_anything_runs() {
    let model = || Checker::new(Philosophers::new(3, true));
    let refused = [
        (model().threads(0), "0 threads"),
        (model().threads(MAX_THREADS + 1), "1 to 256 threads"),
        (model().bitstate(9, 3), "2^10 to 2^40 bits"),
        (model().bitstate(41, 3), "2^10 to 2^40 bits"),
        (model().bitstate(20, 0), "1 to 8"),
        (model().bitstate(20, 9), "1 to 8"),
        (
            model().bitstate(30, 3).memory_limit(1 << 20),
            "does not fit the memory limit",
        ),
        (
            model().bfs().threads(2),
            "breadth-first search on several threads",
        ),
    ];
    for (checker, message) in refused {
        let error = checker.plan().unwrap_err();
        assert!(error.to_string().contains(message), "{error}");
        assert_eq!(checker.try_run().unwrap_err(), error);
    }
    let simulation = std::panic::catch_unwind(|| model().threads(2).simulate(1, 1, 1));
    assert!(simulation.is_err());
}

#[test]
fn the_plan_says_what_runs() {
    let plan = Checker::new(Philosophers::new(3, true)).plan().unwrap();
    assert_eq!(plan.strategy, Strategy::DepthFirst);
    assert_eq!((plan.threads, plan.storage), (1, Storage::Exact));
    assert!(plan.can_verify());
    assert_eq!(plan.describe(), "depth-first search");
    let plan = Checker::new(Philosophers::new(3, true))
        .threads(2)
        .hash_compaction()
        .plan()
        .unwrap();
    assert_eq!(plan.strategy, Strategy::Parallel);
    assert!(!plan.can_verify());
    assert_eq!(
        plan.describe(),
        "parallel search, 2 threads, hash compaction"
    );
    let report = Checker::new(Philosophers::new(3, true))
        .bfs()
        .bitstate(16, 2)
        .run();
    assert_eq!(
        report.plan().storage,
        Storage::Bitstate {
            log2_bits: 16,
            hashes: 2
        }
    );
    assert!(report.to_string().starts_with(
        "DiningPhilosophersFixed: no error and no deadlock found in 24 states (breadth-first \
         search, bitstate hashing, 2^16 bits, 2 per state; probability"
    ));
}

#[test]
fn lossy_breadth_first_search_keeps_the_order_and_the_shortest_traces() {
    for n in [3, 5] {
        let exact = Checker::new(Philosophers::new(n, false))
            .bfs()
            .keep_going(1)
            .run();
        let compacted = Checker::new(Philosophers::new(n, false))
            .bfs()
            .hash_compaction()
            .keep_going(1)
            .run();
        assert_eq!(
            (
                compacted.states(),
                compacted.transitions(),
                compacted.deadlocks()
            ),
            (exact.states(), exact.transitions(), exact.deadlocks())
        );
        assert_eq!(compacted.first_finding(), exact.first_finding());
    }
    let exact = Checker::new(SumToN).bfs().keep_going(5).run();
    let lossy = Checker::new(SumToN)
        .bfs()
        .bitstate(24, 3)
        .keep_going(5)
        .run();
    assert_eq!(lossy.findings(), exact.findings());
    assert_eq!(
        (lossy.states(), lossy.errors()),
        (exact.states(), exact.errors())
    );
}

#[test]
fn the_builder_shows_its_options() {
    let checker = Checker::new(SumToN).bfs().keep_going(3).progress(false);
    let text = format!("{checker:?}");
    assert!(
        text.contains("SumToN") && text.contains("BreadthFirst"),
        "{text}"
    );
    assert_eq!(checker.model().info().name, "SumToN");
}

#[test]
#[ignore = "large: cargo test --release -p bir-runtime -- --ignored"]
fn large_dining_philosophers_match_the_reference_counts() {
    let cases = [
        (12, false, 1_684_801, 14_610_252),
        (12, true, 1_118_878, 9_415_128),
    ];
    for (n, fixed, states, transitions) in cases {
        for checker in [
            Checker::new(Philosophers::new(n, fixed)).keep_going(1),
            Checker::new(Philosophers::new(n, fixed))
                .keep_going(1)
                .bfs(),
        ] {
            let report = checker.run();
            eprintln!("{}", report.stats());
            assert_eq!(
                (report.states(), report.transitions()),
                (states, transitions)
            );
            assert_eq!(report.deadlocks(), u64::from(!fixed));
            assert!(report.is_complete());
        }
    }
}

#[test]
fn a_reachability_check_finds_a_shortest_witness_or_fails() {
    // 0 -> 1 -> 2 -> 3 (p), 0 -> 3 directly: the witness is the one step.
    let graph = Graph::new(4, &[(0, Some(1)), (1, Some(2)), (2, Some(3)), (0, Some(3))])
        .end(&[3])
        .label(0, &[3])
        .reachable("Done");
    let checker = Checker::new(graph.clone()).reachable("Done");
    let report = checker.run();
    assert_eq!(report.verdict(), Verdict::Reached);
    let witness = report.assert_reachable();
    assert_eq!(witness.replay(), "bir1:3");
    assert_eq!(checker.replay(witness.replay()).as_ref(), Ok(witness));
    assert!(report
        .to_string()
        .starts_with("Graph: reachable Done: `p` reached after 1 step (breadth-first search)"));
    // Nowhere: a failure after a complete search, not "verified".
    let nowhere = Graph::new(2, &[(0, Some(1))]).end(&[1]).reachable("Done");
    let report = Checker::new(nowhere).reachable("Done").run();
    assert_eq!(report.verdict(), Verdict::Unreachable);
    assert!(!report.is_verified());
    assert!(
        report.to_string().contains("reachable Done FAILED"),
        "{report}"
    );
    // Cut short: incomplete.
    let cut = Checker::new(graph).reachable("Done").max_states(1).run();
    assert_eq!(cut.incomplete_reason(), Some(IncompleteReason::StateLimit));
}

#[test]
fn partial_order_reduction_keeps_the_verdicts_with_fewer_states() {
    use crate::test_models::Counters;
    let full = Checker::new(Counters::new(3, 3, false)).run();
    full.assert_verified();
    assert_eq!(full.states(), 64);
    for (frontier, checker) in [
        (
            "depth-first",
            Checker::new(Counters::new(3, 3, false)).por(true),
        ),
        (
            "breadth-first",
            Checker::new(Counters::new(3, 3, false)).por(true).bfs(),
        ),
        (
            "parallel",
            Checker::new(Counters::new(3, 3, false))
                .por(true)
                .threads(2),
        ),
    ] {
        let report = checker.run();
        report.assert_verified();
        assert!(report.states() < 64, "{frontier}: {report}");
        assert!(report.plan().por && report.to_string().contains("partial-order reduction"));
    }
    // Depth-first, each counter runs to its end before the next: one state per step.
    let dfs = Checker::new(Counters::new(3, 3, false)).por(true).run();
    assert_eq!(dfs.states(), 10);
}

#[test]
fn the_ignoring_trap_is_found_in_every_frontier() {
    use crate::test_models::Counters;
    // Instance 0 counts, then loops where it stands (safe); instance 1 may fail at once.
    // Expanding instance 0 alone forever would never meet the failure: the provisos see
    // the loop close a cycle and expand everything there.
    for (frontier, checker) in [
        (
            "depth-first",
            Checker::new(Counters::new(2, 2, true)).por(true),
        ),
        (
            "breadth-first",
            Checker::new(Counters::new(2, 2, true)).por(true).bfs(),
        ),
        (
            "parallel",
            Checker::new(Counters::new(2, 2, true)).por(true).threads(2),
        ),
    ] {
        let report = checker.run();
        assert_eq!(
            report.verdict(),
            Verdict::Found(FindingKind::Assertion),
            "{frontier}: {report}"
        );
    }
}

#[test]
fn a_watched_search_publishes_its_counts_and_stops_when_cancelled() {
    let watch = Watch::new();
    let report = Checker::new(Philosophers::new(4, true))
        .progress(false)
        .watch(watch.clone())
        .run();
    report.assert_verified();
    // The last stretch of work may be published after the last look, never more.
    let progress = watch.progress();
    assert!(progress.states <= report.states(), "{progress:?}");
    for strategy in [Strategy::DepthFirst, Strategy::BreadthFirst] {
        let watch = Watch::new();
        watch.cancel();
        let mut checker = Checker::new(Philosophers::new(6, true))
            .progress(false)
            .watch(watch);
        if strategy == Strategy::BreadthFirst {
            checker = checker.bfs();
        }
        let report = checker.run();
        assert_eq!(report.verdict(), incomplete(IncompleteReason::Cancelled));
        assert!(report.states() < 1000, "{}", report.states());
    }
}
