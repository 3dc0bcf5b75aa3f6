//! The protocol run in one thread over several shards: the same counts, verdicts and
//! counterexamples as the sequential breadth-first search.

use super::*;
use crate::test_models::{Philosophers, SumToN};
use crate::{Checker, IncompleteReason, Verdict};

/// Runs the protocol of the module docs in one thread over `workers` shards.
fn search<M: Model + Clone>(checker: &Checker<M>, workers: usize) -> (Report, Vec<u64>) {
    let mut shards: Vec<Shard<M>> = (0..workers)
        .map(|w| checker.shard(w, workers).unwrap())
        .collect();
    let initial = checker.model().initial_state();
    let owner = shards[0].owner(&initial);
    let mut inbox: Vec<Vec<(M::State, Option<StateRef>)>> = vec![Vec::new(); workers];
    inbox[owner].push((initial, None));
    let mut depth = 0;
    while inbox.iter().any(|states| !states.is_empty()) {
        let mut next: Vec<Vec<(M::State, Option<StateRef>)>> = vec![Vec::new(); workers];
        let stop = shards.iter().any(|s| s.stopped_here());
        for (shard, states) in shards.iter_mut().zip(inbox) {
            if stop {
                shard.halt();
            }
            shard.receive(depth, states);
            shard.expand(depth, |owner, state, parent| {
                next[owner].push((state.clone(), Some(parent)));
            });
        }
        inbox = next;
        depth += 1;
    }
    let summaries: Vec<ShardSummary> = shards
        .iter()
        .map(|s| ShardSummary::from_words(&s.summary().to_words()).unwrap())
        .collect();
    let paths = shards[0]
        .traced_sites(&summaries)
        .iter()
        .map(|site| {
            let mut path: Vec<TransitionId> = site.step.into_iter().collect();
            let (mut at, mut child) = (Some(site.at), None);
            while let Some(here) = at {
                let hop = shards[here.owner as usize]
                    .hop(here.index, child.as_ref())
                    .unwrap();
                path.extend(hop.transition);
                child = Some(hop.state);
                at = hop.parent;
            }
            path.reverse();
            path
        })
        .collect::<Vec<_>>();
    let levels = (0..summaries.iter().map(|s| s.levels.len()).max().unwrap_or(0))
        .map(|d| {
            summaries
                .iter()
                .filter_map(|s| s.levels.get(d))
                .map(|l| l.states)
                .sum()
        })
        .collect();
    (shards[0].report(&summaries, &paths), levels)
}

#[test]
fn counts_are_those_of_the_sequential_search_on_any_number_of_workers() {
    for model in [Philosophers::new(5, false), Philosophers::new(5, true)] {
        let bfs = Checker::new(model.clone()).bfs().keep_going(0).run();
        for workers in [1, 2, 3, 4] {
            let checker = Checker::new(model.clone()).keep_going(0);
            let (report, levels) = search(&checker, workers);
            assert_eq!(
                (report.states(), report.transitions(), report.deadlocks()),
                (bfs.states(), bfs.transitions(), bfs.deadlocks())
            );
            assert_eq!(levels.iter().sum::<u64>(), bfs.states());
            assert_eq!(report.is_complete(), bfs.is_complete());
            assert_eq!(report.verdict(), bfs.verdict());
        }
    }
}

#[test]
fn counterexamples_are_shortest_and_replay() {
    for workers in [1, 2, 4] {
        let (report, _) = search(&Checker::new(Philosophers::two()), workers);
        assert_eq!(report.assert_deadlock().len(), 2);
        if workers == 1 {
            // One worker receives in the sequential search's order: the same trace.
            assert_eq!(report.assert_deadlock().replay(), "bir1:0.4");
        }
        let (report, _) = search(&Checker::new(SumToN), workers);
        assert_eq!(report.verdict(), Verdict::Found(FindingKind::Assertion));
        assert_eq!(report.assert_assertion_failure().len(), 4);
        let all = Checker::new(SumToN).keep_going(3);
        let (report, _) = search(&all, workers);
        assert_eq!((report.states(), report.transitions()), (15_276, 38_174));
        assert_eq!((report.errors(), report.deadlocks()), (42, 1));
        assert_eq!(report.findings().len(), 3);
    }
}

#[test]
fn a_state_limit_never_verifies() {
    let checker = Checker::new(Philosophers::new(5, true)).max_states(50);
    let (report, _) = search(&checker, 2);
    assert_eq!(
        report.verdict(),
        Verdict::Incomplete {
            reason: IncompleteReason::StateLimit
        }
    );
}

#[test]
fn what_the_workers_cannot_share_is_refused() {
    let model = Philosophers::new(3, true);
    for (checker, what) in [
        (Checker::new(model.clone()).por(true), "partial-order"),
        (Checker::new(model.clone()).symmetry(true), "symmetry"),
        (Checker::new(model.clone()).threads(2), "threads"),
    ] {
        let error = checker.shard(0, 2).err().expect("refused").to_string();
        assert!(error.contains(what), "{error}");
    }
    assert!(Checker::new(model).shard(2, 2).is_err());
}

#[test]
fn summaries_survive_their_words() {
    let summary = ShardSummary {
        worker: 3,
        states: 10,
        levels: vec![LevelCounts {
            states: 1,
            transitions: 2,
        }],
        kinds: vec![FindingKind::Range, FindingKind::Deadlock],
        limit: Some(IncompleteReason::TimeLimit),
        sites: vec![Site {
            kind: FindingKind::Range,
            length: 4,
            at: StateRef { owner: 3, index: 9 },
            step: Some(7),
        }],
        fired: (0..70).map(|i| i % 3 == 0).collect(),
        ..ShardSummary::default()
    };
    assert_eq!(
        ShardSummary::from_words(&summary.to_words()),
        Some(summary.clone())
    );
    assert_eq!(ShardSummary::from_words(&summary.to_words()[..5]), None);
}
