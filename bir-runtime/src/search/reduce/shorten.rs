//! Shorter counterexamples: after a search whose traces follow its own path (depth-first,
//! parallel, random walks), a breadth-first search to the same findings replaces each
//! trace with a shortest one.
//!
//! "The same finding" is the same kind at the same place: a fault at the same fault site,
//! the same invariant violated, a deadlock with the same instances blocked at the same
//! locations. The breadth-first search records only findings that match a trace still
//! wanted, each for the first wanted trace it matches, and stops once every trace has its
//! match; since it records findings in the order of their traces' lengths, each match is a
//! shortest one. It runs without partial-order reduction (which keeps deadlocks and errors
//! but not shortest paths), within the memory limit, the state limit, and a time budget
//! ([`time_budget`]); a trace it does not match in time is kept as it was, with a note.

use std::time::{Duration, Instant};

use crate::model::Model;
use crate::report::Report;
use crate::trace::Counterexample;
use crate::verdict::FindingKind;
use crate::verdict::Strategy;

use crate::plan::{self, Options};
use crate::search::control::Control;
use crate::search::core::Run;
use crate::search::frontier::bfs;

/// The least time a shortening search is given (unless a time limit leaves less).
const LEAST_BUDGET: Duration = Duration::from_secs(5);

/// The traces a shortening search looks for, and which of them it has matched.
#[derive(Debug)]
pub(crate) struct Wanted {
    traces: Vec<Counterexample>,
    matched: Vec<bool>,
}

impl Wanted {
    /// Looks for a shortest trace to each finding of `traces`.
    pub(crate) fn new(traces: Vec<Counterexample>) -> Wanted {
        let matched = vec![false; traces.len()];
        Wanted { traces, matched }
    }

    /// How many traces are looked for.
    pub(crate) fn len(&self) -> usize {
        self.traces.len()
    }

    /// True when some trace still wanted is of this kind (else a finding of the kind need
    /// not even be rebuilt).
    pub(crate) fn wants(&self, kind: FindingKind) -> bool {
        self.unmatched().any(|(_, trace)| trace.kind() == kind)
    }

    /// Takes `found` for a trace still wanted: the one it is (the same path: that trace is
    /// already as short as the breadth-first search makes it), else the first of the same
    /// finding. Returns the trace's index, or `None` when `found` matches none.
    pub(crate) fn offer(&mut self, found: &Counterexample) -> Option<usize> {
        let itself = self
            .unmatched()
            .find(|(_, trace)| trace.replay() == found.replay());
        let index = match itself {
            Some((index, _)) => index,
            None => {
                self.unmatched()
                    .find(|(_, trace)| same_finding(trace, found))?
                    .0
            }
        };
        self.matched[index] = true;
        Some(index)
    }

    /// True once every trace has its match.
    pub(crate) fn is_done(&self) -> bool {
        self.matched.iter().all(|&m| m)
    }

    fn unmatched(&self) -> impl Iterator<Item = (usize, &Counterexample)> {
        self.traces
            .iter()
            .enumerate()
            .filter(|&(index, _)| !self.matched[index])
    }
}

/// Two counterexamples end in the same finding: a fault at the same site, a violation of
/// the same invariant, or a deadlock with the same instances blocked at the same locations
/// (which is what its message lists).
pub(crate) fn same_finding(a: &Counterexample, b: &Counterexample) -> bool {
    if a.kind() != b.kind() || a.cycle_start().is_some() || b.cycle_start().is_some() {
        return false;
    }
    match a.kind() {
        FindingKind::Deadlock => a.message() == b.message(),
        _ => {
            a.invariant() == b.invariant() && a.fault().map(|f| f.site) == b.fault().map(|f| f.site)
        }
    }
}

/// How long a shortening search may take: what is left of the time limit, and without one
/// the original search's own time, at least [`LEAST_BUDGET`].
fn time_budget(options: &Options, report: &Report, started: Instant) -> Duration {
    let budget = report.stats().elapsed.max(LEAST_BUDGET);
    match options.time_limit {
        Some(limit) => budget.min(limit.saturating_sub(started.elapsed())),
        None => budget,
    }
}

