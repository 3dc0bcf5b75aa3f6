//! LTL under fairness: a depth-first search of the product for strongly connected
//! components that hold a fair accepting cycle (LANGUAGE.md: weak and strong fairness,
//! over thread instances).
//!
//! The search is Tarjan's, as Couvreur arranged it ("On-the-fly verification of linear
//! temporal logic", 1999): each root of a component on the stack carries the marks of the
//! edges merged into its component, and apart from them those of the edge it was entered
//! by, which join the component below when the two merge. An edge carries the property's
//! mark when it leaves an accepting product state, and, for weak fairness, the mark of
//! every instance that it is a step of or that is disabled where it starts ("stepped or
//! disabled"): a component whose marks are all present holds a cycle that is accepting
//! and weakly fair (a generalized Büchi condition, one set per instance; no copies of the
//! graph). It is reported as soon as its marks are complete.
//!
//! Strong fairness is a Streett condition (if an instance is enabled infinitely often, it
//! steps infinitely often), checked on each component when it is complete, by the
//! recursive decomposition of Emerson and Lei: a component in which some enabled instance
//! never steps loses the states where that instance is enabled, and what is left is split
//! into components again, until one is accepting and fair or none is left.
//!
//! A live state's search number is its place on the component stack, from 1 (the stack
//! only ever loses whole components off its top, so the numbers of the live states stay
//! put and grow up the stack). It is kept beside the state's word in the seen table
//! ([`numbers`]), so that the lookup that finds a state also says whether it is live;
//! states wider than a word keep theirs in a map.
//!
//! The counterexample is a lasso: the search's path to the component, then a cycle inside
//! it through an edge of every mark it needs, found by breadth-first searches in the
//! component.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

use crate::model::{Fault, Model, Outcome, TransitionId, STUTTER};
use crate::plan::Fairness;
use crate::report::Report;
use crate::store::{FixedHasher, Keying, StateTable, WordTable};
use crate::trace;
use crate::trace::replay::Path;
use crate::verdict::FindingKind;

use crate::search::core::{Role, Run, Stepper, Visit};
use crate::search::frames::{Frames, KEPT_FRAMES};
use crate::search::ltl::ndfs::violation_message;
use crate::search::ltl::product::{Product, Scratch};
use crate::trace::path::{step_between, steps_along, UNREPLAYABLE};

mod graph;
mod live;
mod marks;
mod numbers;

use graph::{components, Graph};
use live::Live;
use marks::{Marks, MarksStack};
use numbers::{Numbered, WithNumbers};

type ProductState<M> = (<M as Model>::State, u32);

/// How many states ahead a finished component's states are fetched from the seen set,
/// whose numbers are then cleared one by one.
const NUMBERS_AHEAD: usize = 8;

/// A state on the search's stack: its search number and how many of its steps it has
/// taken; what every edge leaving it carries besides the step's own instance is at the same
/// place in [`Fair::bases`]. The state itself is the component stack's at its number
/// ([`Fair::active`]: a state on the search's stack is live). Its steps are in
/// [`Fair::successors`], which keeps those of the top frames only; a lower frame's are
/// computed again when the search returns to it, so that a deep search holds about one
/// state per level. A frame at the depth limit has no steps to explore
/// ([`Stepper::is_at_depth_limit`] of its place on the stack).
struct Frame {
    number: u32,
    next: u32,
}

/// Runs the search for fair accepting cycles of LTL property `property`.
pub(crate) fn run<M: Model>(run: Run<'_, M>, property: usize) -> Report {
    let held_apart = run.held_apart;
    let product = Product::new(run.model, property);
    let fairness = run.plan.fairness;
    let product_run = run.over_product(&product);
    match product_run.keying {
        Keying::State => search(
            product_run,
            property,
            fairness,
            WithNumbers {
                seen: StateTable::new().holding_apart(held_apart),
                live: HashMap::with_hasher(FixedHasher),
            },
        ),
        Keying::Word => {
            let table = WordTable::numbered(false, product.state_word_bits());
            search(product_run, property, fairness, table)
        }
        Keying::Fingerprint => search(
            product_run,
            property,
            fairness,
            WordTable::numbered(true, None),
        ),
    }
}

