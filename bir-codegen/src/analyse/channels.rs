//! How a transformation uses the buffered channels (version 3): which channel it sends on
//! or receives from, and which lengths of it its guard allows. Partial-order reduction
//! ([`super::por`]) judges a channel by these uses rather than by the reads and writes of
//! its hidden globals, which every send and receive both reads and writes: a send of the one
//! instance that sends on a channel commutes with a receive of another, although both write
//! the length.

use crate::ir::{self, eval, CmpOp, Expr, GlobalId};

/// A buffered channel, or the elements of an array of them that a use names: what
/// partial-order reduction tells apart.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Unit {
    /// The channel declaration (its place in `ir::Hidden::channels`).
    pub channel: u32,
    /// Which element each instance of the using thread names.
    pub element: Which,
}

/// Which element of a channel declaration a use names, per instance of the using thread.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Which {
    /// Any element: the index reads more than the executing instance's `index` and
    /// constants (or leaves the array for some instance), so it may be any of them.
    Any,
    /// The element instance `p` names is `elements[p]`: 0 for a single channel, the same
    /// for all at a constant index, `(index + 1) % N` evaluated for each instance.
    Each(Box<[u32]>),
}

impl Which {
    /// The element of channel `hidden` that `index` names for each of `instances`
    /// instances: evaluated at each instance's `index` when it is built of `index` and
    /// constants alone and lies within the array.
    fn of(hidden: &ir::HiddenChannel, index: Option<&Expr>, instances: u32) -> Which {
        let Some(index) = index else {
            return Which::Each(vec![0; instances as usize].into());
        };
        let len = i64::from(hidden.len.unwrap_or(1));
        let elements: Option<Box<[u32]>> = (0..instances)
            .map(|p| {
                at_instance(index, i64::from(p))
                    .filter(|e| (0..len).contains(e))
                    .and_then(|e| u32::try_from(e).ok())
            })
            .collect();
        elements.map_or(Which::Any, Which::Each)
    }
}

/// The value of `expr` at the instance whose index is `p`, when it is built of `index` and
/// constants alone.
fn at_instance(expr: &Expr, p: i64) -> Option<i64> {
    match expr {
        Expr::Int(value) => Some(*value),
        Expr::InstanceIndex => Some(p),
        Expr::Neg(inner, _) => at_instance(inner, p)?.checked_neg(),
        Expr::Arith { op, lhs, rhs, .. } => {
            eval::arith_value(*op, at_instance(lhs, p)?, at_instance(rhs, p)?).ok()
        }
        _ => None,
    }
}

/// The send or receive of a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// It appends a message.
    Send,
    /// It removes the first message.
    Receive,
}

/// An interval of lengths `lo ..= hi` of a channel of capacity `capacity`: the lengths a
/// guard allows. Every empty interval is the same one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lengths {
    /// The least length allowed.
    pub lo: i64,
    /// The greatest length allowed.
    pub hi: i64,
}

impl Lengths {
    /// Every length of a channel of `capacity`.
    pub fn all(capacity: u32) -> Lengths {
        Lengths {
            lo: 0,
            hi: i64::from(capacity),
        }
    }

    /// The lengths `lo ..= hi` of a channel of `capacity`.
    fn within(lo: i64, hi: i64, capacity: u32) -> Lengths {
        let (lo, hi) = (lo.max(0), hi.min(i64::from(capacity)));
        if lo > hi {
            Lengths { lo: 1, hi: 0 }
        } else {
            Lengths { lo, hi }
        }
    }

    /// The lengths both allow.
    pub fn meet(self, other: Lengths) -> Lengths {
        let (lo, hi) = (self.lo.max(other.lo), self.hi.min(other.hi));
        if lo > hi {
            Lengths { lo: 1, hi: 0 }
        } else {
            Lengths { lo, hi }
        }
    }

    /// True when a receive (one message fewer) keeps an allowed length allowed: none is
    /// allowed, or every length below an allowed one is (`0 ..= hi`).
    pub fn kept_by_receives(self) -> bool {
        self.lo > self.hi || self.lo == 0
    }

    /// True when a send (one message more) keeps an allowed length allowed: none is
    /// allowed, or every length above an allowed one is (`lo ..= capacity`).
    pub fn kept_by_sends(self, capacity: u32) -> bool {
        self.lo > self.hi || self.hi == i64::from(capacity)
    }
}

