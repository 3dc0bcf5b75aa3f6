//! LTL without fairness: the nested depth-first search of Schwoon and Esparza ("A note on
//! on-the-fly verification algorithms", 2005) on the product of the model with the
//! automaton of the property's negation.
//!
//! The blue search is the depth-first search of `dfs.rs` on product states, with the
//! states of its stack marked cyan. When it finishes an accepting state, a red search from
//! it looks for a way back to a cyan state: that closes a cycle through the accepting
//! state, a run the automaton accepts, which violates the property. A blue step into a
//! cyan state from or to an accepting state closes one at once (early detection). Each
//! state is searched red at most once, so the whole costs at most two visits per state.
//! When product states fit in 61 bits, blue, cyan and red are one table of words with two
//! colour bits each: the red search and the stack then store no state again, and testing a
//! state for cyan is a lookup in memory the search just read. Otherwise the blue and red
//! sets are ordinary seen sets, exact or lossy (a lossy search never says the property
//! holds), and the cyan set holds the stack's states exactly. With compact storage, blue
//! and red are compact sets (of words, or trees of the product's words), cyan a set of the
//! stack's words or states, and the stack a [`Stack`] of successor numbers, as the
//! depth-first search keeps its path.
//!
//! When the automaton is weak (each of its strongly connected parts accepting throughout
//! or nowhere: the negations of `[]<>p`, `[](p -> <>q)` and most properties people write),
//! every cycle of the product through an accepting state is accepting, and every cycle
//! holds an edge back onto the blue stack: the blue search's early detection alone finds a
//! violation, and there is no red search (Černá and Pelánek, "Relating hierarchy of
//! temporal properties to model checking", 2003). The search then expands each state once.
//! A step back onto the stack then closes an accepting cycle exactly when it goes to an
//! accepting state (both ends lie in one part), so only accepting states are told cyan:
//! the others cost no lookup when they leave the stack, and no place in a cyan set.
//!
//! Like `dfs.rs`, both searches keep the successors of their top frames ([`Frames`]), so
//! that returning to a parent seldom computes its successors again: without them, a third
//! of the product's expansions (Peterson's filter N=5) were such returns.
//!
//! With partial-order reduction (`X`-free properties), the blue search takes the ample set
//! of a state unless all of it leads back onto the stack (the cycle proviso of Holzmann,
//! Peled and Yannakakis), and the red search takes the very steps the blue one did.
//!
//! The counterexample is a lasso: the stem is the blue stack up to the cyan state the
//! cycle returns to, the cycle the rest of the stack, the red path and the closing step.

use std::collections::HashSet;

use crate::model::{Fault, Model, Outcome, Successor, TransitionId, STUTTER};
use crate::plan::one_table;
use crate::report::Report;
use crate::store::{CompactStates, FixedHasher, Keying, StateTable, WordTable};
use crate::trace;
use crate::trace::replay::Path;
use crate::verdict::FindingKind;

use crate::plan::Storage;
use crate::search::core::{Role, Run, Stepper, Visit};
use crate::search::frames::{Frames, KEPT_FRAMES};
use crate::search::ltl::product::{Product, Scratch};
use crate::search::reduce::ample::{Proviso, Reduction};
use crate::search::stack::Stack;

use self::colours::{Coloured, Colours, RedStep, Separate, CYAN};
use crate::trace::path::{steps_along, taken};

mod colours;

type ProductState<M> = (<M as Model>::State, u32);

