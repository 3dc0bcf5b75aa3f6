//! A rendezvous (LANGUAGE.md, "Channels") as one of SPIN's: each rendezvous channel
//! declaration is a channel `chan rdv_N = [0] of { int, .. }` whose messages are a
//! ticket, the channel's element (for an array of channels) and the sent values.
//!
//! - A sender's transformation is one option of its instance's process, the send
//!   `rdv_N!ticket, element, values`; its ticket (its position among the channel's
//!   senders, instances and transformations in successor order) when it takes part: at
//!   its location, its guard and the assumes of its block true; else -1, which no receive
//!   matches. The values are taken in the state before the step, as bir takes them.
//! - A receiver's transformation is one option per possible partner (each sender's
//!   transformation of another instance), a `d_step` whose first statement is the
//!   receive, matching (`eval`) that sender's ticket when the receiver takes part (else
//!   -2) and its own element. SPIN's handshake passes control to the receiver, which runs
//!   the rest of the `d_step` at once: the transition in bir's order, the sender's block
//!   (every variable is a global, so the receiver's process can run it), the targets
//!   from the message (`rdv_v0`, ..., back to 0 after), the receiver's block, then both
//!   jumps. A sender's own option is the send alone, so its process is back at the loop's
//!   head: SPIN stores one state per rendezvous, and counts it as one transition. (SPIN's
//!   own order, the receiver's block before the rest of the sender's atomic sequence, is
//!   not bir's, and would store a state between the two.)
//! - The indices and values are only evaluated where the side takes part
//!   (`(c) -> e : 0`), and the values and the blocks' assumes divide by zero without
//!   fault (`Scope::safe`): SPIN evaluates them where bir may not (with no partner, or
//!   another one), and where bir does, such a fault is its transition's error. A process
//!   never pairs with itself in SPIN, nor does an instance in bir.
//!
//! Refused ([`Unsupported`]): an assume of either block that reads what the transition
//! wrote before it (the sender's block, the targets, the receiver's block): the side's
//! assumes are part of its condition, evaluated before the handshake.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use super::steps::assume_after_write;
use super::{literal, Scope, Unsupported, Writer};
use crate::ir::{
    Action, Id, Jump, Rendezvous, RendezvousRole, System, ThreadId, Transform, TransformId,
};

/// One rendezvous channel declaration (or array of channels).
pub(super) struct Channel {
    /// Its senders in successor order: thread, instance, transformation. A sender's ticket
    /// is its position.
    senders: Vec<(ThreadId, u32, TransformId)>,
    /// The fields of a message.
    fields: usize,
    /// An array of channels: messages carry the element.
    indexed: bool,
}

/// The rendezvous channels of a model, by the IR's channel number.
pub(super) type Channels = BTreeMap<u32, Channel>;

/// The rendezvous channels of `system`.
pub(super) fn channels(system: &System) -> Channels {
    let mut channels = Channels::new();
    for (id, thread) in system.threads.iter_enumerated() {
        for instance in 0..thread.instances() {
            for (transform, t) in thread.transforms.iter_enumerated() {
                let Some(meets) = t.rendezvous.as_deref() else {
                    continue;
                };
                let fields = match &meets.role {
                    RendezvousRole::Send(values) => values.len(),
                    RendezvousRole::Receive(targets) => targets.len(),
                };
                let channel = channels.entry(meets.channel).or_insert(Channel {
                    senders: Vec::new(),
                    fields,
                    indexed: meets.index.is_some(),
                });
                if matches!(meets.role, RendezvousRole::Send(_)) {
                    channel.senders.push((id, instance, transform));
                }
            }
        }
    }
    channels
}

/// One side of a rendezvous: its instance's scope, its transformation and communication.
struct Side<'a> {
    scope: Scope,
    t: &'a Transform,
    meets: &'a Rendezvous,
}

impl Side<'_> {
    fn thread(&self) -> (ThreadId, u32) {
        self.scope.thread.expect("a side is an instance's")
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

    /// Where the instance goes: its jump, or "ended" after an `exit` in its block.
    fn destination(&self) -> Jump {
        self.t.destination()
    }
}

/// The temporary that receives field `n` of a message.
fn received(n: usize) -> String {
    format!("rdv_v{n}")
}