/// How one transformation uses one channel unit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Use {
    /// The channel and element.
    pub unit: Unit,
    /// Its send or receive there, if it has one.
    pub op: Option<Direction>,
    /// The lengths its guard allows (the operation's readiness and every conjunct that
    /// compares the length with a constant, `len(c) < 2`, `!full(c)`); `None` when the
    /// guard reads the length in any other way.
    pub allowed: Option<Lengths>,
    /// It reads the channel outside its guard and its own send or receive (`x := len(c)`,
    /// `d!(len(c))`): what it does may depend on the length.
    pub opaque: bool,
}

/// The uses of the buffered channels that one transformation makes, found as its guard,
/// operation and actions are walked ([`super::access`]).
pub(super) struct Uses<'s> {
    hidden: &'s ir::Hidden,
    /// The number of instances of the thread whose transformation it is.
    instances: u32,
    /// Sorted by unit when [`Self::finish`]ed.
    uses: Vec<Use>,
}

impl<'s> Uses<'s> {
    /// No use yet, of a transformation of a thread of `instances` instances.
    pub(super) fn new(hidden: &'s ir::Hidden, instances: u32) -> Self {
        Uses {
            hidden,
            instances,
            uses: Vec::new(),
        }
    }

    /// The buffered channel whose hidden global `global` is, if any.
    pub(super) fn buffered(&self, global: GlobalId) -> Option<u32> {
        let channel = self.hidden.channel_of(global)?;
        (self.hidden.channels[channel].capacity > 0).then_some(channel as u32)
    }

    /// The use of `unit`, made if there was none (then with every length allowed).
    fn entry(&mut self, unit: Unit) -> &mut Use {
        let at = match self.uses.iter().position(|u| u.unit == unit) {
            Some(at) => at,
            None => {
                let capacity = self.hidden.channels[unit.channel as usize].capacity;
                self.uses.push(Use {
                    unit,
                    op: None,
                    allowed: Some(Lengths::all(capacity)),
                    opaque: false,
                });
                self.uses.len() - 1
            }
        };
        &mut self.uses[at]
    }

    /// The step sends on or receives from `op`'s channel.
    pub(super) fn operation(&mut self, op: &ir::Buffered) {
        let unit = Unit {
            channel: op.channel,
            element: self.which(op.channel, op.index.as_ref()),
        };
        self.entry(unit).op = Some(match op.role {
            ir::RendezvousRole::Send(_) => Direction::Send,
            ir::RendezvousRole::Receive(_) => Direction::Receive,
        });
    }

    /// A read of hidden global `global` (element `index`) of channel `channel` outside the
    /// guard's comparisons: the use is opaque.
    pub(super) fn opaque(&mut self, channel: u32, global: GlobalId, index: Option<&Expr>) {
        let is_length = self.hidden.channels[channel as usize].length == global;
        let element = if is_length {
            self.which(channel, index)
        } else {
            // A slot's index mixes the element with the slot: any element.
            Which::Any
        };
        self.entry(Unit { channel, element }).opaque = true;
    }

    /// A conjunct of the guard that reads a channel's length: the lengths it allows when it
    /// compares the length with a constant (`len(c) < 2`, `!(len(c) == 0)`), or it makes
    /// the use's lengths unknown. Returns the length's index, whose reads the caller
    /// records, when it was such a comparison.
    pub(super) fn conjunct<'e>(&mut self, conjunct: &'e Expr) -> Option<Option<&'e Expr>> {
        let (negated, cmp) = match conjunct {
            Expr::Not(inner) => (true, &**inner),
            other => (false, other),
        };
        let Expr::Cmp { op, lhs, rhs } = cmp else {
            return None;
        };
        let (length, op, value) = match (length_read(lhs), length_read(rhs)) {
            (Some(length), None) => (length, *op, rhs.constant()?),
            (None, Some(length)) => (length, mirror(*op), lhs.constant()?),
            _ => return None,
        };
        let (global, index) = length;
        let channel = self.buffered(global)?;
        let hidden = &self.hidden.channels[channel as usize];
        if hidden.length != global {
            return None;
        }
        let allowed = allowed(op, negated, value, hidden.capacity)?;
        let unit = Unit {
            channel,
            element: self.which(channel, index),
        };
        let entry = self.entry(unit);
        entry.allowed = entry.allowed.map(|lengths| lengths.meet(allowed));
        Some(index)
    }

    /// A conjunct of the guard that reads channel `channel` in a way [`Self::conjunct`]
    /// does not take: the use's lengths are unknown.
    pub(super) fn unknown(&mut self, channel: u32, global: GlobalId, index: Option<&Expr>) {
        let is_length = self.hidden.channels[channel as usize].length == global;
        let element = if is_length {
            self.which(channel, index)
        } else {
            Which::Any
        };
        self.entry(Unit { channel, element }).allowed = None;
    }

    /// The uses, sorted by unit.
    pub(super) fn finish(mut self) -> Vec<Use> {
        self.uses.sort_by(|a, b| a.unit.cmp(&b.unit));
        self.uses
    }

    /// The element of `channel` that `index` names, per instance.
    fn which(&self, channel: u32, index: Option<&Expr>) -> Which {
        Which::of(
            &self.hidden.channels[channel as usize],
            index,
            self.instances,
        )
    }
}

