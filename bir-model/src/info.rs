//! The static description of a model that traces and reports are printed from: its slots,
//! transitions, fault sites, invariants and the invariants' atoms.

use crate::step::TransitionId;
use std::borrow::Cow;

/// An atomic boolean sub-formula of an invariant (a comparison, a boolean variable, a
/// `T@loc`) whose value the invariant does not force, tracked for vacuity: see
/// [`Model::atoms`](super::Model::atoms) and the coverage's vacuity report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AtomInfo {
    /// The invariant's index in [`ModelInfo::invariants`].
    pub invariant: u32,
    /// The atom as BIR text (`Proc[0]@cs`).
    pub text: Cow<'static, str>,
}

/// The static description of a model: what traces and reports are printed from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelInfo {
    /// The system's name.
    pub name: Cow<'static, str>,
    /// Every value of a state, in the order [`Model::decode`](super::Model::decode) writes them.
    pub slots: Cow<'static, [SlotInfo]>,
    /// Every transition, in successor order; a [`TransitionId`](super::TransitionId) indexes this table.
    pub transitions: Cow<'static, [TransitionInfo]>,
    /// Every place where a step or an invariant can fault; [`Fault::site`](super::Fault::site) indexes this table.
    pub fault_sites: Cow<'static, [FaultSite]>,
    /// The invariants, in declaration order.
    pub invariants: Cow<'static, [InvariantInfo]>,
}

/// One value of a state: a scalar variable, an array element, an instance's status or one
/// of its locals.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlotInfo {
    /// The variable as users write it: `fork`, `Philosopher[1]` (a status), `Worker.count`
    /// (a local of a single-instance thread), `P[2].level` (a local of instance 2).
    pub name: Cow<'static, str>,
    /// For an array element, its index (`fork[3]` has name `fork` and element `Some(3)`).
    pub element: Option<u32>,
    /// How the value is read.
    pub kind: SlotKind,
}

impl SlotInfo {
    /// The buffered channel whose length this slot holds, when it holds one: its name is
    /// [`channel_length_name`](crate::channel_length_name)'s, which no variable of a model
    /// can have. Charts draw a buffered channel's messages from the changes of its length.
    pub fn channel_length(&self) -> Option<&str> {
        self.name.strip_prefix("len(")?.strip_suffix(')')
    }
}

/// How a slot's value is read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SlotKind {
    /// 0 is false, 1 is true.
    Bool,
    /// The value itself.
    Int,
    /// The ordinal of one of these variants.
    Enum {
        /// The enum's name (`Color`).
        name: Cow<'static, str>,
        /// Its variants in declaration order (`Red`, `Green`).
        variants: Cow<'static, [Cow<'static, str>]>,
    },
    /// A reference to an object of the record type `record` (version 3): 0 is `null`,
    /// `v >= 1` the object numbered `v`, read `Node#v`.
    Reference {
        /// The record type's name (`Node`).
        record: Cow<'static, str>,
    },
    /// A thread instance's status: a value `v < locations.len()` means "at location
    /// `locations[v]`", `locations.len()` means ended and `locations.len() + 1` means not
    /// started yet.
    Status {
        /// The thread's locations in declaration order.
        locations: Cow<'static, [Cow<'static, str>]>,
    },
    /// A `tid` (version 3): 0 is `null`, `g + 1` names the instance of global number `g`.
    Tid {
        /// The name of every instance (`Main`, `W[0]`), by global number.
        instances: Cow<'static, [Cow<'static, str>]>,
    },
}

impl SlotKind {
    /// For a `tid`, the instance a value names (`W[0]`): `None` for `null` (or when the
    /// slot is not a tid, or the value is out of range).
    pub fn instance(&self, value: i64) -> Option<&str> {
        match self {
            SlotKind::Tid { instances } => {
                let index = usize::try_from(value.checked_sub(1)?).ok()?;
                instances.get(index).map(|instance| &**instance)
            }
            _ => None,
        }
    }

    /// For a thread status, the location a value means: `None` when the instance has ended
    /// or not started (or the slot is not a status, or the value is out of range).
    pub fn location(&self, value: i64) -> Option<&str> {
        match self {
            SlotKind::Status { locations } => {
                let index = usize::try_from(value).ok()?;
                locations.get(index).map(|location| &**location)
            }
            _ => None,
        }
    }
}

/// One transition of the model: a transformation of one thread instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TransitionInfo {
    /// The instance that executes it: `Philosopher1`, or `Philosopher[2]` when replicated.
    pub thread: Cow<'static, str>,
    /// Dense index of that instance (threads in declaration order, instances by index).
    pub instance: u32,
    /// The location it leaves.
    pub from: Cow<'static, str>,
    /// The location it jumps to, or `return` when it ends the instance.
    pub to: Cow<'static, str>,
    /// The transformation's BIR text on one line: `when !fork2 do { fork2 := true; } goto loc1;`.
    pub text: Cow<'static, str>,
    /// The line of the model source where the transformation starts (0 when unknown).
    pub line: u32,
    /// For a rendezvous, the receiver, which takes the step too.
    pub partner: Option<Partner>,
}

/// The receiving side of a rendezvous transition (LANGUAGE.md, "Channels"): one step of two
/// instances, which executes a transformation of each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Partner {
    /// The receiver's dense instance index: the step is one of both instances, for fairness.
    pub instance: u32,
    /// The transitions of the sender's and the receiver's transformations alone (their own
    /// steps, which only fault): coverage counts a pairing that fired as both firing.
    pub sides: [TransitionId; 2],
}

/// What went wrong, for a fault or a finding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FaultKind {
    /// An `assert` whose condition was false.
    Assertion,
    /// A write (or a `start` argument) outside the variable's range, or arithmetic that
    /// overflowed 64 bits.
    Range,
    /// An array index, or a `T[i]@loc` instance, outside its bounds.
    Index,
    /// `/` or `%` by zero.
    Division,
    /// `start` of an instance that is running or has ended.
    Start,
    /// A call beyond the frames a function's bound allows on one stack (version 3).
    Stack,
    /// A lock operation that Java's monitors refuse: `unlock`, `wait` or `notify` of a lock
    /// not held, a fourth nested `lock`, `wait` while waiting (version 3).
    Lock,
    /// A `new` of a record type whose bound of live objects is reached (version 3).
    Heap,
    /// Reading or writing a field through `null`, or throwing `null` (version 3).
    Null,
    /// An exception that no handler catches leaves a thread's body (version 3).
    UncaughtException,
}

/// A place in the model where a step can fault, with the message to print.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FaultSite {
    /// The kind of fault raised here.
    pub kind: FaultKind,
    /// What failed, in the model's terms; `{value}` stands for [`Fault::value`](super::Fault::value):
    /// `assertion failed: incs <= 1`, ``index {value} out of bounds in `fork[i]` ``,
    /// ``x := x + 1; writes {value}, outside `x`'s type int (0, 3)``.
    pub message: Cow<'static, str>,
    /// The line of the model source (0 when unknown).
    pub line: u32,
}

/// How many invariant atoms a search tracks for vacuity (one bit each in a `u64`, see
/// [`Model::atoms`](super::Model::atoms)); the atoms past it are not tracked.
pub const MAX_ATOMS: usize = 64;

/// A declared invariant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvariantInfo {
    /// Its name (`MutualExclusion`).
    pub name: Cow<'static, str>,
    /// Its expression as BIR text.
    pub text: Cow<'static, str>,
    /// The line of the model source (0 when unknown).
    pub line: u32,
}
