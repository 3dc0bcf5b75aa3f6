//! LTL without fairness: the nested depth-first search of Schwoon and Esparza ("A note on
//! on-the-fly verification algorithms", 2005) on the product of the model with the
//! automaton of the property's negation.
//!
//! The blue search is the depth-first search of `dfs.rs` on product states, with the
//! states of its stack marked cyan. When it finishes an accepting state, a red search from
//! it looks for a way back to a cyan state: that closes a cycle through the accepting
//! state, a run the automaton accepts, which violates the property. A blue step into a
//! cyan state from or to an accepting state closes one at once (early detection). Each
//! state is searched red at most once, so the whole costs at most two visits per state;
//! the blue and red sets are ordinary seen sets, exact or lossy (a lossy search never says
//! the property holds). The cyan set is the stack's states, held exactly.
//!
//! With partial-order reduction (`X`-free properties), the blue search takes the ample set
//! of a state unless all of it leads back onto the stack (the cycle proviso of Holzmann,
//! Peled and Yannakakis), and the red search takes the very steps the blue one did.
//!
//! The counterexample is a lasso: the stem is the blue stack up to the cyan state the
//! cycle returns to, the cycle the rest of the stack, the red path and the closing step.

use std::collections::HashSet;

use crate::model::{Fault, Model, Outcome, Successor, TransitionId, STUTTER};
use crate::replay::Path;
use crate::report::Report;
use crate::seen::{FixedHasher, Footprint, Keying, StateTable, Store, WordTable};
use crate::trace::{self, FindingKind};

use super::core::{Role, Run, Stepper, Visit};
use super::dfs::{allocate_bitstate, taken};
use super::plan::Storage;
use super::product::Product;

type ProductState<M> = (<M as Model>::State, u32);

/// A state of the red search: its successors, the next one to take, and the step that led
/// to it.
type RedFrame<M> = (Vec<Successor<ProductState<M>>>, usize, TransitionId);

/// Runs the nested depth-first search for LTL property `property`.
pub(crate) fn run<M: Model>(run: Run<'_, M>, property: usize) -> Report {
    let product = Product::new(run.model, property);
    let product_run = run.over_product(&product);
    match (product_run.plan.storage, product_run.keying) {
        // The plan gives LTL checks exact storage (compact storage serves the safety
        // searches), in the word table when product states fit in a word.
        (Storage::Exact | Storage::Compact, Keying::Word) => search(
            product_run,
            property,
            WordTable::new(0, false),
            WordTable::new(0, false),
        ),
        (Storage::Exact | Storage::Compact, _) => {
            search(product_run, property, StateTable::new(), StateTable::new())
        }
        (Storage::HashCompaction, _) => search(
            product_run,
            property,
            WordTable::new(0, true),
            WordTable::new(0, true),
        ),
        (Storage::Bitstate { log2_bits, hashes }, _) => {
            let blue = allocate_bitstate(product_run.control, log2_bits, hashes);
            let red = allocate_bitstate(product_run.control, log2_bits, hashes);
            search(product_run, property, blue, red)
        }
    }
}

/// The blue search's frontier: the stack and the successors of its top, as in `dfs.rs`.
struct Ndfs<'a, M: Model> {
    product: &'a Product<'a, M>,
    property: usize,
    stepper: Stepper<'a, Product<'a, M>>,
    stack: Vec<ProductState<M>>,
    cyan: HashSet<ProductState<M>, FixedHasher>,
    successors: Vec<Successor<ProductState<M>>>,
    next: usize,
    scratch: Vec<Successor<ProductState<M>>>,
    /// With partial-order reduction: the states the blue search expanded fully although
    /// an ample set was there (its cycle proviso failed); the red search takes the same
    /// steps as the blue one did, so that both search one graph.
    expanded_fully: Option<HashSet<ProductState<M>, FixedHasher>>,
}

fn search<'a, M: Model, T: Store<ProductState<M>> + Footprint>(
    run: Run<'a, Product<'a, M>>,
    property: usize,
    mut blue: T,
    mut red: T,
) -> Report {
    let mut ndfs = Ndfs {
        product: run.model,
        property,
        stepper: run.stepper(Role::Alone),
        stack: Vec::new(),
        cyan: HashSet::with_hasher(FixedHasher),
        successors: Vec::new(),
        next: 0,
        scratch: Vec::new(),
        expanded_fully: run.plan.por.then(|| HashSet::with_hasher(FixedHasher)),
    };
    match ndfs.product.initial_states() {
        Err(fault) => {
            // Evaluating the predicates in the initial state faulted.
            ndfs.stepper.tally.states = 1;
            ndfs.record_fault(&[], Some(fault), TransitionId::MAX);
        }
        Ok(initial) => {
            for state in initial {
                if let Some(state) = ndfs.stepper.start_from(state, &mut blue) {
                    ndfs.enter(state);
                    ndfs.blue(&mut blue, &mut red);
                }
                if ndfs.stepper.is_stopped() {
                    break;
                }
            }
        }
    }
    ndfs.stepper.finish(run.plan, &blue, red.bytes())
}