/// A root of a component on the search's stack: its search number, the marks of the
/// component's edges merged so far, and those of the edge the search entered it by. That
/// edge comes from below the component, so its marks join a component only when this one
/// merges into a component below, which then holds it; counted at once, they would make a
/// component look fair before its own edges are, and every merge into it would look for a
/// cycle it does not hold.
struct Root {
    number: u32,
    marks: Marks,
    entering: Marks,
}

/// The search.
struct Fair<'a, M: Model> {
    graph: Graph<'a, M>,
    property: usize,
    stepper: Stepper<'a, Product<'a, M>>,
    frames: Vec<Frame>,
    /// What every edge leaving each frame's state carries besides the step's own
    /// instance, a set per frame.
    bases: MarksStack,
    /// The steps of the top frames.
    successors: Frames<ProductState<M>>,
    /// The component stack: the live states, in the order they were found. A live
    /// state's number is its place here, from 1: the stack only ever loses a whole
    /// component off its top, so a live state keeps its number, and numbers grow up the
    /// stack, as Tarjan's search needs.
    active: Live<ProductState<M>>,
    /// The roots of the components on the stack.
    roots: Vec<Root>,
    /// Every mark, for the weak fairness test.
    all: Marks,
}

fn search<'a, M: Model, T: Numbered<ProductState<M>>>(
    run: Run<'a, Product<'a, M>>,
    property: usize,
    fairness: Fairness,
    mut seen: T,
) -> Report {
    let product = run.model;
    let info = product.info();
    let instance_of: Vec<(usize, usize)> = info
        .transitions
        .iter()
        .map(|t| {
            (
                t.instance as usize,
                t.partner.map_or(t.instance, |p| p.instance) as usize,
            )
        })
        .collect();
    let instances = instance_of
        .iter()
        .map(|&(i, p)| i.max(p) + 1)
        .max()
        .unwrap_or(0);
    let mut fair = Fair {
        graph: Graph {
            product,
            fairness,
            instances,
            instance_of,
            every_instance: Marks::every_instance(1 + instances),
            buffers: RefCell::new((Scratch::new(), Vec::new())),
        },
        property,
        stepper: run.stepper(Role::Alone),
        frames: Vec::new(),
        bases: MarksStack::new(1 + instances),
        successors: Frames::new(KEPT_FRAMES, run.held_apart),
        active: Live::new(run.keying == Keying::Word && product.words_give_states_back()),
        roots: Vec::new(),
        all: Marks::full(1 + instances),
    };
    match product.initial_states() {
        Err(fault) => {
            fair.stepper.tally.states = 1;
            fair.record_fault(&[], fault, TransitionId::MAX);
        }
        Ok(initial) => {
            for state in initial {
                if let Some(state) = fair.stepper.start_from(state, &mut seen) {
                    let bits = fair.graph.bits();
                    fair.push(state, Marks::empty(bits), &mut seen);
                    fair.explore(&mut seen);
                }
                if fair.stepper.is_stopped() {
                    break;
                }
            }
        }
    }
    let extra = seen.numbers_bytes()
        + fair.active.bytes()
        + fair.roots.capacity() * std::mem::size_of::<Root>();
    fair.stepper.finish(run.plan, &seen, extra)
}