/// `len(c)` as the checker writes it: the length global, with the element's index.
fn length_read(expr: &Expr) -> Option<(GlobalId, Option<&Expr>)> {
    match expr {
        Expr::Read(ir::VarRef::Global(global)) => Some((*global, None)),
        Expr::Element {
            var: ir::VarRef::Global(global),
            index,
            ..
        } => Some((*global, Some(&**index))),
        _ => None,
    }
}

/// `a op b` as `b op' a`.
fn mirror(op: CmpOp) -> CmpOp {
    match op {
        CmpOp::Lt => CmpOp::Gt,
        CmpOp::Le => CmpOp::Ge,
        CmpOp::Gt => CmpOp::Lt,
        CmpOp::Ge => CmpOp::Le,
        same => same,
    }
}

/// The lengths `length op value` allows (its negation, when `negated`), as an interval;
/// `None` when they are not one (`len(c) != 1` of a channel of capacity 3).
fn allowed(op: CmpOp, negated: bool, value: i64, capacity: u32) -> Option<Lengths> {
    let op = if negated {
        match op {
            CmpOp::Eq => CmpOp::Ne,
            CmpOp::Ne => CmpOp::Eq,
            CmpOp::Lt => CmpOp::Ge,
            CmpOp::Le => CmpOp::Gt,
            CmpOp::Gt => CmpOp::Le,
            CmpOp::Ge => CmpOp::Lt,
        }
    } else {
        op
    };
    let cap = i64::from(capacity);
    let within = |lo: i64, hi: i64| Some(Lengths::within(lo, hi, capacity));
    match op {
        CmpOp::Eq => within(value, value),
        CmpOp::Lt => within(0, value.saturating_sub(1)),
        CmpOp::Le => within(0, value),
        CmpOp::Gt => within(value.saturating_add(1), cap),
        CmpOp::Ge => within(value, cap),
        // Every length but one is an interval when that one is an end (or no length).
        CmpOp::Ne if value <= 0 => within(value.max(-1) + 1, cap),
        CmpOp::Ne if value >= cap => within(0, value.min(cap + 1) - 1),
        CmpOp::Ne => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comparisons_with_a_constant_are_intervals_of_lengths() {
        let of = |op, negated, value| allowed(op, negated, value, 3);
        let interval = |lo, hi| Some(Lengths { lo, hi });
        assert_eq!(of(CmpOp::Lt, false, 3), interval(0, 2)); // the readiness of a send
        assert_eq!(of(CmpOp::Gt, false, 0), interval(1, 3)); // of a receive
        assert_eq!(of(CmpOp::Eq, true, 3), interval(0, 2)); // !full(c)
        assert_eq!(of(CmpOp::Eq, true, 0), interval(1, 3)); // !empty(c)
        assert_eq!(of(CmpOp::Eq, false, 0), interval(0, 0)); // empty(c)
        assert_eq!(of(CmpOp::Ne, false, 3), interval(0, 2));
        assert_eq!(of(CmpOp::Ne, false, 1), None);
        assert_eq!(of(CmpOp::Ge, true, 2), interval(0, 1));
        // Outside the capacity: nothing, or everything.
        assert_eq!(of(CmpOp::Gt, false, 5), Some(Lengths { lo: 1, hi: 0 }));
        assert_eq!(of(CmpOp::Le, false, 9), interval(0, 3));
    }

    #[test]
    fn which_intervals_sends_and_receives_keep() {
        let all = Lengths::all(3);
        let not_full = Lengths { lo: 0, hi: 2 };
        let not_empty = Lengths { lo: 1, hi: 3 };
        assert!(not_full.kept_by_receives() && !not_full.kept_by_sends(3));
        assert!(not_empty.kept_by_sends(3) && !not_empty.kept_by_receives());
        assert!(all.kept_by_receives() && all.kept_by_sends(3));
        let none = not_full.meet(Lengths { lo: 3, hi: 3 });
        assert!(none.kept_by_receives() && none.kept_by_sends(3));
        assert_eq!(none, Lengths { lo: 1, hi: 0 });
        assert_eq!(not_full.meet(not_empty), Lengths { lo: 1, hi: 2 });
    }
}
