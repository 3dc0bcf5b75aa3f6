use std::time::{Duration, Instant};

use crate::test_models::{Needle, Philosophers, ReadersWriters};
use crate::{Checker, FindingKind, Heuristic, IncompleteReason, Storage, Strategy, Verdict};

#[test]
fn a_swarm_finds_the_seeded_bugs_and_its_counterexamples_replay() {
    let philosophers = Checker::new(Philosophers::new(5, false))
        .swarm(4)
        .threads(2);
    let report = philosophers.run();
    assert_eq!(report.verdict(), Verdict::Found(FindingKind::Deadlock));
    let deadlock = report.assert_deadlock();
    assert_eq!(
        philosophers.replay(deadlock.replay()).as_ref(),
        Ok(deadlock)
    );
    assert_eq!(report.plan().strategy, Strategy::Swarm);
    assert_eq!(report.swarm_searches().len(), 4);
    let rw = ReadersWriters::new(true).checker().swarm(3);
    let report = rw.run();
    let violation = report.assert_invariant_violation();
    assert_eq!(rw.replay(violation.replay()).as_ref(), Ok(violation));
    let needle = Checker::new(Needle::new(3, 6)).swarm(2).hash_compaction();
    let report = needle.run();
    let fault = report.assert_assertion_failure();
    assert_eq!(needle.replay(fault.replay()).as_ref(), Ok(fault));
}

#[test]
fn a_swarm_never_says_verified_and_says_what_each_search_covered() {
    let report = Checker::new(Philosophers::new(5, true))
        .swarm(3)
        .threads(3)
        .run();
    assert_eq!(report.incomplete_reason(), Some(IncompleteReason::Bitstate));
    assert!(!report.is_verified());
    let searches = report.swarm_searches();
    assert_eq!(searches.len(), 3);
    for search in searches {
        // Each search covers the whole space (261 states) in its own bit array.
        assert!(search.ran && search.states == 261, "{search:?}");
        assert_eq!(search.found, None);
    }
    assert_eq!(report.states(), 3 * 261);
    assert!(searches[0]
        .search
        .starts_with("ordered depth-first search by random"));
    assert!(searches[1]
        .search
        .starts_with("best-first search by random"));
    assert!(searches[2]
        .search
        .starts_with("ordered depth-first search by branch"));
    let text = report.to_string();
    assert!(
        text.contains("swarm search, 3 searches, 3 threads, bitstate"),
        "{text}"
    );
    assert!(text.contains("swarm search #2: ordered depth-first search by branch"));
    assert!(text.contains("not verified"), "{text}");
    // Fingerprints instead, of words: still never verified.
    let hashed = Checker::new(Philosophers::new(3, true))
        .swarm(2)
        .hash_compaction()
        .run();
    assert_eq!(hashed.plan().storage, Storage::HashCompaction);
    assert!(!hashed.is_verified());
    assert!(!hashed.plan().can_verify());
}

#[test]
fn the_first_bug_stops_every_search_of_the_swarm() {
    // 16^6 states: no search covers them in the test's time. The user's heuristic, a
    // slow one (it sleeps) that leads away from the needle, orders the first two
    // searches; the third, in a random order of its own, finds the needle, and its
    // finding stops the other two.
    let model = Needle::new(6, 15);
    let astray = Heuristic::custom(|state| {
        std::thread::sleep(Duration::from_millis(1));
        -state.values().iter().map(|&c| (c - 14).abs()).sum::<i64>()
    });
    let started = Instant::now();
    let report = Checker::new(model)
        .best_first(astray)
        .swarm(3)
        .threads(3)
        .shortest(false)
        .run();
    assert!(started.elapsed() < Duration::from_secs(10));
    assert_eq!(report.verdict(), Verdict::Found(FindingKind::Assertion));
    let searches = report.swarm_searches();
    let finder = &searches[2];
    assert!(finder.search.contains("random"), "{finder:?}");
    assert_eq!(finder.found, Some(FindingKind::Assertion), "{finder:?}");
    for stopped in &searches[..2] {
        assert!(stopped.search.contains("custom heuristic"), "{stopped:?}");
        assert!(stopped.ran && stopped.found.is_none(), "{stopped:?}");
        // One state a millisecond at most, for as long as the finder took.
        let ms = started.elapsed().as_millis() as u64;
        assert!(stopped.states <= 16 * (ms + 1), "{stopped:?} in {ms} ms");
    }
    assert!(report
        .notes()
        .iter()
        .any(|note| note.contains("search #2 made the first finding")));
}

#[test]
fn a_swarm_shares_the_state_limit_and_refuses_what_it_cannot_run() {
    let report = Checker::new(Philosophers::new(6, true))
        .swarm(2)
        .threads(2)
        .max_states(300)
        .run();
    assert_eq!(
        report.incomplete_reason(),
        Some(IncompleteReason::StateLimit)
    );
    assert_eq!(report.states(), 300);
    let none = Checker::new(Philosophers::new(2, true)).swarm(0).plan();
    assert!(none.unwrap_err().to_string().contains("no searches"));
    let por = Checker::new(Philosophers::new(2, true))
        .swarm(2)
        .por(true)
        .plan();
    assert!(por.unwrap_err().to_string().contains("partial-order"));
    let big = Checker::new(Philosophers::new(2, true))
        .swarm(4)
        .bitstate(30, 3)
        .memory_limit(400 << 20)
        .plan();
    assert!(big.unwrap_err().to_string().contains("memory limit"));
    let across = Checker::new(Philosophers::new(2, true))
        .swarm(2)
        .shard(0, 2);
    assert!(across.is_err_and(|e| e.to_string().contains("across workers")));
    let best = Checker::new(Philosophers::new(2, true)).best_first(Heuristic::Coverage);
    assert!(best.shard(0, 2).is_err());
}
