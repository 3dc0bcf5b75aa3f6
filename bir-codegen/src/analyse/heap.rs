//! What the heap's walk needs to know (LANGUAGE.md, "Records and the heap"): which
//! values are the walk's roots, in the order it meets them, and which steps need it at
//! all. The walk itself (garbage collection and canonical renumbering) is
//! `bir_model::heap`'s, run after each step that needs it, by the generated checker and
//! the interpreter alike.
//!
//! Rule: a step needs the walk when it writes a reference (a variable, a field, a message
//! slot or a receive target of a record type, a popped frame's reference reset to
//! `null`, a freed pool instance's), allocates (writes a record's live flags) or ends a
//! pool instance. A step that writes no reference
//! changes no reachability and no object's number, so its successor is canonical when
//! its state is. Decided here, at compile time, from the step's writes.

use crate::ir::{self, Action, GlobalId, Owner, RecordId, RendezvousRole, ThreadId, VarRef};

/// One root of the walk: the slot(s) of a variable (one element of it), and the record
/// its references refer to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Root {
    /// The variable or status field.
    pub owner: Owner,
    /// Its element (0 for a scalar).
    pub element: u32,
    /// The record type it refers to.
    pub record: RecordId,
}

/// The roots of the walk in its order: the model's globals in declaration order (array
/// elements by index), then each instance in successor order with its locals in
/// declaration order (parameters, locals, then its frames' locals by frame), then the
/// channels' message slots (channels in declaration order, messages from the first,
/// fields in order). A record's own hidden globals are the heap, never roots; the object
/// whose lock an instance waits on is a root after that instance's locals.
pub fn roots(system: &ir::System) -> Vec<Root> {
    let hidden = &system.hidden;
    let mut roots = Vec::new();
    let channel_slots: Vec<GlobalId> = hidden
        .channels
        .iter()
        .flat_map(|c| c.slots.iter().copied())
        .collect();
    for (id, var) in system.globals.iter_enumerated() {
        let Some(record) = var.ty.scalar.record() else {
            continue;
        };
        let waiting = hidden.records.iter().any(|r| r.waiting == Some(id));
        if hidden.record_of(id).is_some() || channel_slots.contains(&id) || waiting {
            continue;
        }
        for element in 0..var.ty.elements() {
            roots.push(Root {
                owner: Owner::Global(id),
                element,
                record,
            });
        }
    }
    let mut number = 0u32;
    for (thread_id, thread) in system.threads.iter_enumerated() {
        for instance in thread.instance_ids() {
            // The objects whose locks this instance waits on, after its own references.
            let waiting = hidden.records.iter_enumerated().filter_map(|(record, r)| {
                let global = r.waiting?;
                let len = system.globals[global].ty.elements();
                (number < len).then_some(Root {
                    owner: Owner::Global(global),
                    element: number,
                    record,
                })
            });
            let waiting: Vec<Root> = waiting.collect();
            number += 1;
            for (local, var) in thread.locals.iter_enumerated() {
                let Some(record) = var.ty.scalar.record() else {
                    continue;
                };
                for element in 0..var.ty.elements() {
                    roots.push(Root {
                        owner: Owner::Local {
                            thread: thread_id,
                            instance,
                            local,
                        },
                        element,
                        record,
                    });
                }
            }
            roots.extend(waiting);
        }
    }
    for channel in &hidden.channels {
        let channels = channel.len.unwrap_or(1);
        for c in 0..channels {
            for s in 0..channel.capacity {
                for (&slots, field) in channel.slots.iter().zip(&channel.fields) {
                    if let Some(record) = field.record() {
                        roots.push(Root {
                            owner: Owner::Global(slots),
                            element: c * channel.capacity + s,
                            record,
                        });
                    }
                }
            }
        }
    }
    roots
}

