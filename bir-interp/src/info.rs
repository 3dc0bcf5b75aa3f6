//! The runtime's [`ModelInfo`] from the shared [`Tables`]: the same rows the generated code
//! turns into its `static INFO`, so both describe a model identically.

use std::borrow::Cow;

use bir_codegen::emit::tables::{self, Tables};
use bir_codegen::ir;
use bir_runtime::model::{
    Automaton, AutomatonEdge, AutomatonState, HeuristicInfo, InvariantInfo, ModelInfo, Partner,
    PropertyInfo, PropertyKind, SlotInfo, SlotKind, TransitionInfo,
};

/// The description of `system`, whose tables are `tables`.
pub(crate) fn model_info(system: &ir::System, tables: &Tables) -> ModelInfo {
    let names = |names: &[String]| -> Cow<'static, [Cow<'static, str>]> {
        names.iter().map(|n| Cow::Owned(n.clone())).collect()
    };
    let slots = tables
        .slots
        .iter()
        .map(|slot| SlotInfo {
            name: slot.name.clone().into(),
            element: slot.element,
            kind: match slot.kind {
                tables::SlotKind::Bool => SlotKind::Bool,
                tables::SlotKind::Int => SlotKind::Int,
                tables::SlotKind::Enum(id) => SlotKind::Enum {
                    name: system.enums[id].name.clone().into(),
                    variants: names(&system.enums[id].variants),
                },
                tables::SlotKind::Ref(record) => SlotKind::Reference {
                    record: system.hidden.records[record].name.clone().into(),
                },
                tables::SlotKind::Status(thread) => {
                    let locations: Vec<String> = system.threads[thread]
                        .locations
                        .iter()
                        .map(|l| l.name.clone())
                        .collect();
                    SlotKind::Status {
                        locations: names(&locations),
                    }
                }
                tables::SlotKind::Tid => {
                    let instances: Vec<String> = system
                        .threads
                        .iter()
                        .flat_map(|t| (0..t.instances()).map(|index| t.instance_name(index)))
                        .collect();
                    SlotKind::Tid {
                        instances: names(&instances),
                    }
                }
            },
        })
        .collect();
    let transitions = tables
        .transitions
        .iter()
        .map(|row| TransitionInfo {
            thread: row.instance_name.clone().into(),
            instance: row.instance.0,
            from: row.from.clone().into(),
            to: row.to.clone().into(),
            text: row.text.clone().into(),
            line: row.line,
            partner: row
                .partner
                .zip(row.sides)
                .map(|((_, partner, _), sides)| Partner {
                    instance: partner.0,
                    sides,
                }),
        })
        .collect();
    // The IR's fault sites are the model contract's own.
    let fault_sites: Vec<_> = tables.fault_sites.iter().cloned().collect();
    let invariants = tables
        .invariants
        .iter()
        .map(|inv| InvariantInfo {
            name: inv.name.clone().into(),
            text: inv.text.clone().into(),
            line: inv.line,
        })
        .collect();
    ModelInfo {
        name: tables.name.clone().into(),
        slots,
        transitions,
        fault_sites: fault_sites.into(),
        invariants,
    }
}

/// The heuristics of `system` as the runtime describes them (the generated code's table).
pub(crate) fn heuristics(system: &ir::System) -> Vec<HeuristicInfo> {
    system
        .heuristics
        .iter()
        .map(|heuristic| HeuristicInfo {
            name: heuristic.name.clone().into(),
            text: heuristic.text.clone().into(),
            line: heuristic.line,
        })
        .collect()
}

/// The properties of `system` as the runtime describes them: names, texts, predicates and
/// each formula's automaton (the same tables the generated code holds).
pub(crate) fn properties(system: &ir::System) -> Vec<PropertyInfo> {
    system
        .properties
        .iter()
        .map(|property| PropertyInfo {
            name: property.name.clone().into(),
            text: property.text.clone().into(),
            line: property.line,
            propositions: property
                .atom_texts
                .iter()
                .map(|text| text.clone().into())
                .collect::<Vec<_>>()
                .into(),
            kind: match &property.automaton {
                None => PropertyKind::Reachable,
                Some(automaton) => PropertyKind::Ltl {
                    automaton: Automaton {
                        states: automaton
                            .edges
                            .iter()
                            .zip(&automaton.accepting)
                            .map(|(edges, &accepting)| AutomatonState {
                                accepting,
                                edges: edges
                                    .iter()
                                    .map(|e| AutomatonEdge {
                                        to: e.to,
                                        positive: e.positive,
                                        negative: e.negative,
                                    })
                                    .collect::<Vec<_>>()
                                    .into(),
                            })
                            .collect::<Vec<_>>()
                            .into(),
                    },
                    next_free: property.next_free,
                },
            },
        })
        .collect()
}
