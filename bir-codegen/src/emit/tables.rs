//! The static tables of a model as plain data: its slots, its transitions in successor
//! order, its fault sites, its invariants and the initial value of every field.
//!
//! Code generation (`emit/info.rs`, `emit/state.rs`) turns these tables into tokens, and the
//! reference interpreter (`bir-interp`) into a `bir_runtime::ModelInfo`, so that the two
//! cannot disagree on a name, a transition id or a fault site. Nothing here depends on the
//! runtime.

use std::collections::HashMap;

use std::borrow::Cow;

use bir_model::heap::{FieldLayout, HeapLayout, HeapRoot, RecordLayout};

use super::layout::Layout;
use crate::analyse::heap;
use crate::analyse::symmetry::Family;
use crate::ir::Owner;
use crate::ir::{self, EnumId, InstanceId, Jump, ThreadId, ThreadKind, TransformId};

/// Every table of one model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tables {
    /// The system's name.
    pub name: String,
    /// The layout's fields in slot order, each with where its slots start.
    pub fields: Vec<FieldRow>,
    /// Every stored value (one per element of each field), in slot order.
    pub slots: Vec<Slot>,
    /// Every transition, in successor order: its index is its transition id.
    pub transitions: Vec<TransitionRow>,
    /// Every fault site; a fault's site indexes this table.
    pub fault_sites: ir::IdVec<ir::SiteId, ir::FaultSite>,
    /// The invariants, in declaration order.
    pub invariants: Vec<InvariantRow>,
    /// The invariant atoms tracked for vacuity (`ir::System::atoms`): the index of the
    /// invariant and the atom's text.
    pub atoms: Vec<(u32, String)>,
    /// The symmetry of the instance families, in slots ([`Tables::with_symmetry`]; none
    /// until then).
    pub symmetry: SymmetryTable,
    /// The heap's objects and the walk's roots, in slots (empty without records).
    pub heap: HeapLayout,
}

/// The symmetry the analysis found ([`crate::analyse::symmetry`]), in slots: what the
/// runtime's `SymmetryInfo` holds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SymmetryTable {
    /// The families whose group permutes at least two instances.
    pub families: Vec<FamilyRows>,
    /// One sentence per family of at least two instances: its group, and why not more.
    pub notes: Vec<String>,
}

/// The symmetry of one family, in slots (see the runtime's `FamilySymmetry`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FamilyRows {
    /// The thread's name.
    pub thread: String,
    /// Its number of instances.
    pub instances: u32,
    /// The instances the group permutes, ascending.
    pub permuted: Vec<u32>,
    /// The slots that move with the instances: row `r` of instance `p` at
    /// `r * instances + p`.
    pub rows: Vec<u32>,
    /// Per row, whether it holds the family's instance indices.
    pub row_pids: Vec<bool>,
    /// The slots that stay but hold the family's instance indices.
    pub pid_slots: Vec<u32>,
    /// Per row that holds the family's ids, the offset they are held at (instance `p` as
    /// `offset + p`); empty when all are 0.
    pub row_offsets: Vec<i64>,
    /// Per pid slot, the offset its ids are held at; empty when all are 0.
    pub pid_offsets: Vec<i64>,
}

/// One field of the layout (a variable or a status) as a run of consecutive slots.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldRow {
    /// What the field stores.
    pub owner: Owner,
    /// The index of its first slot (element 0) in [`Tables::slots`].
    pub first_slot: usize,
    /// The number of slots (elements) it has.
    pub elements: u32,
    /// The initial value of each element: the declared initialiser; for a status, the first
    /// location (0) for an active thread and "not started" for a started one.
    pub initial: Vec<i64>,
}

/// One value of a state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slot {
    /// The variable as users write it: `fork`, `Philosopher[1]` (a status), `P[2].level`.
    pub name: String,
    /// For an array element, its index.
    pub element: Option<u32>,
    /// How the value reads.
    pub kind: SlotKind,
}

/// How a slot's value reads; mirrors the runtime's `SlotKind` with ids instead of names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlotKind {
    /// 0/1.
    Bool,
    /// The value itself.
    Int,
    /// An ordinal of this enum.
    Enum(EnumId),
    /// The status of an instance of this thread (see `ir::Thread::ended_status`).
    Status(ThreadId),
    /// A reference to an object of this record type: 0 is `null`, `j + 1` object `j`.
    Ref(ir::RecordId),
    /// A `tid`: 0 is `null`, `g + 1` the instance of global number `g`
    /// (the names of the instances in global order: `ir::Thread::instance_name`).
    Tid,
}

