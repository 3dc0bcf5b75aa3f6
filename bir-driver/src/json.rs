//! The report as one JSON object (`bir check --json`); the schema is documented in the
//! command line tool's crate docs (`bir-cli/src/main.rs`) and in the guide's chapter on the
//! command line (`docs/guide/cli.md`, "JSON").

use std::collections::BTreeMap;

use bir_runtime::model::{ModelInfo, SlotInfo, SlotKind, StateParts, STUTTER};
use bir_runtime::{
    Counterexample, Coverage, Fairness, FindingKind, IncompleteReason, Plan, Report, Storage,
    Strategy, Verdict,
};
use serde::Serialize;
use serde_json::Value;

use crate::parts::parts_json;

/// The whole report.
#[derive(Serialize)]
pub struct JsonReport {
    /// The system's name.
    model: String,
    /// The model file as given.
    file: String,
    /// `depth-first`, `breadth-first`, `parallel`, `nested-depth-first`, `fair-cycles`,
    /// `best-first`, `ordered-depth-first` or `swarm`.
    strategy: &'static str,
    /// What ran, as the plan resolved the options.
    plan: JsonPlan,
    /// `verified`, a finding kind, or `incomplete`.
    verdict: &'static str,
    /// Every reachable state was explored.
    complete: bool,
    /// What cut the search short, if anything.
    incomplete_reason: Option<&'static str>,
    states: u64,
    transitions: u64,
    errors: u64,
    deadlocks: u64,
    max_depth: u32,
    seconds: f64,
    /// The seen set's memory, and the process's peak resident memory (null where unknown).
    seen_set_bytes: usize,
    peak_memory_bytes: Option<usize>,
    /// With lossy storage, the estimated probability that a state was missed.
    omission_probability: Option<f64>,
    /// The kept counterexamples, the first finding first.
    counterexamples: Vec<JsonCounterexample>,
    /// Notes on how the run went.
    notes: Vec<String>,
    /// After a complete search of the model: what never happened (null otherwise).
    coverage: Option<JsonCoverage>,
    /// The searches of a swarm, in order (empty for another search).
    swarm_searches: Vec<JsonSwarmSearch>,
}

/// One search of a swarm, as it ended.
#[derive(Serialize)]
struct JsonSwarmSearch {
    /// The search in words (order, heuristic, tie-break seed).
    search: String,
    states: u64,
    transitions: u64,
    /// The kind of its first finding (null if none).
    found: Option<&'static str>,
    /// It started (a finding can stop a swarm before all its searches start).
    ran: bool,
}

/// What a complete search never saw happen.
#[derive(Serialize)]
struct JsonCoverage {
    /// Every transformation fired, every instance took a step, every location was reached,
    /// no invariant holds vacuously.
    full: bool,
    transformations: usize,
    fired_transformations: usize,
    /// Transformations no instance executed.
    never_fired: Vec<JsonUnfired>,
    /// Instances that never took a step.
    never_stepped: Vec<String>,
    /// Locations no instance stood at, as `Thread@location`.
    never_reached: Vec<String>,
    /// Invariant atoms constant over every reachable state.
    vacuous: Vec<JsonVacuous>,
}

/// An invariant atom constant over every reachable state.
#[derive(Serialize)]
struct JsonVacuous {
    invariant: String,
    atom: String,
    /// Its value in every reachable state.
    value: bool,
}

/// A transformation that never fired.
#[derive(Serialize)]
struct JsonUnfired {
    thread: String,
    from: String,
    text: String,
    line: u32,
}

/// The plan: what actually ran.
#[derive(Serialize)]
struct JsonPlan {
    strategy: &'static str,
    threads: usize,
    /// `exact`, `compact`, `hash-compaction` or `bitstate`.
    storage: &'static str,
    /// For bitstate hashing: log2 of the array's bits, and bits per state.
    bitstate_log2_bits: Option<u32>,
    bitstate_hashes: Option<u32>,
    /// How the seen set lays states out.
    layout: &'static str,
    /// Whether a complete search under this plan may say verified (false for lossy storage).
    can_verify: bool,
    /// The LTL property or reachability check, and the fairness assumed.
    property: Option<String>,
    fairness: &'static str,
    /// Partial-order reduction ran.
    por: bool,
    /// Symmetry reduction ran: the group, in words (null when it did not).
    symmetry: Option<String>,
    /// What ordered a best-first or ordered depth-first search, in words (`branch
    /// coverage`); for a swarm, the heuristic its searches were given first (null when
    /// none).
    heuristic: Option<String>,
    /// The searches of a swarm (null for another search).
    swarm: Option<usize>,
    notes: Vec<String>,
}