impl<'a, M: Model> Ndfs<'a, M> {
    /// Pushes a new state with its successors (a state without any is done at once: it is
    /// on no cycle).
    fn enter(&mut self, state: ProductState<M>) {
        let depth = self.stack.len() as u32;
        self.scratch.clear();
        if !self
            .stepper
            .expand(&state, depth, &mut self.scratch, &mut |_| {})
            || !self.stepper.reserve(&mut self.stack, 1)
        {
            return;
        }
        self.choose_ample(&state);
        self.cyan.insert(state.clone());
        self.stack.push(state);
        std::mem::swap(&mut self.successors, &mut self.scratch);
        self.next = 0;
    }

    /// With partial-order reduction, keeps only the ample set of `state`'s successors (in
    /// `scratch`) unless all of it leads back onto the stack (the cycle proviso); a state
    /// left fully expanded is remembered for the red search.
    fn choose_ample(&mut self, state: &ProductState<M>) {
        let Some(expanded_fully) = &mut self.expanded_fully else {
            return;
        };
        let Some(ample) = self.stepper.ample(&self.scratch) else {
            return;
        };
        let cyan = &self.cyan;
        let leaves_the_stack = self.scratch[ample.clone()]
            .iter()
            .any(|s| match &s.outcome {
                Outcome::Next(next) => next != state && !cyan.contains(next),
                Outcome::Fault(_) => true,
            });
        if leaves_the_stack {
            self.scratch.truncate(ample.end);
            self.scratch.drain(..ample.start);
        } else {
            expanded_fully.insert(state.clone());
        }
    }

    /// The successors of `state` as the blue search took them when it entered it.
    fn successors_as_taken(
        &self,
        state: &ProductState<M>,
        successors: &mut Vec<Successor<ProductState<M>>>,
    ) {
        self.product.successors(state, successors);
        let Some(expanded_fully) = &self.expanded_fully else {
            return;
        };
        if expanded_fully.contains(state) {
            return;
        }
        if let Some(ample) = self.stepper.ample(successors) {
            successors.truncate(ample.end);
            successors.drain(..ample.start);
        }
    }

    /// The blue search, until the stack is empty or the search stops.
    fn blue(
        &mut self,
        blue: &mut impl Store<ProductState<M>>,
        red: &mut impl Store<ProductState<M>>,
    ) {
        while !self.stepper.is_stopped() && !self.stack.is_empty() {
            let Some(successor) = self.successors.get(self.next).cloned() else {
                self.finish_top(red);
                continue;
            };
            self.next += 1;
            let depth = (self.stack.len() - 1) as u32;
            let via = successor.transition;
            match self.stepper.visit(depth, &successor, blue) {
                Visit::New => {
                    if let Outcome::Next(state) = successor.outcome {
                        self.enter(state);
                    }
                }
                Visit::Seen => {
                    let Outcome::Next(target) = &successor.outcome else {
                        continue;
                    };
                    let top = &self.stack[self.stack.len() - 1];
                    let closes = self.cyan.contains(target)
                        && (self.product.is_accepting(top) || self.product.is_accepting(target));
                    if closes {
                        self.report_cycle(target, &[], via);
                    }
                }
                Visit::Fault(_) => {
                    let fault = match successor.outcome {
                        Outcome::Fault(fault) => Some(fault),
                        Outcome::Next(_) => None,
                    };
                    let stack = std::mem::take(&mut self.stack);
                    self.record_fault(&stack, fault, via);
                    self.stack = stack;
                }
                Visit::Violating(kind) => {
                    let (product, stack, info) =
                        (self.product, &self.stack, self.stepper.info().clone());
                    self.stepper.record_with(kind, &mut |path| {
                        stack_path(product, stack, path);
                        path.push(via);
                        trace::rebuild(product.model(), &info, path)
                    });
                }
                Visit::Stopped => {}
            }
        }
    }

    /// Done with the top state: a red search from it if it is accepting, then off the stack.
    fn finish_top(&mut self, red: &mut impl Store<ProductState<M>>) {
        let Some(top) = self.stack.last().cloned() else {
            return;
        };
        if self.product.is_accepting(&top) {
            self.red(&top, red);
            if self.stepper.is_stopped() {
                return;
            }
        }
        self.cyan.remove(&top);
        self.stack.pop();
        // Resume the parent after the successor that led here.
        if let Some(parent) = self.stack.last().cloned() {
            self.stepper.tick();
            let mut successors = std::mem::take(&mut self.successors);
            successors.clear();
            self.successors_as_taken(&parent, &mut successors);
            self.next = taken(&successors, &top).map_or(successors.len(), |i| i + 1);
            self.successors = successors;
        }
    }