/// Runs the nested depth-first search for LTL property `property`.
pub(crate) fn run<M: Model>(run: Run<'_, M>, property: usize) -> Report {
    let held_apart = run.held_apart;
    let product = Product::new(run.model, property);
    let product_run = run.over_product(&product);
    let coloured = one_table(run.model, property);
    match (product_run.plan.storage, product_run.keying) {
        (Storage::Exact, Keying::Word) if coloured => {
            search(product_run, property, Coloured(WordTable::coloured(CYAN)))
        }
        (Storage::Exact, Keying::Word) => search(
            product_run,
            property,
            Separate::new(WordTable::new(0, false), WordTable::new(0, false)),
        ),
        // The plan keeps compact storage only for product states that are words or that
        // the model writes as words (trees).
        (Storage::Compact, keying) => {
            let words = keying == Keying::Word;
            let (blue, red) = (
                CompactStates::new(&product, words),
                CompactStates::new(&product, words),
            );
            search(product_run, property, Separate::new(blue, red))
        }
        (Storage::Exact, _) => search(
            product_run,
            property,
            Separate::new(
                StateTable::new().holding_apart(held_apart),
                StateTable::new().holding_apart(held_apart),
            ),
        ),
        (Storage::HashCompaction, _) => search(
            product_run,
            property,
            Separate::new(WordTable::new(0, true), WordTable::new(0, true)),
        ),
        (Storage::Bitstate { log2_bits, hashes }, _) => {
            let blue = product_run.control.allocate_bitstate(log2_bits, hashes);
            let red = product_run.control.allocate_bitstate(log2_bits, hashes);
            search(product_run, property, Separate::new(blue, red))
        }
    }
}

/// The nested search's frontiers: the blue stack and the successors of its top frames,
/// and the red search's.
struct Ndfs<'a, M: Model> {
    product: &'a Product<'a, M>,
    property: usize,
    stepper: Stepper<'a, Product<'a, M>>,
    /// The blue stack's states, the initial state at the bottom: all of them, or with
    /// compact storage their successor numbers and a few ([`Stack`]), as in `dfs.rs`.
    stack: Stack<ProductState<M>>,
    /// The successors of the blue stack's top frames.
    frames: Frames<ProductState<M>>,
    /// The red search's stack: each state with the step that led to it (none for its
    /// seed), for its path and to compute the successors of a frame that dropped them.
    red_stack: Vec<(ProductState<M>, TransitionId)>,
    /// The successors of the red stack's top frames.
    red_frames: Frames<ProductState<M>>,
    expansion: Expansion<'a, M>,
    /// Whether only the accepting states of the stack need to be told cyan: with a weak
    /// automaton and no partial-order reduction (whose cycle proviso asks of every state).
    cyan_accepting_only: bool,
}

/// How both searches compute the successors of a state: the product's, with buffers of
/// their own, as the blue search took them.
struct Expansion<'a, M: Model> {
    product: &'a Product<'a, M>,
    scratch: Scratch<M::State>,
    /// With partial-order reduction: the states the blue search expanded fully although
    /// an ample set was there (its cycle proviso failed); the red search takes the same
    /// steps as the blue one did, so that both search one graph.
    expanded_fully: Option<HashSet<ProductState<M>, FixedHasher>>,
}

fn search<'a, M: Model>(
    run: Run<'a, Product<'a, M>>,
    property: usize,
    mut sets: impl Colours<ProductState<M>>,
) -> Report {
    let held_apart = run.held_apart;
    let mut ndfs = Ndfs {
        product: run.model,
        property,
        stepper: run.stepper(Role::Alone),
        stack: Stack::new(run.plan.storage == Storage::Compact),
        frames: Frames::new(KEPT_FRAMES, held_apart),
        red_stack: Vec::new(),
        red_frames: Frames::new(KEPT_FRAMES, held_apart),
        expansion: Expansion {
            product: run.model,
            scratch: Scratch::new(),
            expanded_fully: run.plan.por.then(|| HashSet::with_hasher(FixedHasher)),
        },
        cyan_accepting_only: run.model.is_weak() && !run.plan.por,
    };
    match ndfs.product.initial_states() {
        Err(fault) => {
            // Evaluating the predicates in the initial state faulted.
            ndfs.stepper.tally.states = 1;
            ndfs.record_fault(&[], Some(fault), TransitionId::MAX);
        }
        Ok(initial) => {
            for state in initial {
                let key = ndfs.stepper.key(&state);
                match ndfs.stepper.start_from(state.clone(), sets.blue()) {
                    Some(state) => {
                        ndfs.enter(state, None, &mut sets);
                        ndfs.blue(&mut sets);
                    }
                    // Seen, violating or stopped; with the stack empty, no state is cyan.
                    None => sets.not_pushed(&state, key),
                }
                if ndfs.stepper.is_stopped() {
                    break;
                }
            }
        }
    }
    let red_bytes = sets.red_bytes();
    ndfs.stepper.finish(run.plan, sets.blue(), red_bytes)
}

