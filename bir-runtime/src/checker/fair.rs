//! LTL under fairness: a depth-first search of the product for strongly connected
//! components that hold a fair accepting cycle (LANGUAGE.md: weak and strong fairness,
//! over thread instances).
//!
//! The search is Tarjan's, as Couvreur arranged it ("On-the-fly verification of linear
//! temporal logic", 1999): each root of a component on the stack carries the marks of the
//! edges merged into its component. An edge carries the property's mark when it leaves an
//! accepting product state, and, for weak fairness, the mark of every instance that it is
//! a step of or that is disabled where it starts ("stepped or disabled"): a component whose
//! marks are all present holds a cycle that is accepting and weakly fair (a generalized
//! Büchi condition, one set per instance; no copies of the graph). It is reported as soon
//! as its marks are complete.
//!
//! Strong fairness is a Streett condition (if an instance is enabled infinitely often, it
//! steps infinitely often), checked on each component when it is complete, by the
//! recursive decomposition of Emerson and Lei: a component in which some enabled instance
//! never steps loses the states where that instance is enabled, and what is left is split
//! into components again, until one is accepting and fair or none is left.
//!
//! The counterexample is a lasso: the search's path to the component, then a cycle inside
//! it through an edge of every mark it needs, found by breadth-first searches in the
//! component.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet, VecDeque};

use crate::model::{Fault, Model, Outcome, Successor, TransitionId, STUTTER};
use crate::property::Fairness;
use crate::replay::Path;
use crate::report::Report;
use crate::seen::{FixedHasher, Keying, StateTable, Store, WordTable};
use crate::trace::{self, FindingKind};

use super::core::{Role, Run, Stepper, Visit};
use super::dfs::taken;
use super::ndfs::violation_message;
use super::product::{Product, Scratch};

type ProductState<M> = (<M as Model>::State, u32);

/// A set of marks: bit 0 is the property's, bit `1 + i` instance `i`'s. One word for
/// models of up to 63 instances (no allocation per edge), several beyond.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Marks {
    Word(u64),
    Words(Box<[u64]>),
}

impl Marks {
    fn empty(bits: usize) -> Marks {
        if bits <= 64 {
            Marks::Word(0)
        } else {
            Marks::Words(vec![0; bits.div_ceil(64)].into_boxed_slice())
        }
    }

    fn full(bits: usize) -> Marks {
        let mut marks = Marks::empty(bits);
        for bit in 0..bits {
            marks.set(bit);
        }
        marks
    }

    fn words(&self) -> &[u64] {
        match self {
            Marks::Word(word) => std::slice::from_ref(word),
            Marks::Words(words) => words,
        }
    }

    fn words_mut(&mut self) -> &mut [u64] {
        match self {
            Marks::Word(word) => std::slice::from_mut(word),
            Marks::Words(words) => words,
        }
    }

    fn set(&mut self, bit: usize) {
        self.words_mut()[bit / 64] |= 1 << (bit % 64);
    }

    fn has(&self, bit: usize) -> bool {
        self.words()[bit / 64] & (1 << (bit % 64)) != 0
    }

    fn add(&mut self, other: &Marks) {
        for (word, other) in self.words_mut().iter_mut().zip(other.words()) {
            *word |= other;
        }
    }

    fn remove(&mut self, other: &Marks) {
        for (word, other) in self.words_mut().iter_mut().zip(other.words()) {
            *word &= !other;
        }
    }

    fn covers(&self, other: &Marks) -> bool {
        self.words()
            .iter()
            .zip(other.words())
            .all(|(a, b)| a & b == *b)
    }

    fn meets(&self, other: &Marks) -> bool {
        self.words()
            .iter()
            .zip(other.words())
            .any(|(a, b)| a & b != 0)
    }

    fn is_empty(&self) -> bool {
        self.words().iter().all(|&word| word == 0)
    }
}

/// A state on the search's stack: the next of its steps to take, and what every edge
/// leaving it carries besides the step's own instance. Only the top state's steps are held
/// (in `Fair::steps`); a parent's are computed again when the search returns to it, as in
/// `dfs.rs`, so that a deep search holds one state per level.
struct Frame<S> {
    state: S,
    next: usize,
    base: Marks,
    /// At the depth limit: its steps are not explored.
    cut: bool,
}