impl<'a, M: Model> Fair<'a, M> {
    /// Numbers a new state and pushes it, as a component of its own, reached by an edge
    /// with `marks`.
    fn push(
        &mut self,
        state: ProductState<M>,
        marks: Marks,
        seen: &mut impl Numbered<ProductState<M>>,
    ) {
        let depth = self.frames.len() as u32;
        self.stepper.tick();
        let start = self.successors.arena().len();
        let (base, _) = self.graph.expand(&state, self.successors.arena());
        let cut = self.stepper.at_depth_limit(depth);
        if cut {
            self.successors.arena().truncate(start);
        }
        // Fetching their slots starts now, as depth-first search does.
        self.stepper
            .prefetch(&self.successors.arena()[start..], seen);
        let number = self.active.len() as u32 + 1;
        // A number that outgrows the bits kept for it in the set asks the memory budget
        // for arrays of numbers; refused, the search stops here.
        if let Some(bytes) = seen.spill_bytes(number) {
            if !self.stepper.may_allocate(bytes) {
                self.successors.arena().truncate(start);
                return;
            }
        }
        let key = self.stepper.key(&state);
        seen.set_live(&state, key, number);
        self.active.push(state, key);
        self.roots.push(Root {
            number,
            marks: Marks::empty(self.graph.bits()),
            entering: marks,
        });
        if self.stepper.reserve(&mut self.frames, 1) && self.bases.reserve(&mut self.stepper) {
            self.frames.push(Frame { number, next: 0 });
            self.bases.push(base);
            self.successors.push(start);
        } else {
            self.successors.arena().truncate(start);
        }
    }

    fn explore(&mut self, seen: &mut impl Numbered<ProductState<M>>) {
        while !self.stepper.is_stopped() {
            let Some(frame) = self.frames.last_mut() else {
                return;
            };
            let Some(successor) = self.successors.take().cloned() else {
                self.finish_top(seen);
                continue;
            };
            frame.next += 1;
            let depth = (self.frames.len() - 1) as u32;
            match self.stepper.visit(depth, &successor, seen) {
                Visit::New => {
                    if let Outcome::Next(next) = successor.outcome {
                        let marks = self.edge_from_top(successor.transition);
                        self.push(next, marks, seen);
                    }
                }
                Visit::Seen(mark) => {
                    // An edge into a state of a complete component closes no cycle: its
                    // marks are not needed.
                    if let Outcome::Next(next) = &successor.outcome {
                        if let Some(number) = seen.live(mark, next, self.stepper.key(next)) {
                            self.merge(number, successor.transition);
                        }
                    }
                }
                Visit::Fault(kind) => {
                    if let Outcome::Fault(fault) = successor.outcome {
                        // The stack's states matter only to a counterexample that is kept.
                        let stack: Vec<ProductState<M>> = if self.stepper.builds_trace(kind) {
                            self.frames
                                .iter()
                                .filter_map(|f| self.state_of(f))
                                .collect()
                        } else {
                            Vec::new()
                        };
                        self.record_fault(&stack, fault, successor.transition);
                    }
                }
                Visit::Violating(kind) => {
                    let mut path = if self.stepper.builds_trace(kind) {
                        self.stack_path(self.frames.len())
                    } else {
                        Vec::new()
                    };
                    path.push(successor.transition);
                    let model = self.graph.product.model();
                    let info = self.stepper.info().clone();
                    self.stepper.record_with(kind, &mut |steps| {
                        steps.extend_from_slice(&path);
                        trace::rebuild(model, &info, steps)
                    });
                }
                Visit::Stopped => {}
            }
        }
    }

    /// The marks of the top state's edge by `transition`.
    fn edge_from_top(&self, transition: TransitionId) -> Marks {
        self.bases
            .with_top(|base| self.graph.edge(base, transition))
            .unwrap_or_else(|| Marks::empty(self.graph.bits()))
    }

