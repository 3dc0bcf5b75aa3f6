//! The report as one JSON object (`bir check --json`); the schema is documented in the
//! crate docs (`main.rs`) and in the README's "Command line" section.

use std::collections::BTreeMap;

use bir_runtime::{
    Counterexample, FindingKind, IncompleteReason, ModelInfo, Report, SlotInfo, SlotKind, Strategy,
    Verdict,
};
use serde::Serialize;
use serde_json::Value;

/// The whole report.
#[derive(Serialize)]
pub struct JsonReport {
    /// The system's name.
    model: String,
    /// The model file as given.
    file: String,
    /// `depth-first` or `breadth-first`.
    strategy: &'static str,
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
    /// The kept counterexamples, the first finding first.
    counterexamples: Vec<JsonCounterexample>,
}

/// One counterexample.
#[derive(Serialize)]
struct JsonCounterexample {
    kind: &'static str,
    message: String,
    initial_state: BTreeMap<String, Value>,
    steps: Vec<JsonStep>,
    final_state: BTreeMap<String, Value>,
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
    changes: Vec<JsonChange>,
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
            strategy: match report.strategy() {
                Strategy::BreadthFirst => "breadth-first",
                _ => "depth-first",
            },
            verdict: verdict_name(report.verdict()),
            complete: report.is_complete(),
            incomplete_reason: report.incomplete_reason().map(reason_name),
            states: stats.states,
            transitions: stats.transitions,
            errors: stats.errors,
            deadlocks: stats.deadlocks,
            max_depth: stats.max_depth,
            seconds: stats.elapsed.as_secs_f64(),
            counterexamples: report
                .findings()
                .iter()
                .map(|c| counterexample(report.info(), c))
                .collect(),
        }
    }
}

/// `verified`, `deadlock`, `assertion`, `invariant`, `range`, `index`, `division`,
/// `start` or `incomplete`.
pub fn verdict_name(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Verified => "verified",
        Verdict::Found(kind) => kind_name(kind),
        _ => "incomplete",
    }
}

fn kind_name(kind: FindingKind) -> &'static str {
    match kind {
        FindingKind::Deadlock => "deadlock",
        FindingKind::Invariant => "invariant",
        FindingKind::Assertion => "assertion",
        FindingKind::Range => "range",
        FindingKind::Index => "index",
        FindingKind::Division => "division",
        FindingKind::Start => "start",
        _ => "error",
    }
}

fn reason_name(reason: IncompleteReason) -> &'static str {
    match reason {
        IncompleteReason::DepthLimit => "depth_limit",
        IncompleteReason::StateLimit => "state_limit",
        IncompleteReason::TimeLimit => "time_limit",
        IncompleteReason::MemoryLimit => "memory_limit",
        IncompleteReason::HashCompaction => "hash_compaction",
        IncompleteReason::Bitstate => "bitstate",
        IncompleteReason::Simulation => "simulation",
        _ => "other",
    }
}

fn counterexample(info: &ModelInfo, c: &Counterexample) -> JsonCounterexample {
    let steps = c
        .steps()
        .iter()
        .map(|step| {
            let t = info.transitions.get(step.transition as usize);
            let text = |f: fn(&bir_runtime::TransitionInfo) -> &str| {
                t.map(|t| f(t).to_string()).unwrap_or_default()
            };
            JsonStep {
                transition: step.transition,
                thread: text(|t| t.thread.as_ref()),
                from: text(|t| t.from.as_ref()),
                to: text(|t| t.to.as_ref()),
                text: text(|t| t.text.as_ref()),
                line: t.map_or(0, |t| t.line),
                fails: step.fault.is_some(),
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
        initial_state: state(info, c.initial_state()),
        steps,
        final_state: state(info, c.final_state()),
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
fn slot_name(slot: &SlotInfo) -> String {
    match slot.element {
        Some(index) => format!("{}[{index}]", slot.name),
        None => slot.name.to_string(),
    }
}

/// A value in the model's terms: a boolean, a number, `"Enum.Variant"`, or for a status the
/// location's name, `"ended"` or `"not started"`. A value outside its slot's kind (which a
/// correct model never produces) is its number.
fn value(slot: &SlotInfo, v: i64) -> Value {
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
        _ => Value::from(v),
    }
}

#[cfg(test)]
mod tests {
    use bir_interp::Interpreter;
    use bir_runtime::Checker;

    use super::*;

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
