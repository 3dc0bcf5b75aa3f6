//! The checked model: names resolved to dense ids, types resolved to value domains,
//! constants folded, every runtime fault given a site. It is the one input of code
//! generation and of the reference interpreter, so it holds everything both need and
//! nothing of the syntax but spans and source text for messages.

pub mod eval;
mod hidden;

use proc_macro2::Span;

use crate::diag::Spans;

mod ids;

pub use hidden::{Buffered, Hidden, HiddenChannel, HiddenLock, HiddenWaits, Record, RecordField};
pub use ids::{
    EnumId, GlobalId, Id, IdVec, InstanceId, LocalId, LocationId, QuantVarId, RecordId, SiteId,
    ThreadId, TransformId,
};

/// A checked BIR system.
#[derive(Clone, Debug)]
pub struct System {
    /// The system's name, a valid Rust identifier.
    pub name: String,
    /// Where the name stands; the generated types carry this span.
    pub name_span: Span,
    /// Doc comments of the system.
    pub doc: String,
    /// Every constant with its folded value, for documentation and tools.
    pub consts: Vec<Const>,
    /// Enums in declaration order.
    pub enums: IdVec<EnumId, Enum>,
    /// Globals in declaration order.
    pub globals: IdVec<GlobalId, Var>,
    /// Threads in declaration order.
    pub threads: IdVec<ThreadId, Thread>,
    /// Invariants in declaration order.
    pub invariants: Vec<Invariant>,
    /// LTL properties and reachability checks in declaration order.
    pub properties: Vec<Property>,
    /// The heuristics in declaration order (version 3): they order a best-first search and
    /// change no count.
    pub heuristics: Vec<Heuristic>,
    /// Every place where a step or invariant can fault.
    pub fault_sites: IdVec<SiteId, FaultSite>,
    /// The tokens of each fault site, for diagnostics at compile time: the construct that
    /// faults (`a[2]`, `x / 0`), or the value it refuses (the `5` of `x := 5`).
    pub site_spans: IdVec<SiteId, Spans>,
    /// Which globals hold the channels, the locks and the wait marks (version 3), for the
    /// analyses that must tell them from the model's own variables.
    pub hidden: Hidden,
    /// What the checker warns about the model as written (a rendezvous channel that no
    /// thread sends on, or none receives from), in declaration order. The faults that
    /// constants make certain are warnings too, found later (`analyse::faults`).
    pub warnings: Vec<Warning>,
}

/// A compile-time warning about the model: it compiles, but something in it is likely a
/// mistake.
#[derive(Clone, Debug)]
pub struct Warning {
    /// The tokens it is about.
    pub spans: Spans,
    /// What it says.
    pub message: String,
}

/// A named constant: `Param.N = 5`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Const {
    /// The const block (`Param`).
    pub block: String,
    /// The constant (`N`).
    pub name: String,
    /// Its value (booleans as 0/1).
    pub value: i64,
    /// Whether it is a boolean.
    pub is_bool: bool,
}

/// An enum type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Enum {
    /// Its name.
    pub name: String,
    /// Its values; the ordinal is the index.
    pub variants: Vec<String>,
}

/// The domain of a scalar value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scalar {
    /// false (0) / true (1).
    Bool,
    /// The integers `lo..=hi`; a write outside is a range error, or wraps when `wrap`.
    Int {
        /// Least value.
        lo: i64,
        /// Greatest value.
        hi: i64,
        /// Writes wrap modulo `hi - lo + 1` instead of failing.
        wrap: bool,
    },
    /// The ordinals `0..variants` of an enum.
    Enum(EnumId),
    /// A reference to an object of a record type (version 3): 0 is `null`, `v` in
    /// `1..=bound` is the type's object `v - 1` (LANGUAGE.md, "Records and the heap").
    Ref {
        /// The record type.
        record: RecordId,
        /// Its bound: the most live objects of the type.
        bound: u32,
    },
    /// A `tid` (version 3): 0 is `null`, `g + 1` names the instance of global number `g`
    /// (instances numbered over the threads in declaration order), so the values are
    /// `0..=instances`.
    Tid {
        /// The model's number of thread instances.
        instances: u32,
    },
}

/// The smallest and greatest value of BIR's `int` (32-bit signed).
pub const INT_MIN: i64 = i32::MIN as i64;
/// See [`INT_MIN`].
pub const INT_MAX: i64 = i32::MAX as i64;

