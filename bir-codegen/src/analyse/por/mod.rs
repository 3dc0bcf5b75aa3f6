//! Which locations are safe for partial-order reduction: a thread instance at a safe
//! location may be expanded alone (an ample set of one instance, SPIN's scheme), because
//! every transformation there is independent of every other instance and invisible.
//!
//! A transformation is independent of the other instances when everything its guard and
//! actions read or write is the executing instance's own: its locals, the element `a[index]`
//! of an array that every access anywhere indexes by the accessing instance's own index
//! (`active [N]` threads, each owning one slot), a global that only this thread — of one
//! instance — ever touches, or a global that nothing writes after the initial state (a
//! constant). It reads no thread's status and starts no thread. Then no other instance can
//! enable, disable or be affected by it, and no other instance's step can enable or disable
//! it: its guard reads only what the instance itself writes.
//!
//! Nor may another step read the instance's status: a thread whose status any guard or
//! action reads (`T[i]@loc`) has no safe location, since every step of it changes a location.
//!
//! A rendezvous is a step of two instances, so a location where one waits is not safe.
//!
//! A buffered channel is judged by how each step uses it, not by its hidden globals (which
//! every send and receive reads and writes): a send of the one instance that sends on a
//! channel (or an element of an array of them, `ring[(index + 1) % N]`) is independent of
//! the receives of another, and a receive of the one instance that receives likewise of
//! the sends — SPIN's `xs`/`xr` channels, found without annotations; `channels` states
//! the rule, and `exclusive` when the steps of a location that wait for different
//! lengths still make it safe. Locks are hidden globals like any other: a
//! lock operation reads and writes its lock's owner and count (and wait marks), which are
//! shared as soon as two instances use the lock.
//!
//! A step that reads or writes a reference or an object is never independent: the heap's
//! walk after a step renumbers the objects every instance's references name
//! (`super::heap::touches_heap`).
//!
//! With pools (`thread[k]`), a step that reads or writes a `tid`, or that ends a pool
//! instance (whose freeing writes the `tid`s naming it, anywhere), is never independent; a
//! `start` reads and writes its thread's statuses like any other.
//!
//! A transformation is invisible when it writes nothing an invariant or a property (an
//! `ltl` predicate, a `reachable` check) reads, and the properties and invariants name no
//! location of its thread (`T@loc`), since its step changes one.

mod channels;
mod exclusive;

use std::collections::{HashMap, HashSet};

use super::access::{reads_of, Access, Accesses, Element};
use crate::ir::{self, GlobalId, IdVec, LocationId, ThreadId, TransformId};
use channels::ChannelUses;

/// How a global is used across the model.
#[derive(Clone, Debug, Default)]
struct GlobalUse {
    /// Some transformation writes it.
    written: bool,
    /// The threads whose transformations touch it.
    threads: HashSet<ThreadId>,
    /// Every access is `a[index]` by an instance of a replicated thread.
    only_own_slots: bool,
    /// Some invariant or property reads it.
    observed: bool,
}