/// One counterexample (also what `bir replay --json` prints).
#[derive(Serialize)]
pub struct JsonCounterexample {
    kind: &'static str,
    message: String,
    /// For a failed assertion or a violated invariant, the variables its condition read
    /// and their values there, in source order.
    operands: Vec<JsonOperand>,
    initial_state: BTreeMap<String, Value>,
    /// For a model with channels, locks or functions, its channels, locks and call stacks
    /// in the initial state, read from the hidden slots `initial_state` lists (see
    /// [`crate::parts`]); left out for a model without.
    #[serde(skip_serializing_if = "Option::is_none")]
    initial_parts: Option<Vec<Value>>,
    steps: Vec<JsonStep>,
    /// For a lasso, the index in `steps` where its cycle starts (the steps from there on
    /// repeat forever, back to `final_state`).
    cycle_start: Option<usize>,
    /// When this trace replaced the search's own as a shorter one, the original's length.
    shortened_from: Option<usize>,
    final_state: BTreeMap<String, Value>,
    /// `initial_parts` in the final state.
    #[serde(skip_serializing_if = "Option::is_none")]
    final_parts: Option<Vec<Value>>,
    replay: String,
}

/// One step of a counterexample.
#[derive(Serialize)]
struct JsonStep {
    transition: u32,
    thread: String,
    from: String,
    to: String,
    text: String,
    line: u32,
    /// The step is the failing last one: it changes nothing.
    fails: bool,
    /// The step repeats a final state (a lasso's run that ends stutters): no thread moves.
    stutter: bool,
    changes: Vec<JsonChange>,
    /// For a model with records, the objects the step allocated (`Node#2`, numbered after
    /// the step); absent when none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    allocated: Vec<String>,
    /// The objects the collector removed at its end (numbered before it); absent when none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    collected: Vec<String>,
    /// The objects that lived through it under another number; absent when none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    renumbered: Vec<JsonRenumbered>,
}

/// An object a step renumbered: its name before and after (`Node#1`, `Node#2`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct JsonRenumbered {
    /// Its name before the step.
    pub from: String,
    /// Its name after the step.
    pub to: String,
}

/// What a step did to the heap, by the objects' names (`Node#2`), as the JSON of a
/// counterexample's step and the explorer's say it: the objects allocated (numbered after
/// the step), collected (numbered before it) and renumbered. All empty for a step of a
/// model without records, or one that left the heap's objects as they were.
pub fn heap_changes(
    parts: &StateParts,
    step: &bir_runtime::Step,
) -> (Vec<String>, Vec<String>, Vec<JsonRenumbered>) {
    let renumbered = step
        .heap
        .iter()
        .flat_map(|h| &h.kept)
        .filter(|k| k.before != k.after)
        .map(|k| JsonRenumbered {
            from: object_name(parts, k.record, k.before),
            to: object_name(parts, k.record, k.after),
        })
        .collect();
    (
        heap_names(parts, step, |h| &h.allocated),
        heap_names(parts, step, |h| &h.collected),
        renumbered,
    )
}

/// One variable a failing check read.
#[derive(Serialize)]
struct JsonOperand {
    variable: String,
    value: Value,
}

/// One variable a step changed.
#[derive(Serialize)]
struct JsonChange {
    variable: String,
    old: Value,
    new: Value,
}

impl JsonReport {
    /// The JSON form of `report` on the model in `file`.
    pub fn new(report: &Report, file: &str) -> JsonReport {
        let stats = report.stats();
        JsonReport {
            model: report.name().to_string(),
            file: file.to_string(),
            strategy: strategy_name(report.strategy()),
            plan: plan(report.plan()),
            verdict: verdict_name(report.verdict()),
            complete: report.is_complete(),
            incomplete_reason: report.incomplete_reason().map(reason_name),
            states: stats.states,
            transitions: stats.transitions,
            errors: stats.errors,
            deadlocks: stats.deadlocks,
            max_depth: stats.max_depth,
            seconds: stats.elapsed.as_secs_f64(),
            seen_set_bytes: stats.seen_bytes,
            peak_memory_bytes: stats.peak_memory,
            omission_probability: stats.omission_probability,
            counterexamples: report
                .findings()
                .iter()
                .map(|c| counterexample(report.info(), c))
                .collect(),
            notes: report.notes().to_vec(),
            coverage: report.coverage().map(coverage),
            swarm_searches: report
                .swarm_searches()
                .iter()
                .map(|search| JsonSwarmSearch {
                    search: search.search.clone(),
                    states: search.states,
                    transitions: search.transitions,
                    found: search.found.map(kind_name),
                    ran: search.ran,
                })
                .collect(),
        }
    }
}