/// One transition: a transformation of one instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TransitionRow {
    /// The thread.
    pub thread: ThreadId,
    /// The instance.
    pub instance: InstanceId,
    /// The transformation.
    pub transform: TransformId,
    /// The instance's display name: `Philosopher1` or `Philosopher[2]`.
    pub instance_name: String,
    /// The location it leaves.
    pub from: String,
    /// The location it jumps to, or `return` when it ends the instance (by `return` or by
    /// `exit`).
    pub to: String,
    /// The transformation as BIR text on one line.
    pub text: String,
    /// Its source line (0 if unknown).
    pub line: u32,
    /// The receiver of a rendezvous: its thread, instance and transformation.
    pub partner: Option<(ThreadId, InstanceId, TransformId)>,
    /// For a rendezvous, the ids of the sender's and the receiver's transformations alone.
    pub sides: Option<[u32; 2]>,
    /// The step writes a reference or allocates, so that its successor needs the heap's
    /// walk ([`crate::analyse::heap::needs_walk`]).
    pub walks_heap: bool,
}

/// One declared invariant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvariantRow {
    /// Its name.
    pub name: String,
    /// Its condition as BIR text.
    pub text: String,
    /// Its source line (0 if unknown).
    pub line: u32,
}

/// The length of the array field whose global is `global`, when it is one.
fn array_field_len(system: &ir::System, global: ir::GlobalId) -> Option<u32> {
    system
        .hidden
        .records
        .iter()
        .flat_map(|record| &record.fields)
        .find(|field| field.global == global)
        .and_then(|field| field.len)
}

impl Tables {
    /// The tables of `system` laid out as `layout`.
    pub fn new(system: &ir::System, layout: &Layout) -> Tables {
        let mut fields = Vec::new();
        let mut slots = Vec::new();
        for field in &layout.fields {
            let (name, kind) = slot_name_and_kind(system, field.owner, field.scalar);
            fields.push(FieldRow {
                owner: field.owner,
                first_slot: slots.len(),
                elements: field.elements,
                initial: initial_values(system, field.owner),
            });
            // The global of an array field of `n` elements holds element `i` of object `j`
            // at `j * n + i`: that slot is named `R#x[i]`, element `j`, so that it reads as
            // a field of object `j` (`R#(j + 1).x[i]`) like a scalar field's.
            let per_object = match field.owner {
                Owner::Global(global) => array_field_len(system, global),
                _ => None,
            };
            for i in 0..field.elements {
                let (name, element) = match per_object {
                    Some(n) => (format!("{name}[{}]", i % n), Some(i / n)),
                    None => (name.clone(), field.is_array.then_some(i)),
                };
                slots.push(Slot {
                    name,
                    element,
                    kind,
                });
            }
        }
        let invariants = system
            .invariants
            .iter()
            .map(|inv| InvariantRow {
                name: inv.name.clone(),
                text: inv.text.clone(),
                line: inv.line,
            })
            .collect();
        let mut tables = Tables {
            name: system.name.clone(),
            fields,
            slots,
            transitions: transitions(system),
            fault_sites: system.fault_sites.clone(),
            invariants,
            atoms: system
                .atoms()
                .map(|(index, atom)| (index, atom.text.clone()))
                .collect(),
            symmetry: SymmetryTable::default(),
            heap: HeapLayout::EMPTY,
        };
        tables.heap = tables.heap_layout(system);
        tables
    }