/// Per thread and location, whether it is safe for partial-order reduction, from the
/// accesses of every transformation.
pub fn safe_locations(
    system: &ir::System,
    accesses: &IdVec<ThreadId, IdVec<TransformId, Accesses>>,
) -> IdVec<ThreadId, IdVec<LocationId, bool>> {
    let observed: Vec<Access> = system
        .invariants
        .iter()
        .map(|i| &i.cond)
        .chain(system.properties.iter().flat_map(|p| &p.atoms))
        .flat_map(reads_of)
        .collect();
    let uses = global_uses(system, accesses, &observed);
    let channel_uses = ChannelUses::new(system, accesses, &observed);
    // A thread whose status anything reads (an invariant, a property, or a guard or action of
    // any transformation, `T[i]@loc`) has no safe location: each of its steps changes a
    // location, so it can enable or disable the step that reads it.
    let step_reads = accesses
        .iter()
        .flat_map(|transforms| transforms.iter())
        .flat_map(|access| access.reads.iter());
    let status_read_threads: HashSet<ThreadId> = observed
        .iter()
        .chain(step_reads)
        .filter_map(|access| match access {
            Access::Status(thread) => Some(*thread),
            _ => None,
        })
        .collect();
    // Rule: with pools, the end of a pool instance's step frees it, writing every `tid`
    // that names it, in globals and in any instance's locals; so a step that reads or
    // writes a `tid`, or that ends a pool instance, is never independent.
    let pools = system.has_pools();
    let tid_scalar = |var: &ir::Var| matches!(var.ty.scalar, ir::Scalar::Tid { .. });
    system
        .threads
        .iter_enumerated()
        .map(|(thread_id, thread)| {
            let single = thread.instances() == 1;
            let touches_tid = |access: &Accesses| {
                pools
                    && access.reads.iter().chain(&access.writes).any(|a| match a {
                        Access::Local(local) => tid_scalar(&thread.locals[*local]),
                        Access::Global { var, .. } => tid_scalar(&system.globals[*var]),
                        Access::Status(_) => false,
                    })
            };
            let frees = |id: TransformId| {
                thread.is_pool() && thread.transforms[id].destination() == ir::Jump::Return
            };
            thread
                .locations
                .ids()
                .map(|location| {
                    let here = &thread.locations[location].transforms;
                    !status_read_threads.contains(&thread_id)
                        // A rendezvous is a step of two instances: never independent.
                        && here.iter().all(|&id| {
                            let access = &accesses[thread_id][id];
                            thread.transforms[id].rendezvous.is_none()
                                && !super::heap::touches_heap(system, thread_id, access)
                                && !frees(id)
                                && !touches_tid(access)
                                && safe_transform(&uses, thread_id, single, access)
                                && access
                                    .channels
                                    .iter()
                                    .all(|u| channel_uses.safe(thread_id, u))
                        })
                        && channel_uses.alike(thread_id, here, &accesses[thread_id])
                })
                .collect()
        })
        .collect()
}

/// Per transition, in successor order (`ir::System::transitions`), whether its location is
/// safe: the table the generated code and the interpreter give the runtime.
pub fn safe_transitions(
    system: &ir::System,
    accesses: &IdVec<ThreadId, IdVec<TransformId, Accesses>>,
) -> Vec<bool> {
    let safe = safe_locations(system, accesses);
    system
        .transitions()
        .map(|t| {
            t.partner.is_none()
                && safe[t.thread][system.threads[t.thread].transforms[t.transform].location]
        })
        .collect()
}

/// Every global's use, over all transformations and what invariants and properties read.
fn global_uses(
    system: &ir::System,
    accesses: &IdVec<ThreadId, IdVec<TransformId, Accesses>>,
    observed: &[Access],
) -> HashMap<GlobalId, GlobalUse> {
    let mut uses: HashMap<GlobalId, GlobalUse> = system
        .globals
        .ids()
        .map(|id| {
            let use_ = GlobalUse {
                only_own_slots: true,
                ..GlobalUse::default()
            };
            (id, use_)
        })
        .collect();
    for (thread_id, thread) in system.threads.iter_enumerated() {
        let replicated = matches!(
            thread.kind,
            ir::ThreadKind::Active {
                replicated: true,
                ..
            }
        );
        for access in accesses[thread_id].iter() {
            let all = access.reads.iter().map(|a| (a, false));
            for (access, write) in all.chain(access.writes.iter().map(|a| (a, true))) {
                if let Access::Global { var, element } = access {
                    if let Some(use_) = uses.get_mut(var) {
                        use_.threads.insert(thread_id);
                        use_.written |= write;
                        use_.only_own_slots &= *element == Element::Own && replicated;
                    }
                }
            }
        }
    }
    for access in observed {
        if let Access::Global { var, .. } = access {
            if let Some(use_) = uses.get_mut(var) {
                use_.observed = true;
                use_.only_own_slots = false;
            }
        }
    }
    uses
}

/// Whether a transformation (of `thread`, which has one instance when `single`) touches
/// only what its instance owns, reads no status, starts nothing, and writes nothing
/// observed.
fn safe_transform(
    uses: &HashMap<GlobalId, GlobalUse>,
    thread: ThreadId,
    single: bool,
    accesses: &Accesses,
) -> bool {
    let owned = |access: &Access, write: bool| match access {
        Access::Local(_) => true,
        Access::Status(_) => false,
        Access::Global { var, element } => uses.get(var).is_some_and(|use_| {
            let constant = !use_.written;
            let own_slot = *element == Element::Own && use_.only_own_slots;
            let private = single && use_.threads.len() == 1 && use_.threads.contains(&thread);
            (constant || own_slot || private) && !(write && use_.observed)
        }),
    };
    accesses.reads.iter().all(|a| owned(a, false)) && accesses.writes.iter().all(|a| owned(a, true))
}

#[cfg(test)]
mod tests;