/// Runs the search for fair accepting cycles of LTL property `property`.
pub(crate) fn run<M: Model>(run: Run<'_, M>, property: usize) -> Report {
    let product = Product::new(run.model, property);
    let fairness = run.plan.fairness;
    let product_run = run.over_product(&product);
    match product_run.keying {
        Keying::State => search(product_run, property, fairness, StateTable::new()),
        Keying::Word => search(product_run, property, fairness, WordTable::new(0, false)),
        Keying::Fingerprint => search(product_run, property, fairness, WordTable::new(0, true)),
    }
}

/// The edges and marks of the product, for one fairness.
struct Graph<'a, M: Model> {
    product: &'a Product<'a, M>,
    fairness: Fairness,
    /// Instances of the model, and the instance of each transition.
    instances: usize,
    instance_of: Vec<usize>,
    /// The buffers of one expansion, reused: the product's own sit behind a lock, and the
    /// enabled transitions would be a new `Vec` per state.
    buffers: RefCell<(Scratch<M::State>, Vec<TransitionId>)>,
}

impl<M: Model> Graph<'_, M> {
    fn bits(&self) -> usize {
        1 + self.instances
    }

    /// The steps of `state` and what every edge from it carries besides the instance that
    /// steps: the property's mark if `state` is accepting; under weak fairness the marks of
    /// the instances disabled in `state`. Also the instances enabled there.
    fn expand(
        &self,
        state: &ProductState<M>,
        out: &mut Vec<Successor<ProductState<M>>>,
    ) -> (Marks, Marks) {
        let mut buffers = self.buffers.borrow_mut();
        let (scratch, enabled_transitions) = &mut *buffers;
        enabled_transitions.clear();
        self.product
            .successors_and_enabled(state, out, enabled_transitions, scratch);
        let mut enabled = Marks::empty(self.bits());
        for &transition in enabled_transitions.iter() {
            if let Some(&instance) = self.instance_of.get(transition as usize) {
                enabled.set(1 + instance);
            }
        }
        let mut base = Marks::empty(self.bits());
        if self.product.is_accepting(state) {
            base.set(0);
        }
        if self.fairness == Fairness::Weak {
            for instance in 0..self.instances {
                if !enabled.has(1 + instance) {
                    base.set(1 + instance);
                }
            }
        }
        (base, enabled)
    }

    /// The marks of the edge by `transition` from a state whose edges carry `base`.
    fn edge(&self, base: &Marks, transition: TransitionId) -> Marks {
        let mut marks = base.clone();
        if transition != STUTTER {
            if let Some(&instance) = self.instance_of.get(transition as usize) {
                marks.set(1 + instance);
            }
        }
        marks
    }

    /// The edges from `state` that stay in `inside`, with their marks.
    fn edges_within(
        &self,
        state: &ProductState<M>,
        inside: &HashSet<ProductState<M>, FixedHasher>,
    ) -> Vec<(TransitionId, ProductState<M>, Marks)> {
        let mut successors = Vec::new();
        let (base, _) = self.expand(state, &mut successors);
        successors
            .into_iter()
            .filter_map(|s| match s.outcome {
                Outcome::Next(next) if inside.contains(&next) => {
                    let marks = self.edge(&base, s.transition);
                    Some((s.transition, next, marks))
                }
                _ => None,
            })
            .collect()
    }

    /// A path inside `inside` from `from` through an edge of every mark of `needed`, back
    /// to `from`, of at least one step: the cycle of a lasso. Breadth-first searches, one
    /// per mark still needed.
    fn cycle(
        &self,
        inside: &HashSet<ProductState<M>, FixedHasher>,
        from: &ProductState<M>,
        needed: &Marks,
    ) -> Option<Vec<(TransitionId, ProductState<M>)>> {
        let mut needed = needed.clone();
        let mut path = Vec::new();
        let mut current = from.clone();
        while !needed.is_empty() {
            let (steps, marks) = self.search(inside, &current, |_, marks| marks.meets(&needed))?;
            needed.remove(&marks);
            current = steps.last()?.1.clone();
            path.extend(steps);
        }
        if path.is_empty() || current != *from {
            let (steps, _) = self.search(inside, &current, |next, _| next == from)?;
            path.extend(steps);
        }
        Some(path)
    }

    /// The shortest path of at least one edge inside `inside` from `from` whose last edge
    /// (into a state, with its marks) satisfies `goal`, with the marks of all its edges.
    #[allow(clippy::type_complexity)]
    fn search(
        &self,
        inside: &HashSet<ProductState<M>, FixedHasher>,
        from: &ProductState<M>,
        goal: impl Fn(&ProductState<M>, &Marks) -> bool,
    ) -> Option<(Vec<(TransitionId, ProductState<M>)>, Marks)> {
        let mut parent: HashMap<
            ProductState<M>,
            (ProductState<M>, TransitionId, Marks),
            FixedHasher,
        > = HashMap::with_hasher(FixedHasher);
        let mut queue = VecDeque::from([from.clone()]);
        let mut visited: HashSet<ProductState<M>, FixedHasher> = HashSet::with_hasher(FixedHasher);
        visited.insert(from.clone());
        while let Some(state) = queue.pop_front() {
            for (transition, next, marks) in self.edges_within(&state, inside) {
                if goal(&next, &marks) {
                    // Walk back from `state` to `from`.
                    let mut steps = vec![(transition, next)];
                    let mut all = marks;
                    let mut at = state.clone();
                    while at != *from {
                        let Some((before, via, edge_marks)) = parent.get(&at) else {
                            break;
                        };
                        steps.push((*via, at.clone()));
                        all.add(edge_marks);
                        at = before.clone();
                    }
                    steps.reverse();
                    return Some((steps, all));
                }
                if visited.insert(next.clone()) {
                    parent.insert(next.clone(), (state.clone(), transition, marks));
                    queue.push_back(next);
                }
            }
        }
        None
    }
}

