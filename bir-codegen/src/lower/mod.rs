//! The checked model as the code the generated checker runs, instance by instance: each
//! transition (a transformation of one instance) becomes straight-line [`Code`] (guard,
//! statements, the status it leaves) over the state's stored values ([`Owner`]s), with the
//! instance index folded in, small quantifiers unrolled ([`rewrite`]) and every decision
//! about run-time checks taken: an operation is checked only where the value ranges of
//! the analysis ([`Ranges`](crate::analyse::interval::Ranges)) show that it can fail, in
//! the simplest form that does so ([`simplify`]). `emit` prints this code without deciding
//! anything.

mod expr;
mod rendezvous;
mod rewrite;
mod simplify;
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
    /// The invariant atoms tracked for vacuity (`ir::System::atoms`): when each holds and
    /// when it fails, for some value of its quantifiers.
    pub atoms: Vec<(Expr, Expr)>,
    /// The predicates of each property, in declaration and proposition order.
    pub properties: Vec<Vec<Expr>>,
    /// The value of each heuristic, in declaration order.
    pub heuristics: Vec<Expr>,
    /// Per transition, whether its location is safe for partial-order reduction.
    pub safe: Vec<bool>,
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
    /// When it is not enabled: the negated guard, on the state before the step (`None`:
    /// always enabled).
    pub disabled: Option<Expr>,
    /// The actions and the jump, in order, on the next state.
    pub body: Vec<Stmt>,
    /// For an outcome of a step with several (`ir::Transform::quiet`): how many statements
    /// of `body` come before the outcomes part; a fault there, or in the guard, discards
    /// the transition.
    pub quiet: Option<usize>,
    /// The receiver of a rendezvous: its thread, instance and transformation.
    pub partner: Option<(ir::ThreadId, InstanceId, ir::TransformId)>,
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
    /// `assert (cond);`: an assertion error at `site` when `fails` (the negated condition).
    Assert {
        /// When it fails.
        fails: Expr,
        /// The assertion's fault site.
        site: SiteId,
    },
    /// `assume (cond);`: the step is discarded when this, the negated condition, holds.
    Assume(Expr),
    /// `[result :=] start T(args);` of a thread: a start error at `site` unless `status`
    /// is `not_started`; then the arguments are stored in order, the instance goes to its
    /// first location and its `tid` is written to `result`.
    Start {
        /// The started instance's status.
        status: Owner,
        /// The status meaning "not started".
        not_started: i64,
        /// The start error's site.
        site: SiteId,
        /// Each parameter and the value it takes.
        arguments: Vec<(Owner, Stored)>,
        /// Where the `tid` goes, and its value.
        result: Option<(Owner, Option<Index>, i64)>,
    },
    /// `[result :=] start T(args);` of a pool: the arguments are evaluated in order, then
    /// the first instance whose status is `free` is taken (none: a start error at `site`),
    /// the arguments converted and bound, its status set to its first location, and its
    /// `tid` written to `result`.
    StartPool(Box<StartPool>),
    /// The freeing of a pool instance the step ended (`ir::System::freeing`), after its
    /// last status write.
    Free(Box<ir::Freeing>),
    /// A value a rendezvous sends, evaluated in the state before the step and checked
    /// against its field's type, for its faults alone.
    Check(Stored),
    /// A rendezvous receiver's write: as `Store`, the value read from the state before
    /// the step (the sender's values are its pre-state's).
    Deliver {
        /// The stored variable.
        target: Owner,
        /// The element, for an array (computed on the next state, before the value).
        element: Option<Index>,
        /// The value written.
        value: Stored,
    },
    /// The executing (or a started) instance's status takes `value`: a location, or ended.
    SetStatus {
        /// The status.
        status: Owner,
        /// Its new value.
        value: i64,
    },
}

/// A pool's `start` ([`Stmt::StartPool`]).
#[derive(Clone, Debug)]
pub struct StartPool {
    /// The arguments, evaluated on the next state in order, each with its conversion to
    /// its parameter's type.
    pub args: Vec<(Expr, Conversion)>,
    /// The pool's instances by index: each one's status and parameters.
    pub instances: Vec<(Owner, Vec<Owner>)>,
    /// The status meaning free.
    pub free: i64,
    /// The start error's site (every instance running).
    pub site: SiteId,
    /// The `tid` of the pool's first instance (the others follow).
    pub first_tid: i64,
    /// Where the `tid` goes.
    pub result: Option<(Owner, Option<Index>)>,
}

/// How a value already computed is converted to the type it is stored in.
#[derive(Clone, Copy, Debug)]
pub enum Conversion {
    /// It is in the type.
    Plain,
    /// Reduced into `lo..=hi`.
    Wrap {
        /// Least value of the type.
        lo: i64,
        /// Greatest value of the type.
        hi: i64,
    },
    /// A range error at `site` outside `lo..=hi`.
    InRange {
        /// Least value of the type.
        lo: i64,
        /// Greatest value of the type.
        hi: i64,
        /// The range error's site.
        site: SiteId,
    },
}

