//! The canonical heap (LANGUAGE.md, "Records and the heap": garbage collected and the
//! objects renumbered by the walk from the roots after every step) checked independently of
//! the walk, by brute force, on `BIR_DIFF_HEAP_INTERPRETED` random heap models (default
//! 300; [`generate_heap`]: one or two record types with bounds 1 to 3, one or two threads
//! that allocate, link, unlink and drop references) from `BIR_DIFF_SEED` (default 1):
//!
//! - every raw state the interpreter reaches in allocation order
//!   (`Interpreter::with_heap_order(HeapOrder::Allocation)`: garbage is removed, objects stay
//!   where they were allocated) is mapped to the least image of its decoded values under
//!   every renaming of the objects within each record type (every permutation of each
//!   type's object slots, their `live(R)` and `R#f` slots — an array field's elements
//!   object by object — moving together and every reference slot rewritten): the number of those classes is the number of states a
//!   complete search with the canonical heap stores, and the classes of the canonical
//!   states are exactly those classes, one state each;
//! - renaming keeps what a state can do: the states of one class have as many successors,
//!   faulting steps among them, and the canonical search counts the faulting steps and
//!   deadlocks of one state per class.
//!
//! On the first third of the same models, as the interpreter fuzz target does, the
//! reductions keep what the full search finds (partial-order reduction, symmetry reduction,
//! which keeps every family of a model with records fixed, and both), in no more states,
//! compact storage stores what exact storage stores, and random walks run.
//!
//! The generated checkers agree with the interpreter on such models too: `build.rs` writes
//! `BIR_DIFF_HEAP` of them (default 4) into the differential test's run.

#[path = "common/reduction.rs"]
#[allow(dead_code)]
mod reduction;

use std::collections::{HashMap, HashSet};

use bir::model::heap::HeapOrder;
use bir::model::{Model, Outcome, SlotKind};
use bir::{Checker, Storage};
use bir_difftest::generate_heap;
use bir_interp::Interpreter;
use reduction::{configure, reduction_difference};

fn env_number(name: &str) -> Option<u64> {
    std::env::var(name).ok()?.trim().parse().ok()
}

/// Models whose raw state space is larger than this are left out (and counted).
const MAX_RAW: usize = 30_000;

/// Where a model's objects and references lie among its decoded values.
struct Layout {
    /// Per record type: its bound and the slot groups that move with an object (its `live`
    /// slots and each field's slots, each indexed by object).
    records: Vec<(usize, Vec<Vec<usize>>)>,
    /// Every reference slot with the index of its record type in `records`.
    references: Vec<(usize, usize)>,
}

impl Layout {
    /// The layout of `model`, from the names and kinds of its slots alone.
    fn of<M: Model>(model: &M) -> Layout {
        let slots = &model.info().slots;
        let mut names: Vec<String> = Vec::new();
        let mut groups: Vec<HashMap<String, Vec<(u32, usize)>>> = Vec::new();
        for (index, slot) in slots.iter().enumerate() {
            let (record, group) = if let Some(record) = slot
                .name
                .strip_prefix("live(")
                .and_then(|rest| rest.strip_suffix(')'))
            {
                (record.to_string(), "live".to_string())
            } else if let Some((record, field)) = slot.name.split_once('#') {
                (record.to_string(), field.to_string())
            } else {
                continue;
            };
            let r = match names.iter().position(|n| *n == record) {
                Some(r) => r,
                None => {
                    names.push(record);
                    groups.push(HashMap::new());
                    names.len() - 1
                }
            };
            let element = slot
                .element
                .expect("a heap slot is an element of its array");
            groups[r].entry(group).or_default().push((element, index));
        }
        let records = groups
            .into_iter()
            .map(|groups| {
                let mut lists: Vec<Vec<usize>> = groups
                    .into_values()
                    .map(|mut group| {
                        group.sort_unstable();
                        for (j, &(element, _)) in group.iter().enumerate() {
                            assert_eq!(element as usize, j, "the elements in order");
                        }
                        group.into_iter().map(|(_, slot)| slot).collect()
                    })
                    .collect();
                lists.sort();
                // One `live` slot per object; an array field of n elements has n slots
                // per object, object by object.
                let bound = lists.iter().map(Vec::len).min().unwrap_or(0);
                assert!(lists.iter().all(|l| bound > 0 && l.len() % bound == 0));
                (bound, lists)
            })
            .collect();
        let references = slots
            .iter()
            .enumerate()
            .filter_map(|(index, slot)| match &slot.kind {
                SlotKind::Reference { record } => Some((
                    index,
                    names
                        .iter()
                        .position(|n| n == &**record)
                        .expect("a reference names a record type with objects"),
                )),
                _ => None,
            })
            .collect();
        Layout {
            records,
            references,
        }
    }