fn coverage(coverage: &Coverage) -> JsonCoverage {
    let (fired, all) = coverage.transformations();
    JsonCoverage {
        full: coverage.is_full(),
        transformations: all,
        fired_transformations: fired,
        never_fired: coverage
            .unfired()
            .iter()
            .map(|u| JsonUnfired {
                thread: u.thread.clone(),
                from: u.from.clone(),
                text: u.text.clone(),
                line: u.line,
            })
            .collect(),
        never_stepped: coverage.idle_instances().to_vec(),
        never_reached: coverage
            .unreached_locations()
            .iter()
            .map(|(thread, location)| format!("{thread}@{location}"))
            .collect(),
        vacuous: coverage
            .vacuous()
            .iter()
            .map(|v| JsonVacuous {
                invariant: v.invariant.clone(),
                atom: v.atom.clone(),
                value: v.value,
            })
            .collect(),
    }
}

fn strategy_name(strategy: Strategy) -> &'static str {
    match strategy {
        Strategy::DepthFirst => "depth-first",
        Strategy::BreadthFirst => "breadth-first",
        Strategy::Parallel => "parallel",
        Strategy::Distributed => "distributed",
        Strategy::Simulation => "simulation",
        Strategy::NestedDepthFirst => "nested-depth-first",
        Strategy::FairCycles => "fair-cycles",
        Strategy::BestFirst => "best-first",
        Strategy::OrderedDepthFirst => "ordered-depth-first",
        Strategy::Swarm => "swarm",
        _ => "other",
    }
}

fn plan(plan: &Plan) -> JsonPlan {
    let (storage, log2_bits, hashes) = match plan.storage {
        Storage::Bitstate { log2_bits, hashes } => ("bitstate", Some(log2_bits), Some(hashes)),
        Storage::HashCompaction => ("hash-compaction", None, None),
        Storage::Compact => ("compact", None, None),
        _ => ("exact", None, None),
    };
    JsonPlan {
        strategy: strategy_name(plan.strategy),
        threads: plan.threads,
        storage,
        bitstate_log2_bits: log2_bits,
        bitstate_hashes: hashes,
        layout: plan.layout,
        can_verify: plan.can_verify(),
        property: plan.property.clone(),
        fairness: match plan.fairness {
            Fairness::Weak => "weak",
            Fairness::Strong => "strong",
            _ => "none",
        },
        por: plan.por,
        symmetry: plan.symmetry.clone(),
        heuristic: plan.heuristic.clone(),
        swarm: (plan.strategy == Strategy::Swarm).then_some(plan.swarm),
        notes: plan.notes.clone(),
    }
}

/// `verified`, `deadlock`, `assertion`, `invariant`, `range`, `index`, `division`,
/// `start` or `incomplete`.
pub fn verdict_name(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Verified => "verified",
        Verdict::Found(kind) => kind_name(kind),
        Verdict::Reached => "reached",
        Verdict::Unreachable => "unreachable",
        _ => "incomplete",
    }
}

/// The JSON name of a finding kind (`deadlock`, `invariant`, ...).
pub fn kind_name(kind: FindingKind) -> &'static str {
    match kind {
        FindingKind::Deadlock => "deadlock",
        FindingKind::Invariant => "invariant",
        FindingKind::Assertion => "assertion",
        FindingKind::Range => "range",
        FindingKind::Index => "index",
        FindingKind::Division => "division",
        FindingKind::Start => "start",
        FindingKind::Stack => "stack",
        FindingKind::Lock => "lock",
        FindingKind::Heap => "heap",
        FindingKind::Null => "null",
        FindingKind::Uncaught => "uncaught_exception",
        FindingKind::Property => "property",
        FindingKind::Reached => "witness",
        _ => "error",
    }
}