    /// The heap of `system` in slots: each record's live flags and fields, object by
    /// object, and the walk's roots ([`heap::roots`]).
    fn heap_layout(&self, system: &ir::System) -> HeapLayout {
        let records = &system.hidden.records;
        if records.is_empty() {
            return HeapLayout::EMPTY;
        }
        let slots = |global: ir::GlobalId| -> Cow<'static, [u32]> {
            self.slots_of(Owner::Global(global)).collect()
        };
        let records: Vec<RecordLayout> = records
            .iter()
            .map(|record| RecordLayout {
                name: record.name.clone().into(),
                bound: record.bound,
                live: slots(record.live),
                // An array field of `n` elements is `n` fields of one name, element `i` of
                // object `j` in slot `j * n + i` of its global.
                fields: record
                    .fields
                    .iter()
                    .flat_map(|field| {
                        let all = slots(field.global);
                        let n = field.len.unwrap_or(1) as usize;
                        (0..n).map(move |i| FieldLayout {
                            name: field.name.clone().into(),
                            element: field.len.map(|_| i as u32),
                            slots: all.iter().skip(i).step_by(n).copied().collect(),
                            default: field.default,
                            refers: field.scalar.record().map(|r| r.0),
                        })
                    })
                    .collect(),
            })
            .collect();
        let roots: Vec<HeapRoot> = heap::roots(system)
            .into_iter()
            .map(|root| HeapRoot {
                slot: self.slots_of(root.owner).start + root.element,
                record: root.record.0,
            })
            .collect();
        HeapLayout {
            records: records.into(),
            roots: roots.into(),
        }
    }

    /// These tables with the symmetry of `families` (the analysis's) in slots.
    pub fn with_symmetry(mut self, system: &ir::System, families: &[Family]) -> Tables {
        self.symmetry = SymmetryTable {
            families: families
                .iter()
                .filter(|family| family.permuted.len() >= 2)
                .map(|family| self.family_rows(system, family))
                .collect(),
            notes: families.iter().map(|family| family.note.clone()).collect(),
        };
        self
    }

    /// The slots of `owner`, or none if the layout has no field for it.
    fn slots_of(&self, owner: Owner) -> std::ops::Range<u32> {
        self.field(owner).map_or(0..0, |field| {
            let first = field.first_slot as u32;
            first..first + field.elements
        })
    }

    fn family_rows(&self, system: &ir::System, family: &Family) -> FamilyRows {
        let thread_id = family.thread;
        let thread = &system.threads[thread_id];
        let n = thread.instances();
        // A lock's owner holds the family's ids as instances' global numbers, a tid as
        // global numbers plus one.
        let first = i64::from(thread.first_instance.0);
        let tids = first + 1;
        let ids_at = |global: ir::GlobalId| {
            if family.pid_globals.contains(&global) {
                Some(0)
            } else if family.instance_globals.contains(&global) {
                Some(first)
            } else if family.tid_globals.contains(&global) {
                Some(tids)
            } else {
                None
            }
        };
        let local_ids = |thread: ir::ThreadId, local: ir::LocalId| {
            if family.pid_locals.contains(&(thread, local)) {
                Some(0)
            } else if family.tid_locals.contains(&(thread, local)) {
                Some(tids)
            } else {
                None
            }
        };
        let mut rows = Vec::new();
        let mut row_pids = Vec::new();
        let mut row_offsets = Vec::new();
        let mut push_row = |row: Vec<u32>, ids: Option<i64>| {
            if row.len() == n as usize {
                rows.extend(row);
                row_pids.push(ids.is_some());
                row_offsets.push(ids.unwrap_or(0));
            }
        };
        let status = |instance| Owner::Status {
            thread: thread_id,
            instance,
        };
        push_row(
            thread
                .instance_ids()
                .flat_map(|i| self.slots_of(status(i)))
                .collect(),
            None,
        );
        for (local, var) in thread.locals.iter_enumerated() {
            let ids = local_ids(thread_id, local);
            for element in 0..var.ty.elements() {
                let row = thread
                    .instance_ids()
                    .filter_map(|instance| {
                        self.slots_of(Owner::Local {
                            thread: thread_id,
                            instance,
                            local,
                        })
                        .nth(element as usize)
                    })
                    .collect();
                push_row(row, ids);
            }
        }
        let element = |global: ir::GlobalId, element: u32| {
            self.slots_of(Owner::Global(global)).nth(element as usize)
        };
        for &global in &family.indexed {
            let row = self.slots_of(Owner::Global(global)).collect();
            push_row(row, ids_at(global));
        }
        // The message slots of an array of channels: slot `s` of each instance's channel.
        for &(global, capacity) in &family.strided {
            for slot in 0..capacity {
                let row = (0..n)
                    .filter_map(|p| element(global, p * capacity + slot))
                    .collect();
                push_row(row, ids_at(global));
            }
        }
        // The wait marks: the family's window of the per-instance arrays.
        for &(global, start) in &family.windows {
            let row = (0..n).filter_map(|p| element(global, start + p)).collect();
            push_row(row, None);
        }
        let moves = |global: &ir::GlobalId| {
            family.indexed.contains(global) || family.strided.iter().any(|(g, _)| g == global)
        };
        let mut pid_slots = Vec::new();
        let mut pid_offsets = Vec::new();
        for (&global, offset) in family
            .pid_globals
            .iter()
            .map(|g| (g, 0))
            .chain(family.instance_globals.iter().map(|g| (g, first)))
            .chain(family.tid_globals.iter().map(|g| (g, tids)))
        {
            if !moves(&global) {
                let slots = self.slots_of(Owner::Global(global));
                pid_offsets.extend(slots.clone().map(|_| offset));
                pid_slots.extend(slots);
            }
        }
        let others = family.pid_locals.iter().map(|&(t, l)| (t, l, 0));
        let others = others.chain(family.tid_locals.iter().map(|&(t, l)| (t, l, tids)));
        for (other, local, offset) in others {
            if other == thread_id {
                continue;
            }
            for instance in system.threads[other].instance_ids() {
                let slots = self.slots_of(Owner::Local {
                    thread: other,
                    instance,
                    local,
                });
                pid_offsets.extend(slots.clone().map(|_| offset));
                pid_slots.extend(slots);
            }
        }
        // Offsets all 0 are said by none at all.
        if row_offsets.iter().all(|&o| o == 0) {
            row_offsets.clear();
        }
        if pid_offsets.iter().all(|&o| o == 0) {
            pid_offsets.clear();
        }
        FamilyRows {
            thread: thread.name.clone(),
            instances: n,
            permuted: family.permuted.clone(),
            rows,
            row_pids,
            pid_slots,
            row_offsets,
            pid_offsets,
        }
    }

    /// The field storing `owner`.
    pub fn field(&self, owner: Owner) -> Option<&FieldRow> {
        self.fields.iter().find(|field| field.owner == owner)
    }

    /// The initial state: every slot's initial value, in slot order.
    pub fn initial_state(&self) -> Vec<i64> {
        self.fields
            .iter()
            .flat_map(|field| field.initial.iter().copied())
            .collect()
    }
}