    /// Every renaming: per record type, a permutation of its objects (old index to new).
    fn renamings(&self) -> Vec<Vec<Vec<usize>>> {
        let mut all: Vec<Vec<Vec<usize>>> = vec![Vec::new()];
        for (bound, _) in &self.records {
            let perms = permutations(*bound);
            all = all
                .into_iter()
                .flat_map(|prefix| {
                    perms.iter().map(move |p| {
                        let mut next = prefix.clone();
                        next.push(p.clone());
                        next
                    })
                })
                .collect();
        }
        all
    }

    /// The image of `values` under `renaming`.
    fn rename(&self, values: &[i64], renaming: &[Vec<usize>]) -> Vec<i64> {
        let mut image = values.to_vec();
        for ((bound, groups), perm) in self.records.iter().zip(renaming) {
            for group in groups {
                let per = group.len() / bound;
                for (j, &to) in perm.iter().enumerate() {
                    for e in 0..per {
                        image[group[to * per + e]] = values[group[j * per + e]];
                    }
                }
            }
        }
        for &(slot, r) in &self.references {
            let v = image[slot];
            if v >= 1 && (v as usize) <= self.records[r].0 {
                image[slot] = renaming[r][v as usize - 1] as i64 + 1;
            }
        }
        image
    }

    /// The least image of `values` under every renaming: the key of its class.
    fn class(&self, values: &[i64], renamings: &[Vec<Vec<usize>>]) -> Vec<i64> {
        renamings
            .iter()
            .map(|renaming| self.rename(values, renaming))
            .min()
            .expect("the identity")
    }
}

/// Every permutation of `0..n`.
fn permutations(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![Vec::new()];
    }
    let mut all = Vec::new();
    for smaller in permutations(n - 1) {
        for at in 0..n {
            let mut p = smaller.clone();
            p.insert(at, n - 1);
            all.push(p);
        }
    }
    all
}

/// What a state can do: its successors, the faulting steps among them, and whether it is
/// a valid end state.
type Steps = (usize, usize, bool);

/// Every reachable state of `model`, decoded, with its steps; `None` past `MAX_RAW`.
fn reachable<M: Model>(model: &M) -> Option<Vec<(Vec<i64>, Steps)>> {
    let mut seen = HashSet::new();
    let mut stack = vec![model.initial_state()];
    seen.insert(model.initial_state());
    let (mut successors, mut values) = (Vec::new(), Vec::new());
    let mut found = Vec::new();
    while let Some(state) = stack.pop() {
        model.decode(&state, &mut values);
        successors.clear();
        model.successors(&state, &mut successors);
        let faults = successors
            .iter()
            .filter(|s| matches!(s.outcome, Outcome::Fault(_)))
            .count();
        let end = model.is_end_state(&state);
        found.push((values.clone(), (successors.len(), faults, end)));
        for successor in successors.drain(..) {
            if let Outcome::Next(next) = successor.outcome {
                if seen.insert(next.clone()) {
                    if seen.len() > MAX_RAW {
                        return None;
                    }
                    stack.push(next);
                }
            }
        }
    }
    Some(found)
}

/// What one model gave.
enum Outcome2 {
    /// Checked: the number of classes and the number of raw states.
    Checked { classes: usize, raw: usize },
    /// Too large for the brute force.
    TooLarge,
}