/// The search.
struct Fair<'a, M: Model> {
    graph: Graph<'a, M>,
    property: usize,
    stepper: Stepper<'a, Product<'a, M>>,
    frames: Vec<Frame<ProductState<M>>>,
    /// The search numbers of the states on the component stack.
    live: HashMap<ProductState<M>, u32, FixedHasher>,
    /// The component stack: states in the order they were numbered.
    active: Vec<(u32, ProductState<M>)>,
    /// The roots of the components on the stack, with the marks merged into each.
    roots: Vec<(u32, Marks)>,
    counter: u32,
    /// Every mark, for the weak fairness test.
    all: Marks,
    /// The steps of the top state.
    steps: Vec<Successor<ProductState<M>>>,
}

fn search<'a, M: Model, T: Store<ProductState<M>> + crate::seen::Footprint>(
    run: Run<'a, Product<'a, M>>,
    property: usize,
    fairness: Fairness,
    mut seen: T,
) -> Report {
    let product = run.model;
    let info = product.info();
    let instance_of: Vec<usize> = info
        .transitions
        .iter()
        .map(|t| t.instance as usize)
        .collect();
    let instances = instance_of.iter().map(|&i| i + 1).max().unwrap_or(0);
    let mut fair = Fair {
        graph: Graph {
            product,
            fairness,
            instances,
            instance_of,
            buffers: RefCell::new((Scratch::new(), Vec::new())),
        },
        property,
        stepper: run.stepper(Role::Alone),
        frames: Vec::new(),
        live: HashMap::with_hasher(FixedHasher),
        active: Vec::new(),
        roots: Vec::new(),
        counter: 0,
        all: Marks::full(1 + instances),
        steps: Vec::new(),
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
                    fair.push(state, Marks::empty(bits));
                    fair.explore(&mut seen);
                }
                if fair.stepper.is_stopped() {
                    break;
                }
            }
        }
    }
    let extra = fair.live.capacity() * std::mem::size_of::<(ProductState<M>, u32)>();
    fair.stepper.finish(run.plan, &seen, extra)
}

impl<'a, M: Model> Fair<'a, M> {
    /// Numbers a new state and pushes it, as a component of its own, reached by an edge
    /// with `marks`.
    fn push(&mut self, state: ProductState<M>, marks: Marks) {
        let depth = self.frames.len() as u32;
        self.steps.clear();
        self.stepper.tick();
        let (base, _) = self.graph.expand(&state, &mut self.steps);
        let cut = self.stepper.at_depth_limit(depth);
        if cut {
            self.steps.clear();
        }
        self.counter += 1;
        self.live.insert(state.clone(), self.counter);
        self.active.push((self.counter, state.clone()));
        self.roots.push((self.counter, marks));
        if self.stepper.reserve(&mut self.frames, 1) {
            self.frames.push(Frame {
                state,
                next: 0,
                base,
                cut,
            });
        }
    }