impl<'a, M: Model> Ndfs<'a, M> {
    /// Pushes a new state with its successors (a state without any is done at once: it is
    /// on no cycle; a state at the depth limit is not searched from). As
    /// [`Stepper::expand`], but with the search's own buffers for the product; the product
    /// has no deadlocks to record.
    /// `step` is the number of the successor of the top that `state` is (none for an
    /// initial state).
    fn enter(
        &mut self,
        state: ProductState<M>,
        step: Option<usize>,
        sets: &mut impl Colours<ProductState<M>>,
    ) {
        let depth = self.stack.len() as u32;
        let start = self.frames.arena().len();
        self.stepper.tick();
        let (product, scratch) = (self.expansion.product, &mut self.expansion.scratch);
        product.successors_with(&state, self.frames.arena(), scratch);
        if self.frames.arena().len() == start
            || self.stepper.at_depth_limit(depth)
            || !self.stack.reserve(&mut self.stepper)
        {
            self.frames.arena().truncate(start);
            if self.tells_cyan(&state) {
                sets.not_pushed(&state, self.stepper.key(&state));
            }
            return;
        }
        // Fetching their slots starts now, while the state is pushed (as depth-first
        // search does).
        self.stepper
            .prefetch(&self.frames.arena()[start..], sets.blue());
        let skipped = self.choose_ample(&state, start, sets);
        if self.tells_cyan(&state) {
            sets.push_cyan(&state, self.stepper.key(&state));
        }
        self.stack.push(state, step);
        self.frames.push_after(start, skipped);
    }

    /// Whether the search must tell if `state` is cyan, so keeps its colour exact. With a
    /// weak automaton, a step back onto the stack stays in one strongly connected part of
    /// the product, whose states are all accepting or none: it closes an accepting cycle
    /// exactly when it goes to an accepting state, so only those need be told cyan (the
    /// others may keep the colour they were stored with, which nothing reads), and popping
    /// any other costs no lookup.
    #[inline]
    fn tells_cyan(&self, state: &ProductState<M>) -> bool {
        !self.cyan_accepting_only || self.product.is_accepting(state)
    }

    /// With partial-order reduction, keeps only the ample set of `state`'s successors (the
    /// arena's from `start` on) unless some of it leads back onto the stack (the strong
    /// cycle proviso, which a property of infinite runs needs); a state left fully expanded
    /// is remembered for the red search. Returns how many successors came before the ample
    /// set.
    fn choose_ample(
        &mut self,
        state: &ProductState<M>,
        start: usize,
        sets: &impl Colours<ProductState<M>>,
    ) -> usize {
        let Some(expanded_fully) = &mut self.expansion.expanded_fully else {
            return 0;
        };
        let stepper = &self.stepper;
        let on_stack = |next: &ProductState<M>| sets.is_cyan(next, stepper.key(next));
        match stepper.reduce_to_ample(
            state,
            self.frames.arena(),
            start,
            Proviso::NoneOnStack,
            on_stack,
        ) {
            Reduction::Ample { skipped } => skipped,
            Reduction::Proviso => {
                expanded_fully.insert(state.clone());
                0
            }
            Reduction::Full => 0,
        }
    }

