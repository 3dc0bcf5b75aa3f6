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
//! A transformation is invisible when it writes nothing an invariant or a property (an
//! `ltl` predicate, a `reachable` check) reads, and the properties and invariants name no
//! location of its thread (`T@loc`), since its step changes one.

use std::collections::{HashMap, HashSet};

use super::access::{reads_of, Access, Accesses, Element};
use crate::ir::{self, GlobalId, IdVec, LocationId, ThreadId, TransformId};

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
    system
        .threads
        .iter_enumerated()
        .map(|(thread_id, thread)| {
            let single = thread.instances() == 1;
            thread
                .locations
                .ids()
                .map(|location| {
                    !status_read_threads.contains(&thread_id)
                        && thread
                            .transforms
                            .iter_enumerated()
                            .filter(|(_, t)| t.location == location)
                            // A rendezvous is a step of two instances: never independent.
                            .all(|(id, t)| {
                                t.rendezvous.is_none()
                                    && safe_transform(
                                        &uses,
                                        thread_id,
                                        single,
                                        &accesses[thread_id][id],
                                    )
                            })
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
mod tests {
    use std::str::FromStr;

    use proc_macro2::TokenStream;

    use super::*;

    fn safe(source: &str) -> Vec<Vec<bool>> {
        let tokens = TokenStream::from_str(source).expect("tokenizes");
        let system = crate::front_end(tokens)
            .unwrap_or_else(|d| panic!("{:?}", d.iter().map(|d| &d.message).collect::<Vec<_>>()));
        let accesses = crate::analyse::access::of_system(&system);
        safe_locations(&system, &accesses)
            .iter()
            .map(|locations| locations.iter().copied().collect())
            .collect()
    }

    #[test]
    fn the_reference_models_share_everything() {
        // Every transformation of the philosophers touches a fork another one takes.
        assert_eq!(
            safe(include_str!("../../../models/dining_philosophers.bir")),
            [[false; 4]]
        );
        // Peterson's filter: each level step reads the other levels.
        let peterson = safe(include_str!("../../../models/peterson_filter.bir"));
        assert!(peterson[0].iter().all(|&s| !s), "{peterson:?}");
    }

    #[test]
    fn local_work_own_slots_and_constants_are_safe() {
        let safe = safe(
            "system S {
                const C { N = 3; }
                int (0, 9)[C.N] mine;
                int (0, 9) limit := 5;
                int (0, 9) shared;
                invariant Small: shared < 9;
                active [C.N] thread P(int index) {
                    int (0, 9) j;
                    loc a: when j < limit do { j := j + 1; mine[index] := j; } goto a;
                           when j == limit do { j := 0; } goto b;
                    loc b: do { shared := mine[index]; } goto c;
                    loc c: when Q@q do {} goto a;
                }
                active thread Q() {
                    loc q: do {} goto q;
                }
            }",
        );
        // a: locals, its own slot, a constant. b: writes what the invariant reads.
        // c: reads a status. Q: its status is read.
        assert_eq!(safe, [vec![true, false, false], vec![false]]);
    }

    #[test]
    fn a_thread_whose_status_a_guard_reads_has_no_safe_location() {
        // Found by the differential test (seed 1004003174): T[0] at l2 may fail while T[2]
        // is at l0; expanding T[2]'s local step alone moved it on and hid the failure.
        let safe = safe(
            "system S {
                int (0, 3) g;
                active [3] thread T(int index) {
                    loc l0: do {} goto l2;
                    loc l2: when T[2]@l0 do { g := 4; } goto l0;
                }
            }",
        );
        assert_eq!(safe, [[false, false]]);
    }

    #[test]
    fn what_a_property_names_is_visible() {
        let safe = safe(
            "system S {
                active [2] thread P(int index) {
                    int (0, 3) j;
                    loc a: do { j := (j + 1) % 4; } goto a;
                }
                ltl Moves: []<>P[0]@a;
            }",
        );
        assert_eq!(safe, [[false]]);
    }
}
