//! Best-first search, and the seed's depth-first search with each state's successors
//! ordered by a heuristic: the same frontier, an open list of stored states keyed by their
//! heuristic value (lower first) and a tie-break (the order they were generated in).
//!
//! Best-first takes the state of lowest key among all those stored and not yet expanded
//! (`open`: buckets per value, and a heap); ordered depth-first pushes each expansion's
//! new states on a stack, sorted so that the lowest is expanded next (a depth-first search that stores a state
//! when it is generated, as breadth-first does, rather than when it is entered). Both store
//! every new state in the seen set of the plan at once, check it as every search does
//! (the one [`Stepper`]), and keep a link per stored state (its parent's number and the
//! transition from it: 8 bytes) from which the path to a finding is read back. A search
//! that completes has expanded every reachable state once: its counts and verdict are
//! those of depth-first search.

use std::mem::size_of;

use crate::model::{Model, Outcome, Successor, TransitionId};
use crate::plan::Storage;
use crate::report::Report;
use crate::store::{FlatStates, Footprint, Keying, StateIndex, StateTable, Store, WordTable};
use crate::verdict::{IncompleteReason, Strategy};

use crate::plan::heuristic::Resolved;
use crate::search::core::{Role, Run, Stepper, Visit};
use crate::search::heuristic::Scorer;

use super::bfs::linked_path;
use super::open::{Entry, Open};

/// Which state the frontier expands next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Order {
    /// The stored state of lowest key.
    BestFirst,
    /// The new state of lowest key among the last expansion's, depth first.
    DepthFirst,
}

/// Runs a best-first or ordered depth-first search (as the plan's strategy says) with the
/// seen set the plan asks for.
pub(crate) fn run<M: Model>(run: Run<'_, M>) -> Report {
    match (run.plan.storage, run.keying) {
        (Storage::Bitstate { log2_bits, hashes }, _) => {
            let bits = run.control.allocate_bitstate(log2_bits, hashes);
            search(run, bits)
        }
        (_, Keying::Word) => search(run, WordTable::new(0, false)),
        (_, Keying::Fingerprint) => search(run, WordTable::new(0, true)),
        (_, Keying::State) if run.held_apart == 0 => search(run, FlatStates::new()),
        (_, Keying::State) => {
            let table = StateTable::new().holding_apart(run.held_apart);
            search(run, table)
        }
    }
}

/// The search over a seen set.
fn search<M: Model, T: Store<M::State> + Footprint>(run: Run<'_, M>, mut seen: T) -> Report {
    let order = match run.plan.strategy {
        Strategy::OrderedDepthFirst => Order::DepthFirst,
        _ => Order::BestFirst,
    };
    let heuristic = match Resolved::new(run.model, &run.options.ordering()) {
        Ok(heuristic) => heuristic,
        Err(error) => unreachable!("the plan resolved the heuristic: {error}"),
    };
    let mut stepper = run.stepper(Role::Alone);
    let scorer = Scorer::new(run.model, heuristic, None);
    let links_bytes = explore(&mut stepper, scorer, order, &mut seen);
    stepper.finish(run.plan, &seen, links_bytes)
}

/// Explores from the initial state in `order`, keyed by `scorer`, until the open list is
/// empty or the search stops; returns the bytes of the links it kept beside the seen set.
pub(crate) fn explore<M: Model>(
    stepper: &mut Stepper<'_, M>,
    mut scorer: Scorer<'_, M>,
    order: Order,
    seen: &mut impl Store<M::State>,
) -> usize {
    // Each stored state's parent number and the transition from it, by state number.
    let mut links: Vec<(StateIndex, TransitionId)> = Vec::new();
    let mut open = match (order, scorer.random_seed()) {
        (Order::DepthFirst, _) => Open::Stack(Vec::new()),
        (Order::BestFirst, Some(seed)) => Open::bag(seed),
        (Order::BestFirst, None) if scorer.grows_by_transition() => Open::runs(),
        (Order::BestFirst, None) => Open::queue(scorer.ties_by_queuing()),
    };
    if let Some(initial) = stepper.start(seen) {
        links.push((StateIndex::MAX, TransitionId::MAX));
        open.start(Entry {
            key: (0, 0),
            state: initial,
            number: 0,
            depth: 0,
            via: TransitionId::MAX,
        });
    }
    let mut arena: Vec<Successor<M::State>> = Vec::new();
    let mut batch: Vec<Entry<M::State>> = Vec::new();
    while !stepper.is_stopped() {
        let Some(entry) = open.pop() else { break };
        arena.clear();
        if !stepper.expand(&entry.state, entry.depth, &mut arena, &mut |out| {
            linked_path(&links, entry.number, out)
        }) {
            continue;
        }
        if !stepper.reserve(&mut links, arena.len()) || !open.reserve(stepper, arena.len()) {
            break;
        }
        stepper.prefetch(&arena, seen);
        scorer.fired(&arena);
        for successor in &arena {
            let transition = successor.transition;
            let visit = stepper.visit(entry.depth, successor, seen);
            let number = links.len();
            if matches!(visit, Visit::New | Visit::Violating(_)) {
                if number > StateIndex::MAX as usize - 1 {
                    stepper.hit_limit(IncompleteReason::StateLimit);
                    break;
                }
                links.push((entry.number, transition));
            }
            match (visit, &successor.outcome) {
                (Visit::New, Outcome::Next(next)) => batch.push(Entry {
                    key: scorer.key(entry.via, transition, next),
                    state: next.clone(),
                    number: number as StateIndex,
                    depth: entry.depth + 1,
                    via: transition,
                }),
                (Visit::Violating(kind) | Visit::Fault(kind), _) => {
                    stepper.record(kind, &mut |out| {
                        linked_path(&links, entry.number, out);
                        out.push(transition);
                    });
                    if stepper.is_stopped() {
                        break;
                    }
                }
                (Visit::Stopped, _) => break,
                _ => {}
            }
        }
        open.add(&mut batch);
    }
    stepper.tally.notes.extend(scorer.take_note());
    links.capacity() * size_of::<(StateIndex, TransitionId)>()
}