    /// The blue search, until the stack is empty or the search stops.
    fn blue(&mut self, sets: &mut impl Colours<ProductState<M>>) {
        while !self.stepper.is_stopped() && !self.stack.is_empty() {
            let Some((step, successor)) = self.frames.take_numbered().map(|(n, s)| (n, s.clone()))
            else {
                self.finish_top(sets);
                continue;
            };
            let depth = (self.stack.len() - 1) as u32;
            let via = successor.transition;
            match self.stepper.visit(depth, &successor, sets.blue()) {
                Visit::New => {
                    if let Outcome::Next(state) = successor.outcome {
                        self.enter(state, Some(step), sets);
                    }
                }
                Visit::Seen(mark) => {
                    let Outcome::Next(target) = &successor.outcome else {
                        continue;
                    };
                    // With only accepting states told cyan, an accepting top's step to a
                    // state that is not accepting leaves its part of the product, so
                    // closes nothing (`tells_cyan`).
                    let top = self.stack.last();
                    let from_accepting = !self.cyan_accepting_only
                        && top.is_some_and(|top| self.product.is_accepting(top));
                    let closes = (from_accepting || self.product.is_accepting(target))
                        && sets.is_cyan_marked(mark, target, self.stepper.key(target));
                    if closes {
                        self.report_cycle(target, &[], via);
                    }
                }
                Visit::Fault(kind) => {
                    let fault = match successor.outcome {
                        Outcome::Fault(fault) => Some(fault),
                        Outcome::Next(_) => None,
                    };
                    // The stack's states (rebuilt, on a compact path) matter only to a
                    // counterexample that is kept.
                    let stack = if self.stepper.builds_trace(kind) {
                        self.stack.states(self.product)
                    } else {
                        Vec::new()
                    };
                    self.record_fault(&stack, fault, via);
                }
                Visit::Violating(kind) => {
                    if let Outcome::Next(target) = &successor.outcome {
                        sets.not_pushed(target, self.stepper.key(target));
                    }
                    let (product, stack, info) =
                        (self.product, &self.stack, self.stepper.info().clone());
                    self.stepper.record_with(kind, &mut |path| {
                        stack.transitions(product, path);
                        path.push(via);
                        trace::rebuild(product.model(), &info, path)
                    });
                }
                Visit::Stopped => {}
            }
        }
    }

    /// Done with the top state: a red search from it if it is accepting (and the automaton
    /// is not weak), then off the stack.
    fn finish_top(&mut self, sets: &mut impl Colours<ProductState<M>>) {
        let Some(top) = self.stack.last().cloned() else {
            return;
        };
        if self.product.is_accepting(&top) && !self.product.is_weak() {
            self.red(&top, sets);
            if self.stepper.is_stopped() {
                return;
            }
        }
        if self.tells_cyan(&top) {
            sets.pop_cyan(&top, self.stepper.key(&top));
        }
        self.stack.pop(self.product);
        // The parent resumes after the successor that led here; if it dropped its
        // successors, they are computed again (unless the stack's recomputation kept them).
        let dropped = self.frames.pop();
        let computed = dropped && self.stack.take_successors(self.frames.arena());
        if let (true, Some(parent)) = (dropped, self.stack.last()) {
            self.stepper.tick();
            self.expansion
                .resume(&self.stepper, &mut self.frames, parent, &top, computed);
        }
        // The subtree searched since may have pushed the siblings' slots out of the cache.
        self.stepper.prefetch(self.frames.untaken(), sets.blue());
    }