fn reason_name(reason: IncompleteReason) -> &'static str {
    match reason {
        IncompleteReason::DepthLimit => "depth_limit",
        IncompleteReason::StateLimit => "state_limit",
        IncompleteReason::TimeLimit => "time_limit",
        IncompleteReason::MemoryLimit => "memory_limit",
        IncompleteReason::Cancelled => "cancelled",
        IncompleteReason::HashCompaction => "hash_compaction",
        IncompleteReason::Bitstate => "bitstate",
        IncompleteReason::Simulation => "simulation",
        _ => "other",
    }
}

impl JsonCounterexample {
    /// The JSON form of `c`, a counterexample of the model `info` describes.
    pub fn new(info: &ModelInfo, c: &Counterexample) -> JsonCounterexample {
        counterexample(info, c)
    }
}

/// `Node#2`: object `number` of record type `record` (an index in [`StateParts::heaps`]).
fn object_name(parts: &StateParts, record: usize, number: u32) -> String {
    let record = parts.heaps().get(record).map_or("?", |h| h.record.as_str());
    format!("{record}#{number}")
}

/// The names of the objects `list` picks from the step's [`HeapStep`](bir_runtime::model::heap::steps::HeapStep).
fn heap_names(
    parts: &StateParts,
    step: &bir_runtime::Step,
    list: fn(
        &bir_runtime::model::heap::steps::HeapStep,
    ) -> &Vec<bir_runtime::model::heap::steps::ObjectRef>,
) -> Vec<String> {
    step.heap
        .iter()
        .flat_map(|h| list(h).iter())
        .map(|o| object_name(parts, o.record, o.number))
        .collect()
}

fn counterexample(info: &ModelInfo, c: &Counterexample) -> JsonCounterexample {
    let parts = StateParts::new(info);
    let parts_of = |values: &[i64]| (!parts.is_empty()).then(|| parts_json(info, &parts, values));
    let steps = c
        .steps()
        .iter()
        .map(|step| {
            let t = info.transitions.get(step.transition as usize);
            let text = |f: fn(&bir_runtime::model::TransitionInfo) -> &str| {
                t.map(|t| f(t).to_string()).unwrap_or_default()
            };
            let (allocated, collected, renumbered) = heap_changes(&parts, step);
            JsonStep {
                transition: step.transition,
                thread: text(|t| t.thread.as_ref()),
                from: text(|t| t.from.as_ref()),
                to: text(|t| t.to.as_ref()),
                text: text(|t| t.text.as_ref()),
                line: t.map_or(0, |t| t.line),
                fails: step.fault.is_some(),
                stutter: step.transition == STUTTER,
                allocated,
                collected,
                renumbered,
                changes: step
                    .changes
                    .iter()
                    .filter_map(|change| {
                        let slot = info.slots.get(change.slot as usize)?;
                        Some(JsonChange {
                            variable: slot_name(slot),
                            old: value(slot, change.old),
                            new: value(slot, change.new),
                        })
                    })
                    .collect(),
            }
        })
        .collect();
    JsonCounterexample {
        kind: kind_name(c.kind()),
        message: c.message().to_string(),
        operands: c
            .operands()
            .iter()
            .filter_map(|operand| {
                let slot = info.slots.get(operand.slot as usize)?;
                Some(JsonOperand {
                    variable: slot_name(slot),
                    value: value(slot, operand.value),
                })
            })
            .collect(),
        initial_state: state(info, c.initial_state()),
        initial_parts: parts_of(c.initial_state()),
        steps,
        cycle_start: c.cycle_start(),
        shortened_from: c.shortened_from(),
        final_state: state(info, c.final_state()),
        final_parts: parts_of(c.final_state()),
        replay: c.replay().to_string(),
    }
}

/// A decoded state as variable name → value.
fn state(info: &ModelInfo, values: &[i64]) -> BTreeMap<String, Value> {
    info.slots
        .iter()
        .zip(values)
        .map(|(slot, &v)| (slot_name(slot), value(slot, v)))
        .collect()
}

/// `x`, `fork[3]`, `Philosopher[1]` (a status), `P[2].level`.
pub fn slot_name(slot: &SlotInfo) -> String {
    match slot.element {
        Some(index) => format!("{}[{index}]", slot.name),
        None => slot.name.to_string(),
    }
}

