//! A rendezvous (LANGUAGE.md, "Channels"): a sender's transformation and a receiver's, of
//! two instances, as one transition at the sender's place. Both guards hold and both name
//! the same channel (their faults are the error steps of the transformations themselves,
//! so here they disable the pairing); then, in order, the sender's values are checked
//! against their fields in the state before the step, the sender's block runs, the
//! receiver's targets take the values (each target's place computed just before its
//! write), the receiver's block runs, and both jump, the sender first. An `exit` ends its
//! own block only.

use super::expr::ExprLowerer;
use super::rewrite::specialize;
use super::simplify::not;
use super::step::{action, stored};
use super::{Expr, Stmt, Transition};
use crate::analyse::interval::Ranges;
use crate::analyse::Analysis;
use crate::ir::{self, CmpOp, InstanceId, Jump, Owner, RendezvousRole, ThreadId, TransformId};

/// The transition of the rendezvous of `sender`'s transformation with `receiver`'s.
pub(super) fn pair(
    system: &ir::System,
    analysis: &Analysis,
    sender: &ir::TransitionRef,
    (receiver_thread, receiver_instance, receiver_transform): (ThreadId, InstanceId, TransformId),
) -> Transition {
    let send_thread = &system.threads[sender.thread];
    let send = &send_thread.transforms[sender.transform];
    let receive_thread = &system.threads[receiver_thread];
    let receive = &receive_thread.transforms[receiver_transform];
    let (Some(out), Some(into)) = (send.rendezvous.as_deref(), receive.rendezvous.as_deref())
    else {
        unreachable!("a pairing is of two rendezvous transformations")
    };
    let send_index = i64::from(send_thread.index_of(sender.instance));
    let receive_index = i64::from(receive_thread.index_of(receiver_instance));
    let mut sender_exprs = ExprLowerer {
        system,
        instance: Some((sender.thread, sender.instance)),
        ranges: Ranges::new(&analysis.domains, Some(sender.thread)),
    };
    let mut receiver_exprs = ExprLowerer {
        system,
        instance: Some((receiver_thread, receiver_instance)),
        ranges: Ranges::new(&analysis.domains, Some(receiver_thread)),
    };
    let disabled = send
        .guard
        .as_ref()
        .map(|guard| not(sender_exprs.boolean(&specialize(guard, send_index))));
    let receiver_status = Owner::Status {
        thread: receiver_thread,
        instance: receiver_instance,
    };
    let sender_status = Owner::Status {
        thread: sender.thread,
        instance: sender.instance,
    };
    // The pairing holds: the receiver waits there, its guard holds, and both name one
    // channel (each index checked, as the transformations' own steps check it).
    let mut body = vec![Stmt::Assume(Expr::Cmp {
        op: CmpOp::Ne,
        lhs: Box::new(Expr::Get(receiver_status)),
        rhs: Box::new(Expr::Int(i64::from(receive.location.0))),
    })];
    if let Some(guard) = &receive.guard {
        body.push(Stmt::Assume(not(
            receiver_exprs.boolean(&specialize(guard, receive_index))
        )));
    }
    for (transform, exprs, index) in [
        (send, &mut sender_exprs, send_index),
        (receive, &mut receiver_exprs, receive_index),
    ] {
        // Its own step's actions check the channel's index and never pass.
        for action in &transform.actions {
            if let ir::Action::Assume(cond) = action {
                body.push(Stmt::Assume(exprs.boolean(&specialize(cond, index))));
            }
        }
    }
    if let (Some((send_at, _)), Some((receive_at, _))) = (&out.index, &into.index) {
        let lhs = sender_exprs.int(&specialize(send_at, send_index));
        let rhs = receiver_exprs.int(&specialize(receive_at, receive_index));
        body.push(Stmt::Assume(Expr::Cmp {
            op: CmpOp::Ne,
            lhs: Box::new(lhs),
            rhs: Box::new(rhs),
        }));
    }
    let quiet = Some(body.len());
    let RendezvousRole::Send(values) = &out.role else {
        unreachable!("the pairing's first transformation sends")
    };
    let RendezvousRole::Receive(targets) = &into.role else {
        unreachable!("the pairing's second transformation receives")
    };
    let values: Vec<ir::Expr> = values
        .iter()
        .map(|(value, scalar, site)| {
            let value = specialize(value, send_index);
            let checked = stored(&mut sender_exprs, &value, unwrapped(*scalar), *site, false);
            if !matches!(checked, super::Stored::Plain(Expr::Int(_))) {
                body.push(Stmt::Check(checked));
            }
            value
        })
        .collect();
    let sender_ended = block(&mut body, &mut sender_exprs, &out.block, send_index);
    for (target, value) in targets.iter().zip(&values) {
        let Some((place, site)) = target else {
            continue;
        };
        let scalar = receiver_exprs.scalar(place.var);
        let element = place.index.as_ref().map(|(i, index_site)| {
            let len = receiver_exprs.len(place.var);
            receiver_exprs.index(&specialize(i, receive_index), len, *index_site)
        });
        // The value is the sender's, read from the state before the step.
        let value = stored(&mut sender_exprs, value, scalar, *site, true);
        body.push(Stmt::Deliver {
            target: receiver_exprs.owner(place.var),
            element,
            value,
        });
    }
    let receiver_ended = block(&mut body, &mut receiver_exprs, &into.block, receive_index);
    for (status, thread, transform, ended) in [
        (sender_status, send_thread, send, sender_ended),
        (receiver_status, receive_thread, receive, receiver_ended),
    ] {
        let value = match (ended, transform.jump) {
            (true, _) | (_, Jump::Return) => thread.ended_status(),
            (false, Jump::Goto(location)) => i64::from(location.0),
        };
        body.push(Stmt::SetStatus { status, value });
    }
    // Rule: a pool instance that the step ends is freed at its end.
    let whole = ir::TransitionRef {
        partner: Some((receiver_thread, receiver_instance, receiver_transform)),
        ..*sender
    };
    body.extend(super::step::frees(system, &whole));
    Transition {
        thread: sender.thread,
        instance: sender.instance,
        transform: sender.transform,
        disabled: disabled.filter(|d| !matches!(d, Expr::Bool(false))),
        body,
        quiet,
        partner: Some((receiver_thread, receiver_instance, receiver_transform)),
    }
}

/// The statements of one side's block; true when it ends in `exit`, which ends that
/// instance and skips the rest of its block.
fn block(
    body: &mut Vec<Stmt>,
    exprs: &mut ExprLowerer,
    actions: &[ir::Action],
    index: i64,
) -> bool {
    for action in actions {
        match self::action(exprs, action, index) {
            Some(Stmt::Assert {
                fails: Expr::Bool(false),
                ..
            })
            | Some(Stmt::Assume(Expr::Bool(false))) => {}
            Some(stmt) => body.push(stmt),
            None => return true,
        }
    }
    false
}

/// A field's type as a message checks it: never wrapped.
fn unwrapped(scalar: ir::Scalar) -> ir::Scalar {
    match scalar {
        ir::Scalar::Int { lo, hi, .. } => ir::Scalar::Int {
            lo,
            hi,
            wrap: false,
        },
        other => other,
    }
}
