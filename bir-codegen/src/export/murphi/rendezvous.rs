//! A rendezvous (LANGUAGE.md, "Channels") in Murphi: one rule per sender's transformation
//! and receiver's transformation on one channel, in a ruleset over the sender's instances
//! (`inst`) and the receiver's (`pin`), so that each pairing Rumur fires is one of bir's
//! transitions. The rule is enabled as the pairing holds: both instances at their
//! locations, two instances (`inst != pin` within one thread), both guards true, one
//! channel element. Its body is the transition in bir's order: the sent values, taken in
//! the state before the step into the rule's variables `m0`, `m1`, ... (of the fields'
//! types, never wrapped); the sender's block; the receiver's targets, each place computed
//! just before its write; the receiver's block; then both jumps, the sender's first. An
//! `exit` ends its own block only, and its instance's jump is "ended".
//!
//! Faults: a guard or channel index that faults disables the pairing, as the
//! transformation's own rule (the error step, written as any other rule) reports it. In
//! [`Errors::Stop`] the guard reads both guards, so Rumur meets that fault there, in a
//! state where bir meets it too; the rest faults in the body, as bir's transition does. In
//! [`Errors::CountPast`] an outcome function decides every fault before it happens: the
//! guards' and indices' disable the rule, the values', blocks' and targets' make it fire
//! and change nothing.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use super::counting::{COMPLETES, DISABLED, FAULTS};
use super::{quoted, Errors, Scope, Writer};
use crate::ir::{
    Action, Id, Jump, Rendezvous, RendezvousRole, Scalar, ThreadId, Transform, TransformId,
};

/// One side of a rendezvous: the thread, its transformation and the communication.
#[derive(Clone, Copy)]
struct Side<'a> {
    id: ThreadId,
    t: &'a Transform,
    meets: &'a Rendezvous,
}

impl Side<'_> {
    /// Where the instance goes: its jump, or "ended" after an `exit` in its block.
    fn destination(&self) -> Jump {
        self.t.destination()
    }

    /// The block up to its `exit`, which ends it.
    fn block(&self) -> &[Action] {
        let block = &self.meets.block;
        let end = block
            .iter()
            .position(|a| matches!(a, Action::Exit))
            .unwrap_or(block.len());
        &block[..end]
    }
}