/// The brute-force check of `source`; a failure says what differs.
fn check(source: &str) -> Result<Outcome2, String> {
    let canonical = Interpreter::from_source(source)
        .map_err(|errors| format!("the front end rejects it: {errors:?}"))?;
    let raw_model = canonical.clone().with_heap_order(HeapOrder::Allocation);
    let layout = Layout::of(&raw_model);
    let renamings = layout.renamings();
    let Some(raw) = reachable(&raw_model) else {
        return Ok(Outcome2::TooLarge);
    };
    // The classes of the raw states, with what each member can do.
    let mut classes: HashMap<Vec<i64>, Steps> = HashMap::new();
    for (values, steps) in &raw {
        let key = layout.class(values, &renamings);
        if let Some(before) = classes.insert(key, *steps) {
            if before != *steps {
                return Err(format!(
                    "two raw states of one class step otherwise ({before:?} and {steps:?}): \
                     {values:?}"
                ));
            }
        }
    }
    let canonical_states =
        reachable(&canonical).ok_or("the canonical heap has more states than the raw one")?;
    let mut met: HashMap<Vec<i64>, Vec<i64>> = HashMap::new();
    for (values, steps) in &canonical_states {
        let key = layout.class(values, &renamings);
        match classes.get(&key) {
            None => {
                return Err(format!(
                    "the canonical state {values:?} is in no class of the raw states"
                ))
            }
            Some(raw_steps) if raw_steps != steps => {
                return Err(format!(
                    "the canonical state {values:?} steps otherwise than its class \
                     ({steps:?} against {raw_steps:?})"
                ))
            }
            Some(_) => {}
        }
        if let Some(other) = met.insert(key, values.clone()) {
            return Err(format!(
                "two canonical states of one class: {other:?} and {values:?}"
            ));
        }
    }
    if met.len() != classes.len() {
        return Err(format!(
            "{} classes of raw states, {} canonical states",
            classes.len(),
            met.len()
        ));
    }
    let report = Checker::new(canonical).keep_going(0).progress(false).run();
    let deadlocks = classes
        .values()
        .filter(|&&(steps, _, end)| steps == 0 && !end)
        .count() as u64;
    let errors: u64 = classes.values().map(|&(_, faults, _)| faults as u64).sum();
    if report.states() != classes.len() as u64
        || report.errors() != errors
        || report.deadlocks() != deadlocks
    {
        return Err(format!(
            "the canonical search: {} states, {} errors, {} deadlocks; the classes: {} \
             states, {errors} faulting steps, {deadlocks} deadlocks",
            report.states(),
            report.errors(),
            report.deadlocks(),
            classes.len()
        ));
    }
    Ok(Outcome2::Checked {
        classes: classes.len(),
        raw: raw.len(),
    })
}

