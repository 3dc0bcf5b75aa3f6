//! When a transformation's use of a buffered channel leaves it independent of every other
//! instance: SPIN's `xs`/`xr` channel assertions, found without them.
//!
//! SPIN (Promela's `xs`/`xr`, `pangen2.c`'s `has_global` and `q_cond`) takes a send on a
//! channel that one process alone sends on as local, and a receive from a channel that one
//! process alone receives from, and `nfull`, `nempty`, `empty`, `full` by those processes
//! likewise — each only while its condition holds in the state at hand (a send while the
//! channel is not full, a receive while it is not empty, `empty` while it is empty): then no
//! other process can change the condition. bir's safe locations are fixed at compile time,
//! so the rule is stated over the lengths each guard allows (an interval; see
//! [`Lengths`]) and what the other instances can do to the length (a send adds one, a
//! receive takes one away). A transformation of thread `T` using channel unit `u` (a
//! single channel, or an element of an array that every use names by a constant index) is
//! safe for `u` when:
//!
//! - `T` has one instance, and the use reads the channel only in its guard's comparisons of
//!   the length with constants and in its own send or receive (no `x := len(c)`, no
//!   `d!(len(c))`), with an interval of lengths as the result;
//! - if it sends, no other instance sends on `u` (SPIN's `xs`), and every other instance's
//!   use of `u` allows, with a length, every greater one: the send disables none of them;
//!   if it receives, likewise no other instance receives (`xr`), and every other use
//!   allows every smaller length;
//! - its own lengths stay allowed whatever the others do: every smaller one if another
//!   instance receives, every greater one if another sends (a send's readiness, not full,
//!   is kept by receives; a receive's, not empty, by sends; `empty(c)` by receives);
//! - every other instance's use is of the same kind (no opaque read, an interval);
//! - no invariant or property reads the channel, when the step sends or receives (it
//!   would be visible).
//!
//! Then the step commutes with every other instance's (a send appends at the end, a
//! receive takes the first message, and both are enabled only when the channel is neither
//! full nor empty), and neither disables the other. And the location's transformations
//! must all allow the same lengths of each unit (one that does not use it allows them all):
//! otherwise one could be enabled, and chosen alone, while another waits for a length that
//! another instance is about to make — SPIN's condition "safe only while it holds", fixed
//! per location: wherever one of them is enabled, the length is one every one of them
//! allows, and stays so while the others move.

use std::collections::{BTreeMap, HashSet};

use crate::analyse::access::{Access, Accesses, Element};
use crate::analyse::channels::{Direction, Lengths, Unit, Use};
use crate::ir::{self, IdVec, ThreadId, TransformId};

/// Every use of every buffered channel across the model.
pub(super) struct ChannelUses<'s> {
    system: &'s ir::System,
    /// Per channel declaration, each use with the thread that makes it.
    by_channel: BTreeMap<u32, Vec<(ThreadId, Use)>>,
    /// The channel declarations an invariant or property reads.
    observed: HashSet<u32>,
}

impl<'s> ChannelUses<'s> {
    /// The uses of `accesses`; `observed` is what invariants and properties read.
    pub(super) fn new(
        system: &'s ir::System,
        accesses: &IdVec<ThreadId, IdVec<TransformId, Accesses>>,
        observed: &[Access],
    ) -> Self {
        let mut by_channel: BTreeMap<u32, Vec<(ThreadId, Use)>> = BTreeMap::new();
        for (thread, transforms) in accesses.iter_enumerated() {
            for access in transforms.iter() {
                for use_ in &access.channels {
                    by_channel
                        .entry(use_.unit.channel)
                        .or_default()
                        .push((thread, *use_));
                }
            }
        }
        let observed = observed
            .iter()
            .filter_map(|access| match access {
                Access::Global { var, .. } => system.hidden.channel_of(*var),
                _ => None,
            })
            .map(|channel| channel as u32)
            .collect();
        ChannelUses {
            system,
            by_channel,
            observed,
        }
    }

    fn capacity(&self, channel: u32) -> u32 {
        self.system.hidden.channels[channel as usize].capacity
    }

    /// Whether `use_`, by a transformation of `thread` (which has one instance when
    /// `single`), is independent of every other instance (the rules of the module).
    pub(super) fn safe(&self, thread: ThreadId, single: bool, use_: &Use) -> bool {
        let Unit { channel, element } = use_.unit;
        let Some(own) = use_.allowed.filter(|_| single && !use_.opaque) else {
            return false;
        };
        let is_array = self.system.hidden.channels[channel as usize].len.is_some();
        // An element named by a computed index may be any: nothing tells it apart.
        if is_array && element == Element::Any {
            return false;
        }
        if use_.op.is_some() && self.observed.contains(&channel) {
            return false;
        }
        let capacity = self.capacity(channel);
        let mut others_send = false;
        let mut others_receive = false;
        let mut others = Vec::new();
        for (other, theirs) in self.by_channel.get(&channel).into_iter().flatten() {
            if *other == thread {
                continue;
            }
            let overlaps = !is_array || theirs.unit.element == element;
            if is_array && theirs.unit.element == Element::Any {
                return false;
            }
            if !overlaps {
                continue;
            }
            let Some(allowed) = theirs.allowed.filter(|_| !theirs.opaque) else {
                return false;
            };
            others_send |= theirs.op == Some(Direction::Send);
            others_receive |= theirs.op == Some(Direction::Receive);
            others.push(allowed);
        }
        // (That no other instance sends follows from `kept` for a send, whose readiness,
        // not full, no send keeps; and likewise for a receive. It is SPIN's `xs`/`xr`, said
        // as SPIN says it.)
        let disables_none = match use_.op {
            None => true,
            Some(Direction::Send) => {
                !others_send && others.iter().all(|l| l.kept_by_sends(capacity))
            }
            Some(Direction::Receive) => {
                !others_receive && others.iter().all(|l| l.kept_by_receives())
            }
        };
        let kept = (!others_receive || own.kept_by_receives())
            && (!others_send || own.kept_by_sends(capacity));
        disables_none && kept
    }

    /// Whether the transformations of one location (their accesses) allow the same lengths
    /// of every channel unit one of them uses, those that do not use it allowing them all.
    pub(super) fn alike<'a>(&self, accesses: impl Iterator<Item = &'a Accesses> + Clone) -> bool {
        let units: HashSet<Unit> = accesses
            .clone()
            .flat_map(|access| access.channels.iter().map(|u| u.unit))
            .collect();
        units.iter().all(|unit| {
            let all = Lengths::all(self.capacity(unit.channel));
            let mut allowed = accesses.clone().map(|access| {
                access
                    .channels
                    .iter()
                    .find(|u| u.unit == *unit)
                    .map_or(Some(all), |u| u.allowed)
            });
            let first = allowed.next().flatten();
            first.is_some() && allowed.all(|lengths| lengths == first)
        })
    }
}