    /// An edge by `transition` from the top state back into the live state numbered
    /// `number`, with the marks it carries: every component on the stack above it merges
    /// into one. Under weak fairness, a merged component with every mark holds a fair
    /// accepting cycle.
    fn merge(&mut self, number: u32, transition: TransitionId) {
        while self.roots.len() > 1 && self.roots[self.roots.len() - 1].number > number {
            if let Some(popped) = self.roots.pop() {
                if let Some(below) = self.roots.last_mut() {
                    // The edge that entered the popped root is now inside the component.
                    below.marks.add(&popped.marks);
                    below.marks.add(&popped.entering);
                }
            }
        }
        let Some(root) = self.roots.last_mut() else {
            return;
        };
        // The edge's marks go straight into the root's: the top state's, and its step's.
        if self.bases.with_top(|base| root.marks.add(base)).is_some() {
            self.graph.mark_step(&mut root.marks, transition);
        }
        if self.graph.fairness == Fairness::Weak && root.marks.covers(&self.all) {
            let root_number = root.number;
            self.report_weak(root_number);
        }
    }

    /// Done with the top state: if it roots a component, the component is complete (and,
    /// under strong fairness, checked), and leaves the stack.
    fn finish_top(&mut self, seen: &mut impl Numbered<ProductState<M>>) {
        let Some(frame) = self.frames.pop() else {
            return;
        };
        self.bases.pop();
        // Back to the parent, which resumes after the steps it took; if it dropped its
        // steps, they are computed again.
        if self.successors.pop() {
            if let Some(parent) = self.frames.last() {
                let depth = (self.frames.len() - 1) as u32;
                if !self.stepper.is_at_depth_limit(depth) {
                    self.stepper.tick();
                    if let Some(state) = self.state_of(parent) {
                        self.graph.steps(&state, self.successors.arena());
                    }
                }
                self.successors.refill(parent.next as usize);
            }
        }
        // The subtree searched since may have pushed the siblings' slots out of the cache.
        self.stepper.prefetch(self.successors.untaken(), seen);
        let number = frame.number;
        if self.roots.last().map(|r| r.number) != Some(number) {
            return;
        }
        self.roots.pop();
        let start = number as usize - 1;
        let product = self.graph.product;
        // Only strong fairness looks at the component again, while its states are still
        // live: a state is in it when its number is the root's or above (Tarjan's
        // invariant), which the seen set answers without a set of the component's own.
        if self.graph.fairness == Fairness::Strong {
            let component = self.live_states_from(start);
            if let Some(root) = component.first().cloned() {
                let seen = &*seen;
                let inside = |state: &ProductState<M>, key: Option<u64>| {
                    seen.live(None, state, key).is_some_and(|n| n >= number)
                };
                self.check_strong(&root, &component, &inside);
            }
        }
        // The states are in no order in the set: each is fetched a few states ahead.
        match self.active.tail(start) {
            Ok(component) => {
                for (at, state) in component.iter().enumerate() {
                    if let Some(ahead) = component.get(at + NUMBERS_AHEAD) {
                        seen.prefetch(self.stepper.key(ahead));
                    }
                    seen.set_live(state, self.stepper.key(state), 0);
                }
            }
            Err(words) => {
                for (at, &word) in words.iter().enumerate() {
                    if let Some(&ahead) = words.get(at + NUMBERS_AHEAD) {
                        seen.prefetch(Some(ahead));
                    }
                    seen.set_live_word(word, 0, || product.state_from_word(word));
                }
            }
        }
        self.active.truncate(start);
    }

    /// Under weak fairness: the component rooted at the state numbered `root` has every
    /// mark; report a lasso through it.
    fn report_weak(&mut self, root: u32) {
        let start = root as usize - 1;
        let inside: HashSet<ProductState<M>, FixedHasher> =
            self.live_states_from(start).into_iter().collect();
        let Some(entry) = self.live_state(start) else {
            return;
        };
        let Some(at) = self.frames.iter().position(|f| f.number == root) else {
            return;
        };
        let stem = self.stack_path(at + 1);
        let needed = Marks::full(self.graph.bits());
        let cycle = self.graph.cycle(&inside, &entry, &needed);
        // The marks of a component are those of its edges: a component with all of them
        // holds a cycle through an edge of each.
        debug_assert!(
            cycle.is_some(),
            "a component with every mark has no fair cycle"
        );
        let Some(cycle) = cycle else {
            return;
        };
        self.report_lasso(stem, &cycle);
    }

