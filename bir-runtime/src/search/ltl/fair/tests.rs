//! The search for fair cycles against brute force and on hand-made graphs.

use std::collections::HashSet;

use super::numbers::Numbered;
use super::oracle::ProductGraph;
use crate::model::Model;
use crate::search::control::Control;
use crate::search::core::Run;
use crate::search::ltl::product::Product;
use crate::store::{Footprint, Growth, Lookup, Store, WordTable};
use crate::test_models::{
    AutomatonTable, Graph, NEVER_P_THEN_SINK, NOT_INFINITELY_OFTEN_P,
    NOT_INFINITELY_OFTEN_P_NOT_WEAK, NOT_P_LEADS_TO_Q,
};
use crate::{Checker, Fairness, FindingKind, IncompleteReason, Storage, Verdict};

/// The automaton of `[]!p`, the negation of `<>p`.
const NEVER_P: AutomatonTable = &[(false, &[(1, 0, 1)]), (true, &[(1, 0, 1)])];

fn eventually_p(graph: Graph) -> Graph {
    graph.ltl("EventuallyP", NEVER_P)
}

#[test]
fn weak_fairness_excludes_an_instance_enabled_forever_and_never_stepping() {
    // T0 loops at 0 forever; T1 could go to 1 (p) all along.
    let graph = eventually_p(
        Graph::new(2, &[(0, Some(0)), (0, Some(1)), (1, Some(1))])
            .instances(&[0, 1, 1])
            .label(0, &[1]),
    );
    let unfair = Checker::new(graph.clone()).ltl("EventuallyP").run();
    assert_eq!(unfair.assert_violated().replay(), "bir1:@0");
    let weak = Checker::new(graph).ltl("EventuallyP").weak_fairness().run();
    weak.assert_holds();
    assert!(weak
        .to_string()
        .contains("search for fair cycles, weak fairness"));
}

#[test]
fn strong_fairness_excludes_an_instance_enabled_infinitely_often() {
    // 0 -T0-> 2 -T0-> 0 forever; T1 could go from 0 to 1 (p), but is disabled at 2.
    let graph = eventually_p(
        Graph::new(3, &[(0, Some(2)), (0, Some(1)), (2, Some(0)), (1, Some(1))])
            .instances(&[0, 1, 0, 1])
            .label(0, &[1]),
    );
    let weak = Checker::new(graph.clone())
        .ltl("EventuallyP")
        .weak_fairness()
        .run();
    let lasso = weak.assert_violated();
    assert!(lasso.message().ends_with("under weak fairness"), "{weak}");
    let strong = Checker::new(graph)
        .ltl("EventuallyP")
        .strong_fairness()
        .run();
    strong.assert_holds();
}

#[test]
fn a_stuttered_end_is_fair() {
    // 0 -T0-> 1, where nothing is enabled: under any fairness the run stays at 1.
    let graph = eventually_p(Graph::new(2, &[(0, Some(1))]).instances(&[0]));
    for checker in [
        Checker::new(graph.clone())
            .ltl("EventuallyP")
            .weak_fairness(),
        Checker::new(graph.clone())
            .ltl("EventuallyP")
            .strong_fairness(),
    ] {
        let report = checker.run();
        assert_eq!(report.assert_violated().replay(), "bir1:0@_", "{report}");
    }
}

#[test]
fn an_incomplete_or_lossy_search_never_holds() {
    // p infinitely often on the only run: holds, over more product states than the limits.
    let ring = || {
        Graph::new(4, &[(0, Some(1)), (1, Some(2)), (2, Some(3)), (3, Some(0))])
            .instances(&[0, 0, 0, 0])
            .label(0, &[3])
            .ltl("EventuallyP", NOT_INFINITELY_OFTEN_P)
    };
    for checker in [
        Checker::new(ring())
            .ltl("EventuallyP")
            .weak_fairness()
            .max_states(2),
        Checker::new(ring())
            .ltl("EventuallyP")
            .strong_fairness()
            .max_depth(1),
        Checker::new(ring())
            .ltl("EventuallyP")
            .weak_fairness()
            .hash_compaction(),
    ] {
        let report = checker.run();
        assert!(
            matches!(report.verdict(), Verdict::Incomplete { .. }),
            "{report}"
        );
    }
    Checker::new(ring())
        .ltl("EventuallyP")
        .weak_fairness()
        .run()
        .assert_holds();
}