impl Scalar {
    /// BIR's `int`: 32-bit signed, range-checked.
    pub const INT: Scalar = Scalar::Int {
        lo: INT_MIN,
        hi: INT_MAX,
        wrap: false,
    };

    /// BIR's `byte`: `int wrap (0, 255)`.
    pub const BYTE: Scalar = Scalar::Int {
        lo: 0,
        hi: 255,
        wrap: true,
    };

    /// The least and greatest encoded value.
    pub fn bounds(self, enums: &IdVec<EnumId, Enum>) -> (i64, i64) {
        match self {
            Scalar::Bool => (0, 1),
            Scalar::Int { lo, hi, .. } => (lo, hi),
            Scalar::Enum(id) => (0, enums[id].variants.len() as i64 - 1),
            Scalar::Tid { instances } => (0, i64::from(instances)),
            Scalar::Ref { bound, .. } => (0, i64::from(bound)),
        }
    }

    /// The record type a reference refers to; `None` for the other scalars.
    pub fn record(self) -> Option<RecordId> {
        match self {
            Scalar::Ref { record, .. } => Some(record),
            _ => None,
        }
    }

    /// How many values the domain has.
    pub fn cardinality(self, enums: &IdVec<EnumId, Enum>) -> u64 {
        let (lo, hi) = self.bounds(enums);
        (hi - lo) as u64 + 1
    }

    /// Bits needed to store a value: ⌈log2(number of values)⌉.
    pub fn width(self, enums: &IdVec<EnumId, Enum>) -> u32 {
        bits_for(self.cardinality(enums))
    }

    /// The default value: 0 if in range, else the lower bound; false; the first variant.
    pub fn default_value(self) -> i64 {
        match self {
            Scalar::Int { lo, hi, .. } if !(lo..=hi).contains(&0) => lo,
            _ => 0,
        }
    }

    /// True when `value` lies in the domain.
    pub fn contains(self, value: i64, enums: &IdVec<EnumId, Enum>) -> bool {
        let (lo, hi) = self.bounds(enums);
        (lo..=hi).contains(&value)
    }
}

/// Bits needed to tell `count` values apart: ⌈log2(count)⌉ (0 for a single value).
pub fn bits_for(count: u64) -> u32 {
    if count <= 1 {
        0
    } else {
        64 - (count - 1).leading_zeros()
    }
}

/// A variable's type: a scalar, or a fixed-size array of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ty {
    /// The scalar (element) type.
    pub scalar: Scalar,
    /// The array length, if an array.
    pub len: Option<u32>,
}

impl Ty {
    /// Number of values stored: 1 for a scalar, the length for an array.
    pub fn elements(self) -> u32 {
        self.len.unwrap_or(1)
    }
}

/// A global or a local variable.
#[derive(Clone, Debug)]
pub struct Var {
    /// Its name.
    pub name: String,
    /// Where it is declared.
    pub span: Span,
    /// Doc comments.
    pub doc: String,
    /// Its type.
    pub ty: Ty,
    /// The initial value of each element (one for a scalar).
    pub init: Vec<i64>,
}

/// How a thread's instances come to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThreadKind {
    /// `active thread T()` (one instance, `replicated` false) or `active [k] thread T(..)`.
    Active {
        /// The number of instances.
        count: u32,
        /// Declared with `[k]`: instances are written `T[i]`.
        replicated: bool,
    },
    /// `thread T(..)`: one instance, not running until `start T(..)`.
    Started,
    /// `thread[k] T(..)` (version 3): a pool of `k` instances, each free (its "not
    /// started" status) until a `start T(..)` takes it, and freed again at the end of the
    /// step that ends it ([`System::freeing`]).
    Pool {
        /// The number of instances.
        count: u32,
    },
}

impl ThreadKind {
    /// Number of instances: `k` for `active [k]`, otherwise one.
    pub fn instances(self) -> u32 {
        match self {
            ThreadKind::Active { count, .. } | ThreadKind::Pool { count } => count,
            ThreadKind::Started => 1,
        }
    }

    /// True for the kinds that `start` starts (`thread T` and `thread[k] T`).
    pub fn is_started(self) -> bool {
        matches!(self, ThreadKind::Started | ThreadKind::Pool { .. })
    }
}

