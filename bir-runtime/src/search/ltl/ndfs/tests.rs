//! The nested search on hand-made graphs and the reference models: verdicts, lassos,
//! counts and storage.

use crate::test_models::{
    Graph, NOT_INFINITELY_OFTEN_P, NOT_INFINITELY_OFTEN_P_NOT_WEAK, NOT_P_LEADS_TO_Q,
};
use crate::{Checker, FindingKind, IncompleteReason, Storage, Verdict};

#[test]
fn a_property_that_every_run_satisfies_holds() {
    // 0 -> 1 -> 2 -> 0: p (at 1) infinitely often on the only run.
    let ring = Graph::new(3, &[(0, Some(1)), (1, Some(2)), (2, Some(0))])
        .label(0, &[1])
        .ltl("InfinitelyOftenP", NOT_INFINITELY_OFTEN_P);
    let report = Checker::new(ring).ltl("InfinitelyOftenP").run();
    report.assert_holds();
    assert!(report.to_string().starts_with(
        "Graph: property InfinitelyOftenP holds: every run satisfies `InfinitelyOftenP` \
         (5 states of the product with the automaton explored; nested depth-first search, \
         no fairness)"
    ));
}

#[test]
fn a_violating_cycle_is_reported_as_a_lasso() {
    // 0 -> 1 -> 1 (p), 0 -> 2 -> 2 (never p): the run ending in 2's loop violates []<>p.
    let graph = Graph::new(3, &[(0, Some(1)), (1, Some(1)), (0, Some(2)), (2, Some(2))])
        .label(0, &[1])
        .ltl("InfinitelyOftenP", NOT_INFINITELY_OFTEN_P);
    let checker = Checker::new(graph).ltl("InfinitelyOftenP");
    let report = checker.run();
    assert_eq!(report.verdict(), Verdict::Found(FindingKind::Property));
    let lasso = report.assert_violated();
    // Into 2 with the automaton waiting, a step of 2's loop that guesses "never p from
    // here", then that loop forever.
    assert_eq!(lasso.cycle_start(), Some(2));
    assert_eq!(lasso.replay(), "bir1:2.3@3");
    assert_eq!(lasso.final_state(), &[2]);
    let text = report.to_string();
    assert!(text.contains("part 1, the stem (2 steps):"), "{text}");
    assert!(text.contains("cycle entry: T @ n2"), "{text}");
    assert!(
        text.contains("part 2, the cycle (1 step, back to the cycle entry, forever):"),
        "{text}"
    );
}

#[test]
fn a_run_that_ends_stutters_and_can_violate() {
    // 0 (p) -> 1, where nothing is enabled: the run repeats 1 forever, never p again.
    let graph = Graph::new(2, &[(0, Some(1))])
        .label(0, &[0])
        .ltl("InfinitelyOftenP", NOT_INFINITELY_OFTEN_P);
    let report = Checker::new(graph).ltl("InfinitelyOftenP").run();
    let lasso = report.assert_violated();
    assert_eq!(lasso.replay(), "bir1:0@_");
    assert!(report
        .to_string()
        .contains("(stutter: no transition is enabled"));
    // Deadlocks are no findings of an LTL check.
    assert_eq!(report.deadlocks(), 0);
}

#[test]
fn the_response_pattern_is_violated_by_a_request_never_answered() {
    // 0 -> 1 (p) -> 2 -> 2, q only at 3, which 1 may also reach.
    let graph = Graph::new(
        4,
        &[
            (0, Some(1)),
            (1, Some(3)),
            (3, Some(0)),
            (1, Some(2)),
            (2, Some(2)),
        ],
    )
    .label(0, &[1])
    .label(1, &[3])
    .ltl("Response", NOT_P_LEADS_TO_Q);
    let report = Checker::new(graph.clone()).ltl("Response").run();
    let lasso = report.assert_violated();
    assert_eq!(lasso.final_state(), &[2]);
    // Without the way into 2's loop, every request is answered.
    let answered = Graph::new(4, &[(0, Some(1)), (1, Some(3)), (3, Some(0))])
        .label(0, &[1])
        .label(1, &[3])
        .ltl("Response", NOT_P_LEADS_TO_Q);
    Checker::new(answered).ltl("Response").run().assert_holds();
}