    /// The red search from `seed`: a state reachable from it that is cyan closes a cycle
    /// through `seed`.
    fn red(&mut self, seed: &ProductState<M>, sets: &mut impl Colours<ProductState<M>>) {
        self.red_frames.clear();
        self.red_stack.clear();
        self.expansion
            .as_taken(&self.stepper, seed, self.red_frames.arena());
        self.red_frames.push(0);
        self.red_stack.push((seed.clone(), TransitionId::MAX));
        while !self.red_stack.is_empty() {
            if self.stepper.is_stopped() {
                return;
            }
            let Some(successor) = self.red_frames.take().cloned() else {
                let popped = self.red_stack.pop();
                if let (true, Some((state, _)), Some((child, _))) =
                    (self.red_frames.pop(), self.red_stack.last(), &popped)
                {
                    let frames = &mut self.red_frames;
                    self.expansion
                        .resume(&self.stepper, frames, state, child, false);
                }
                continue;
            };
            self.stepper.count_transition();
            let Outcome::Next(target) = successor.outcome else {
                continue;
            };
            match sets.red_step(&mut self.stepper, &target) {
                Some(RedStep::Cyan) => {
                    let red_path: Vec<TransitionId> =
                        self.red_stack[1..].iter().map(|&(_, via)| via).collect();
                    self.report_cycle(&target, &red_path, successor.transition);
                    return;
                }
                Some(RedStep::New) => {
                    let arena = self.red_frames.arena();
                    let start = arena.len();
                    self.expansion.as_taken(&self.stepper, &target, arena);
                    self.red_frames.push(start);
                    self.red_stack.push((target, successor.transition));
                }
                Some(RedStep::Red) => {}
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
        let stack = self.stack.states(self.product);
        let Some(at) = stack.iter().rposition(|state| state == entry) else {
            return;
        };
        let (product, property) = (self.product, self.property);
        let model = product.model();
        let info = self.stepper.info().clone();
        let mut message = violation_message(model, property);
        self.stepper
            .record_with(FindingKind::Property, &mut |steps| {
                steps_along(product, &stack[..=at], steps);
                let mut cycle = steps.len();
                steps_along(product, &stack[at..], steps);
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
            steps_along(product, stack, path);
            if !stack.is_empty() {
                path.push(via);
            }
            let model = product.model();
            trace::rebuild(model, &info, path)
                .or_else(|_| trace::rebuild_predicate_fault(model, &info, path, property))
        });
    }
}

impl<M: Model> Expansion<'_, M> {
    /// Appends the successors of `state` to `successors` as the blue search took them when
    /// it entered `state`: all of them, or (with partial-order reduction, unless it was
    /// expanded fully) the ample set `stepper` finds. Returns how many of `state`'s
    /// successors came before those appended.
    fn as_taken(
        &mut self,
        stepper: &Stepper<'_, Product<'_, M>>,
        state: &ProductState<M>,
        successors: &mut Vec<Successor<ProductState<M>>>,
    ) -> usize {
        let start = successors.len();
        self.product
            .successors_with(state, successors, &mut self.scratch);
        self.reduce_as_taken(stepper, state, successors, start)
    }

    /// Reduces the successors of `state` (`successors` from `start` on) as
    /// [`as_taken`](Self::as_taken) does.
    fn reduce_as_taken(
        &self,
        stepper: &Stepper<'_, Product<'_, M>>,
        state: &ProductState<M>,
        successors: &mut Vec<Successor<ProductState<M>>>,
        start: usize,
    ) -> usize {
        if self
            .expanded_fully
            .as_ref()
            .is_none_or(|fully| fully.contains(state))
        {
            return 0;
        }
        let Some(ample) = stepper.ample(&successors[start..]) else {
            return 0;
        };
        successors.truncate(start + ample.end);
        successors.drain(start..start + ample.start);
        ample.start
    }

    /// Gives the top frame of `frames`, which dropped its successors, those of its state
    /// `state` again, resuming after the first that leads to `child`, the frame just popped
    /// (the one it took: an earlier one would have entered `child` first, a later one found
    /// it searched). A nondeterministic model may not give `child` again: the frame is then
    /// done. `computed` when the frame's buffer holds all of `state`'s successors already.
    fn resume(
        &mut self,
        stepper: &Stepper<'_, Product<'_, M>>,
        frames: &mut Frames<ProductState<M>>,
        state: &ProductState<M>,
        child: &ProductState<M>,
        computed: bool,
    ) {
        let successors = frames.arena();
        let skipped = if computed {
            self.reduce_as_taken(stepper, state, successors, 0)
        } else {
            self.as_taken(stepper, state, successors)
        };
        let next = taken(successors, child).map_or(successors.len(), |i| i + 1);
        frames.refill_after(next, skipped);
    }
}

/// What a lasso of property `property` violates, in words.
pub(crate) fn violation_message<M: Model>(model: &M, property: usize) -> String {
    match model.properties().get(property) {
        Some(p) => format!("`{}` fails on this run (property {})", p.text, p.name),
        None => format!("property {property} fails on this run"),
    }
}

#[cfg(test)]
mod tests;