    /// Under strong fairness: look for a fair accepting cycle in a complete component,
    /// whose root `root` was just popped off the search's stack.
    fn check_strong(
        &mut self,
        root: &ProductState<M>,
        component: &[ProductState<M>],
        inside: &dyn Fn(&ProductState<M>, Option<u64>) -> bool,
    ) {
        let Some((inner, needed)) = self.streett(component, inside) else {
            return;
        };
        let whole: HashSet<ProductState<M>, FixedHasher> = component.iter().cloned().collect();
        let mut stem = self.stack_path(self.frames.len());
        if let Some(from) = self.frames.last().and_then(|parent| self.state_of(parent)) {
            let step = step_between(self.graph.product, &from, root, &mut Vec::new());
            stem.push(step);
        }
        // From the root to the fair part, inside the component.
        let entry = if inner.contains(root) {
            root.clone()
        } else {
            let Some((steps, _)) = self
                .graph
                .search(&whole, root, |next, _| inner.contains(next))
            else {
                return;
            };
            stem.extend(steps.iter().map(|(t, _)| *t));
            match steps.last() {
                Some((_, entry)) => entry.clone(),
                None => return,
            }
        };
        if let Some(cycle) = self.graph.cycle(&inner, &entry, &needed) {
            self.report_lasso(stem, &cycle);
        }
    }

    /// The recursive Streett check of a set of states (`states`; `inside` tells whether a
    /// state, with its key, is one of them): a strongly connected part of it that holds an
    /// accepting cycle on which every instance enabled somewhere steps, with the marks such
    /// a cycle must collect (the property's, and a step of each such instance); `None` if
    /// there is none.
    #[allow(clippy::type_complexity)]
    fn streett(
        &mut self,
        states: &[ProductState<M>],
        inside: &dyn Fn(&ProductState<M>, Option<u64>) -> bool,
    ) -> Option<(HashSet<ProductState<M>, FixedHasher>, Marks)> {
        let bits = self.graph.bits();
        let mut steps = Marks::empty(bits);
        let mut enabled_anywhere = Marks::empty(bits);
        // Each state's enabled instances, as an index into the few distinct sets of them
        // (4 bytes a state instead of a set's 16 or more).
        let mut distinct: Vec<Marks> = Vec::new();
        let mut index_of: HashMap<Marks, u32, FixedHasher> = HashMap::with_hasher(FixedHasher);
        let mut enabled_at: Vec<u32> = Vec::with_capacity(states.len());
        let mut internal = false;
        let mut successors = Vec::new();
        for state in states {
            self.stepper.tick();
            successors.clear();
            let (_, enabled) = self.graph.expand(state, &mut successors);
            for s in &successors {
                if let Outcome::Next(next) = &s.outcome {
                    if inside(next, self.stepper.key(next)) {
                        internal = true;
                        steps.add(&self.graph.edge(&Marks::empty(bits), s.transition));
                        if self.graph.product.is_accepting(state) {
                            steps.set(0);
                        }
                    }
                }
            }
            enabled_anywhere.add(&enabled);
            let index = *index_of.entry(enabled).or_insert_with_key(|enabled| {
                distinct.push(enabled.clone());
                (distinct.len() - 1) as u32
            });
            enabled_at.push(index);
        }
        drop(index_of);
        if !internal || !steps.has(0) {
            return None;
        }
        let mut never_stepping = enabled_anywhere.clone();
        never_stepping.remove(&steps);
        if never_stepping.is_empty() {
            let mut needed = enabled_anywhere;
            needed.set(0);
            return Some((states.iter().cloned().collect(), needed));
        }
        // A fair cycle here avoids every state where such an instance is enabled.
        let kept: Vec<ProductState<M>> = states
            .iter()
            .zip(&enabled_at)
            .filter(|&(_, &index)| !distinct[index as usize].meets(&never_stepping))
            .map(|(state, _)| state.clone())
            .collect();
        drop(enabled_at);
        for part in components(self.graph.product, &kept) {
            let set: HashSet<ProductState<M>, FixedHasher> = part.iter().cloned().collect();
            if let Some(found) = self.streett(&part, &|state, _| set.contains(state)) {
                return Some(found);
            }
        }
        None
    }