#[cfg(test)]
mod tests {
    use crate::test_models::{Needle, Philosophers, ReadersWriters, SumToN};
    use crate::{
        Checker, ConfigError, FindingKind, Heuristic, IncompleteReason, Model, Report, Strategy,
        Verdict,
    };

    /// Every built-in heuristic (choosing the thread or instance `chosen` first), and a
    /// closure.
    fn heuristics(chosen: &str) -> Vec<Heuristic> {
        vec![
            Heuristic::Coverage,
            Heuristic::Switching,
            Heuristic::Threads(vec![chosen.into()]),
            Heuristic::Blocked,
            Heuristic::Random(7),
            Heuristic::custom(|state| -state.values().iter().sum::<i64>()),
        ]
    }

    /// Both heuristic searches of `checker` by `heuristic`.
    fn both<M: Model + Clone>(checker: &Checker<M>, heuristic: &Heuristic) -> [Checker<M>; 2] {
        [
            checker.clone().best_first(heuristic.clone()),
            checker.clone().order_by(heuristic.clone()),
        ]
    }

    /// The first counterexample of `report` replays to itself on `checker`.
    fn replays<M: Model>(checker: &Checker<M>, report: &Report) {
        let found = report.first_finding().expect("a finding");
        assert_eq!(checker.replay(found.replay()).as_ref(), Ok(found));
    }

    #[test]
    fn a_complete_search_has_the_counts_and_verdict_of_depth_first_search() {
        for n in 2..=5 {
            for fixed in [false, true] {
                let checker = Checker::new(Philosophers::new(n, fixed)).keep_going(1);
                let dfs = checker.run();
                for heuristic in heuristics("Philosopher[1]") {
                    for searched in both(&checker, &heuristic).map(|c| c.run()) {
                        let what = format!("{n} {fixed} {}", searched.plan().describe());
                        assert_eq!(searched.states(), dfs.states(), "{what}");
                        assert_eq!(searched.transitions(), dfs.transitions(), "{what}");
                        assert_eq!(searched.deadlocks(), dfs.deadlocks(), "{what}");
                        assert_eq!(searched.verdict(), dfs.verdict(), "{what}");
                        assert!(searched.is_complete(), "{what}");
                    }
                }
            }
        }
        let sum = Checker::new(SumToN).keep_going(3);
        for searched in both(&sum, &Heuristic::Coverage).map(|c| c.run()) {
            assert_eq!(
                (searched.states(), searched.transitions()),
                (15_276, 38_174)
            );
            assert_eq!((searched.errors(), searched.deadlocks()), (42, 1));
        }
        for searched in both(&ReadersWriters::new(false).checker(), &Heuristic::Blocked) {
            let report = searched.run();
            report.assert_verified();
            assert_eq!((report.states(), report.transitions()), (11, 21));
            assert!(report.coverage().is_some());
        }
    }

    #[test]
    fn every_heuristic_finds_the_seeded_bugs_with_real_paths() {
        fn finds<M: Model + Clone>(checker: Checker<M>, chosen: &str, kind: FindingKind) {
            for heuristic in heuristics(chosen) {
                for searched in both(&checker, &heuristic) {
                    let report = searched.run();
                    assert_eq!(report.verdict(), Verdict::Found(kind), "{heuristic:?}");
                    replays(&searched, &report);
                }
            }
        }
        let deadlock = FindingKind::Deadlock;
        finds(
            Checker::new(Philosophers::new(4, false)),
            "Philosopher[1]",
            deadlock,
        );
        finds(Checker::new(Philosophers::two()), "Philosopher2", deadlock);
        let rw = ReadersWriters::new(true).checker();
        finds(rw, "Writer", FindingKind::Invariant);
        finds(
            Checker::new(Needle::new(3, 5)),
            "N[2]",
            FindingKind::Assertion,
        );
    }

