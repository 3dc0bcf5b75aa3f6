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
//! single channel, or the element of an array that the index names for each instance of
//! `T`: a constant, or an expression of `index` and constants evaluated per instance,
//! [`Which`]) is safe for `u` when, for each instance `p` of `T` and the element `e` it
//! names, against every other instance's use of `e` (those of `p`'s own steps are `p`'s):
//!
//! - the use reads the channel only in its guard's comparisons of the length with
//!   constants and in its own send or receive (no `x := len(c)`, no `d!(len(c))`), with an
//!   interval of lengths as the result, and no use anywhere names any element (a computed
//!   index of more than `index` and constants);
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
//! must pairwise allow the same lengths of each unit (one that does not use it allows them
//! all), or never be enabled together by the instance's own locals ([`super::exclusive`]):
//! otherwise one could be enabled, and chosen alone, while another waits for a length that
//! another instance is about to make — SPIN's condition "safe only while it holds", fixed
//! per location: wherever one of them is enabled, the length is one the other allows, and
//! stays so while the others move, or the other is disabled by what only its own instance
//! can change.

use std::collections::{BTreeMap, HashSet};

use super::exclusive::exclusive;

use crate::analyse::access::{Access, Accesses};
use crate::analyse::channels::{Direction, Lengths, Unit, Use, Which};
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
                        .push((thread, use_.clone()));
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

    /// Whether `use_`, by a transformation of `thread`, is independent of every other
    /// instance (the rules of the module), for each instance of the thread: the element
    /// instance `p` names is compared with the element each other instance names, in each
    /// of their uses.
    pub(super) fn safe(&self, thread: ThreadId, use_: &Use) -> bool {
        let channel = use_.unit.channel;
        let Some(own) = use_.allowed.filter(|_| !use_.opaque) else {
            return false;
        };
        // An element named by a computed index may be any: nothing tells it apart.
        let Which::Each(mine) = &use_.unit.element else {
            return false;
        };
        if use_.op.is_some() && self.observed.contains(&channel) {
            return false;
        }
        let capacity = self.capacity(channel);
        let uses = self.by_channel.get(&channel).map_or(&[][..], Vec::as_slice);
        let single = self.system.threads[thread].instances() == 1;
        mine.iter().enumerate().all(|(p, &element)| {
            let mut others_send = false;
            let mut others_receive = false;
            let mut others = Vec::new();
            for (other, theirs) in uses {
                // The uses of the same element by the other instances (this one's own
                // steps are no other instance's); one of any element may be of this one.
                let overlaps = match &theirs.unit.element {
                    Which::Any if *other == thread && single => false,
                    Which::Any => return false,
                    Which::Each(elements) => elements
                        .iter()
                        .enumerate()
                        .any(|(q, &e)| e == element && (*other != thread || q != p)),
                };
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
            // (That no other instance sends follows from `kept` for a send, whose
            // readiness, not full, no send keeps; and likewise for a receive. It is SPIN's
            // `xs`/`xr`, said as SPIN says it.)
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
        })
    }

    /// Whether the transformations `here` of one location of `thread` wait alike: each
    /// pair of them allows the same lengths of every channel unit either uses (one that
    /// does not use it allowing them all), or their guards are exclusive by the instance's
    /// own locals ([`super::exclusive`]), so that while one is enabled the other stays
    /// disabled whatever the other instances do.
    pub(super) fn alike(
        &self,
        thread: ThreadId,
        here: &[TransformId],
        accesses: &IdVec<TransformId, Accesses>,
    ) -> bool {
        let transforms = &self.system.threads[thread].transforms;
        here.iter().enumerate().all(|(i, &a)| {
            here[i + 1..].iter().all(|&b| {
                self.same_lengths(&accesses[a], &accesses[b])
                    || exclusive(
                        self.system,
                        thread,
                        transforms[a].guard.as_ref(),
                        transforms[b].guard.as_ref(),
                    )
            })
        })
    }

    /// Whether two transformations allow the same lengths of every unit either uses.
    fn same_lengths(&self, a: &Accesses, b: &Accesses) -> bool {
        let allowed = |access: &Accesses, unit: &Unit| {
            let all = Lengths::all(self.capacity(unit.channel));
            access
                .channels
                .iter()
                .find(|u| u.unit == *unit)
                .map_or(Some(all), |u| u.allowed)
        };
        a.channels.iter().chain(&b.channels).all(|u| {
            let theirs = allowed(a, &u.unit);
            theirs.is_some() && theirs == allowed(b, &u.unit)
        })
    }
}