    /// The red search from `seed`: a state reachable from it that is cyan closes a cycle
    /// through `seed`.
    fn red(&mut self, seed: &ProductState<M>, red: &mut impl Store<ProductState<M>>) {
        // Frames: a state, its successors, the next one to take, and the step that led to it.
        let mut frames: Vec<RedFrame<M>> = Vec::new();
        let mut successors = Vec::new();
        self.successors_as_taken(seed, &mut successors);
        frames.push((successors, 0, TransitionId::MAX));
        while let Some((successors, next, _)) = frames.last_mut() {
            if self.stepper.is_stopped() {
                return;
            }
            let Some(successor) = successors.get(*next).cloned() else {
                frames.pop();
                continue;
            };
            *next += 1;
            self.stepper.count_transition();
            let Outcome::Next(target) = successor.outcome else {
                continue;
            };
            if self.cyan.contains(&target) {
                let red_path: Vec<TransitionId> = frames[1..].iter().map(|f| f.2).collect();
                self.report_cycle(&target, &red_path, successor.transition);
                return;
            }
            match self.stepper.admit(&target, red) {
                Some(true) => {
                    let mut next_successors = Vec::new();
                    self.successors_as_taken(&target, &mut next_successors);
                    frames.push((next_successors, 0, successor.transition));
                }
                Some(false) => {}
                None => return,
            }
        }
    }

    /// Records the lasso that returns to the cyan state `entry`: the blue stack from it to
    /// the top, then `red_path` (the red search's steps from the top), then `last`.
    fn report_cycle(
        &mut self,
        entry: &ProductState<M>,
        red_path: &[TransitionId],
        last: TransitionId,
    ) {
        let Some(at) = self.stack.iter().rposition(|state| state == entry) else {
            return;
        };
        let (product, stack, property) = (self.product, &self.stack, self.property);
        let model = product.model();
        let info = self.stepper.info().clone();
        let mut message = violation_message(model, property);
        self.stepper
            .record_with(FindingKind::Property, &mut |steps| {
                stack_path(product, &stack[..=at], steps);
                let mut cycle = steps.len();
                stack_path(product, &stack[at..], steps);
                steps.extend_from_slice(red_path);
                steps.push(last);
                // A run that ends stutters in its last state: the stutters that only moved the
                // automaton belong to the cycle, which is one stutter.
                if steps[cycle..].iter().all(|&step| step == STUTTER) {
                    while cycle > 0 && steps[cycle - 1] == STUTTER {
                        cycle -= 1;
                    }
                    steps.truncate(cycle + 1);
                }
                let path = Path {
                    steps: steps.clone(),
                    cycle: Some(cycle),
                };
                trace::rebuild_lasso(model, &info, &path, std::mem::take(&mut message))
            });
    }
}

impl<'a, M: Model> Ndfs<'a, M> {
    /// Records the fault of step `via` from the top of `stack`: a fault of the model's step,
    /// or of evaluating the property's predicates in the state it enters (or, with an
    /// empty stack, in the initial state).
    fn record_fault(&mut self, stack: &[ProductState<M>], fault: Option<Fault>, via: TransitionId) {
        let Some(fault) = fault else {
            return;
        };
        let kind = trace::fault_kind(self.stepper.info(), fault);
        let (product, property) = (self.product, self.property);
        let info = self.stepper.info().clone();
        self.stepper.record_with(kind, &mut |path| {
            stack_path(product, stack, path);
            if !stack.is_empty() {
                path.push(via);
            }
            let model = product.model();
            trace::rebuild(model, &info, path)
                .or_else(|_| trace::rebuild_predicate_fault(model, &info, path, property))
        });
    }
}

/// What a lasso of property `property` violates, in words.
pub(crate) fn violation_message<M: Model>(model: &M, property: usize) -> String {
    match model.properties().get(property) {
        Some(p) => format!("`{}` fails on this run (property {})", p.text, p.name),
        None => format!("property {property} fails on this run"),
    }
}

/// Writes the transitions between consecutive states of `stack`.
fn stack_path<M: Model>(
    product: &Product<'_, M>,
    stack: &[ProductState<M>],
    path: &mut Vec<TransitionId>,
) {
    let mut successors = Vec::new();
    for pair in stack.windows(2) {
        successors.clear();
        product.successors(&pair[0], &mut successors);
        // An id that cannot be replayed makes the rebuild fail with a clear note.
        let via = taken(&successors, &pair[1])
            .map_or(TransitionId::MAX - 1, |i| successors[i].transition);
        path.push(via);
    }
}

#[cfg(test)]
mod tests {
    use crate::test_models::{Graph, NOT_INFINITELY_OFTEN_P, NOT_P_LEADS_TO_Q};
    use crate::{Checker, FindingKind, IncompleteReason, Verdict};

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
}