#[test]
fn the_canonical_heap_stores_one_state_per_class_of_renamed_objects() {
    let seed = env_number("BIR_DIFF_SEED").unwrap_or(1);
    let count = env_number("BIR_DIFF_HEAP_INTERPRETED").unwrap_or(300);
    let mut failures = Vec::new();
    let (mut checked, mut large, mut reduced) = (0u64, 0u64, 0u64);
    // Models with an array field of references (`R1[2] a;`) among the checked ones.
    let mut arrays = 0u64;
    let (mut classes_total, mut raw_total) = (0, 0);
    for i in 0..count {
        let model_seed = seed.wrapping_mul(1_000_081).wrapping_add(i);
        let source = generate_heap(&format!("H{i}"), model_seed);
        match check(&source) {
            Ok(Outcome2::Checked { classes, raw }) => {
                checked += 1;
                classes_total += classes;
                raw_total += raw;
                reduced += u64::from(classes < raw);
                arrays += u64::from(source.contains("[2] a;"));
            }
            Ok(Outcome2::TooLarge) => large += 1,
            Err(failure) => failures.push(format!("seed {model_seed}: {failure}\n{source}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {count} heap models fail (BIR_DIFF_SEED={seed}):\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    eprintln!(
        "{checked} of {count} heap models checked ({large} too large, {arrays} with array \
         fields): {classes_total} canonical states for {raw_total} raw ones; renaming merged \
         states in {reduced} models (BIR_DIFF_SEED={seed})"
    );
    assert!(
        arrays * 5 >= checked,
        "array fields in enough models: {arrays}"
    );
    assert!(checked * 10 >= count * 9, "most models are small enough");
    assert!(
        reduced * 4 >= checked,
        "renaming merges states in many models"
    );
}

/// What differs between the reduced, compact and full searches of `source`, if anything.
fn reductions(source: &str) -> Result<(), String> {
    let interpreter = Interpreter::from_source(source)
        .map_err(|errors| format!("the front end rejects it: {errors:?}"))?;
    let checker = Checker::new(interpreter);
    for bfs in [false, true] {
        let full = configure(checker.clone(), bfs).run();
        let reduced = [
            ("partial-order reduction", checker.clone().por(true)),
            ("symmetry", checker.clone().symmetry(true)),
            ("both reductions", checker.clone().por(true).symmetry(true)),
        ];
        for (what, reduced) in reduced {
            let report = configure(reduced, bfs).run();
            if let Some(difference) = reduction_difference(&full, &report) {
                return Err(format!("{what} (bfs: {bfs}): {difference}"));
            }
            if what == "symmetry" && report.states() != full.states() {
                return Err(format!(
                    "symmetry (bfs: {bfs}) keeps every family fixed, yet stores {} states \
                     of {}",
                    report.states(),
                    full.states()
                ));
            }
        }
        let compact = configure(checker.clone().storage(Storage::Compact), bfs).run();
        let counts = |r: &bir::Report| (r.states(), r.transitions(), r.errors(), r.deadlocks());
        if counts(&compact) != counts(&full) {
            return Err(format!(
                "compact storage (bfs: {bfs}): {:?} against {:?}",
                counts(&compact),
                counts(&full)
            ));
        }
    }
    let _ = checker.simulate(5, 200, 7);
    Ok(())
}

#[test]
fn reductions_and_storages_keep_what_the_full_search_finds_on_heap_models() {
    let seed = env_number("BIR_DIFF_SEED").unwrap_or(1);
    // A third of the brute force's models: each takes ten searches.
    let count = env_number("BIR_DIFF_HEAP_INTERPRETED").unwrap_or(300) / 3;
    let mut failures = Vec::new();
    for i in 0..count {
        let model_seed = seed.wrapping_mul(1_000_081).wrapping_add(i);
        let source = generate_heap(&format!("H{i}"), model_seed);
        if let Err(failure) = reductions(&source) {
            failures.push(format!("seed {model_seed}: {failure}\n{source}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {count} heap models fail (BIR_DIFF_SEED={seed}):\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

mod frames {
    bir::bir!(file = "heap/frames.bir");
}
mod rendezvous {
    bir::bir!(file = "heap/rendezvous.bir");
}
mod cycles {
    bir::bir!(file = "heap/cycles.bir");
}

/// `(states, transitions, errors, deadlocks)` of a complete search of `model`.
fn counts<M: Model>(model: M) -> (u64, u64, u64, u64) {
    let report = Checker::new(model).keep_going(0).progress(false).run();
    assert!(report.is_complete(), "{report}");
    (
        report.states(),
        report.transitions(),
        report.errors(),
        report.deadlocks(),
    )
}

/// Where the generator does not go (`heap/*.bir`): references in a function's frames, over
/// a rendezvous, in cycles and self-loops, from a replicated family, read by an invariant.
/// The brute force holds for each, and the generated checker counts what the interpreter
/// counts, the canonical heap fewer states than allocation order.
#[test]
fn frames_rendezvous_and_cycles_by_brute_force_and_in_both_engines() {
    let read = |name: &str| {
        let path = format!("{}/tests/heap/{name}.bir", env!("CARGO_MANIFEST_DIR"));
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    };
    let compiled = [
        ("frames", counts(frames::HeapFrames)),
        ("rendezvous", counts(rendezvous::HeapRendezvous)),
        ("cycles", counts(cycles::HeapCycles)),
    ];
    for (name, compiled) in compiled {
        let source = read(name);
        match check(&source) {
            Ok(Outcome2::Checked { classes, raw }) => {
                assert_eq!(classes as u64, compiled.0, "{name}: the compiled checker");
                assert!(classes < raw, "{name}: renaming merges states");
            }
            Ok(Outcome2::TooLarge) => panic!("{name} is too large"),
            Err(failure) => panic!("{name}: {failure}"),
        }
        let interpreter = Interpreter::from_source(&source).expect("the model compiles");
        assert_eq!(counts(interpreter), compiled, "{name}: the interpreter");
    }
}