impl Writer<'_> {
    /// The channels, and the temporaries a receive fills.
    pub(super) fn channel_declarations(&self, out: &mut String) {
        for (n, channel) in &self.channels {
            let fields = 1 + usize::from(channel.indexed) + channel.fields;
            let _ = writeln!(
                out,
                "chan rdv_{n} = [0] of {{ {} }};",
                vec!["int"; fields].join(", ")
            );
        }
        let most = self.channels.values().map(|c| c.fields).max().unwrap_or(0);
        for n in 0..most {
            let _ = writeln!(out, "int {} = 0;", received(n));
        }
        if !self.channels.is_empty() {
            out.push('\n');
        }
    }

    fn side(&self, (id, instance, transform): (ThreadId, u32, TransformId)) -> Side<'_> {
        let t = &self.system.threads[id].transforms[transform];
        Side {
            scope: Scope::step(id, instance),
            t,
            meets: t
                .rendezvous
                .as_deref()
                .expect("a rendezvous transformation"),
        }
    }

    /// The options of a rendezvous transformation in its instance's process: a sender's
    /// send, or a receiver's receive per partner (each pairing's condition appended to
    /// `enabled`); how many.
    pub(super) fn rendezvous_options(
        &self,
        out: &mut String,
        at: (ThreadId, u32, TransformId),
        enabled: &mut Vec<String>,
    ) -> Result<usize, Unsupported> {
        let side = self.side(at);
        let channel = &self.channels[&side.meets.channel];
        let name = format!("rdv_{}", side.meets.channel);
        if let RendezvousRole::Send(values) = &side.meets.role {
            let ticket = channel.senders.iter().position(|s| *s == at).unwrap_or(0);
            let taking_part = self.condition(&side, &mut BTreeSet::new()).map_err(|var| {
                Unsupported(format!("`{}`: {}", side.t.text, assume_after_write(&var)))
            })?;
            let mut message = vec![format!("(({taking_part}) -> {ticket} : {})", literal(-1))];
            // The index faults in bir's own step, if it does; a value only in a pairing.
            if let Some((index, _)) = &side.meets.index {
                let index = self.expr(index, &side.scope).unwrap_or_default();
                message.push(format!("(({taking_part}) -> ({index}) : 0)"));
            }
            let safe = Scope {
                safe: true,
                ..side.scope.clone()
            };
            for (value, _, _) in values {
                let value = self.expr(value, &safe).unwrap_or_default();
                message.push(format!("(({taking_part}) -> ({value}) : 0)"));
            }
            let _ = writeln!(out, "  :: {name}!{}", message.join(", "));
            return Ok(1);
        }
        let mut options = 0;
        for (ticket, &sender) in channel.senders.iter().enumerate() {
            if (sender.0, sender.1) == (at.0, at.1) {
                continue;
            }
            let send = self.side(sender);
            let (sending, receiving) = self.conditions(&send, &side)?;
            let mut message = vec![format!(
                "eval((({receiving}) -> {ticket} : {}))",
                literal(-2)
            )];
            let mut same_element = None;
            if let (Some((at, _)), Some((on, _))) = (&send.meets.index, &side.meets.index) {
                let on = self.expr(on, &side.scope).unwrap_or_default();
                message.push(format!("eval((({receiving}) -> ({on}) : 0))"));
                let at = self.expr(at, &send.scope).unwrap_or_default();
                same_element = Some(format!("({at}) == ({on})"));
            }
            message.extend((0..channel.fields).map(received));
            enabled.push(match same_element {
                Some(same) => format!("({sending} && {receiving} && {same})"),
                None => format!("({sending} && {receiving})"),
            });
            let _ = write!(out, "  :: d_step {{ {name}?{}", message.join(", "));
            self.meet(out, &send, &side);
            options += 1;
            let _ = writeln!(out, " }}");
        }
        Ok(options)
    }

    /// The conditions under which the sender and the receiver take part; refused when an
    /// assume of either block reads what the transition wrote before it.
    fn conditions(&self, send: &Side, receive: &Side) -> Result<(String, String), Unsupported> {
        let refused = |var: String| {
            Unsupported(format!(
                "the rendezvous of `{}` with `{}`: {}",
                send.t.text,
                receive.t.text,
                assume_after_write(&var)
            ))
        };
        let mut written = BTreeSet::new();
        let sending = self.condition(send, &mut written).map_err(refused)?;
        if let RendezvousRole::Receive(targets) = &receive.meets.role {
            for (place, _) in targets.iter().flatten() {
                written.insert(self.var_name(place.var, &receive.scope));
            }
        }
        let receiving = self.condition(receive, &mut written).map_err(refused)?;
        Ok((sending, receiving))
    }

    /// The condition under which a side takes part: at its location, its guard, its
    /// block's assumes; `written` holds what the transition wrote before the block, and
    /// takes the block's writes. `Err` with a variable an assume reads after a write.
    fn condition(&self, side: &Side, written: &mut BTreeSet<String>) -> Result<String, String> {
        let (id, instance) = side.thread();
        let mut parts = vec![format!(
            "{} == {}",
            self.status(id, instance),
            side.t.location.index()
        )];
        if let Some(guard) = &side.t.guard {
            parts.push(self.expr(guard, &side.scope).unwrap_or_default());
        }
        // bir evaluates the block's assumes only in a pairing, SPIN before it knows one.
        let safe = Scope {
            safe: true,
            ..side.scope.clone()
        };
        self.assumes(side.block(), &safe, written, &mut parts)?;
        Ok(format!("({})", parts.join(" && ")))
    }

    /// The rest of a receive's `d_step`: the sender's block, the targets, the receiver's
    /// block, both jumps (the sender's first), the temporaries back to 0.
    fn meet(&self, out: &mut String, send: &Side, receive: &Side) {
        self.actions(out, send.block(), &send.scope);
        let RendezvousRole::Receive(targets) = &receive.meets.role else {
            unreachable!("the second side receives")
        };
        for (n, target) in targets.iter().enumerate() {
            if let Some((place, _)) = target {
                let _ = write!(
                    out,
                    "; {}",
                    self.assign(place, &received(n), &receive.scope)
                );
            }
        }
        self.actions(out, receive.block(), &receive.scope);
        for side in [send, receive] {
            let (id, instance) = side.thread();
            let status = match side.destination() {
                Jump::Goto(location) => location.index() as i64,
                Jump::Return => self.system.threads[id].ended_status(),
            };
            let _ = write!(out, "; {} = {status}", self.status(id, instance));
        }
        for n in 0..targets.len() {
            let _ = write!(out, "; {} = 0", received(n));
        }
    }
}
