use std::time::{Duration, Instant};

use crate::test_models::{Needle, Philosophers};
use crate::{Checker, FindingKind, Verdict};

use super::ShareResult;

/// Runs every share of `checker`'s swarm over `shares` workers one after the other, and
/// the report each of them writes from all the results.
fn run_shares<M: crate::Model + Clone>(checker: &Checker<M>, shares: usize) -> Vec<crate::Report> {
    let parts: Vec<_> = (0..shares)
        .map(|share| match checker.swarm_share(share, shares, 1) {
            Some(Ok(part)) => part,
            other => panic!("share {share}: {:?}", other.map(|r| r.err())),
        })
        .collect();
    let results: Vec<ShareResult> = parts
        .iter()
        .map(|part| {
            let words = part.run().to_words();
            ShareResult::from_words(&words).expect("the words of a result read back")
        })
        .collect();
    parts.iter().map(|part| part.report(&results)).collect()
}

#[test]
fn shares_of_a_swarm_find_the_bug_and_every_worker_writes_the_same_report() {
    let checker = Checker::new(Philosophers::new(5, false))
        .swarm(4)
        .progress(false);
    let reports = run_shares(&checker, 2);
    let first = &reports[0];
    assert_eq!(first.verdict(), Verdict::Found(FindingKind::Deadlock));
    let deadlock = first.assert_deadlock();
    assert_eq!(checker.replay(deadlock.replay()).as_ref(), Ok(deadlock));
    // The same report but for the clock and the memory, the last line's.
    let body = |report: &crate::Report| {
        let text = report.to_string();
        text.rsplit_once("\n\n").map(|(body, _)| body.to_string())
    };
    assert_eq!(body(first), body(&reports[1]));
    assert!(body(first).is_some());
    let searches = first.swarm_searches();
    assert_eq!(searches.len(), 4);
    assert!(first.plan().describe().contains("4 searches"), "{first}");
    assert!(first.plan().describe().contains("2 workers"), "{first}");
    assert!(first
        .notes()
        .iter()
        .any(|note| note.contains("search #i on worker i mod 2")));
}

#[test]
fn shares_of_a_bug_free_swarm_cover_every_search_and_never_say_verified() {
    let checker = Checker::new(Philosophers::new(5, true))
        .swarm(3)
        .progress(false);
    let reports = run_shares(&checker, 2);
    let report = &reports[0];
    assert!(!report.is_verified());
    let searches = report.swarm_searches();
    assert_eq!(searches.len(), 3);
    for search in searches {
        assert!(search.ran && search.states == 261, "{search:?}");
    }
    assert_eq!(report.states(), 3 * 261);
    // As the swarm on one machine counts them.
    let local = checker.clone().run();
    assert_eq!(local.states(), report.states());
    assert_eq!(local.transitions(), report.transitions());
}

#[test]
fn a_share_stops_when_told_of_a_finding_elsewhere_and_refuses_what_it_cannot_run() {
    // 16^6 states: the share would search for long.
    let checker = Checker::new(Needle::new(6, 15))
        .swarm(2)
        .threads(1)
        .progress(false);
    let share = match checker.swarm_share(1, 2, 1) {
        Some(Ok(share)) => share,
        other => panic!("{:?}", other.map(|r| r.err())),
    };
    let started = Instant::now();
    let result = std::thread::scope(|scope| {
        let running = scope.spawn(|| share.run());
        std::thread::sleep(Duration::from_millis(50));
        share.stop_at_finding();
        running.join().expect("the share's search ends")
    });
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(!result.stopped_at_finding());
    assert_eq!(result.share(), 1);
    assert!(Checker::new(Needle::new(2, 2))
        .swarm_share(0, 2, 1)
        .is_none());
    let beyond = checker.swarm_share(2, 2, 1);
    assert!(matches!(beyond, Some(Err(_))));
    let garbled = ShareResult::from_words(&[0, u64::MAX, 0, 1, 7]);
    assert_eq!(garbled, None);
}