/// A thread declaration and its instances.
#[derive(Clone, Debug)]
pub struct Thread {
    /// Its name.
    pub name: String,
    /// Where it is declared.
    pub span: Span,
    /// Doc comments.
    pub doc: String,
    /// Active (and how many instances) or started.
    pub kind: ThreadKind,
    /// The parameter of an active thread: read-only, equal to the instance index, not stored.
    pub index_param: Option<String>,
    /// The parameters of a started thread or pool, in order: the locals they initialise
    /// (always the first locals).
    pub start_params: Vec<LocalId>,
    /// Locals of each instance (a started thread's parameters first).
    pub locals: IdVec<LocalId, Var>,
    /// Locations; the first is the initial one.
    pub locations: IdVec<LocationId, Location>,
    /// Transformations in source order over all locations.
    pub transforms: IdVec<TransformId, Transform>,
    /// Some transformation ends the instance (`return` or `exit`), so "ended" is a status.
    pub can_end: bool,
    /// The first instance; instances of a thread are consecutive.
    pub first_instance: InstanceId,
}

impl Thread {
    /// Number of instances.
    pub fn instances(&self) -> u32 {
        self.kind.instances()
    }

    /// True for `active [k]` threads and pools, whose instances are written `T[i]`.
    pub fn is_replicated(&self) -> bool {
        matches!(
            self.kind,
            ThreadKind::Active {
                replicated: true,
                ..
            } | ThreadKind::Pool { .. }
        )
    }

    /// True for a pool (`thread[k] T`), whose instances are freed when they end.
    pub fn is_pool(&self) -> bool {
        matches!(self.kind, ThreadKind::Pool { .. })
    }

    /// The status value meaning "ended" (statuses below it are locations).
    pub fn ended_status(&self) -> i64 {
        self.locations.len() as i64
    }

    /// The status value meaning "not started yet" (for a pool: free).
    pub fn not_started_status(&self) -> i64 {
        self.locations.len() as i64 + 1
    }

    /// How many status values instances of this thread can take: the locations, plus
    /// "ended" if some transformation can end it, plus "not started" for started threads
    /// (a pool's "ended" lasts only until the end of the step, where the instance is freed,
    /// but the step writes it first). The encoding leaves out statuses that can never
    /// occur, so they cost no bits.
    pub fn status_count(&self) -> u64 {
        match self.kind {
            ThreadKind::Started | ThreadKind::Pool { .. } => self.locations.len() as u64 + 2,
            ThreadKind::Active { .. } => self.locations.len() as u64 + u64::from(self.can_end),
        }
    }

    /// Instance `index` of this thread (its parameter's value, for an active thread).
    pub fn instance_id(&self, index: u32) -> InstanceId {
        InstanceId(self.first_instance.0 + index)
    }

    /// Every instance of this thread, by index.
    pub fn instance_ids(&self) -> impl DoubleEndedIterator<Item = InstanceId> + '_ {
        (0..self.instances()).map(|index| self.instance_id(index))
    }

    /// The index within this thread of one of its instances.
    pub fn index_of(&self, instance: InstanceId) -> u32 {
        let index = instance.0.wrapping_sub(self.first_instance.0);
        debug_assert!(
            index < self.instances(),
            "{instance:?} is not an instance of {}",
            self.name
        );
        index
    }

    /// The instance's display name: `Philosopher1` or `Philosopher[2]`.
    pub fn instance_name(&self, instance: u32) -> String {
        if self.is_replicated() {
            format!("{}[{instance}]", self.name)
        } else {
            self.name.clone()
        }
    }
}

/// A control location.
#[derive(Clone, Debug)]
pub struct Location {
    /// Its name.
    pub name: String,
    /// Where it is declared.
    pub span: Span,
    /// Doc comments.
    pub doc: String,
    /// Its transformations, in source order.
    pub transforms: Vec<TransformId>,
}

/// Where a transformation goes after its actions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Jump {
    /// `goto loc;`
    Goto(LocationId),
    /// `return;`: the instance ends.
    Return,
}

/// A guarded transformation.
#[derive(Clone, Debug)]
pub struct Transform {
    /// The location it leaves.
    pub location: LocationId,
    /// The guard (`None` is true).
    pub guard: Option<Expr>,
    /// The actions in order.
    pub actions: Vec<Action>,
    /// The jump after the actions.
    pub jump: Jump,
    /// `Some(q)` for all but the first of the transformations one step with several
    /// outcomes is made of (one per instance a `notify` may wake): a fault of the guard or
    /// of the first `q` actions, which every one of them meets alike, discards this one,
    /// so that the first reports it alone.
    pub quiet: Option<usize>,
    /// A rendezvous send or receive, the first action of the step (version 3): the
    /// transformation itself (its guard, then `actions`, which check the channel's index
    /// and are never enabled) is the error step of a guard or index that faults, and each
    /// pairing with a partner is a transition of its own ([`System::transitions`]).
    pub rendezvous: Option<Box<Rendezvous>>,
    /// A send or receive on a buffered channel, the first action of the step (version 3),
    /// as the analyses read it; `actions` begins with what carries it out.
    pub buffered: Option<Box<Buffered>>,
    /// The transformation as BIR text on one line.
    pub text: String,
    /// The source line where it starts (0 if unknown).
    pub line: u32,
    /// The `when` or `do` token, for diagnostics.
    pub span: Span,
    /// Doc comments.
    pub doc: String,
}

