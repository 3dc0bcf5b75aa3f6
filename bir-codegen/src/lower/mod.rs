//! The checked model as the code the generated checker runs, instance by instance: each
//! transition (a transformation of one instance) becomes straight-line [`Code`] (guard,
//! statements, the status it leaves) over the state's stored values ([`Owner`]s), with the
//! instance index folded in, small quantifiers unrolled ([`rewrite`]) and every decision
//! about run-time checks taken: an operation is checked only where the value ranges of
//! the analysis ([`Ranges`](crate::analyse::interval::Ranges)) show that it can fail.
//! `emit` prints this code without deciding anything.

mod expr;
mod rewrite;
mod step;

use crate::analyse::Analysis;
use crate::ir::{self, ArithOp, CmpOp, InstanceId, LocationId, Owner, QuantVarId, SiteId};

/// The lowered model.
#[derive(Clone, Debug)]
pub struct Code {
    /// Every transition in successor order: the position is the transition id.
    pub transitions: Vec<Transition>,
    /// The successor function: for each instance, in instance order, which transitions its
    /// status enables.
    pub dispatch: Vec<Dispatch>,
    /// The condition of each invariant, in declaration order.
    pub invariants: Vec<Expr>,
    /// When a state is an end state.
    pub end_state: EndState,
}

/// One transition: a transformation of one instance, as a function from the state to the
/// next state (or a fault, or nothing when it is not enabled).
#[derive(Clone, Debug)]
pub struct Transition {
    /// The transformation it executes.
    pub thread: ir::ThreadId,
    /// The instance executing it.
    pub instance: InstanceId,
    /// The transformation.
    pub transform: ir::TransformId,
    /// The guard, on the state before the step (`None`: always enabled).
    pub guard: Option<Expr>,
    /// The actions and the jump, in order, on the next state.
    pub body: Vec<Stmt>,
}

/// The transitions one instance's status enables.
#[derive(Clone, Debug)]
pub struct Dispatch {
    /// The instance's status.
    pub status: Owner,
    /// For each location of its thread, in order, the ids of the transitions leaving it.
    pub arms: Vec<(LocationId, Vec<u32>)>,
}

/// A statement of a transition's body.
#[derive(Clone, Debug)]
pub enum Stmt {
    /// `place := value;`: the element (of an array) is computed before the value.
    Store {
        /// The stored variable.
        target: Owner,
        /// The element, for an array.
        element: Option<Index>,
        /// The value written.
        value: Stored,
    },
    /// `assert (cond);`: an assertion error at `site` when false.
    Assert {
        /// The condition.
        cond: Expr,
        /// The assertion's fault site.
        site: SiteId,
    },
    /// `assume (cond);`: the step is discarded when false.
    Assume(Expr),
    /// `start T(arg);`: a start error at `site` unless `status` is `not_started`; then the
    /// argument is stored and the instance goes to its first location.
    Start {
        /// The started instance's status.
        status: Owner,
        /// The status meaning "not started".
        not_started: i64,
        /// The start error's site.
        site: SiteId,
        /// The parameter and the value it takes.
        argument: Option<(Owner, Stored)>,
    },
    /// The executing (or a started) instance's status takes `value`: a location, or ended.
    SetStatus {
        /// The status.
        status: Owner,
        /// Its new value.
        value: i64,
    },
}

/// A value written to a variable of a range type, as written.
#[derive(Clone, Debug)]
pub enum Stored {
    /// The value is in the variable's type.
    Plain(Expr),
    /// Reduced into `lo..=hi` (`int wrap`, `byte`).
    Wrap {
        /// The value.
        value: Expr,
        /// Least value of the type.
        lo: i64,
        /// Greatest value of the type.
        hi: i64,
    },
    /// A range error at `site` outside `lo..=hi`.
    InRange {
        /// The value.
        value: Expr,
        /// Least value of the type.
        lo: i64,
        /// Greatest value of the type.
        hi: i64,
        /// The range error's site.
        site: SiteId,
    },
}

