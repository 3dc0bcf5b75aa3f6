//! Transitions: for each transformation of each instance, its guard and its actions in
//! order, specialised to the instance, then the status it leaves; the successor function's
//! dispatch on each instance's status; the invariants, the predicates of the properties and
//! the end-state test.

use super::expr::ExprLowerer;
use super::rewrite::specialize;
use super::simplify::not;
use super::Expr;
use super::{Code, Dispatch, EndState, StartPool, Stmt, Stored, Transition};
use crate::analyse::interval::{within, Ranges};
use crate::analyse::Analysis;
use crate::ir::{self, Action, Id as _, Jump, Owner, Scalar, SiteId, ThreadId, ThreadKind};

pub(super) fn lower(system: &ir::System, analysis: &Analysis) -> Code {
    let transitions: Vec<Transition> = system
        .transitions()
        .map(|t| match t.partner {
            None => transition(system, analysis, t.thread, t.instance, t.transform),
            Some(partner) => super::rendezvous::pair(system, analysis, &t, partner),
        })
        .collect();
    let dispatch = dispatch(system, &transitions);
    // Invariants, the predicates of properties and heuristics read the state as a whole.
    let whole_state_lowerer = || ExprLowerer {
        system,
        instance: None,
        ranges: Ranges::new(&analysis.domains, None),
    };
    let whole_state = |cond: &ir::Expr| whole_state_lowerer().boolean(&specialize(cond, 0));
    let heuristics = system
        .heuristics
        .iter()
        .map(|heuristic| whole_state_lowerer().int(&specialize(&heuristic.value, 0)))
        .collect();
    let invariants = system
        .invariants
        .iter()
        .map(|invariant| whole_state(&invariant.cond))
        .collect();
    let properties = system
        .properties
        .iter()
        .map(|property| property.atoms.iter().map(whole_state).collect())
        .collect();
    let atoms = system
        .atoms()
        .map(|(_, atom)| (whole_state(&atom.holds), whole_state(&atom.fails)))
        .collect();
    Code {
        transitions,
        dispatch,
        invariants,
        atoms,
        properties,
        heuristics,
        safe: analysis.safe_transitions.clone(),
        end_state: end_state(system),
    }
}

/// For each instance, the transitions each location of its thread enables, in successor
/// order.
fn dispatch(system: &ir::System, transitions: &[Transition]) -> Vec<Dispatch> {
    let mut dispatch: Vec<Dispatch> = system
        .threads
        .iter_enumerated()
        .flat_map(|(thread_id, thread)| {
            thread.instance_ids().map(move |instance| Dispatch {
                status: Owner::Status {
                    thread: thread_id,
                    instance,
                },
                arms: thread.locations.ids().map(|l| (l, Vec::new())).collect(),
            })
        })
        .collect();
    for (id, t) in transitions.iter().enumerate() {
        let location = system.threads[t.thread].transforms[t.transform].location;
        dispatch[t.instance.index()].arms[location.index()]
            .1
            .push(id as u32);
    }
    dispatch
}

fn transition(
    system: &ir::System,
    analysis: &Analysis,
    thread_id: ThreadId,
    instance: ir::InstanceId,
    transform_id: ir::TransformId,
) -> Transition {
    let thread = &system.threads[thread_id];
    let transform = &thread.transforms[transform_id];
    let index = i64::from(thread.index_of(instance));
    let mut exprs = ExprLowerer {
        system,
        instance: Some((thread_id, instance)),
        ranges: Ranges::new(&analysis.domains, Some(thread_id)),
    };
    let disabled = transform
        .guard
        .as_ref()
        .map(|guard| not(exprs.boolean(&specialize(guard, index))))
        .filter(|disabled| !matches!(disabled, Expr::Bool(false)));
    let status = Owner::Status {
        thread: thread_id,
        instance,
    };
    let mut body = Vec::new();
    let mut quiet = None;
    for (position, action) in transform.actions.iter().enumerate() {
        if transform.quiet == Some(position) {
            quiet = Some(body.len());
        }
        match self::action(&mut exprs, action, index) {
            // An assertion or assumption whose condition folded to true does nothing.
            Some(Stmt::Assert {
                fails: Expr::Bool(false),
                ..
            })
            | Some(Stmt::Assume(Expr::Bool(false))) => {}
            Some(stmt) => body.push(stmt),
            // Rule: `exit` ends the instance; the rest of the block is not executed.
            None => break,
        }
    }
    if transform.quiet.is_some() && quiet.is_none() {
        quiet = Some(body.len());
    }
    let value = match transform.destination() {
        Jump::Goto(location) => i64::from(location.0),
        Jump::Return => thread.ended_status(),
    };
    body.push(Stmt::SetStatus { status, value });
    // Rule: a pool instance that the step ends is freed at its end.
    let own = ir::TransitionRef {
        thread: thread_id,
        instance,
        transform: transform_id,
        partner: None,
    };
    body.extend(frees(system, &own));
    Transition {
        thread: thread_id,
        instance,
        transform: transform_id,
        disabled,
        body,
        quiet,
        partner: None,
    }
}