impl Transform {
    /// Where the instance is after the step: the jump, or [`Jump::Return`] when an action
    /// is `exit`. Actions run in order without branching, so a step that completes has
    /// executed every action up to an `exit`, which ends the instance whatever the jump says.
    /// For a rendezvous, the actions of its block count (its pairings are its steps that
    /// complete), so that a thread whose only `exit` is in a rendezvous's block can end.
    pub fn destination(&self) -> Jump {
        let block = self.rendezvous.as_deref().map_or(&[][..], |r| &r.block[..]);
        if self
            .actions
            .iter()
            .chain(block)
            .any(|action| matches!(action, Action::Exit))
        {
            Jump::Return
        } else {
            self.jump
        }
    }
}

/// A send or receive on a rendezvous channel, with the rest of its step's block.
#[derive(Clone, Debug)]
pub struct Rendezvous {
    /// The channel declaration (a number the model's channels share with no other).
    pub channel: u32,
    /// The element of an array of channels, with its index-error site.
    pub index: Option<(Expr, SiteId)>,
    /// Sending these values, or receiving into these targets.
    pub role: RendezvousRole,
    /// The actions of the step after the communication.
    pub block: Vec<Action>,
}

/// What one side of a communication does (a rendezvous, or a send or receive on a buffered
/// channel).
#[derive(Clone, Debug)]
pub enum RendezvousRole {
    /// The values sent, each checked against its field's type (a range error at the site
    /// otherwise), evaluated in the state before the step.
    Send(Vec<(Expr, Scalar, SiteId)>),
    /// Where each field goes (`None` for `_`), with the range site of the write.
    Receive(Vec<Option<(Place, SiteId)>>),
}

/// One transition of the successor order: a transformation of an instance, or a
/// rendezvous of a sender's transformation with a receiver's (`partner`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TransitionRef {
    /// The thread, its instance and the transformation (the sender's, for a rendezvous).
    pub thread: ThreadId,
    /// See `thread`.
    pub instance: InstanceId,
    /// See `thread`.
    pub transform: TransformId,
    /// The receiver of a rendezvous: its thread, instance and transformation.
    pub partner: Option<(ThreadId, InstanceId, TransformId)>,
}

/// A statement of a transformation.
#[derive(Clone, Debug)]
pub enum Action {
    /// `place := value;` — the index (if any) is evaluated before the value; a value
    /// outside a non-wrapping type is a range error at `site`.
    Assign {
        /// The assigned variable or element.
        place: Place,
        /// The new value.
        value: Expr,
        /// The range-error site of the write.
        site: SiteId,
    },
    /// `assert (cond);`: a false condition is an assertion error at `site`.
    Assert {
        /// The condition.
        cond: Expr,
        /// The assertion's fault site.
        site: SiteId,
    },
    /// `assume (cond);`: a false condition discards the step.
    Assume(Expr),
    /// `[result :=] start T(args);`. For a thread `thread T`: a start error at `site`
    /// unless T has not started; then each argument is evaluated and stored in its
    /// parameter, never wrapped (a range error at its site outside the type). For a pool
    /// `thread[k] T`: the arguments are evaluated first, then the free instance of lowest
    /// index is taken (none: a start error at `site`), the arguments are converted as an
    /// assignment converts (range error, or wrap) and bound. Either way the instance goes
    /// to its first location, and its `tid` is written to `result`.
    Start {
        /// The started (non-active) thread.
        thread: ThreadId,
        /// The arguments, one per parameter (`Thread::start_params`).
        args: Vec<Expr>,
        /// Fault site when no instance can be started.
        site: SiteId,
        /// Per argument, the fault site when it lies outside its parameter's type.
        arg_sites: Vec<SiteId>,
        /// Where the started instance's `tid` goes (its index, if any, is evaluated after
        /// the instance is bound).
        result: Option<Place>,
    },
    /// `exit;`: the instance ends; the rest of the block is skipped.
    Exit,
}

