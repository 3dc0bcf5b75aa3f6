//! Smart constructors of lowered expressions that build the simplest equivalent form: a
//! negated comparison is the opposite comparison, a boolean turned into an integer and back
//! is the boolean, `c ? true : e` is `c || e`, and so on. Each rewrite keeps the order in
//! which operands are evaluated and every check, so that the generated code does exactly
//! what the model says, and reads as a person would write it.

use super::{Check, Expr};
use crate::ir::{ArithOp, CmpOp};

/// `!e`: the opposite comparison, the other quantifier over the same early stop, and, by
/// De Morgan's laws, `!a || !b` for `!(a && b)` when `a` and `b` negate without a `!`
/// (both forms evaluate the same operands in the same order).
pub fn not(e: Expr) -> Expr {
    match e {
        Expr::Bool(value) => Expr::Bool(!value),
        Expr::Not(inner) => *inner,
        Expr::Cmp { op, lhs, rhs } => Expr::Cmp {
            op: negated(op),
            lhs,
            rhs,
        },
        // The loop stops early on the same values; it then answers `forall` instead of
        // `!forall`, and otherwise `!forall` instead of `forall`.
        Expr::Quant {
            forall,
            var,
            lo,
            hi,
            stop,
        } => Expr::Quant {
            forall: !forall,
            var,
            lo,
            hi,
            stop,
        },
        Expr::And(lhs, rhs) if negates_simply(&lhs) && negates_simply(&rhs) => {
            or(not(*lhs), not(*rhs))
        }
        Expr::Or(lhs, rhs) if negates_simply(&lhs) && negates_simply(&rhs) => {
            and(not(*lhs), not(*rhs))
        }
        other => Expr::Not(Box::new(other)),
    }
}

/// True when [`not`] negates `e` without a `!`.
fn negates_simply(e: &Expr) -> bool {
    match e {
        Expr::Bool(_) | Expr::Not(_) | Expr::Cmp { .. } | Expr::Quant { .. } => true,
        Expr::And(lhs, rhs) | Expr::Or(lhs, rhs) => negates_simply(lhs) && negates_simply(rhs),
        _ => false,
    }
}

/// The comparison true exactly when `op` is false (integers have no NaN).
fn negated(op: CmpOp) -> CmpOp {
    match op {
        CmpOp::Eq => CmpOp::Ne,
        CmpOp::Ne => CmpOp::Eq,
        CmpOp::Lt => CmpOp::Ge,
        CmpOp::Le => CmpOp::Gt,
        CmpOp::Gt => CmpOp::Le,
        CmpOp::Ge => CmpOp::Lt,
    }
}

/// An integer as a boolean: `v != 0`.
pub fn non_zero(v: Expr) -> Expr {
    match v {
        Expr::FromBool(b) => *b,
        Expr::Int(value) => Expr::Bool(value != 0),
        other => Expr::Cmp {
            op: CmpOp::Ne,
            lhs: Box::new(other),
            rhs: Box::new(Expr::Int(0)),
        },
    }
}

/// A boolean as an integer: 0 or 1.
pub fn from_bool(b: Expr) -> Expr {
    match b {
        Expr::Bool(value) => Expr::Int(i64::from(value)),
        other => Expr::FromBool(Box::new(other)),
    }
}

/// `lhs op rhs` on integers.
pub fn compare(op: CmpOp, lhs: Expr, rhs: Expr) -> Expr {
    match (op, lhs, rhs) {
        // A boolean compared with true or false is itself or its negation.
        (CmpOp::Eq | CmpOp::Ne, Expr::FromBool(b), Expr::Int(value @ (0 | 1))) => {
            if (op == CmpOp::Eq) == (value == 1) {
                *b
            } else {
                not(*b)
            }
        }
        (op, lhs, rhs) => Expr::Cmp {
            op,
            lhs: Box::new(lhs),
            rhs: Box::new(rhs),
        },
    }
}