#[test]
fn a_step_from_an_accepting_state_to_a_finished_rejecting_one_closes_no_cycle() {
    // 0 (!p) -> 1 (p), 0 -> 2 (!p) -> 1: the automaton is accepting while p is false and
    // leaves for its rejecting sink at 1, which the search finishes (leaving it marked cyan
    // in a table of coloured words: only accepting states are told cyan) before it steps
    // there again from 2, an accepting product state. No cycle stays where p is false.
    let graph = Graph::new(3, &[(0, Some(1)), (0, Some(2)), (2, Some(1)), (1, Some(1))])
        .label(0, &[1])
        .ltl("P", NEVER_P_THEN_SINK);
    for graph in [graph.clone(), graph.clone().with_words()] {
        Checker::new(graph.clone()).ltl("P").run().assert_holds();
        Checker::new(graph)
            .ltl("P")
            .storage(Storage::Compact)
            .run()
            .assert_holds();
    }
}

/// The splitmix64 generator, for random graphs.
struct Random(u64);

impl Random {
    fn below(&mut self, bound: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        (z ^ (z >> 31)) % bound
    }
}

/// Whether the product holds a fair accepting cycle, by brute force: some set of
/// reachable product states, strongly connected by its internal edges, holding an
/// accepting state, and fair (weak: every instance steps on an internal edge or is
/// disabled at one of its states; strong: every instance enabled at one of its states
/// steps on an internal edge). A closed walk through all its internal edges is then a
/// fair accepting cycle, and the states of any such cycle form such a set.
fn brute_force(product: &ProductGraph<u8>, fairness: Fairness) -> bool {
    let (states, edges) = (&product.states, &product.edges);
    assert!(states.len() <= 16, "{}", states.len());
    (1u32..1 << states.len()).any(|set| {
        let inside = |i: usize| set & (1 << i) != 0;
        let members: Vec<usize> = (0..states.len()).filter(|&i| inside(i)).collect();
        // Strongly connected through internal edges, with at least one edge.
        let reach = |from: usize, forward: bool| {
            let mut seen = vec![false; states.len()];
            let mut work = vec![from];
            while let Some(i) = work.pop() {
                for (u, list) in edges.iter().enumerate() {
                    for &(_, v) in list {
                        let (at, other) = if forward { (u, v) } else { (v, u) };
                        if at == i && inside(u) && inside(v) && !seen[other] {
                            seen[other] = true;
                            work.push(other);
                        }
                    }
                }
            }
            seen
        };
        let from = members[0];
        let (forward, backward) = (reach(from, true), reach(from, false));
        if !members.iter().all(|&m| forward[m] && backward[m]) {
            return false;
        }
        let internal: Vec<(usize, u32)> = members
            .iter()
            .flat_map(|&i| {
                edges[i]
                    .iter()
                    .filter(|(_, k)| inside(*k))
                    .map(move |&(t, _)| (i, t))
            })
            .collect();
        if internal.is_empty() || !members.iter().any(|&i| product.accepting[i]) {
            return false;
        }
        let steps: HashSet<u32> = internal
            .iter()
            .flat_map(|&(_, t)| product.instances_of(t))
            .collect();
        let enabled = &product.enabled;
        product.instances.iter().all(|instance| match fairness {
            Fairness::Weak => {
                steps.contains(instance) || members.iter().any(|&i| !enabled[i].contains(instance))
            }
            Fairness::Strong => {
                steps.contains(instance) || members.iter().all(|&i| !enabled[i].contains(instance))
            }
            _ => true,
        })
    })
}