    #[test]
    fn the_models_heuristic_leads_to_the_needle() {
        let model = Needle::new(4, 9);
        let dfs = Checker::new(model.clone()).shortest(false).run();
        let best = Checker::new(model.clone())
            .best_first(Heuristic::Model("Distance".into()))
            .shortest(false)
            .run();
        assert_eq!(best.verdict(), Verdict::Found(FindingKind::Assertion));
        // Straight there: 4 x 8 steps, and the needle's state, each expansion storing at
        // most 4 new states.
        assert!(best.states() <= 1 + 4 * 33, "{}", best.states());
        assert!(dfs.states() > 8 * best.states(), "{}", dfs.states());
        assert_eq!(best.assert_assertion_failure().len(), 4 * 8 + 1);
        assert_eq!(best.plan().strategy, Strategy::BestFirst);
        assert!(best
            .to_string()
            .contains("best-first search by heuristic Distance"));
        // A closure over the state's values by name does as well.
        let closure = Checker::new(model)
            .best_first(Heuristic::custom(|state| {
                (0..4)
                    .map(|i| (state.get(&format!("N[{i}].c")).unwrap_or(0) - 8).abs())
                    .sum()
            }))
            .run();
        assert_eq!(closure.states(), best.states());
    }

    #[test]
    fn a_faulting_heuristic_puts_its_states_last_and_says_so_once() {
        let checker = Checker::new(Needle::new(2, 3)).keep_going(1);
        let dfs = checker.run();
        let report = checker.best_first(Heuristic::Model("Broken".into())).run();
        assert_eq!(
            (report.states(), report.errors()),
            (dfs.states(), dfs.errors())
        );
        let notes: Vec<_> = report
            .notes()
            .iter()
            .filter(|note| note.contains("the heuristic Broken faulted"))
            .collect();
        assert_eq!(notes.len(), 1, "{:?}", report.notes());
        assert!(notes[0].contains("division by zero"));
    }

    #[test]
    fn unknown_names_are_errors_that_list_the_choices() {
        let checker = Checker::new(Needle::new(2, 3));
        let error = checker
            .clone()
            .best_first(Heuristic::Model("Closest".into()))
            .try_run()
            .unwrap_err();
        assert!(matches!(error, ConfigError::UnknownHeuristic { .. }));
        let text = error.to_string();
        assert!(
            text.contains("`Closest`") && text.contains("Distance, Broken"),
            "{text}"
        );
        assert!(text.contains("coverage, switching"), "{text}");
        let error = checker
            .clone()
            .order_by(Heuristic::Threads(vec!["M".into()]))
            .plan()
            .unwrap_err();
        assert!(error.to_string().contains("N[0], N[1]"), "{error}");
        // A thread names all its instances.
        let plan = checker
            .order_by(Heuristic::Threads(vec!["N".into()]))
            .plan();
        assert!(plan.is_ok());
        let threads = Checker::new(Needle::new(2, 3))
            .best_first(Heuristic::Coverage)
            .threads(2)
            .plan();
        assert!(threads.unwrap_err().to_string().contains("swarm"));
    }

    #[test]
    fn a_cut_search_says_what_it_covered() {
        let checker = Checker::new(Philosophers::new(6, true));
        let cut = checker
            .clone()
            .best_first(Heuristic::Random(1))
            .max_states(100)
            .run();
        assert_eq!(cut.incomplete_reason(), Some(IncompleteReason::StateLimit));
        assert_eq!(cut.states(), 100);
        let shallow = checker
            .clone()
            .order_by(Heuristic::Coverage)
            .max_depth(3)
            .run();
        assert_eq!(
            shallow.incomplete_reason(),
            Some(IncompleteReason::DepthLimit)
        );
        let bits = checker
            .best_first(Heuristic::Switching)
            .bitstate(22, 3)
            .run();
        assert_eq!(bits.incomplete_reason(), Some(IncompleteReason::Bitstate));
        assert_eq!(bits.states(), 862);
        assert!(!bits.is_verified());
    }

    #[test]
    fn heuristics_parse_as_the_command_line_writes_them() {
        let parse = |text: &str| text.parse::<Heuristic>();
        assert_eq!(parse("coverage"), Ok(Heuristic::Coverage));
        assert_eq!(parse("switching"), Ok(Heuristic::Switching));
        assert_eq!(parse("blocked"), Ok(Heuristic::Blocked));
        assert_eq!(parse("random"), Ok(Heuristic::Random(0)));
        assert_eq!(parse("random=42"), Ok(Heuristic::Random(42)));
        let threads = Heuristic::Threads(vec!["T1".into(), "T2[1]".into()]);
        assert_eq!(parse("threads=T1,T2[1]"), Ok(threads));
        assert_eq!(parse("Closest"), Ok(Heuristic::Model("Closest".into())));
        assert!(parse("random=x").unwrap_err().contains("seed"));
        assert!(parse("threads=").unwrap_err().contains("names no thread"));
        assert!(parse("nope=3").unwrap_err().contains("coverage, switching"));
        for heuristic in heuristics("T").into_iter().take(5) {
            assert_eq!(parse(&heuristic.name()), Ok(heuristic));
        }
    }
}