/// A value stored in a state, of one variable or status: what a field of the layout
/// stores and what generated code reads and writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Owner {
    /// A global variable.
    Global(GlobalId),
    /// The status (location, ended, not started) of an instance.
    Status {
        /// The thread.
        thread: ThreadId,
        /// The instance.
        instance: InstanceId,
    },
    /// A local of an instance.
    Local {
        /// The thread.
        thread: ThreadId,
        /// The instance.
        instance: InstanceId,
        /// The local.
        local: LocalId,
    },
}

/// A variable or array element that can be assigned.
#[derive(Clone, Debug)]
pub struct Place {
    /// The variable.
    pub var: VarRef,
    /// The element index, for arrays, with its index-error site.
    pub index: Option<(Box<Expr>, SiteId)>,
}

/// A variable of the system.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VarRef {
    /// A global.
    Global(GlobalId),
    /// A local of the executing instance.
    Local(LocalId),
}

/// Comparison operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpOp {
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

/// Arithmetic operators: `/` and `%` may divide by zero, and the result of all but `%` may
/// not fit in 64 bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArithOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`, truncating toward zero.
    Div,
    /// `%`, with the sign of the dividend.
    Rem,
}

impl CmpOp {
    /// The operator as BIR writes it, which is also how C and Promela write it.
    pub fn symbol(self) -> &'static str {
        match self {
            CmpOp::Eq => "==",
            CmpOp::Ne => "!=",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
        }
    }
}

impl ArithOp {
    /// The operator as BIR writes it, which is also how C, Promela and Murphi write it.
    pub fn symbol(self) -> &'static str {
        match self {
            ArithOp::Add => "+",
            ArithOp::Sub => "-",
            ArithOp::Mul => "*",
            ArithOp::Div => "/",
            ArithOp::Rem => "%",
        }
    }
}

/// A checked expression. Integers, booleans (0/1) and enum ordinals are all `i64` values;
/// the checker guarantees operands have the right kind.
#[derive(Clone, Debug)]
pub enum Expr {
    /// A boolean constant.
    Bool(bool),
    /// An integer constant or enum ordinal.
    Int(i64),
    /// A scalar variable.
    Read(VarRef),
    /// An array element; an index outside the array is an index error at `site`.
    Element {
        /// The array.
        var: VarRef,
        /// The index.
        index: Box<Expr>,
        /// The index-error site.
        site: SiteId,
    },
    /// The parameter of an active thread: the executing instance's index.
    InstanceIndex,
    /// The value of an enclosing quantifier's variable.
    QuantVar(QuantVarId),
    /// `!e`
    Not(Box<Expr>),
    /// `-e`; overflow (only possible past 64 bits) is a range error at `site`.
    Neg(Box<Expr>, SiteId),
    /// Arithmetic on 64-bit intermediates.
    Arith {
        /// The operator.
        op: ArithOp,
        /// Left operand.
        lhs: Box<Expr>,
        /// Right operand.
        rhs: Box<Expr>,
        /// The range-error site raised when the result does not fit in 64 bits; `None` for
        /// `%`, whose result always fits (`i64::MIN % -1` is 0).
        overflow: Option<SiteId>,
        /// For `/` and `%`: the division-error site raised on a zero divisor.
        division: Option<SiteId>,
    },
    /// A comparison of two ints, two booleans or two values of one enum.
    Cmp {
        /// The operator.
        op: CmpOp,
        /// Left operand.
        lhs: Box<Expr>,
        /// Right operand.
        rhs: Box<Expr>,
    },
    /// Short-circuit `&&`.
    And(Box<Expr>, Box<Expr>),
    /// Short-circuit `||`.
    Or(Box<Expr>, Box<Expr>),
    /// `cond ? then : otherwise`; only the chosen branch is evaluated.
    Cond {
        /// The condition.
        cond: Box<Expr>,
        /// Value when true.
        then: Box<Expr>,
        /// Value when false.
        otherwise: Box<Expr>,
    },
    /// `T@loc` / `T[i]@loc`: that instance is running and at `location`.
    At {
        /// The thread.
        thread: ThreadId,
        /// The instance index of a replicated thread, with its index-error site.
        instance: Option<(Box<Expr>, SiteId)>,
        /// The location.
        location: LocationId,
    },
    /// `forall`/`exists var in lo .. hi : (body)`; short-circuits in ascending order.
    Quant {
        /// True for `forall`, false for `exists`.
        forall: bool,
        /// The bound variable.
        var: QuantVarId,
        /// Least value, inclusive.
        lo: i64,
        /// Greatest value, exclusive.
        hi: i64,
        /// The condition.
        body: Box<Expr>,
    },
}

