//! The hidden state of version 3's channels and locks (LANGUAGE.md, "How bir implements
//! version 3"): globals that no name of the model reaches, which the checker adds and its
//! translation of each communication and lock operation reads and writes. Every later stage
//! may treat them as plain globals; the analyses that must know what they mean — which
//! global is a channel's length, which a lock's owner — read it here: partial-order
//! reduction (a channel one instance alone sends on), symmetry (a lock's owner names an
//! instance).

use proc_macro2::Span;

use super::{Expr, GlobalId, IdVec, RecordId, RendezvousRole, Scalar};

/// Which globals hold the channels, the locks and the wait marks of a model.
#[derive(Clone, Debug, Default)]
pub struct Hidden {
    /// Every channel declaration (an array of channels is one), in declaration order: the
    /// number [`Rendezvous::channel`](super::Rendezvous) and [`Buffered::channel`] give.
    pub channels: Vec<HiddenChannel>,
    /// Every lock declaration (an array of locks is one), in declaration order; then per
    /// record type the lock of its objects (when some operation takes one) and its lock
    /// fields, in declaration order.
    pub locks: Vec<HiddenLock>,
    /// The wait marks, when some step waits, notifies or asks `wasNotified`.
    pub waits: Option<HiddenWaits>,
    /// The record types, in declaration order (version 3): the heap.
    pub records: IdVec<RecordId, Record>,
}

/// A record type and the hidden globals its objects live in: object `j` (of `bound`) is
/// element `j` of its `live` flags and of each field's global. A reference to it holds
/// `j + 1`; 0 is `null` ([`Scalar::Ref`]).
#[derive(Clone, Debug)]
pub struct Record {
    /// Its name in the model.
    pub name: String,
    /// Where it is declared.
    pub span: Span,
    /// Doc comments.
    pub doc: String,
    /// Declared `throwable`: its objects may be thrown.
    pub throwable: bool,
    /// The most live objects of the type.
    pub bound: u32,
    /// Per object, whether it is allocated: `boolean [bound]`.
    pub live: GlobalId,
    /// Its fields, in declaration order; when some operation takes the lock of an object
    /// (`lock(x)` on a reference), the lock's owner (`lock`) and hold count (`lock.count`)
    /// after them, then for each lock field `f` (`lock f;`, `lock f[n];`) its owner (`f`)
    /// and hold count (`f.count`), arrays of `n` for `lock f[n];`: so that they move with
    /// the object and reset when it is collected. No expression reads or writes them.
    pub fields: Vec<RecordField>,
    /// Per instance (by global number), the object whose lock it waits on or was notified
    /// by (a reference, `null` otherwise), when some step waits on an object's lock: a root
    /// of the walk after that instance's locals, so that the object stays reachable and its
    /// renumbering rewrites the mark.
    pub waiting: Option<GlobalId>,
}

/// A field of a record type.
#[derive(Clone, Debug)]
pub struct RecordField {
    /// Its name.
    pub name: String,
    /// Its type (a reference, for a field that refers to an object).
    pub scalar: Scalar,
    /// For an array field (`int (0, 3)[3] x`), its length `n`.
    pub len: Option<u32>,
    /// Its value in a new object and in a dead one (-1, free, for a lock's owner).
    pub default: i64,
    /// Its value in every object: an array of the record's bound (times `n` for an array
    /// field, element `i` of object `j` at `j * n + i`).
    pub global: GlobalId,
}

/// A channel declaration's hidden state.
#[derive(Clone, Debug)]
pub struct HiddenChannel {
    /// Its name in the model.
    pub name: String,
    /// The type of each field of a message.
    pub fields: Vec<Scalar>,
    /// Its capacity; 0 for a rendezvous channel.
    pub capacity: u32,
    /// The length of an array of channels; `None` for a single one.
    pub len: Option<u32>,
    /// The number of messages of each channel (one element per channel of an array): `int
    /// (0, capacity)`, in no bits for a rendezvous channel.
    pub length: GlobalId,
    /// Per field, its message slots: element `c * capacity + s` holds slot `s` of channel
    /// `c` (of an array; `c` is 0 for a single channel). Empty for a rendezvous channel.
    pub slots: Vec<GlobalId>,
}

impl HiddenChannel {
    /// True when `global` is one of the channel's hidden globals.
    pub fn holds(&self, global: GlobalId) -> bool {
        self.length == global || self.slots.contains(&global)
    }
}

/// A lock declaration's hidden state (or the locks of a record's objects: their own, or a
/// lock field's, one element per object and element of the field).
#[derive(Clone, Debug)]
pub struct HiddenLock {
    /// Its name in the model (`m`; `R` for the objects' own locks, `R.f` for a lock field).
    pub name: String,
    /// The length of an array of locks; `None` for a single one.
    pub len: Option<u32>,
    /// The number of its first element among the model's lock elements (what a wait mark
    /// names).
    pub first: u32,
    /// The owner of each element: the global number of the holding instance (instances
    /// numbered over the threads in declaration order), or -1; in a model with pools, the
    /// number of instances for a lock that a freed pool instance held.
    pub owner: GlobalId,
    /// The hold count of each element, 0 to 3.
    pub count: GlobalId,
}

/// The wait marks of the instances: arrays with one element per instance, by global
/// number.
#[derive(Clone, Copy, Debug)]
pub struct HiddenWaits {
    /// Per instance: 0, `1 + l` waiting on lock element `l`, `1 + locks + l` notified by it.
    pub mark: GlobalId,
    /// Per instance: the hold count its `wait` released, for its `unwait`.
    pub count: GlobalId,
    /// The number of lock elements of the model.
    pub locks: u32,
}

impl Hidden {
    /// The record whose hidden globals (its live flags or a field) include `global`.
    pub fn record_of(&self, global: GlobalId) -> Option<RecordId> {
        self.records.iter_enumerated().find_map(|(id, record)| {
            (record.live == global || record.fields.iter().any(|f| f.global == global))
                .then_some(id)
        })
    }

    /// True when the model has records, so that steps may need the heap's walk.
    pub fn has_heap(&self) -> bool {
        !self.records.is_empty()
    }

    /// The channel whose hidden globals include `global`, by declaration number.
    pub fn channel_of(&self, global: GlobalId) -> Option<usize> {
        self.channels.iter().position(|c| c.holds(global))
    }

    /// True when `global` is the owner of a lock declaration.
    pub fn is_owner(&self, global: GlobalId) -> bool {
        self.locks.iter().any(|lock| lock.owner == global)
    }

    /// True when `global` is one of the per-instance wait arrays.
    pub fn is_wait_array(&self, global: GlobalId) -> bool {
        self.waits
            .is_some_and(|waits| waits.mark == global || waits.count == global)
    }
}

/// A send or receive on a buffered channel, the blocking action of its step: the first
/// [`actions`](Self::actions) of the transformation's actions carry it out (they write the
/// message slots and the length), and its readiness (not full, not empty) is a conjunct of
/// the guard. The analyses read what the operation does here, not from those actions.
#[derive(Clone, Debug)]
pub struct Buffered {
    /// The channel declaration (its place in [`Hidden::channels`]).
    pub channel: u32,
    /// The element of an array of channels.
    pub index: Option<Expr>,
    /// The values sent, or the targets received into (as a rendezvous has them).
    pub role: RendezvousRole,
    /// How many of the transformation's first actions are the operation's.
    pub actions: usize,
}