impl Writer<'_> {
    /// The receivers a sender's transformation pairs with: every transformation, of any
    /// thread, that receives on its channel (none unless `sender` sends on one).
    pub(super) fn receivers(&self, sender: &Transform) -> Vec<(ThreadId, TransformId)> {
        let Some(Rendezvous {
            channel,
            role: RendezvousRole::Send(_),
            ..
        }) = sender.rendezvous.as_deref()
        else {
            return Vec::new();
        };
        let mut receivers = Vec::new();
        for (id, thread) in self.system.threads.iter_enumerated() {
            for (transform_id, t) in thread.transforms.iter_enumerated() {
                if let Some(Rendezvous {
                    channel: on,
                    role: RendezvousRole::Receive(_),
                    ..
                }) = t.rendezvous.as_deref()
                {
                    if on == channel {
                        receivers.push((id, transform_id));
                    }
                }
            }
        }
        receivers
    }

    fn side(&self, (id, transform): (ThreadId, TransformId)) -> Side<'_> {
        let t = &self.system.threads[id].transforms[transform];
        let meets = t
            .rendezvous
            .as_deref()
            .expect("a rendezvous transformation");
        Side { id, t, meets }
    }

    /// The rule of the pairings of sender `(id, transform)` with receiver `(id, transform)`,
    /// and before it the function that decides its assumes or its outcome.
    pub(super) fn pair_rule(
        &self,
        out: &mut String,
        sender: (ThreadId, TransformId),
        receiver: (ThreadId, TransformId),
    ) {
        let (send, receive) = (self.side(sender), self.side(receiver));
        let (send_thread, receive_thread) = (
            &self.system.threads[send.id],
            &self.system.threads[receive.id],
        );
        let one_thread = send.id == receive.id;
        // An instance never pairs with itself.
        if one_thread && send_thread.instances() == 1 {
            return;
        }
        let name = format!(
            "{}_{}_with_{}_{}",
            send.id.index(),
            sender.1.index(),
            receive.id.index(),
            receiver.1.index()
        );
        let parameters = format!(
            "inst: 0..{}; pin: 0..{}",
            send_thread.instances() - 1,
            receive_thread.instances() - 1
        );
        let mut guard = format!(
            "{}[inst] = {} & {}[pin] = {}",
            self.status(send.id),
            send.t.location.index(),
            self.status(receive.id),
            receive.t.location.index()
        );
        if one_thread {
            guard.push_str(" & inst != pin");
        }
        let outcome = match self.errors {
            Errors::Stop => {
                let (send_scope, receive_scope) =
                    (Scope::step(send.id), Scope::partner(receive.id));
                for (side, scope) in [(send, &send_scope), (receive, &receive_scope)] {
                    if let Some(cond) = &side.t.guard {
                        let _ = write!(guard, " & {}", self.expr(cond, scope, true));
                    }
                }
                if let (Some((at, _)), Some((on, _))) = (&send.meets.index, &receive.meets.index) {
                    let (at, on) = (
                        self.expr(at, &send_scope, false),
                        self.expr(on, &receive_scope, false),
                    );
                    let _ = write!(guard, " & {at} = {on}");
                }
                let assumes =
                    |side: Side| side.block().iter().any(|a| matches!(a, Action::Assume(_)));
                if assumes(send) || assumes(receive) {
                    let function = format!("assumed_{name}");
                    self.pair_assume_function(out, &function, &parameters, send, receive);
                    let _ = write!(guard, " & {function}(inst, pin)");
                }
                None
            }
            Errors::CountPast => {
                let function = format!("outcome_{name}");
                self.pair_outcome_function(out, &function, &parameters, send, receive);
                if !self.system.invariants.is_empty() {
                    guard = format!("invariants_hold() & {guard}");
                }
                let _ = write!(guard, " & {function}(inst, pin) != {DISABLED}");
                Some(function)
            }
        };
        let ends = |side: Side| {
            let thread = &self.system.threads[side.id];
            let from = &thread.locations[side.t.location].name;
            let to = match side.destination() {
                Jump::Goto(location) => thread.locations[location].name.as_str(),
                Jump::Return => "end",
            };
            format!("{} {from} -> {to}", thread.name)
        };
        let _ = writeln!(
            out,
            "ruleset {parameters} do\n  rule \"{} with {} (lines {}, {}): {} | {}\"\n    {guard}\n  ==>",
            ends(send),
            ends(receive),
            send.t.line,
            receive.t.line,
            quoted(&send.t.text),
            quoted(&receive.t.text),
        );
        let messages = self.message_variables(send);
        if !messages.is_empty() {
            out.push_str("  var\n");
            for (var, ty) in &messages {
                let _ = writeln!(out, "    {var}: {ty};");
            }
        }
        out.push_str("  begin\n");
        // Counting past errors, a transition that faults changes nothing.
        let indent = match &outcome {
            Some(function) => {
                let _ = writeln!(out, "    if {function}(inst, pin) = {COMPLETES} then");
                "      "
            }
            None => "    ",
        };
        let (send_scope, receive_scope) = (Scope::step(send.id), Scope::partner(receive.id));
        self.transfer(
            out,
            indent,
            send,
            receive,
            (&send_scope, &receive_scope),
            None,
        );
        for (side, inst) in [(send, "inst"), (receive, "pin")] {
            let thread = &self.system.threads[side.id];
            let status = match side.destination() {
                Jump::Goto(location) => location.index() as i64,
                Jump::Return => thread.ended_status(),
            };
            let _ = writeln!(out, "{indent}{}[{inst}] := {status};", self.status(side.id));
        }
        if outcome.is_some() {
            out.push_str("    endif;\n");
        }
        out.push_str("  end;\nend;\n\n");
    }

    /// The variables `m0`, `m1`, ... that hold the sent values, of the fields' types.
    fn message_variables(&self, send: Side) -> Vec<(String, String)> {
        let RendezvousRole::Send(values) = &send.meets.role else {
            unreachable!("the first side sends")
        };
        values
            .iter()
            .enumerate()
            .map(|(n, (_, scalar, _))| (format!("m{n}"), self.scalar_type(*scalar)))
            .collect()
    }

    /// The transition's writes in bir's order: the values into `m0`, ..., the sender's
    /// block, the targets, the receiver's block (not the jumps). `checked`: in an outcome
    /// function, testing each fault first (`Some`), or deciding assumes (`Some(false)`
    /// writes the actions as an assume function does); `None` in a rule's body.
    fn transfer(
        &self,
        out: &mut String,
        indent: &str,
        send: Side,
        receive: Side,
        (send_scope, receive_scope): (&Scope, &Scope),
        checked: Option<bool>,
    ) {
        let (RendezvousRole::Send(values), RendezvousRole::Receive(targets)) =
            (&send.meets.role, &receive.meets.role)
        else {
            unreachable!("a sender and a receiver")
        };
        let fault = |out: &mut String, test: Option<String>| {
            if let Some(test) = test {
                let _ = writeln!(out, "{indent}if {test} then return {FAULTS}; endif;");
            }
        };
        for (n, (value, scalar, _)) in values.iter().enumerate() {
            if checked == Some(true) {
                fault(out, self.faults(value, send_scope));
                // Rule: a sent value outside its field's type is a range error, never
                // wrapped.
                if let Scalar::Int { lo, hi, .. } = scalar {
                    let value = self.expr(value, send_scope, false);
                    fault(out, Some(format!("({value} < {lo}) | ({value} > {hi})")));
                }
            }
            let value = self.expr(value, send_scope, *scalar == Scalar::Bool);
            let _ = writeln!(out, "{indent}m{n} := {value};");
        }
        let block = |out: &mut String, side: Side, scope: &Scope| {
            for action in side.block() {
                match checked {
                    Some(true) => {
                        self.checked_action(out, action, scope, FAULTS);
                    }
                    Some(false) => {
                        self.action(out, indent, action, scope, true);
                    }
                    None => {
                        self.action(out, indent, action, scope, false);
                    }
                }
            }
        };
        block(out, send, send_scope);
        let thread = receive.id;
        for (n, target) in targets.iter().enumerate() {
            let Some((place, _)) = target else {
                continue;
            };
            let ty = self.system.var(thread, place.var).ty;
            if checked == Some(true) {
                if let Some((index, _)) = &place.index {
                    fault(
                        out,
                        Some(self.index_faults(index, ty.elements(), receive_scope)),
                    );
                }
                if let Scalar::Int {
                    lo,
                    hi,
                    wrap: false,
                } = ty.scalar
                {
                    fault(out, Some(format!("(m{n} < {lo}) | (m{n} > {hi})")));
                }
            }
            self.assign_text(out, indent, place, &format!("m{n}"), receive_scope);
        }
        block(out, receive, receive_scope);
    }

    /// The variables the transition writes, for the functions that run it on copies.
    fn pair_written(&self, send: Side, receive: Side) -> BTreeSet<String> {
        let mut written = BTreeSet::new();
        self.written(send.id, send.block(), &mut written);
        self.written(receive.id, receive.block(), &mut written);
        if let RendezvousRole::Receive(targets) = &receive.meets.role {
            for (place, _) in targets.iter().flatten() {
                written.insert(self.place_var(place.var, receive.id));
            }
        }
        written
    }

    /// The scopes of both sides in a function over copies of `copied`.
    fn pair_scopes(send: Side, receive: Side, copied: &BTreeSet<String>) -> (Scope, Scope) {
        let mut send_scope = Scope::step(send.id);
        let mut receive_scope = Scope::partner(receive.id);
        send_scope.copied = copied.clone();
        receive_scope.copied = copied.clone();
        (send_scope, receive_scope)
    }

    /// [`Errors::Stop`]: a function that runs the transition on copies and answers whether
    /// every assume of both blocks holds (a failed one discards the pairing).
    fn pair_assume_function(
        &self,
        out: &mut String,
        name: &str,
        parameters: &str,
        send: Side,
        receive: Side,
    ) {
        let copied = self.pair_written(send, receive);
        let header = format!("function {name}({parameters}): boolean;");
        self.open_function(out, &header, &copied, &self.message_variables(send));
        let scopes = Self::pair_scopes(send, receive, &copied);
        self.transfer(
            out,
            "  ",
            send,
            receive,
            (&scopes.0, &scopes.1),
            Some(false),
        );
        out.push_str("  return true;\nend;\n\n");
    }

    /// [`Errors::CountPast`]: a function giving the transition's outcome, [`DISABLED`],
    /// [`FAULTS`] or [`COMPLETES`], every fault tested before it happens.
    fn pair_outcome_function(
        &self,
        out: &mut String,
        name: &str,
        parameters: &str,
        send: Side,
        receive: Side,
    ) {
        let copied = self.pair_written(send, receive);
        let header = format!("function {name}({parameters}): {DISABLED}..{COMPLETES};");
        self.open_function(out, &header, &copied, &self.message_variables(send));
        let (send_scope, receive_scope) = Self::pair_scopes(send, receive, &copied);
        // Rule: the guards and the channel's indices fault in the transformations' own
        // steps; here they disable the pairing.
        for (side, scope) in [(send, &send_scope), (receive, &receive_scope)] {
            self.checked_guard(out, side.t.guard.as_ref(), scope, DISABLED);
            for action in &side.t.actions {
                if let Action::Assume(cond) = action {
                    if let Some(faults) = self.faults(cond, scope) {
                        let _ = writeln!(out, "  if {faults} then return {DISABLED}; endif;");
                    }
                }
            }
        }
        if let (Some((at, _)), Some((on, _))) = (&send.meets.index, &receive.meets.index) {
            let (at, on) = (
                self.expr(at, &send_scope, false),
                self.expr(on, &receive_scope, false),
            );
            let _ = writeln!(out, "  if {at} != {on} then return {DISABLED}; endif;");
        }
        self.transfer(
            out,
            "  ",
            send,
            receive,
            (&send_scope, &receive_scope),
            Some(true),
        );
        let _ = writeln!(out, "  return {COMPLETES};\nend;\n");
    }
}