    fn explore(&mut self, seen: &mut impl Store<ProductState<M>>) {
        while !self.stepper.is_stopped() {
            let Some(frame) = self.frames.last_mut() else {
                return;
            };
            let Some(successor) = self.steps.get(frame.next).cloned() else {
                self.finish_top();
                continue;
            };
            frame.next += 1;
            let marks = self.graph.edge(&frame.base, successor.transition);
            let depth = (self.frames.len() - 1) as u32;
            match self.stepper.visit(depth, &successor, seen) {
                Visit::New => {
                    if let Outcome::Next(next) = successor.outcome {
                        self.push(next, marks);
                    }
                }
                Visit::Seen => {
                    if let Outcome::Next(next) = &successor.outcome {
                        if let Some(&number) = self.live.get(next) {
                            self.merge(number, marks);
                        }
                    }
                }
                Visit::Fault(_) => {
                    if let Outcome::Fault(fault) = successor.outcome {
                        let stack: Vec<ProductState<M>> =
                            self.frames.iter().map(|f| f.state.clone()).collect();
                        self.record_fault(&stack, fault, successor.transition);
                    }
                }
                Visit::Violating(kind) => {
                    let mut path = self.stack_path(self.frames.len());
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

    /// An edge with `marks` back into the live state numbered `number`: every component
    /// on the stack above it merges into one. Under weak fairness, a merged component with
    /// every mark holds a fair accepting cycle.
    fn merge(&mut self, number: u32, marks: Marks) {
        let mut merged = marks;
        while self.roots.len() > 1 && self.roots[self.roots.len() - 1].0 > number {
            if let Some((_, popped)) = self.roots.pop() {
                merged.add(&popped);
            }
        }
        let Some(root) = self.roots.last_mut() else {
            return;
        };
        root.1.add(&merged);
        if self.graph.fairness == Fairness::Weak && root.1.covers(&self.all) {
            let root_number = root.0;
            self.report_weak(root_number);
        }
    }

    /// Done with the top state: if it roots a component, the component is complete (and,
    /// under strong fairness, checked), and leaves the stack.
    fn finish_top(&mut self) {
        let Some(frame) = self.frames.pop() else {
            return;
        };
        // Back to the parent: its steps again.
        self.steps.clear();
        if let Some(parent) = self.frames.last() {
            if !parent.cut {
                self.stepper.tick();
                self.graph.expand(&parent.state, &mut self.steps);
            }
        }
        let number = self.live.get(&frame.state).copied().unwrap_or(0);
        if self.roots.last().map(|r| r.0) != Some(number) {
            return;
        }
        self.roots.pop();
        let start = self.active.partition_point(|(n, _)| *n < number);
        let component: Vec<ProductState<M>> =
            self.active.drain(start..).map(|(_, state)| state).collect();
        for state in &component {
            self.live.remove(state);
        }
        if self.graph.fairness == Fairness::Strong {
            self.check_strong(&frame.state, component);
        }
    }

    /// Under weak fairness: the component rooted at the state numbered `root` has every
    /// mark; report a lasso through it.
    fn report_weak(&mut self, root: u32) {
        let start = self.active.partition_point(|(n, _)| *n < root);
        let inside: HashSet<ProductState<M>, FixedHasher> = self.active[start..]
            .iter()
            .map(|(_, state)| state.clone())
            .collect();
        let entry = self.active[start].1.clone();
        let Some(at) = self.frames.iter().position(|f| f.state == entry) else {
            return;
        };
        let stem = self.stack_path(at + 1);
        let needed = Marks::full(self.graph.bits());
        let Some(cycle) = self.graph.cycle(&inside, &entry, &needed) else {
            return;
        };
        self.report_lasso(stem, &cycle);
    }

    /// Under strong fairness: look for a fair accepting cycle in a complete component,
    /// whose root `root` was just popped off the search's stack.
    fn check_strong(&mut self, root: &ProductState<M>, component: Vec<ProductState<M>>) {
        let Some((inner, needed)) = self.streett(component.clone()) else {
            return;
        };
        let whole: HashSet<ProductState<M>, FixedHasher> = component.into_iter().collect();
        let mut stem = self.stack_path(self.frames.len());
        if let Some(parent) = self.frames.last() {
            stem.push(step_between(self.graph.product, &parent.state, root));
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

    /// The recursive Streett check of a set of states: a strongly connected part of it
    /// that holds an accepting cycle on which every instance enabled somewhere steps, with
    /// the marks such a cycle must collect (the property's, and a step of each such
    /// instance); `None` if there is none.
    #[allow(clippy::type_complexity)]
    fn streett(
        &mut self,
        states: Vec<ProductState<M>>,
    ) -> Option<(HashSet<ProductState<M>, FixedHasher>, Marks)> {
        let bits = self.graph.bits();
        let inside: HashSet<ProductState<M>, FixedHasher> =
            states.iter().cloned().collect::<HashSet<_, _>>();
        let mut steps = Marks::empty(bits);
        let mut enabled_anywhere = Marks::empty(bits);
        let mut enabled_at: Vec<Marks> = Vec::with_capacity(states.len());
        let mut internal = false;
        for state in &states {
            self.stepper.tick();
            let mut successors = Vec::new();
            let (_, enabled) = self.graph.expand(state, &mut successors);
            for s in &successors {
                if let Outcome::Next(next) = &s.outcome {
                    if inside.contains(next) {
                        internal = true;
                        steps.add(&self.graph.edge(&Marks::empty(bits), s.transition));
                        if self.graph.product.is_accepting(state) {
                            steps.set(0);
                        }
                    }
                }
            }
            enabled_anywhere.add(&enabled);
            enabled_at.push(enabled);
        }
        if !internal || !steps.has(0) {
            return None;
        }
        let mut never_stepping = enabled_anywhere.clone();
        never_stepping.remove(&steps);
        if never_stepping.is_empty() {
            let mut needed = enabled_anywhere;
            needed.set(0);
            return Some((inside, needed));
        }
        // A fair cycle here avoids every state where such an instance is enabled.
        let kept: Vec<ProductState<M>> = states
            .into_iter()
            .zip(&enabled_at)
            .filter(|(_, enabled)| !enabled.meets(&never_stepping))
            .map(|(state, _)| state)
            .collect();
        for part in components(self.graph.product, &kept) {
            if let Some(found) = self.streett(part) {
                return Some(found);
            }
        }
        None
    }

    /// The transitions between the first `count` states of the search's stack.
    fn stack_path(&self, count: usize) -> Vec<TransitionId> {
        self.frames[..count]
            .windows(2)
            .map(|pair| step_between(self.graph.product, &pair[0].state, &pair[1].state))
            .collect()
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
        let mut path: Vec<TransitionId> = stack
            .windows(2)
            .map(|pair| step_between(product, &pair[0], &pair[1]))
            .collect();
        if !stack.is_empty() {
            path.push(via);
        }
        self.stepper.record_with(kind, &mut |steps| {
            steps.extend_from_slice(&path);
            let model = product.model();
            trace::rebuild(model, &info, steps)
                .or_else(|_| trace::rebuild_predicate_fault(model, &info, steps, property))
        });
    }
}

/// The first transition from `from` to `to` in the product.
fn step_between<M: Model>(
    product: &Product<'_, M>,
    from: &ProductState<M>,
    to: &ProductState<M>,
) -> TransitionId {
    let mut successors = Vec::new();
    product.successors(from, &mut successors);
    // An id that cannot be replayed makes the rebuild fail with a clear note.
    taken(&successors, to).map_or(TransitionId::MAX - 1, |i| successors[i].transition)
}

/// The strongly connected components of the product restricted to `states` that hold a
/// cycle (more than one state, or a state with a step to itself): Tarjan's, iteratively.
fn components<M: Model>(
    product: &Product<'_, M>,
    states: &[ProductState<M>],
) -> Vec<Vec<ProductState<M>>> {
    let number: HashMap<&ProductState<M>, usize, FixedHasher> = states
        .iter()
        .enumerate()
        .map(|(i, s)| (s, i))
        .collect::<HashMap<_, _, _>>();
    let edges: Vec<Vec<usize>> = states
        .iter()
        .map(|state| {
            let mut successors = Vec::new();
            product.successors(state, &mut successors);
            successors
                .iter()
                .filter_map(|s| match &s.outcome {
                    Outcome::Next(next) => number.get(next).copied(),
                    Outcome::Fault(_) => None,
                })
                .collect()
        })
        .collect();
    let count = states.len();
    const NONE: usize = usize::MAX;
    let (mut index, mut low) = (vec![NONE; count], vec![0; count]);
    let (mut stack, mut on_stack) = (Vec::new(), vec![false; count]);
    let mut next_index = 0;
    let mut found = Vec::new();
    for root in 0..count {
        if index[root] != NONE {
            continue;
        }
        let mut frames = vec![(root, 0)];
        index[root] = next_index;
        low[root] = next_index;
        next_index += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (node, ref mut position)) = frames.last_mut() {
            if let Some(&next) = edges[node].get(*position) {
                *position += 1;
                if index[next] == NONE {
                    index[next] = next_index;
                    low[next] = next_index;
                    next_index += 1;
                    stack.push(next);
                    on_stack[next] = true;
                    frames.push((next, 0));
                } else if on_stack[next] {
                    low[node] = low[node].min(index[next]);
                }
                continue;
            }
            frames.pop();
            if let Some(&(parent, _)) = frames.last() {
                low[parent] = low[parent].min(low[node]);
            }
            if low[node] == index[node] {
                let mut members = Vec::new();
                while let Some(member) = stack.pop() {
                    on_stack[member] = false;
                    members.push(member);
                    if member == node {
                        break;
                    }
                }
                let cyclic = members.len() > 1 || edges[node].contains(&node);
                if cyclic {
                    found.push(members.into_iter().map(|m| states[m].clone()).collect());
                }
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::super::product::Product;
    use crate::model::{Model, Outcome, STUTTER};
    use crate::test_models::{AutomatonTable, Graph, NOT_INFINITELY_OFTEN_P, NOT_P_LEADS_TO_Q};
    use crate::{Checker, Fairness, FindingKind, Verdict};

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
    fn brute_force(graph: &Graph, fairness: Fairness) -> bool {
        let product = Product::new(graph, 0);
        let Ok(initial) = product.initial_states() else {
            return false;
        };
        let mut states: Vec<(u8, u32)> = Vec::new();
        let mut work = initial;
        while let Some(state) = work.pop() {
            if states.contains(&state) {
                continue;
            }
            let mut successors = Vec::new();
            product.successors(&state, &mut successors);
            for s in successors {
                if let Outcome::Next(next) = s.outcome {
                    work.push(next);
                }
            }
            states.push(state);
        }
        assert!(states.len() <= 16, "{}", states.len());
        let instance_of = |t: u32| graph.info().transitions[t as usize].instance;
        let edges: Vec<Vec<(u32, usize)>> = states
            .iter()
            .map(|state| {
                let mut successors = Vec::new();
                product.successors(state, &mut successors);
                successors
                    .into_iter()
                    .filter_map(|s| match s.outcome {
                        Outcome::Next(next) => {
                            Some((s.transition, states.iter().position(|x| *x == next)?))
                        }
                        Outcome::Fault(_) => None,
                    })
                    .collect()
            })
            .collect();
        let enabled: Vec<HashSet<u32>> = states
            .iter()
            .map(|(node, _)| {
                let mut successors = Vec::new();
                graph.successors(node, &mut successors);
                successors
                    .iter()
                    .map(|s| instance_of(s.transition))
                    .collect()
            })
            .collect();
        let instances: HashSet<u32> = (0..graph.info().transitions.len() as u32)
            .map(instance_of)
            .collect();
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
            if internal.is_empty() || !members.iter().any(|&i| product.is_accepting(&states[i])) {
                return false;
            }
            let steps: HashSet<u32> = internal
                .iter()
                .filter(|(_, t)| *t != STUTTER)
                .map(|&(_, t)| instance_of(t))
                .collect();
            instances.iter().all(|instance| match fairness {
                Fairness::Weak => {
                    steps.contains(instance)
                        || members.iter().any(|&i| !enabled[i].contains(instance))
                }
                Fairness::Strong => {
                    steps.contains(instance)
                        || members.iter().all(|&i| !enabled[i].contains(instance))
                }
                _ => true,
            })
        })
    }

    #[test]
    fn every_fairness_agrees_with_a_brute_force_search_on_small_graphs() {
        let automata = [NOT_INFINITELY_OFTEN_P, NOT_P_LEADS_TO_Q, NEVER_P];
        // BIR_FAIR_SEED and BIR_FAIR_CASES explore further (the default runs in CI).
        let seed = std::env::var("BIR_FAIR_SEED")
            .ok()
            .and_then(|s| s.parse().ok());
        let cases = std::env::var("BIR_FAIR_CASES")
            .ok()
            .and_then(|s| s.parse().ok());
        let cases: usize = cases.unwrap_or(600);
        let mut random = Random(seed.unwrap_or(11));
        let mut violated = [0; 3];
        for case in 0..cases {
            let nodes = 1 + random.below(4) as u8;
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
            let graph = graph.ltl("P", automata[case % 3]);
            for (slot, fairness) in [Fairness::None, Fairness::Weak, Fairness::Strong]
                .into_iter()
                .enumerate()
            {
                let expected = brute_force(&graph, fairness);
                let checker = Checker::new(graph.clone()).ltl("P");
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
}