/// An array index.
#[derive(Clone, Debug)]
pub enum Index {
    /// Known, and within the array.
    Const(usize),
    /// Within the array by its value range.
    Unchecked(Box<Expr>),
    /// An index error at `site` outside `0..len`.
    Checked {
        /// The index.
        value: Box<Expr>,
        /// The array's length.
        len: u32,
        /// The index error's site.
        site: SiteId,
    },
}

/// What an arithmetic operation checks at run time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Check {
    /// Nothing: its operands' ranges show it cannot fail (Rust's operator).
    Plain,
    /// `%` whose operands can be `i64::MIN` and -1, where BIR's result is 0 and Rust's `%`
    /// panics; it cannot fail otherwise.
    WrappingRem,
    /// The failures its operands' ranges allow, each at its site.
    Sites {
        /// Division error, for `/` and `%` whose divisor can be 0.
        zero: Option<SiteId>,
        /// Range error, when the result may not fit in 64 bits (never for `%`).
        overflow: Option<SiteId>,
    },
}

/// An expression of the generated code: a `bool` or an `i64`, which the variants say.
#[derive(Clone, Debug)]
pub enum Expr {
    /// A boolean constant.
    Bool(bool),
    /// `!e` on a boolean.
    Not(Box<Expr>),
    /// `a && b`.
    And(Box<Expr>, Box<Expr>),
    /// `a || b`.
    Or(Box<Expr>, Box<Expr>),
    /// A comparison of two integers.
    Cmp {
        /// The operator.
        op: CmpOp,
        /// Left operand.
        lhs: Box<Expr>,
        /// Right operand.
        rhs: Box<Expr>,
    },
    /// An integer as a boolean: true when not 0.
    NonZero(Box<Expr>),
    /// An instance's status is `location`.
    StatusIs {
        /// Whose status.
        status: Status,
        /// The location.
        location: LocationId,
    },
    /// `forall`/`exists` as a loop, short-circuiting in ascending order.
    Quant {
        /// True for `forall`.
        forall: bool,
        /// The loop variable.
        var: QuantVarId,
        /// First value.
        lo: i64,
        /// End of the range, excluded.
        hi: i64,
        /// The condition.
        body: Box<Expr>,
    },
    /// An integer constant.
    Int(i64),
    /// A stored scalar.
    Get(Owner),
    /// An element of a stored array.
    Element(Owner, Index),
    /// A quantifier's loop variable.
    QuantVar(QuantVarId),
    /// `-e`, a range error at the site when checked.
    Neg(Box<Expr>, Option<SiteId>),
    /// Arithmetic, checked where its operands' ranges show it can fail.
    Arith {
        /// The operator.
        op: ArithOp,
        /// Left operand.
        lhs: Box<Expr>,
        /// Right operand.
        rhs: Box<Expr>,
        /// What it checks.
        check: Check,
    },
    /// A boolean as an integer (0 or 1).
    FromBool(Box<Expr>),
    /// `cond ? then : otherwise`, both branches of one type.
    Cond {
        /// The condition (a boolean).
        cond: Box<Expr>,
        /// Value when true.
        then: Box<Expr>,
        /// Value when false.
        otherwise: Box<Expr>,
    },
}

/// Which instance's status `T@loc` reads.
#[derive(Clone, Debug)]
pub enum Status {
    /// A known instance.
    Of(Owner),
    /// `T[i]@loc` with `i` computed: an index error at `site` outside the instances.
    Indexed {
        /// The instance index.
        index: Box<Expr>,
        /// The status of each instance, by index.
        instances: Vec<Owner>,
        /// The index error's site.
        site: SiteId,
    },
}

/// The end-state test: every started instance has ended.
#[derive(Clone, Debug)]
pub enum EndState {
    /// Some active instance can never end.
    Never,
    /// Each status is at least its thread's "ended" value (no status: always).
    AllEnded(Vec<(Owner, i64)>),
}

/// Lowers every transition, the successor function, the invariants and the end-state test
/// of `system`.
pub fn lower(system: &ir::System, analysis: &Analysis) -> Code {
    step::lower(system, analysis)
}