impl Expr {
    /// The direct subexpressions, in evaluation order: for walks that treat every node alike
    /// (sizes, searches) and need not list the variants.
    pub fn children(&self) -> impl Iterator<Item = &Expr> {
        let (a, b, c): (Option<&Expr>, Option<&Expr>, Option<&Expr>) = match self {
            Expr::Bool(_)
            | Expr::Int(_)
            | Expr::Read(_)
            | Expr::InstanceIndex
            | Expr::QuantVar(_) => (None, None, None),
            Expr::Element { index: inner, .. }
            | Expr::Not(inner)
            | Expr::Neg(inner, _)
            | Expr::Quant { body: inner, .. } => (Some(inner), None, None),
            Expr::Arith { lhs, rhs, .. }
            | Expr::Cmp { lhs, rhs, .. }
            | Expr::And(lhs, rhs)
            | Expr::Or(lhs, rhs) => (Some(lhs), Some(rhs), None),
            Expr::Cond {
                cond,
                then,
                otherwise,
            } => (Some(cond), Some(then), Some(otherwise)),
            Expr::At { instance, .. } => (instance.as_ref().map(|(index, _)| &**index), None, None),
        };
        [a, b, c].into_iter().flatten()
    }

    /// The value of a constant leaf (booleans as 0/1).
    pub fn constant(&self) -> Option<i64> {
        match self {
            Expr::Int(value) => Some(*value),
            Expr::Bool(value) => Some(i64::from(*value)),
            _ => None,
        }
    }

    /// The number of nodes, counting the body of each quantifier `copies(lo, hi, body)`
    /// times (once for a plain node count). Saturates, so that it bounds work safely.
    pub fn weighted_size(&self, copies: &dyn Fn(i64, i64, &Expr) -> u64) -> u64 {
        let children = self.children().fold(0u64, |size, child| {
            size.saturating_add(child.weighted_size(copies))
        });
        let children = match self {
            Expr::Quant { lo, hi, body, .. } => children.saturating_mul(copies(*lo, *hi, body)),
            _ => children,
        };
        children.saturating_add(1)
    }
}

/// What freeing a pool instance writes ([`System::freeing`]).
#[derive(Clone, Debug)]
pub struct Freeing {
    /// The instance's status, which becomes `free`.
    pub status: Owner,
    /// The status value meaning free ("not started").
    pub free: i64,
    /// The `tid` that names the instance: every stored `tid` equal to it becomes 0.
    pub tid: i64,
    /// Each local of the instance with its initial value per element.
    pub locals: Vec<(Owner, Vec<i64>)>,
    /// Every stored `tid` with its number of elements ([`System::tid_slots`]).
    pub tids: Vec<(Owner, u32)>,
    /// The owner array of every lock declaration, with its number of elements: an element
    /// equal to `number` (a lock the instance held) becomes `nobody`, so that the lock
    /// stays held, by no instance.
    pub owners: Vec<(Owner, u32)>,
    /// The instance's global number, as a lock's owner holds it.
    pub number: i64,
    /// The owner of a lock that a freed instance held: the number past the last instance.
    pub nobody: i64,
    /// The instance's element of each per-instance wait array (its wait mark, the count its
    /// `wait` released and its `wait(R)` references), with the initial value it takes
    /// again.
    pub waits: Vec<(Owner, u32, i64)>,
}

/// A declared invariant.
#[derive(Clone, Debug)]
pub struct Invariant {
    /// Its name.
    pub name: String,
    /// The condition.
    pub cond: Expr,
    /// The condition as BIR text.
    pub text: String,
    /// The source line (0 if unknown).
    pub line: u32,
    /// Its atoms whose value it does not force, for vacuity (see [`InvariantAtom`]).
    pub atoms: Vec<InvariantAtom>,
}

/// An atomic boolean sub-formula of an invariant (a comparison, a boolean variable, a
/// `T@loc`), as two predicates over a state: a search in which one of them is false in
/// every reachable state shows the atom constant, and the invariant holding vacuously.
#[derive(Clone, Debug)]
pub struct InvariantAtom {
    /// The atom as BIR text.
    pub text: String,
    /// The atom holds, for some value of the quantifiers around it.
    pub holds: Expr,
    /// The atom fails, for some value of the quantifiers around it.
    pub fails: Expr,
}