impl Stored {
    /// The value and how it is converted.
    pub fn split(self) -> (Expr, Conversion) {
        match self {
            Stored::Plain(value) => (value, Conversion::Plain),
            Stored::Wrap { value, lo, hi } => (value, Conversion::Wrap { lo, hi }),
            Stored::InRange {
                value,
                lo,
                hi,
                site,
            } => (value, Conversion::InRange { lo, hi, site }),
        }
    }
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
    /// `forall`/`exists` as a loop over `lo..hi` in ascending order, which stops as soon as
    /// `stop` holds: then its value is `!forall`, otherwise `forall`.
    Quant {
        /// True for `forall`.
        forall: bool,
        /// The loop variable.
        var: QuantVarId,
        /// First value.
        lo: i64,
        /// End of the range, excluded.
        hi: i64,
        /// When the loop stops early: the negated body for `forall`, the body for `exists`.
        stop: Box<Expr>,
    },
    /// An integer constant.
    Int(i64),
    /// A stored scalar.
    Get(Owner),
    /// An element of a stored array.
    Element(Owner, Index),
    /// The status of instance `index` of a replicated thread (`T[i]@loc` with `i`
    /// computed).
    InstanceStatus {
        /// The instance index.
        index: Box<Expr>,
        /// The status of each instance, by index.
        instances: Vec<Owner>,
        /// The index error's site, when the index's range leaves the instances.
        site: Option<SiteId>,
    },
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

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use proc_macro2::TokenStream;

    use super::*;
    use crate::diag::Diagnostics;

    /// The lowered code of `source`.
    fn lowered(source: &str) -> Code {
        let tokens = TokenStream::from_str(source).expect("tokenizes");
        let system = crate::front_end(tokens)
            .unwrap_or_else(|d| panic!("{:?}", d.iter().map(|d| &d.message).collect::<Vec<_>>()));
        let analysis = crate::analyse::analyse(&system, &mut Diagnostics::default())
            .expect("within the limits");
        lower(&system, &analysis)
    }

    /// The value stored by the first statement of the first transition.
    fn first_store(code: &Code) -> &Stored {
        match &code.transitions[0].body[0] {
            Stmt::Store { value, .. } => value,
            other => panic!("expected a store, found {other:?}"),
        }
    }

    /// The check of the outermost arithmetic in a stored value.
    fn check_of(stored: &Stored) -> Check {
        let (Stored::Plain(value) | Stored::Wrap { value, .. } | Stored::InRange { value, .. }) =
            stored;
        match value {
            Expr::Arith { check, .. } => *check,
            other => panic!("expected arithmetic, found {other:?}"),
        }
    }

    fn model(declarations: &str, action: &str) -> String {
        format!(
            "system S {{ int x; int (0, 9) small; int (1, 9) positive; int (-5, 5) signed; \
             int (0, 3)[4] a; {declarations} \
             active thread T() {{ loc l: do {{ {action} }} goto l; }} }}"
        )
    }

    #[test]
    fn operations_check_only_what_their_ranges_allow() {
        let check = |action: &str| check_of(first_store(&lowered(&model("", action))));
        assert_eq!(check("small := small % 3;"), Check::Plain);
        assert_eq!(check("small := small / positive;"), Check::Plain);
        // The divisor can be 0; the quotient of ints by a non-negative divisor fits.
        assert!(matches!(
            check("x := x / small;"),
            Check::Sites {
                zero: Some(_),
                overflow: None
            }
        ));
        // The remainder never overflows, even of i64::MIN by -1, which Rust's `%` panics on.
        assert!(matches!(
            check("x := x % signed;"),
            Check::Sites {
                zero: Some(_),
                overflow: None
            }
        ));
        assert_eq!(check("x := x * x * -2 % -1;"), Check::WrappingRem);
        assert!(matches!(
            check("x := x * x * x;"),
            Check::Sites {
                zero: None,
                overflow: Some(_)
            }
        ));
    }

    #[test]
    fn writes_and_indices_are_checked_only_outside_their_bounds() {
        let code = lowered(&model(
            "",
            "a[small % 4] := a[small % 4] + 1; a[small] := 1;",
        ));
        let stmts = &code.transitions[0].body;
        assert!(matches!(
            &stmts[0],
            Stmt::Store {
                element: Some(Index::Unchecked(_)),
                value: Stored::InRange { .. },
                ..
            }
        ));
        assert!(matches!(
            &stmts[1],
            Stmt::Store {
                element: Some(Index::Checked { len: 4, .. }),
                value: Stored::Plain(Expr::Int(1)),
                ..
            }
        ));
    }

    #[test]
    fn an_instance_index_within_range_needs_no_error() {
        let code = lowered(
            "system S { int (0, 1) n; int (0, 5) m;
               active [2] thread T(int index) { loc l: when T[n]@l && T[m]@l do { } goto l; } }",
        );
        let Some(Expr::Or(within, outside)) = &code.transitions[0].disabled else {
            panic!("{:?}", code.transitions[0].disabled);
        };
        let site = |e: &Expr| match e {
            Expr::Cmp { lhs, .. } => match &**lhs {
                Expr::InstanceStatus { site, .. } => *site,
                other => panic!("{other:?}"),
            },
            other => panic!("{other:?}"),
        };
        assert_eq!(site(within), None);
        assert!(site(outside).is_some());
    }

    #[test]
    fn constant_conditions_leave_no_check() {
        let code = lowered(&model(
            "const C { B = true; }",
            "assert (C.B); assume (C.B || x > 0); x := 1;",
        ));
        assert!(code.transitions[0].disabled.is_none());
        assert!(matches!(
            code.transitions[0].body[..],
            [Stmt::Store { .. }, Stmt::SetStatus { .. }]
        ));
        // A false guard: the transition is never enabled.
        let never = lowered(
            "system S { int x; active thread T() { loc l: when false && x > 0 do { } goto l; } }",
        );
        assert!(matches!(
            never.transitions[0].disabled,
            Some(Expr::Bool(true))
        ));
    }
}