/// Replaces the traces of `report` (from a search that `started` then) with shortest
/// traces to the same findings, as far as a breadth-first search finds them within its
/// budget, and notes what it did.
pub(crate) fn shorten<M: Model>(
    model: &M,
    options: &Options,
    report: &mut Report,
    started: Instant,
) {
    let shortenable = matches!(
        report.strategy(),
        Strategy::DepthFirst
            | Strategy::Parallel
            | Strategy::Simulation
            | Strategy::BestFirst
            | Strategy::OrderedDepthFirst
            | Strategy::Swarm
    );
    // A trace of one step or none is as short as it gets.
    if !options.shortest || !shortenable || report.findings.iter().all(|f| f.len() <= 1) {
        return;
    }
    let budget = time_budget(options, report, started);
    let bfs_options = Options {
        strategy: Strategy::BreadthFirst,
        threads: 1,
        keep_going: Some(report.findings.len()),
        time_limit: Some(budget),
        por: false,
        // A search of a quotient is already reduced by its symmetry.
        symmetry: false,
        shortest: false,
        property: None,
        ..options.clone()
    };
    let Ok(bfs_plan) = plan::resolve(model, &bfs_options, false) else {
        report.notes.push(
            "the counterexample is the search's own: a breadth-first search to shorten it \
             could not run with these options"
                .to_string(),
        );
        return;
    };
    let control = Control::new(&model.info().name, &bfs_options, 1);
    let mut run = Run::new(model, &bfs_options, &control, bfs_plan);
    run.wanted = Some(report.findings.clone());
    let mut shortest = bfs::run(run);
    // The search kept the findings it matched, in its order: match them again.
    let mut wanted = Wanted::new(std::mem::take(&mut report.findings));
    let mut replacements: Vec<Option<Counterexample>> = vec![None; wanted.len()];
    for found in std::mem::take(&mut shortest.findings) {
        if let Some(index) = wanted.offer(&found) {
            replacements[index] = Some(found);
        }
    }
    let (mut shortened, mut kept) = (0, 0);
    report.findings = wanted
        .traces
        .into_iter()
        .zip(replacements)
        .map(|(original, replacement)| match replacement {
            Some(short) if short.len() < original.len() => {
                shortened += 1;
                short.with_original_len(original.len())
            }
            Some(_) => original,
            None => {
                kept += 1;
                original
            }
        })
        .collect();
    let how = format!(
        "a breadth-first search to the same finding ({} states)",
        crate::units::Thousands(shortest.stats.states),
    );
    let original_strategy = report.strategy().describe();
    if shortened > 0 {
        report.notes.push(format!(
            "counterexamples shortened by {how}; the {original_strategy}'s own are kept with \
             `.shortest(false)` (`--no-shorten`)"
        ));
    }
    if kept > 0 {
        let why = shortest
            .incomplete_reason()
            .map_or("it did not meet the finding", |reason| reason.describe());
        report.notes.push(format!(
            "{} the {original_strategy}'s own, not shortened: {how} stopped ({why})",
            if kept == 1 {
                "one counterexample is".to_string()
            } else {
                format!("{kept} counterexamples are")
            }
        ));
    }
}

#[cfg(test)]
mod tests {
    use crate::test_models::Graph;
    use crate::{Checker, FindingKind};

    /// A chain `0 -> 1 -> ... -> length`, ending in a deadlock, with `shortcuts` from 0.
    fn chain(length: u8, shortcuts: &[u8]) -> Graph {
        let mut edges: Vec<(u8, Option<u8>)> = (0..length).map(|n| (n, Some(n + 1))).collect();
        edges.extend(shortcuts.iter().map(|&to| (0, Some(to))));
        Graph::new(length + 1, &edges)
    }