/// `lhs op rhs` on integers, checked as `check` says: adding a negative constant is
/// subtracting its magnitude, and the other way round, when nothing is checked.
pub fn arith(op: ArithOp, lhs: Expr, rhs: Expr, check: Check) -> Expr {
    let (op, rhs) = match (op, rhs, check) {
        (ArithOp::Add | ArithOp::Sub, Expr::Int(value), Check::Plain)
            if value < 0 && value != i64::MIN =>
        {
            let op = if op == ArithOp::Add {
                ArithOp::Sub
            } else {
                ArithOp::Add
            };
            (op, Expr::Int(-value))
        }
        (op, rhs, _) => (op, rhs),
    };
    Expr::Arith {
        op,
        lhs: Box::new(lhs),
        rhs: Box::new(rhs),
        check,
    }
}

/// `cond ? then : otherwise`; with a constant boolean branch, `&&` or `||` (which evaluate
/// the same operands in the same order).
pub fn cond(cond: Expr, then: Expr, otherwise: Expr) -> Expr {
    match (then, otherwise) {
        (Expr::Bool(true), otherwise) => or(cond, otherwise),
        (Expr::Bool(false), otherwise) => and(not(cond), otherwise),
        (then, Expr::Bool(false)) => and(cond, then),
        (then, Expr::Bool(true)) => or(not(cond), then),
        (then, otherwise) => Expr::Cond {
            cond: Box::new(cond),
            then: Box::new(then),
            otherwise: Box::new(otherwise),
        },
    }
}

/// `lhs && rhs`.
pub fn and(lhs: Expr, rhs: Expr) -> Expr {
    match (lhs, rhs) {
        // `rhs` is never evaluated.
        (Expr::Bool(false), _) => Expr::Bool(false),
        (Expr::Bool(true), rhs) => rhs,
        (lhs, Expr::Bool(true)) => lhs,
        (lhs, rhs) => Expr::And(Box::new(lhs), Box::new(rhs)),
    }
}

/// `lhs || rhs`.
pub fn or(lhs: Expr, rhs: Expr) -> Expr {
    match (lhs, rhs) {
        // `rhs` is never evaluated.
        (Expr::Bool(true), _) => Expr::Bool(true),
        (Expr::Bool(false), rhs) => rhs,
        (lhs, Expr::Bool(false)) => lhs,
        (lhs, rhs) => Expr::Or(Box::new(lhs), Box::new(rhs)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{GlobalId, Owner};

    fn x() -> Expr {
        Expr::Get(Owner::Global(GlobalId(0)))
    }

    #[test]
    fn negations_and_conversions_cancel() {
        let is_zero = not(non_zero(x()));
        assert!(matches!(is_zero, Expr::Cmp { op: CmpOp::Eq, .. }));
        assert!(matches!(not(not(is_zero)), Expr::Cmp { op: CmpOp::Eq, .. }));
        assert!(matches!(
            non_zero(from_bool(Expr::Bool(true))),
            Expr::Bool(true)
        ));
        let flag = non_zero(x());
        assert!(matches!(
            compare(CmpOp::Eq, from_bool(flag.clone()), Expr::Int(0)),
            Expr::Cmp { op: CmpOp::Eq, .. }
        ));
        assert!(matches!(
            compare(CmpOp::Ne, from_bool(flag), Expr::Int(0)),
            Expr::Cmp { op: CmpOp::Ne, .. }
        ));
    }

    #[test]
    fn only_constant_boolean_branches_become_and_or() {
        let c = || non_zero(x());
        assert!(matches!(cond(c(), Expr::Bool(true), c()), Expr::Or(..)));
        assert!(matches!(cond(c(), c(), Expr::Bool(false)), Expr::And(..)));
        assert!(matches!(
            cond(c(), Expr::Int(1), Expr::Int(2)),
            Expr::Cond { .. }
        ));
        // `&&` with a constant operand: only `true` disappears, a faulting operand never.
        assert!(matches!(and(c(), Expr::Bool(false)), Expr::And(..)));
    }

    #[test]
    fn adding_a_negative_constant_subtracts_only_when_unchecked() {
        let minus = arith(ArithOp::Add, x(), Expr::Int(-5), Check::Plain);
        assert!(matches!(
            minus,
            Expr::Arith { op: ArithOp::Sub, ref rhs, .. } if matches!(**rhs, Expr::Int(5))
        ));
        let checked = Check::Sites {
            zero: None,
            overflow: Some(crate::ir::SiteId(0)),
        };
        assert!(matches!(
            arith(ArithOp::Add, x(), Expr::Int(-5), checked),
            Expr::Arith {
                op: ArithOp::Add,
                ..
            }
        ));
    }
}