/// Every transition in successor order (see [`ir::System::transitions`]), its id being its
/// position.
fn transitions(system: &ir::System) -> Vec<TransitionRow> {
    let alone: HashMap<_, u32> = system
        .transitions()
        .enumerate()
        .filter(|(_, t)| t.partner.is_none())
        .map(|(id, t)| ((t.thread, t.instance, t.transform), id as u32))
        .collect();
    system
        .transitions()
        .map(|t| {
            let thread = &system.threads[t.thread];
            let transform = &thread.transforms[t.transform];
            let walks_heap = heap::needs_walk(system, t.thread, transform)
                || t.partner.is_some_and(|(other, _, id)| {
                    heap::needs_walk(system, other, &system.threads[other].transforms[id])
                });
            let to = match transform.destination() {
                Jump::Goto(location) => thread.locations[location].name.clone(),
                Jump::Return => "return".to_string(),
            };
            let mut instance_name = thread.instance_name(thread.index_of(t.instance));
            let mut text = transform.text.clone();
            // A rendezvous is shown as both instances' steps, the sender's first.
            if let Some((other, instance, id)) = t.partner {
                let receiver = &system.threads[other];
                let name = receiver.instance_name(receiver.index_of(instance));
                text = format!("{text} with {name}: {}", receiver.transforms[id].text);
                instance_name = format!("{instance_name} <-> {name}");
            }
            TransitionRow {
                thread: t.thread,
                instance: t.instance,
                transform: t.transform,
                instance_name,
                from: thread.locations[transform.location].name.clone(),
                to,
                text,
                line: transform.line,
                partner: t.partner,
                walks_heap,
                sides: t.partner.map(|receiver| {
                    [
                        alone[&(t.thread, t.instance, t.transform)],
                        alone[&receiver],
                    ]
                }),
            }
        })
        .collect()
}

/// A slot's name (`x`, `T[1]`, `T[1].local`) and kind.
fn slot_name_and_kind(system: &ir::System, owner: Owner, scalar: ir::Scalar) -> (String, SlotKind) {
    let value_kind = match scalar {
        ir::Scalar::Bool => SlotKind::Bool,
        ir::Scalar::Int { .. } => SlotKind::Int,
        ir::Scalar::Enum(id) => SlotKind::Enum(id),
        ir::Scalar::Ref { record, .. } => SlotKind::Ref(record),
        ir::Scalar::Tid { .. } => SlotKind::Tid,
    };
    match owner {
        Owner::Global(id) => (system.globals[id].name.clone(), value_kind),
        Owner::Status { thread, instance } => {
            let t = &system.threads[thread];
            (
                t.instance_name(t.index_of(instance)),
                SlotKind::Status(thread),
            )
        }
        Owner::Local {
            thread,
            instance,
            local,
        } => {
            let t = &system.threads[thread];
            let name = format!(
                "{}.{}",
                t.instance_name(t.index_of(instance)),
                t.locals[local].name
            );
            (name, value_kind)
        }
    }
}