/// True when transformation `transform` of `thread` needs the walk after it (see the
/// module's rule); for a rendezvous, the pairing needs it when either side does.
pub fn needs_walk(system: &ir::System, thread: ThreadId, transform: &ir::Transform) -> bool {
    if !system.hidden.has_heap() {
        return false;
    }
    // A pool instance that ends is freed at the end of its step: its references become
    // `null` again (before the walk, which then finds what they held garbage).
    if system.threads[thread].is_pool() && transform.destination() == ir::Jump::Return {
        return true;
    }
    let writes = |var: VarRef| match var {
        VarRef::Global(id) => {
            system.globals[id].ty.scalar.record().is_some()
                || system.hidden.records.iter().any(|record| record.live == id)
        }
        VarRef::Local(id) => system.threads[thread].locals[id]
            .ty
            .scalar
            .record()
            .is_some(),
    };
    let block = transform.rendezvous.as_deref();
    let actions = transform
        .actions
        .iter()
        .chain(block.map_or(&[][..], |r| &r.block[..]));
    let targets = match block.map(|r| &r.role) {
        Some(RendezvousRole::Receive(targets)) => &targets[..],
        _ => &[],
    };
    actions
        .filter_map(|action| match action {
            Action::Assign { place, .. } => Some(place.var),
            _ => None,
        })
        .chain(targets.iter().flatten().map(|(place, _)| place.var))
        .any(writes)
}

/// True when a step with accesses `accesses` (of `thread`) reads or writes a reference or
/// an object: it may then depend on, or change, the numbers that every other instance's
/// references hold (a walk renumbers them all), so partial-order reduction never expands
/// it alone.
pub fn touches_heap(
    system: &ir::System,
    thread: ThreadId,
    accesses: &super::access::Accesses,
) -> bool {
    use super::access::Access;
    if !system.hidden.has_heap() {
        return false;
    }
    accesses
        .reads
        .iter()
        .chain(&accesses.writes)
        .any(|access| match *access {
            Access::Global { var, .. } => {
                system.globals[var].ty.scalar.record().is_some()
                    || system.hidden.record_of(var).is_some()
            }
            Access::Local(local) => system.threads[thread].locals[local]
                .ty
                .scalar
                .record()
                .is_some(),
            Access::Status(_) => false,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn system(source: &str) -> ir::System {
        match crate::drive::source::front_end(source, &crate::Overrides::default()) {
            Ok(system) => system,
            Err(errors) => panic!("the model does not compile: {errors:?}"),
        }
    }

    #[test]
    fn only_steps_that_write_references_or_allocate_walk() {
        let system = system(
            "system S { record Obj { int (0, 3) v; } Obj a; int (0, 3) n;
             active thread T() { Obj b;
               loc l0: do { a := new Obj; } goto l1;
               loc l1: do { a.v := 2; } goto l2;
               loc l2: do { n := 1; } goto l3;
               loc l3: do { b := a; } goto l4;
               loc l4: do { a := null; } return; } }",
        );
        let thread = &system.threads[ThreadId(0)];
        let walks: Vec<bool> = thread
            .transforms
            .iter()
            .map(|t| needs_walk(&system, ThreadId(0), t))
            .collect();
        assert_eq!(walks, [true, false, false, true, true]);
    }

    #[test]
    fn roots_are_globals_then_locals_by_instance_then_messages() {
        let system = system(
            "system S { record Obj { Obj next; } Obj a; Obj[2] g;
             channel (Obj, int (0, 1)) buffer 2 c;
             active [2] thread T(int i) { Obj x; int (0, 1) y;
               loc l: do { x := new Obj; } return; } }",
        );
        let roots = roots(&system);
        let names: Vec<String> = roots
            .iter()
            .map(|root| match root.owner {
                Owner::Global(id) => format!("{}[{}]", system.globals[id].name, root.element),
                Owner::Local {
                    instance, local, ..
                } => format!(
                    "{instance}.{}",
                    system.threads[ThreadId(0)].locals[local].name
                ),
                Owner::Status { .. } => unreachable!("a status is no reference"),
            })
            .collect();
        assert_eq!(
            names,
            ["a[0]", "g[0]", "g[1]", "0.x", "1.x", "c.0[0]", "c.0[1]"]
        );
    }
}