    #[test]
    fn a_depth_first_trace_is_replaced_by_a_shortest_one_to_the_same_finding() {
        let report = Checker::new(chain(60, &[60])).run();
        let deadlock = report.assert_deadlock();
        assert_eq!(deadlock.transitions().collect::<Vec<_>>(), [60]);
        assert_eq!(deadlock.shortened_from(), Some(60));
        assert!(report
            .to_string()
            .contains("deadlock after 1 step (shortened from 60)"));
        assert!(report.notes()[0].starts_with("counterexamples shortened by a breadth-first"));
        // It replays as it is.
        let checker = Checker::new(chain(60, &[60]));
        assert_eq!(&checker.replay(deadlock.replay()).unwrap(), deadlock);
        let own = Checker::new(chain(60, &[60])).shortest(false).run();
        assert_eq!(own.assert_deadlock().len(), 60);
        assert_eq!(own.assert_deadlock().shortened_from(), None);
        assert!(own.notes().is_empty());
    }

    #[test]
    fn a_shorter_finding_of_another_kind_or_place_is_not_taken() {
        // Depth-first: 0 1 2 3, deadlocked at n3. Breadth-first meets the deadlock at n4
        // first (not the same), then n3 through n5.
        let graph = Graph::new(
            6,
            &[
                (0, Some(1)),
                (1, Some(2)),
                (2, Some(3)),
                (0, Some(4)),
                (0, Some(5)),
                (5, Some(3)),
            ],
        );
        let report = Checker::new(graph).run();
        let deadlock = report.assert_deadlock();
        assert_eq!(deadlock.transitions().collect::<Vec<_>>(), [4, 5]);
        assert_eq!(deadlock.shortened_from(), Some(3));
        assert!(deadlock.message().ends_with("T blocked at n3"));
    }

    #[test]
    fn every_kept_trace_gets_its_own_match() {
        // Two faults at one site: each keeps a trace, and the two shortest ones differ.
        let graph = Graph::new(
            5,
            &[
                (0, Some(1)),
                (1, Some(2)),
                (2, None),
                (0, Some(3)),
                (3, None),
                (0, Some(4)),
                (4, Some(2)),
            ],
        )
        .end(&[0, 1, 2, 3, 4]);
        let report = Checker::new(graph).keep_going(2).run();
        let lengths: Vec<_> = report.findings().iter().map(|f| f.len()).collect();
        assert_eq!(report.findings()[0].kind(), FindingKind::Assertion);
        // Depth-first: through 1 and 2 (3 steps), then through 3 (2 steps), already the
        // shortest: breadth-first meets both in the other order, and nothing changes.
        assert_eq!(lengths, [3, 2]);
        assert!(report
            .findings()
            .iter()
            .all(|f| f.shortened_from().is_none()));
        assert!(report.notes().is_empty());
    }

    #[test]
    fn a_limit_keeps_the_original_trace_and_says_why() {
        // Depth-first meets the fault after storing 2 states; breadth-first stores every
        // successor of 0 first, and the state limit stops it.
        let graph = Graph::new(6, &[(0, Some(1)), (0, Some(2)), (0, Some(3)), (1, None)]);
        let report = Checker::new(graph).max_states(3).run();
        let fault = report.assert_assertion_failure();
        assert_eq!(fault.shortened_from(), None);
        let text = report.to_string();
        assert!(
            text.contains("not shortened: a breadth-first search to the same finding"),
            "{text}"
        );
        assert!(text.contains("(state limit reached)"), "{text}");
    }

    #[test]
    fn long_traces_are_elided_unless_printed_in_full() {
        let report = Checker::new(chain(60, &[])).run();
        assert_eq!(report.assert_deadlock().len(), 60);
        let text = report.to_string();
        assert!(text.contains("  #10 T n9 -> n10"), "{text}");
        assert!(
            text.contains("  ... 30 steps not shown (#11 to #40)"),
            "{text}"
        );
        assert!(!text.contains("#25"), "{text}");
        assert!(text.contains("  #41 T n40 -> n41"), "{text}");
        assert!(text.contains("  #60 T n59 -> n60"), "{text}");
        let full = format!("{report:#}");
        assert!(full.contains("  #25 T n24 -> n25") && !full.contains("not shown"));
    }
}