/// The initial value of every element of a field.
fn initial_values(system: &ir::System, owner: Owner) -> Vec<i64> {
    match owner {
        Owner::Global(id) => system.globals[id].init.clone(),
        Owner::Status { thread, .. } => {
            let thread = &system.threads[thread];
            let status = match thread.kind {
                ThreadKind::Active { .. } => 0,
                ThreadKind::Started | ThreadKind::Pool { .. } => thread.not_started_status(),
            };
            vec![status]
        }
        Owner::Local { thread, local, .. } => system.threads[thread].locals[local].init.clone(),
    }
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use proc_macro2::TokenStream;

    use super::*;

    fn tables(source: &str) -> Tables {
        let tokens = TokenStream::from_str(source).expect("tokenizes");
        let system = crate::front_end(tokens)
            .unwrap_or_else(|d| panic!("{:?}", d.iter().map(|d| &d.message).collect::<Vec<_>>()));
        Tables::new(&system, &Layout::new(&system))
    }

    #[test]
    fn slots_follow_the_layout_element_by_element() {
        let t = tables(
            "system S { enum C { R, G } boolean[2] b; C c := C.G;
               active [2] thread P(int i) { int (1, 3) n; loc a: do { n := 2; } goto a; }
               thread Q(int (0, 9) p) { loc q: do {} return; } }",
        );
        let names: Vec<_> = t
            .slots
            .iter()
            .map(|s| (s.name.as_str(), s.element, s.kind))
            .collect();
        assert_eq!(
            names,
            [
                ("b", Some(0), SlotKind::Bool),
                ("b", Some(1), SlotKind::Bool),
                ("c", None, SlotKind::Enum(EnumId(0))),
                ("P[0]", None, SlotKind::Status(ThreadId(0))),
                ("P[0].n", None, SlotKind::Int),
                ("P[1]", None, SlotKind::Status(ThreadId(0))),
                ("P[1].n", None, SlotKind::Int),
                ("Q", None, SlotKind::Status(ThreadId(1))),
                ("Q.p", None, SlotKind::Int),
            ]
        );
        // Defaults, the enum initialiser, active at location 0, Q not started (1 + 1).
        assert_eq!(t.initial_state(), [0, 0, 1, 0, 1, 0, 1, 2, 0]);
        assert_eq!(t.fields[2].first_slot, 3);
    }

    #[test]
    fn transitions_are_in_successor_order() {
        let t = tables(
            "system S { boolean x;
               active [2] thread P(int i) { loc a: when x do {} goto b; do {} goto b; loc b: do {} return; }
               active thread R() { loc r: do { x := true; } goto r; } }",
        );
        let rows: Vec<_> = t
            .transitions
            .iter()
            .map(|r| {
                (
                    r.instance_name.as_str(),
                    r.transform.0,
                    r.from.as_str(),
                    r.to.as_str(),
                )
            })
            .collect();
        assert_eq!(
            rows,
            [
                ("P[0]", 0, "a", "b"),
                ("P[0]", 1, "a", "b"),
                ("P[0]", 2, "b", "return"),
                ("P[1]", 0, "a", "b"),
                ("P[1]", 1, "a", "b"),
                ("P[1]", 2, "b", "return"),
                ("R", 0, "r", "r"),
            ]
        );
        assert_eq!(t.transitions[6].instance, InstanceId(2));
        assert_eq!(t.transitions[0].text, "when x do { } goto b;");
    }

    #[test]
    fn a_step_that_exits_ends_the_instance() {
        let t = tables(
            "system S { int (0, 1) x;
               active thread T() { loc a: do { x := 1; exit; x := 0; } goto b;
                                   loc b: when x == 0 do { } goto a; do { } return; } }",
        );
        let to: Vec<_> = t.transitions.iter().map(|r| r.to.as_str()).collect();
        assert_eq!(to, ["return", "a", "return"]);
    }
}
