//! The brute force that symmetry reduction of pools (`thread[k] W`) is held against.
//!
//! A pool's group is no automorphism of the transition relation (`start` takes the lowest
//! free instance, so the image of a reachable state need not be reachable), only one up to
//! orbit: every image of a state steps as the state does, each transition leading into the
//! orbit of one of the state's successors. [`pool_orbits`] checks exactly that on every
//! reachable state and every image of it under the model's group (the images built with
//! `Model::encode`), and counts the orbits the reduced search must store.

use std::collections::HashSet;

use bir::model::{Model, Outcome, SymmetryInfo};

use crate::reduction::Orbits;

/// How a state steps, up to orbit: the least images of its successors (a multiset,
/// sorted), the sites of its faulting steps (sorted), whether it is a valid end state and
/// whether it satisfies the invariants.
type Steps = (Vec<Vec<i64>>, Vec<u32>, bool, bool);

fn steps_of<M: Model>(model: &M, symmetry: &SymmetryInfo, state: &M::State) -> Steps {
    let mut successors = Vec::new();
    model.successors(state, &mut successors);
    let mut next = Vec::new();
    let mut faults = Vec::new();
    let mut values = Vec::new();
    for successor in successors {
        match successor.outcome {
            Outcome::Next(s) => {
                model.decode(&s, &mut values);
                next.push(symmetry.orbit(&values).swap_remove(0));
            }
            Outcome::Fault(fault) => faults.push(fault.site),
        }
    }
    next.sort();
    faults.sort_unstable();
    (
        next,
        faults,
        model.is_end_state(state),
        model.check_invariants(state).is_ok(),
    )
}

/// Every reachable state of `model` (at most `limit`, else `Ok(None)`), each image of each
/// under the group checked to step as the state does up to orbit; the orbits counted.
/// `Err` with the first image that steps otherwise.
pub fn pool_orbits<M: Model>(model: &M, limit: usize) -> Result<Option<Orbits>, String> {
    let symmetry = model.symmetry().ok_or("the model declares no symmetry")?;
    let mut seen = HashSet::new();
    let mut stack = vec![model.initial_state()];
    seen.insert(model.initial_state());
    let mut orbits = Orbits {
        states: 0,
        deadlocks: 0,
        errors: 0,
    };
    let mut counted = HashSet::new();
    let mut values = Vec::new();
    while let Some(state) = stack.pop() {
        model.decode(&state, &mut values);
        let steps = steps_of(model, symmetry, &state);
        let images = symmetry.orbit(&values);
        for image in &images {
            let Some(other) = model.encode(image) else {
                return Err(format!("the image {image:?} of {values:?} does not encode"));
            };
            let theirs = steps_of(model, symmetry, &other);
            if theirs != steps {
                return Err(format!(
                    "the image {image:?} of the reachable state {values:?} under the group \
                     ({}) steps otherwise: {theirs:?} against {steps:?}",
                    symmetry.describe()
                ));
            }
        }
        if counted.insert(images[0].clone()) {
            orbits.states += 1;
            let (next, faults, end, _) = &steps;
            orbits.deadlocks += u64::from(next.is_empty() && faults.is_empty() && !end);
            orbits.errors += faults.len() as u64;
        }
        if !steps.3 {
            continue;
        }
        let mut successors = Vec::new();
        model.successors(&state, &mut successors);
        for successor in successors {
            if let Outcome::Next(next) = successor.outcome {
                if seen.insert(next.clone()) {
                    if seen.len() > limit {
                        return Ok(None);
                    }
                    stack.push(next);
                }
            }
        }
    }
    Ok(Some(orbits))
}