#[test]
fn product_states_come_back_from_their_words_when_the_model_reads_its_words() {
    let graph = eventually_p(Graph::new(2, &[(0, Some(1)), (1, Some(0))]));
    let plain = graph.clone().with_words();
    assert!(!Product::new(&plain, 0).words_give_states_back());
    let readable = graph.with_words().with_written_words();
    let product = Product::new(&readable, 0);
    assert!(product.words_give_states_back());
    for state in [(0, 0), (1, 1), (1, 0)] {
        let word = product.state_word(&state);
        assert_eq!(word.and_then(|w| product.state_from_word(w)), Some(state));
    }
}

#[test]
fn every_fairness_agrees_with_a_brute_force_search_on_small_graphs() {
    // The oracle answers as brute force does on every graph brute force can take.
    searches_agree_on_random_graphs(11, 600, 4, |product, fairness| {
        let expected = brute_force(product, fairness);
        assert_eq!(product.has_fair_accepting_cycle(fairness), expected);
        expected
    });
}

#[test]
fn every_fairness_agrees_with_a_decomposition_into_components_on_larger_graphs() {
    searches_agree_on_random_graphs(23, 400, 24, ProductGraph::has_fair_accepting_cycle);
}

/// Checks each property of `cases` random graphs of up to `max_nodes` nodes (and three
/// instances) without fairness, under weak and under strong fairness, and compares the
/// verdicts with `expected`; a violation's lasso must replay. BIR_FAIR_SEED and
/// BIR_FAIR_CASES explore further (the defaults run in CI).
fn searches_agree_on_random_graphs(
    seed: u64,
    cases: usize,
    max_nodes: u8,
    expected: impl Fn(&ProductGraph<u8>, Fairness) -> bool,
) {
    // The last automaton is not weak: without fairness, its products need red searches.
    let automata = [
        NOT_INFINITELY_OFTEN_P,
        NOT_P_LEADS_TO_Q,
        NEVER_P,
        NEVER_P_THEN_SINK,
        NOT_INFINITELY_OFTEN_P_NOT_WEAK,
    ];
    let seed = std::env::var("BIR_FAIR_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(seed);
    let cases = std::env::var("BIR_FAIR_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(cases);
    let mut random = Random(seed);
    let mut violated = [0; 3];
    for case in 0..cases {
        let nodes = 1 + random.below(u64::from(max_nodes)) as u8;
        let mut edges = Vec::new();
        let mut instances = Vec::new();
        for from in 0..nodes {
            for _ in 0..random.below(3) {
                edges.push((from, Some(random.below(u64::from(nodes)) as u8)));
                instances.push(random.below(3) as u32);
            }
        }
        let mut graph = Graph::new(nodes, &edges).instances(&instances);
        for node in 0..nodes {
            let labels = random.below(4);
            if labels & 1 != 0 {
                graph = graph.label(0, &[node]);
            }
            if labels & 2 != 0 {
                graph = graph.label(1, &[node]);
            }
        }
        let graph = graph.ltl("P", automata[case % automata.len()]);
        let product = ProductGraph::new(&graph, 0, usize::MAX).expect("graphs hold no faults");
        // Two rounds of the automata in three key the product states by word: the numbers
        // of the live states are then in the seen table's slots, not in a map beside it;
        // in the third the words also give the states back, and the live states are kept
        // as words.
        let searched = match (case / automata.len()) % 3 {
            0 => graph.clone(),
            1 => graph.clone().with_words(),
            _ => graph.clone().with_words().with_written_words(),
        };
        for (slot, fairness) in [Fairness::None, Fairness::Weak, Fairness::Strong]
            .into_iter()
            .enumerate()
        {
            let expected = expected(&product, fairness);
            let checker = Checker::new(searched.clone()).ltl("P");
            let checker = match fairness {
                Fairness::Weak => checker.weak_fairness(),
                Fairness::Strong => checker.strong_fairness(),
                _ => checker,
            };
            let report = checker.run();
            let found = report.verdict() == Verdict::Found(FindingKind::Property);
            assert_eq!(
                found, expected,
                "case {case}, {fairness}: {graph:?}\n{report}"
            );
            if fairness == Fairness::None {
                // The nested search with compact storage keeps its cyan states in a set of
                // their own (of the accepting ones only, when the automaton is weak).
                let compact = Checker::new(searched.clone())
                    .ltl("P")
                    .storage(Storage::Compact)
                    .run();
                assert_eq!(
                    compact.verdict(),
                    report.verdict(),
                    "case {case}, compact: {graph:?}\n{compact}"
                );
            }
            if found {
                violated[slot] += 1;
                // The lasso replays to itself through the checker.
                let lasso = report.assert_violated();
                assert_eq!(
                    checker.replay(lasso.replay()).as_ref(),
                    Ok(lasso),
                    "{report}"
                );
            } else {
                report.assert_holds();
            }
        }
    }
    // Enough of both outcomes under each fairness for the comparison to mean something.
    assert!(
        violated
            .iter()
            .all(|&v| v > cases / 10 && v < cases * 9 / 10),
        "{violated:?}"
    );
}

/// A numbered word table whose numbers move out of its words at the third live state, into
/// arrays larger than any memory limit.
struct Cramped(WordTable);

impl<S> Store<S> for Cramped {
    fn insert(&mut self, state: &S, key: Option<u64>) -> Lookup {
        Store::<S>::insert(&mut self.0, state, key)
    }

    fn grow(&mut self, growth: Growth) {
        Store::<S>::grow(&mut self.0, growth);
    }

    fn contains(&mut self, state: &S, key: Option<u64>) -> bool {
        Store::<S>::contains(&mut self.0, state, key)
    }
}

impl Footprint for Cramped {
    fn bytes(&self) -> usize {
        self.0.bytes()
    }
}

impl<S> Numbered<S> for Cramped {
    fn live(&self, mark: Option<u32>, state: &S, key: Option<u64>) -> Option<u32> {
        Numbered::<S>::live(&self.0, mark, state, key)
    }

    fn set_live(&mut self, state: &S, key: Option<u64>, number: u32) {
        Numbered::<S>::set_live(&mut self.0, state, key, number);
    }

    fn spill_bytes(&self, number: u32) -> Option<usize> {
        (number > 2).then_some(usize::MAX / 4)
    }
}

#[test]
fn numbers_that_cannot_move_out_of_the_words_stop_the_search_incomplete() {
    // Four states on one cycle, all live at once: the third needs the arrays.
    let ring = Graph::new(4, &[(0, Some(1)), (1, Some(2)), (2, Some(3)), (3, Some(0))])
        .instances(&[0, 0, 0, 0])
        .label(0, &[3])
        .ltl("EventuallyP", NOT_INFINITELY_OFTEN_P)
        .with_words();
    for fairness in [Fairness::Weak, Fairness::Strong] {
        let checker = Checker::new(ring.clone()).ltl("EventuallyP");
        let checker = match fairness {
            Fairness::Weak => checker.weak_fairness(),
            _ => checker.strong_fairness(),
        };
        let plan = checker.plan().expect("a plan");
        let options = crate::search::with_default_memory_limit(&checker.options);
        let control = Control::new("ring", &options, 1);
        let run = Run::new(&ring, &options, &control, plan);
        let product = Product::new(&ring, 0);
        let table = Cramped(WordTable::numbered(false, product.state_word_bits()));
        let report = super::search(run.over_product(&product), 0, fairness, table);
        assert_eq!(
            report.verdict(),
            Verdict::Incomplete {
                reason: IncompleteReason::MemoryLimit
            },
            "{report}"
        );
        assert_eq!(report.states(), 3, "{report}");
    }
}
