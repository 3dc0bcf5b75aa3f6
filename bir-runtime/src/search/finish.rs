//! The end of every search: one function turns what the threads counted and found, and how
//! the run ended, into the [`Report`].

use std::sync::Arc;

use crate::model::ModelInfo;
use crate::report::Coverage;
use crate::report::{Report, Stats};
use crate::store::Footprint;
use crate::verdict::FindingKind;
use crate::verdict::{IncompleteReason, Strategy, Verdict};

use crate::plan::Options;
use crate::plan::Plan;
use crate::search::control::Control;
use crate::search::core::Tally;
use crate::search::memory;

/// Writes the report. The verdict is the first finding, else the limit that cut the search
/// (a lossy seen set counts as one), else verified.
///
/// `seen` is the seen set, for its memory and, if lossy, the chance that it missed a state;
/// `extra_bytes` what the frontier keeps per stored state beside it (parent links).
pub(crate) fn finish(
    options: &Options,
    control: &Control,
    plan: Plan,
    info: Arc<ModelInfo>,
    tally: Tally,
    seen: &dyn Footprint,
    extra_bytes: usize,
) -> Report {
    let ending = control.ending();
    let mut limit = ending.limit;
    if plan.strategy == Strategy::Simulation && !control.is_stopped() {
        // A depth limit only bounded walks; what a simulation lacks is coverage.
        limit = Some(IncompleteReason::Simulation);
    }
    let mut omission_probability = None;
    if let Some((reason, probability)) = seen.omission(tally.states) {
        // A lossy seen set never lets a search say verified.
        limit.get_or_insert(reason);
        omission_probability = Some(probability);
    }
    let reachability = plan.property.is_some() && plan.strategy == Strategy::BreadthFirst;
    let verdict = match (tally.kinds.first(), limit) {
        (Some(&FindingKind::Reached), _) => Verdict::Reached,
        (Some(&kind), _) => Verdict::Found(kind),
        (None, Some(reason)) => Verdict::Incomplete { reason },
        (None, None) if reachability => Verdict::Unreachable,
        (None, None) => Verdict::Verified,
    };
    let stats = Stats {
        states: tally.states,
        transitions: tally.transitions,
        errors: tally.errors,
        deadlocks: tally.deadlocks,
        max_depth: tally.max_depth,
        elapsed: control.started.elapsed(),
        seen_bytes: seen.bytes() + extra_bytes,
        peak_memory: memory::peak_resident(),
        walks: tally.walks,
        omission_probability,
    };
    let exhaustive = matches!(
        plan.strategy,
        Strategy::DepthFirst
            | Strategy::BreadthFirst
            | Strategy::Parallel
            | Strategy::Distributed
            | Strategy::BestFirst
            | Strategy::OrderedDepthFirst
    );
    let complete = !ending.at_finding && limit.is_none();
    // Coverage of the model's own transitions, after a search that executed all of them.
    let coverage =
        (complete && exhaustive && !plan.por && plan.symmetry.is_none() && plan.property.is_none())
            .then(|| {
                Coverage::new(&info, &tally.fired.0, &tally.initial).with_vacuity(
                    &info,
                    &tally.atoms_info,
                    tally.atoms,
                )
            });
    let mut notes = tally.notes;
    if limit == Some(IncompleteReason::MemoryLimit) {
        notes.extend(compact_hint(control, &plan, stats.seen_bytes));
    }
    Report {
        info,
        plan,
        deadlock_detection: options.deadlock_detection,
        verdict,
        complete,
        coverage,
        incomplete: limit,
        findings: tally.findings,
        stats,
        notes,
        property: None,
        swarm: Vec::new(),
    }
}

/// For a search that the memory limit stopped after it had room to grow (the limit was
/// above what the process held at the start), in a table where compact storage would
/// serve: the option that stores the same states, and a depth-first path, in less.
fn compact_hint(control: &Control, plan: &Plan, held: usize) -> Option<String> {
    let room = control.memory_room()?;
    (plan.compact_serves && room > 0).then(|| {
        format!(
            "the memory limit stopped the search with the seen set at {}; compact storage \
             (`bir check --compact`, `Checker::storage(Storage::Compact)`) stores the same \
             states exactly in a few bytes each, and a depth-first path as step numbers: it \
             may finish within the limit",
            crate::units::Bytes(held)
        )
    })
}