    /// The transitions between the first `count` states of the search's stack.
    fn stack_path(&self, count: usize) -> Vec<TransitionId> {
        let mut successors = Vec::new();
        self.frames[..count]
            .windows(2)
            .map(
                |pair| match (self.state_of(&pair[0]), self.state_of(&pair[1])) {
                    (Some(from), Some(to)) => {
                        step_between(self.graph.product, &from, &to, &mut successors)
                    }
                    _ => UNREPLAYABLE,
                },
            )
            .collect()
    }

    /// The state of `frame`, on the component stack.
    fn state_of(&self, frame: &Frame) -> Option<ProductState<M>> {
        self.live_state(frame.number as usize - 1)
    }

    /// The live state at `index` (from 0) of the component stack.
    fn live_state(&self, index: usize) -> Option<ProductState<M>> {
        let product = self.graph.product;
        self.active.get(|word| product.state_from_word(word), index)
    }

    /// The live states from `start` (from 0) on, oldest first.
    fn live_states_from(&self, start: usize) -> Vec<ProductState<M>> {
        let product = self.graph.product;
        self.active
            .from(|word| product.state_from_word(word), start)
    }

    /// Records the lasso `stem` then `cycle`.
    fn report_lasso(&mut self, stem: Vec<TransitionId>, cycle: &[(TransitionId, ProductState<M>)]) {
        let model = self.graph.product.model();
        let info = self.stepper.info().clone();
        let mut message = violation_message(model, self.property);
        message.push_str(&format!(", under {}", self.graph.fairness));
        let cycle_start = stem.len();
        let mut steps = stem;
        steps.extend(cycle.iter().map(|(t, _)| *t));
        // A run that ends stutters: its stutters belong to the cycle, which is one stutter.
        let mut start = cycle_start;
        if steps[start..].iter().all(|&t| t == STUTTER) {
            while start > 0 && steps[start - 1] == STUTTER {
                start -= 1;
            }
            steps.truncate(start + 1);
        }
        let path = Path {
            steps,
            cycle: Some(start),
        };
        self.stepper
            .record_with(FindingKind::Property, &mut |buffer| {
                buffer.extend_from_slice(&path.steps);
                trace::rebuild_lasso(model, &info, &path, std::mem::take(&mut message))
            });
    }

    /// Records a fault of the step `via` from the top of `stack` (a model fault, or one of
    /// evaluating the predicates; with an empty stack, in the initial state).
    fn record_fault(&mut self, stack: &[ProductState<M>], fault: Fault, via: TransitionId) {
        let kind = trace::fault_kind(self.stepper.info(), fault);
        let product = self.graph.product;
        let property = self.property;
        let info = self.stepper.info().clone();
        // The path is rebuilt only if the finding's counterexample is kept: a search that
        // keeps going past many faults would rebuild it at each.
        self.stepper.record_with(kind, &mut |steps| {
            steps_along(product, stack, steps);
            if !stack.is_empty() {
                steps.push(via);
            }
            let model = product.model();
            trace::rebuild(model, &info, steps)
                .or_else(|_| trace::rebuild_predicate_fault(model, &info, steps, property))
        });
    }
}

#[cfg(any(test, feature = "oracle"))]
pub(crate) mod oracle;
#[cfg(test)]
mod tests;
