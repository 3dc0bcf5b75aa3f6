//! A rendezvous, by the definition of `LANGUAGE.md` ("Channels"): a sender's
//! transformation and a receiver's, of two instances, both at their locations, both
//! guards true, both naming one channel, as one transition. A guard or a channel index
//! that faults disables the pairing (the transformation's own step is that error). Then
//! the sender's values are checked against their fields in the state before the step, the
//! sender's block runs, the receiver's targets take the values in order (each target's
//! place evaluated just before its write), the receiver's block runs, and both jump, the
//! sender first; an `exit` ends only its own block.

use bir_codegen::emit::tables::TransitionRow;
use bir_codegen::ir::{Action, InstanceId, Jump, RendezvousRole, Scalar, ThreadId, TransformId};

use bir_runtime::model::{Fault, Outcome};

use super::{checked_index, store, Step};
use crate::state::State;
use crate::Interpreter;

impl Interpreter {
    /// The outcome of the rendezvous of `row`'s sender with `partner`'s receiver from
    /// `state`, or `None` when it is not enabled.
    pub(super) fn rendezvous(
        &self,
        state: &State,
        row: &TransitionRow,
        (receiver_thread, receiver, receiver_transform): (ThreadId, InstanceId, TransformId),
    ) -> Option<Outcome<State>> {
        let packing = &self.plan.packing;
        let send_thread = &self.program.threads[row.thread];
        let send = &send_thread.transforms[row.transform];
        let receive_thread = &self.program.threads[receiver_thread];
        let receive = &receive_thread.transforms[receiver_transform];
        let (out, into) = (send.rendezvous.as_deref()?, receive.rendezvous.as_deref()?);
        let sender_status = self.plan.instances[row.instance].status;
        let receiver_status = self.plan.instances[receiver].status;
        let at = |status, location: bir_codegen::ir::LocationId| {
            packing.get(state, status) == i64::from(location.0)
        };
        if !at(sender_status, send.location) || !at(receiver_status, receive.location) {
            return None;
        }
        // The guards, then the channel's index on each side (each transformation's own
        // step checks it), all without fault, and one channel.
        for (transform, instance) in [(send, row.instance), (receive, receiver)] {
            if let Some(guard) = &transform.guard {
                if self.eval(guard, state, Some(instance)).ok()? == 0 {
                    return None;
                }
            }
            for action in &transform.actions {
                if let Action::Assume(cond) = action {
                    self.eval(cond, state, Some(instance)).ok()?;
                }
            }
        }
        if let (Some((send_at, _)), Some((receive_at, _))) = (&out.index, &into.index) {
            let sent_on = self.eval(send_at, state, Some(row.instance)).ok()?;
            let received_on = self.eval(receive_at, state, Some(receiver)).ok()?;
            if sent_on != received_on {
                return None;
            }
        }
        let (RendezvousRole::Send(values), RendezvousRole::Receive(targets)) =
            (&out.role, &into.role)
        else {
            return None;
        };
        let partner = (receiver_thread, receiver, receiver_transform);
        match self.meet(state, row, partner, values, targets) {
            Ok(Some(next)) => Some(Outcome::Next(next)),
            Ok(None) => None,
            Err(fault) => Some(Outcome::Fault(fault)),
        }
    }

    /// The blocks of a rendezvous whose pairing holds, and both jumps: the next state,
    /// `None` when an `assume` discards it, or the fault of either block.
    fn meet(
        &self,
        state: &State,
        row: &TransitionRow,
        (receiver_thread, receiver, receiver_transform): (ThreadId, InstanceId, TransformId),
        values: &[(bir_codegen::ir::Expr, Scalar, bir_codegen::ir::SiteId)],
        targets: &[Option<(bir_codegen::ir::Place, bir_codegen::ir::SiteId)>],
    ) -> Result<Option<State>, Fault> {
        let packing = &self.plan.packing;
        let mut sent = Vec::new();
        for (value, scalar, site) in values {
            let value = self.eval(value, state, Some(row.instance))?;
            // A field checks the value, never wraps it.
            store(value, unwrapped(*scalar), *site, false)?;
            sent.push(value);
        }
        let mut next = state.clone();
        let send = &self.program.threads[row.thread].transforms[row.transform];
        let receive = &self.program.threads[receiver_thread].transforms[receiver_transform];
        let sender_ended =
            match self.block(&mut next, (row.thread, row.instance), block_of(send))? {
                Some(ended) => ended,
                None => return Ok(None),
            };
        for (target, value) in targets.iter().zip(&sent) {
            let Some((place, site)) = target else {
                continue;
            };
            let scalar = self.program.ty(receiver_thread, place.var).scalar;
            let element = match &place.index {
                Some((index, index_site)) => {
                    let len = self.len(receiver_thread, place.var);
                    let index = self.eval(index, &next, Some(receiver))?;
                    checked_index(index, len, *index_site)?
                }
                None => 0,
            };
            let stored = store(*value, scalar, *site, true)?;
            let slot = self.slot(place.var, Some(receiver)) + element;
            packing.set(&mut next, slot, stored);
        }
        let receiver_ended =
            match self.block(&mut next, (receiver_thread, receiver), block_of(receive))? {
                Some(ended) => ended,
                None => return Ok(None),
            };
        for ((thread_id, instance), ended, jump) in [
            ((row.thread, row.instance), sender_ended, send.jump),
            ((receiver_thread, receiver), receiver_ended, receive.jump),
        ] {
            let thread = &self.program.threads[thread_id];
            let status = self.plan.instances[instance].status;
            let value = match (ended, jump) {
                (true, _) | (_, Jump::Return) => thread.ended_status(),
                (false, Jump::Goto(location)) => i64::from(location.0),
            };
            packing.set(&mut next, status, value);
        }
        Ok(Some(next))
    }

    /// Runs one side's block on `next`: whether it ended in `exit`, or `None` when an
    /// `assume` discarded the step.
    fn block(
        &self,
        next: &mut State,
        side: (ThreadId, InstanceId),
        actions: &[Action],
    ) -> Result<Option<bool>, Fault> {
        for action in actions {
            match self.action(next, side, action, None)? {
                None => {}
                Some(Step::Discarded) => return Ok(None),
                Some(_) => return Ok(Some(true)),
            }
        }
        Ok(Some(false))
    }
}

/// The rest of a rendezvous transformation's block, after its communication.
fn block_of(transform: &crate::program::TransformCode) -> &[Action] {
    transform
        .rendezvous
        .as_deref()
        .map_or(&[], |meets| &meets.block)
}

/// A field's type as a message checks it: never wrapped.
fn unwrapped(scalar: Scalar) -> Scalar {
    match scalar {
        Scalar::Int { lo, hi, .. } => Scalar::Int {
            lo,
            hi,
            wrap: false,
        },
        other => other,
    }
}