/// The statement of an action, `None` for `exit`.
pub(super) fn action(exprs: &mut ExprLowerer, action: &Action, index: i64) -> Option<Stmt> {
    Some(match action {
        Action::Assign { place, value, site } => {
            let scalar = exprs.scalar(place.var);
            let element = place.index.as_ref().map(|(i, index_site)| {
                let len = exprs.len(place.var);
                exprs.index(&specialize(i, index), len, *index_site)
            });
            let value = stored(exprs, &specialize(value, index), scalar, *site, true);
            Stmt::Store {
                target: exprs.owner(place.var),
                element,
                value,
            }
        }
        Action::Assert { cond, site } => Stmt::Assert {
            fails: not(exprs.boolean(&specialize(cond, index))),
            site: *site,
        },
        Action::Assume(cond) => Stmt::Assume(not(exprs.boolean(&specialize(cond, index)))),
        Action::Start {
            thread,
            args,
            site,
            arg_sites,
            result,
        } => {
            let target = &exprs.system.threads[*thread];
            let result = result.as_ref().map(|place| {
                let element = place.index.as_ref().map(|(i, index_site)| {
                    let len = exprs.len(place.var);
                    exprs.index(&specialize(i, index), len, *index_site)
                });
                (exprs.owner(place.var), element)
            });
            let pool = target.is_pool();
            let mut converted = Vec::new();
            for ((arg, &local), &arg_site) in args.iter().zip(&target.start_params).zip(arg_sites) {
                let scalar = target.locals[local].ty.scalar;
                // Rule: a pool's arguments convert as an assignment does (wrap or range
                // error); a thread's never wrap.
                let value = stored(exprs, &specialize(arg, index), scalar, arg_site, pool);
                converted.push((local, value));
            }
            let param = |instance, local| Owner::Local {
                thread: *thread,
                instance,
                local,
            };
            let status = |instance| Owner::Status {
                thread: *thread,
                instance,
            };
            if pool {
                return Some(Stmt::StartPool(Box::new(StartPool {
                    instances: target
                        .instance_ids()
                        .map(|instance| {
                            let params = target
                                .start_params
                                .iter()
                                .map(|&local| param(instance, local))
                                .collect();
                            (status(instance), params)
                        })
                        .collect(),
                    args: converted
                        .into_iter()
                        .map(|(_, value)| value.split())
                        .collect(),
                    free: target.not_started_status(),
                    site: *site,
                    first_tid: ir::System::tid_of(target.first_instance),
                    result,
                })));
            }
            let instance = target.first_instance;
            Stmt::Start {
                status: status(instance),
                not_started: target.not_started_status(),
                site: *site,
                arguments: converted
                    .into_iter()
                    .map(|(local, value)| (param(instance, local), value))
                    .collect(),
                result: result
                    .map(|(owner, element)| (owner, element, ir::System::tid_of(instance))),
            }
        }
        Action::Exit => return None,
    })
}

/// The freeing of each pool instance the step of `transition` ends.
pub(super) fn frees(system: &ir::System, transition: &ir::TransitionRef) -> Vec<Stmt> {
    system
        .freed_by(transition)
        .into_iter()
        .filter_map(|instance| system.freeing(instance))
        .map(|freeing| Stmt::Free(Box::new(freeing)))
        .collect()
}

/// The value to store in a variable of type `scalar`: range-checked, or wrapped for a
/// wrapping type when `wrapping` (assignments; a `start` argument never wraps), unless
/// the value's range already fits.
pub(super) fn stored(
    exprs: &mut ExprLowerer,
    value: &ir::Expr,
    scalar: Scalar,
    site: SiteId,
    wrapping: bool,
) -> Stored {
    let range = exprs.ranges.of(value);
    let value = exprs.int(value);
    match scalar {
        Scalar::Int { lo, hi, wrap } if !within(range, lo, hi) => {
            if wrap && wrapping {
                Stored::Wrap { value, lo, hi }
            } else {
                Stored::InRange {
                    value,
                    lo,
                    hi,
                    site,
                }
            }
        }
        _ => Stored::Plain(value),
    }
}

/// Rule: a state is an end state when every instance has ended or never started; an active
/// instance that cannot end never has.
fn end_state(system: &ir::System) -> EndState {
    let mut statuses = Vec::new();
    for (thread_id, thread) in system.threads.iter_enumerated() {
        if !thread.can_end && matches!(thread.kind, ThreadKind::Active { .. }) {
            return EndState::Never;
        }
        for instance in thread.instance_ids() {
            let status = Owner::Status {
                thread: thread_id,
                instance,
            };
            statuses.push((status, thread.ended_status()));
        }
    }
    EndState::AllEnded(statuses)
}