/// A declared LTL property or reachability check.
#[derive(Clone, Debug)]
pub struct Property {
    /// Its name.
    pub name: String,
    /// The formula or predicate as BIR text.
    pub text: String,
    /// The source line (0 if unknown).
    pub line: u32,
    /// The state predicates, in proposition order: proposition `n` is `atoms[n]` (one, the
    /// predicate, for a reachability check).
    pub atoms: Vec<Expr>,
    /// The BIR text of each predicate.
    pub atom_texts: Vec<String>,
    /// The automaton of the formula's negation; `None` for a reachability check.
    pub automaton: Option<crate::ltl::Automaton>,
    /// The formula over the atoms, as written (for tools that write it for another
    /// checker); `None` for a reachability check.
    pub formula: Option<crate::ltl::Formula>,
    /// True when the formula has no `X`.
    pub next_free: bool,
}

/// A declared `heuristic Name: expr;`.
#[derive(Clone, Debug)]
pub struct Heuristic {
    /// Its name.
    pub name: String,
    /// The expression as BIR text.
    pub text: String,
    /// The source line (0 if unknown).
    pub line: u32,
    /// The int expression over the whole state (what an invariant may read).
    pub value: Expr,
}

/// The kinds of runtime faults, the fault sites of the model (with the message users read)
/// and how many invariant atoms a search tracks for vacuity: the model contract's own, so
/// that the generated tables and the interpreter's say the same.
pub use bir_model::{FaultKind, FaultSite, MAX_ATOMS};