/// A value in the model's terms: a boolean, a number, `"Enum.Variant"`, or for a status the
/// location's name, `"ended"` or `"not started"`, for a tid `"null"` or the instance (`"W[0]"`). A value outside its slot's kind (which a
/// correct model never produces) is its number.
pub fn value(slot: &SlotInfo, v: i64) -> Value {
    let index = usize::try_from(v).ok();
    match &slot.kind {
        SlotKind::Bool if v == 0 || v == 1 => Value::Bool(v == 1),
        SlotKind::Enum { name, variants } => match index.and_then(|i| variants.get(i)) {
            Some(variant) => Value::String(format!("{name}.{variant}")),
            None => Value::from(v),
        },
        SlotKind::Status { locations } => match index {
            Some(i) if i < locations.len() => Value::String(locations[i].to_string()),
            Some(i) if i == locations.len() => Value::String("ended".to_string()),
            Some(i) if i == locations.len() + 1 => Value::String("not started".to_string()),
            _ => Value::from(v),
        },
        SlotKind::Reference { .. } if v == 0 => Value::Null,
        SlotKind::Reference { record } => Value::String(format!("{record}#{v}")),
        SlotKind::Tid { .. } if v == 0 => Value::String("null".to_string()),
        SlotKind::Tid { .. } => match slot.kind.instance(v) {
            Some(instance) => Value::String(instance.to_string()),
            None => Value::from(v),
        },
        _ => Value::from(v),
    }
}

#[cfg(test)]
mod tests {
    use bir_interp::Interpreter;
    use bir_runtime::Checker;

    use super::*;

    #[test]
    fn a_heap_models_steps_say_what_they_allocated_collected_and_renumbered() {
        let model = Interpreter::from_source(crate::html::tests::LIST).unwrap();
        let report = Checker::new(model).bfs().progress(false).run();
        let found = &report.findings()[0];
        let json = serde_json::to_value(counterexample(found.info(), found)).unwrap();
        let steps = json["steps"].as_array().unwrap();
        assert_eq!(steps[0]["allocated"], serde_json::json!(["Node#1"]));
        assert!(steps[1].get("allocated").is_none(), "{}", steps[1]);
        let drop = &steps[7];
        assert_eq!(drop["collected"], serde_json::json!(["Node#1"]), "{drop}");
        assert_eq!(
            drop["renumbered"],
            serde_json::json!([{"from": "Node#2", "to": "Node#1"}])
        );
    }

    #[test]
    fn a_tid_reads_as_the_instance_it_names_or_null() {
        let source = "system S { tid t; thread[2] W() { loc body: do { } return; }
            active thread M() { loc l: do { t := start W(); } goto m;
                                loc m: do { assert (t == null); } return; } }";
        let model = Interpreter::from_source(source).unwrap();
        let report = Checker::new(model).progress(false).run();
        let json = serde_json::to_value(JsonReport::new(&report, "s.bir")).unwrap();
        let found = &json["counterexamples"][0];
        assert_eq!(found["kind"], "assertion");
        assert_eq!(
            found["steps"][0]["changes"][0],
            serde_json::json!({"variable": "t", "old": "null", "new": "W[0]"})
        );
    }

    #[test]
    fn a_counterexample_has_steps_changes_and_states_in_model_terms() {
        let source = "system S { enum C { R, G } C c; boolean b; int (0, 3) n;
            active thread T() { loc l: do { c := C.G; b := true; n := 2; } goto m;
                                loc m: do { assert (n == 3); } return; } }";
        let model = Interpreter::from_source(source).unwrap();
        let report = Checker::new(model).progress(false).run();
        let json = serde_json::to_value(JsonReport::new(&report, "s.bir")).unwrap();
        assert_eq!(json["verdict"], "assertion");
        assert_eq!(json["complete"], false);
        assert_eq!(json["incomplete_reason"], Value::Null);
        let found = &json["counterexamples"][0];
        assert_eq!(found["kind"], "assertion");
        assert_eq!(found["replay"], "bir1:0.1");
        let first = &found["steps"][0];
        assert_eq!(
            (&first["from"], &first["to"], &first["fails"]),
            (&"l".into(), &"m".into(), &false.into())
        );
        let changes = &first["changes"];
        assert_eq!(
            changes[0],
            serde_json::json!({"variable": "c", "old": "C.R", "new": "C.G"})
        );
        assert_eq!(
            changes[1],
            serde_json::json!({"variable": "b", "old": false, "new": true})
        );
        assert_eq!(
            changes[3],
            serde_json::json!({"variable": "T", "old": "l", "new": "m"})
        );
        assert_eq!(found["steps"][1]["fails"], true);
        assert_eq!(found["final_state"]["n"], 2);
        assert_eq!(found["final_state"]["T"], "m");
    }
}