#[test]
fn one_coloured_table_separate_sets_and_compact_sets_find_the_same() {
    let graphs = [
        Graph::new(3, &[(0, Some(1)), (1, Some(2)), (2, Some(0))]).label(0, &[1]),
        Graph::new(3, &[(0, Some(1)), (1, Some(1)), (0, Some(2)), (2, Some(2))]).label(0, &[1]),
        Graph::new(2, &[(0, Some(1))]).label(0, &[0]),
        Graph::new(2, &[(0, Some(1)), (1, None), (1, Some(0))]).label(0, &[1]),
    ];
    // The second automaton is not weak: its red searches run too.
    let automata = [NOT_INFINITELY_OFTEN_P, NOT_INFINITELY_OFTEN_P_NOT_WEAK];
    for (graph, automaton) in graphs
        .into_iter()
        .flat_map(|g| automata.map(|a| (g.clone(), a)))
    {
        let graph = graph.ltl("InfinitelyOftenP", automaton);
        let separate = Checker::new(graph.clone()).ltl("InfinitelyOftenP").run();
        let coloured = Checker::new(graph.clone().with_words())
            .ltl("InfinitelyOftenP")
            .run();
        // Compact storage of product states as words: blue and red in quotient
        // tables, cyan in a set of the stack's words; of product states written as
        // words: trees. Exact, so it may say holds.
        let compact = |graph: Graph, layout: &str| {
            let checker = Checker::new(graph)
                .ltl("InfinitelyOftenP")
                .storage(Storage::Compact);
            let plan = checker.plan().expect("a plan");
            assert_eq!(plan.storage, Storage::Compact);
            assert!(plan.layout.starts_with(layout), "{}", plan.layout);
            checker.run()
        };
        let trees = compact(graph.clone().with_written_words(), "trees");
        let compact = compact(graph.with_words(), "remainders");
        let facts = |report: &crate::Report| {
            (
                report.verdict(),
                report.states(),
                report.transitions(),
                report.first_finding().map(|c| c.replay().to_owned()),
            )
        };
        assert_eq!(facts(&coloured), facts(&separate));
        assert_eq!(facts(&compact), facts(&separate));
        assert_eq!(facts(&trees), facts(&separate));
    }
}

#[test]
fn a_new_state_not_searched_from_is_not_left_cyan() {
    // The coloured table stores a new state cyan: one that the blue search stores but
    // does not push (it violates the invariant, or lies at the depth limit) must be
    // cyan no longer, or a red search reaching it would take it for the stack and stop
    // there. Here 0 -> 1 (p) -> 0 and 0 -> 2 -> 0, 2 bad: the red search from 0 goes
    // through 2, and the coloured table must find what the separate sets find.
    // With the automaton not weak, so that the red search runs.
    let graph = Graph::new(3, &[(0, Some(1)), (1, Some(0)), (0, Some(2)), (2, Some(0))])
        .label(0, &[1])
        .bad(&[2])
        .ltl("InfinitelyOftenP", NOT_INFINITELY_OFTEN_P_NOT_WEAK);
    let checks: [fn(Graph) -> crate::Checker<Graph>; 2] = [
        |graph| Checker::new(graph).ltl("InfinitelyOftenP").keep_going(5),
        |graph| Checker::new(graph).ltl("InfinitelyOftenP").max_depth(1),
    ];
    for check in checks {
        let separate = check(graph.clone()).run();
        let coloured = check(graph.clone().with_words()).run();
        let compact = check(graph.clone().with_words())
            .storage(Storage::Compact)
            .run();
        let trees = check(graph.clone().with_written_words())
            .storage(Storage::Compact)
            .run();
        let facts = |report: &crate::Report| {
            let replays: Vec<String> = report
                .findings()
                .iter()
                .map(|c| c.replay().to_owned())
                .collect();
            (
                report.verdict(),
                report.states(),
                report.transitions(),
                replays,
            )
        };
        assert_eq!(facts(&coloured), facts(&separate));
        assert_eq!(facts(&compact), facts(&separate));
        assert_eq!(facts(&trees), facts(&separate));
    }
}