impl System {
    /// The invariant atoms tracked for vacuity, numbered across the invariants in
    /// declaration order: (invariant index, atom), at most [`MAX_ATOMS`].
    pub fn atoms(&self) -> impl Iterator<Item = (u32, &InvariantAtom)> + '_ {
        self.invariants
            .iter()
            .enumerate()
            .flat_map(|(index, invariant)| invariant.atoms.iter().map(move |a| (index as u32, a)))
            .take(MAX_ATOMS)
    }

    /// Total number of thread instances.
    pub fn instance_count(&self) -> u32 {
        self.threads.iter().map(Thread::instances).sum()
    }

    /// The thread an instance belongs to, and its index within the thread.
    pub fn instance(&self, instance: InstanceId) -> (ThreadId, u32) {
        for (id, thread) in self.threads.iter_enumerated() {
            if instance.0 < thread.first_instance.0 + thread.instances() {
                return (id, thread.index_of(instance));
            }
        }
        panic!("instance {instance} does not exist")
    }

    /// Every transition in successor order: threads in declaration order, instances by
    /// index, transformations in source order; after a rendezvous sender's transformation,
    /// its pairings with every receiver of the channel in that order (an instance never
    /// pairs with itself). Rule: a transition's id (the runtime's `Successor::transition`)
    /// is its position in this order; traces, replays and the search's resume rules
    /// depend on it.
    pub fn transitions(&self) -> impl Iterator<Item = TransitionRef> + '_ {
        self.threads
            .iter_enumerated()
            .flat_map(move |(thread_id, thread)| {
                thread.instance_ids().flat_map(move |instance| {
                    thread
                        .transforms
                        .iter_enumerated()
                        .flat_map(move |(transform, t)| {
                            let own = TransitionRef {
                                thread: thread_id,
                                instance,
                                transform,
                                partner: None,
                            };
                            let pairs = self
                                .partners(t)
                                .filter(move |&(_, other, _)| other != instance);
                            std::iter::once(own).chain(pairs.map(move |partner| TransitionRef {
                                partner: Some(partner),
                                ..own
                            }))
                        })
                })
            })
    }

    /// The receivers a rendezvous sender's transformation `sender` pairs with, in successor
    /// order: every instance's transformation that receives on the same channel.
    fn partners(
        &self,
        sender: &Transform,
    ) -> impl Iterator<Item = (ThreadId, InstanceId, TransformId)> + '_ {
        let channel = match sender.rendezvous.as_deref() {
            Some(Rendezvous {
                channel,
                role: RendezvousRole::Send(_),
                ..
            }) => Some(*channel),
            _ => None,
        };
        self.threads
            .iter_enumerated()
            .filter(move |_| channel.is_some())
            .flat_map(move |(thread_id, thread)| {
                thread.instance_ids().flat_map(move |instance| {
                    thread
                        .transforms
                        .iter_enumerated()
                        .filter(move |(_, t)| {
                            matches!(
                                t.rendezvous.as_deref(),
                                Some(Rendezvous { channel: c, role: RendezvousRole::Receive(_), .. })
                                    if Some(*c) == channel
                            )
                        })
                        .map(move |(transform, _)| (thread_id, instance, transform))
                })
            })
    }

    /// The value of the `tid` that names `instance`: its global number plus one (0 is
    /// `null`).
    pub fn tid_of(instance: InstanceId) -> i64 {
        i64::from(instance.0) + 1
    }

    /// The instance a `tid` value names: `None` for `null` (or a value out of range).
    pub fn tid_instance(&self, tid: i64) -> Option<InstanceId> {
        let number = u32::try_from(tid.checked_sub(1)?).ok()?;
        (number < self.instance_count()).then_some(InstanceId(number))
    }

    /// True when the model has a pool (`thread[k] T`), so that steps free instances.
    pub fn has_pools(&self) -> bool {
        self.threads.iter().any(Thread::is_pool)
    }

    /// Every stored `tid`, in state order (globals, the hidden ones included, then each
    /// instance's locals), with its number of elements.
    pub fn tid_slots(&self) -> Vec<(Owner, u32)> {
        let is_tid = |var: &Var| matches!(var.ty.scalar, Scalar::Tid { .. });
        let mut slots: Vec<(Owner, u32)> = self
            .globals
            .iter_enumerated()
            .filter(|(_, var)| is_tid(var))
            .map(|(id, var)| (Owner::Global(id), var.ty.elements()))
            .collect();
        for (thread, t) in self.threads.iter_enumerated() {
            for instance in t.instance_ids() {
                for (local, var) in t.locals.iter_enumerated().filter(|(_, var)| is_tid(var)) {
                    let owner = Owner::Local {
                        thread,
                        instance,
                        local,
                    };
                    slots.push((owner, var.ty.elements()));
                }
            }
        }
        slots
    }

    /// The pool instances that the step of `transition` ends, which are freed at its end
    /// (the executing instance, then a rendezvous partner): those whose transformation's
    /// [`Transform::destination`] is `return`.
    pub fn freed_by(&self, transition: &TransitionRef) -> Vec<InstanceId> {
        let own = (transition.thread, transition.instance, transition.transform);
        std::iter::once(own)
            .chain(transition.partner)
            .filter(|&(thread, _, transform)| {
                let t = &self.threads[thread];
                t.is_pool() && t.transforms[transform].destination() == Jump::Return
            })
            .map(|(_, instance, _)| instance)
            .collect()
    }

    /// Rule: what freeing pool instance `instance` writes at the end of the step that ends
    /// it, in this order: its locals take their initial values again, its status becomes
    /// free (its "not started" value), every stored `tid` that names it becomes `null`,
    /// every lock it held stays held by no instance, and its wait mark is cleared with
    /// its `wait(R)` references (so that they keep no object alive; `None` for an instance
    /// that is not a pool's). Both engines free by this
    /// description; a later pass over the state (the heap's collection) comes after it.
    pub fn freeing(&self, instance: InstanceId) -> Option<Freeing> {
        let (thread_id, _) = self.instance(instance);
        let thread = &self.threads[thread_id];
        if !thread.is_pool() {
            return None;
        }
        let locals = thread
            .locals
            .iter_enumerated()
            .map(|(local, var)| {
                let owner = Owner::Local {
                    thread: thread_id,
                    instance,
                    local,
                };
                (owner, var.init.clone())
            })
            .collect();
        Some(Freeing {
            status: Owner::Status {
                thread: thread_id,
                instance,
            },
            free: thread.not_started_status(),
            tid: System::tid_of(instance),
            locals,
            tids: self.tid_slots(),
            owners: self
                .hidden
                .locks
                .iter()
                .map(|lock| {
                    (
                        Owner::Global(lock.owner),
                        self.globals[lock.owner].ty.elements(),
                    )
                })
                .collect(),
            number: i64::from(instance.0),
            nobody: i64::from(self.instance_count()),
            waits: self
                .hidden
                .waits
                .iter()
                .flat_map(|waits| [waits.mark, waits.count])
                .chain(self.hidden.records.iter().filter_map(|r| r.waiting))
                .map(|global| {
                    (
                        Owner::Global(global),
                        instance.0,
                        self.globals[global].init[instance.0 as usize],
                    )
                })
                .collect(),
        })
    }

    /// The domain of a variable as seen from `thread`.
    pub fn var(&self, thread: ThreadId, var: VarRef) -> &Var {
        match var {
            VarRef::Global(id) => &self.globals[id],
            VarRef::Local(id) => &self.threads[thread].locals[id],
        }
    }
}