#[test]
fn a_weak_automaton_needs_no_red_search() {
    // 0 -> 1 -> 2 -> 0, p at 1: every state of the product with the weak automaton is
    // expanded once; the automaton of the same language that is not weak has red
    // searches go round the ring again. Both hold, and both find the violation when p
    // is nowhere.
    let ring = Graph::new(3, &[(0, Some(1)), (1, Some(2)), (2, Some(0))]);
    let check = |graph: Graph| Checker::new(graph).ltl("InfinitelyOftenP").run();
    let weak = check(
        ring.clone()
            .label(0, &[1])
            .ltl("InfinitelyOftenP", NOT_INFINITELY_OFTEN_P),
    );
    let nested = check(
        ring.clone()
            .label(0, &[1])
            .ltl("InfinitelyOftenP", NOT_INFINITELY_OFTEN_P_NOT_WEAK),
    );
    weak.assert_holds();
    nested.assert_holds();
    assert!(
        weak.transitions() < nested.transitions(),
        "{weak}\n{nested}"
    );
    for automaton in [NOT_INFINITELY_OFTEN_P, NOT_INFINITELY_OFTEN_P_NOT_WEAK] {
        let never = check(ring.clone().ltl("InfinitelyOftenP", automaton));
        assert_eq!(never.verdict(), Verdict::Found(FindingKind::Property));
    }
}

#[test]
fn errors_on_the_way_are_findings_and_lossy_searches_never_hold() {
    let faulty = Graph::new(2, &[(0, Some(1)), (1, None), (1, Some(0))])
        .label(0, &[1])
        .ltl("InfinitelyOftenP", NOT_INFINITELY_OFTEN_P);
    let report = Checker::new(faulty).ltl("InfinitelyOftenP").run();
    assert_eq!(report.verdict(), Verdict::Found(FindingKind::Assertion));
    assert_eq!(report.assert_assertion_failure().replay(), "bir1:0.1");
    let ring = || {
        Graph::new(3, &[(0, Some(1)), (1, Some(2)), (2, Some(0))])
            .label(0, &[1])
            .ltl("InfinitelyOftenP", NOT_INFINITELY_OFTEN_P)
    };
    for checker in [
        Checker::new(ring())
            .ltl("InfinitelyOftenP")
            .hash_compaction(),
        Checker::new(ring()).ltl("InfinitelyOftenP").bitstate(16, 2),
    ] {
        let report = checker.run();
        assert!(
            matches!(
                report.verdict(),
                Verdict::Incomplete {
                    reason: IncompleteReason::HashCompaction | IncompleteReason::Bitstate
                }
            ),
            "{report}"
        );
    }
    let cut = Checker::new(ring())
        .ltl("InfinitelyOftenP")
        .max_states(2)
        .run();
    assert_eq!(cut.incomplete_reason(), Some(IncompleteReason::StateLimit));
}

#[test]
fn unknown_properties_and_impossible_combinations_are_refused() {
    let ring = Graph::new(1, &[(0, Some(0))]).ltl("P", NOT_INFINITELY_OFTEN_P);
    let error = Checker::new(ring.clone()).ltl("Q").plan().unwrap_err();
    assert_eq!(
        error.to_string(),
        "the model declares no `ltl` property named `Q` (it declares P)"
    );
    assert!(Checker::new(ring.clone()).ltl("P").bfs().plan().is_err());
    assert!(Checker::new(ring.clone())
        .ltl("P")
        .threads(2)
        .plan()
        .is_err());
    assert!(Checker::new(ring.clone()).reachable("P").plan().is_err());
    assert!(Checker::new(ring).weak_fairness().plan().is_err());
}
