//! IR-to-IR rewriting for code generation: specialise an expression to one thread
//! instance (the parameter of an active thread becomes a constant), unroll small
//! quantifiers, and fold what became constant, so that generated code indexes arrays with
//! constant shifts wherever the model allows.
//!
//! Folding never removes a runtime fault: an operation whose constant operands fault
//! (`1 / 0`, an out-of-range constant index) is kept for the generated code to report,
//! and only the left operand of `&&`/`||` decides short-circuiting.

use crate::analyse::size::unrolls;
use crate::ir::eval::{arith, compare};
use crate::ir::{Expr, QuantVarId};

/// `expr` as executed by the instance with index `instance` of its thread.
pub fn specialize(expr: &Expr, instance: i64) -> Expr {
    rewrite(expr, &mut |e| match e {
        Expr::InstanceIndex => Some(Expr::Int(instance)),
        _ => None,
    })
}

/// Rebuilds `expr` bottom-up, replacing leaves by `leaf`, unrolling quantifiers and folding.
fn rewrite(expr: &Expr, leaf: &mut dyn FnMut(&Expr) -> Option<Expr>) -> Expr {
    if let Some(replaced) = leaf(expr) {
        return replaced;
    }
    let mut go = |e: &Expr| Box::new(rewrite(e, leaf));
    let rebuilt = match expr {
        Expr::Bool(_) | Expr::Int(_) | Expr::Read(_) | Expr::InstanceIndex | Expr::QuantVar(_) => {
            expr.clone()
        }
        Expr::Element { var, index, site } => Expr::Element {
            var: *var,
            index: go(index),
            site: *site,
        },
        Expr::Not(inner) => Expr::Not(go(inner)),
        Expr::Neg(inner, site) => Expr::Neg(go(inner), *site),
        Expr::Arith {
            op,
            lhs,
            rhs,
            overflow,
            division,
        } => Expr::Arith {
            op: *op,
            lhs: go(lhs),
            rhs: go(rhs),
            overflow: *overflow,
            division: *division,
        },
        Expr::Cmp { op, lhs, rhs } => Expr::Cmp {
            op: *op,
            lhs: go(lhs),
            rhs: go(rhs),
        },
        Expr::And(lhs, rhs) => Expr::And(go(lhs), go(rhs)),
        Expr::Or(lhs, rhs) => Expr::Or(go(lhs), go(rhs)),
        Expr::Cond {
            cond,
            then,
            otherwise,
        } => Expr::Cond {
            cond: go(cond),
            then: go(then),
            otherwise: go(otherwise),
        },
        Expr::At {
            thread,
            instance,
            location,
        } => Expr::At {
            thread: *thread,
            instance: instance.as_ref().map(|(index, site)| (go(index), *site)),
            location: *location,
        },
        Expr::Quant {
            forall,
            var,
            lo,
            hi,
            body,
        } => {
            if unrolls(*lo, *hi, body) {
                return unroll(*forall, *var, *lo, *hi, body, leaf);
            }
            Expr::Quant {
                forall: *forall,
                var: *var,
                lo: *lo,
                hi: *hi,
                body: go(body),
            }
        }
    };
    fold(rebuilt)
}

/// `forall k in lo..hi: (body)` as `body[k=lo] && ... && body[k=hi-1]` (`||` for exists).
fn unroll(
    forall: bool,
    var: QuantVarId,
    lo: i64,
    hi: i64,
    body: &Expr,
    leaf: &mut dyn FnMut(&Expr) -> Option<Expr>,
) -> Expr {
    let mut result: Option<Expr> = None;
    for value in (lo..hi).rev() {
        let mut substitute = |e: &Expr| match e {
            Expr::QuantVar(id) if *id == var => Some(Expr::Int(value)),
            other => leaf(other),
        };
        let instance = rewrite(body, &mut substitute);
        result = Some(match result {
            None => instance,
            Some(rest) if forall => fold(Expr::And(Box::new(instance), Box::new(rest))),
            Some(rest) => fold(Expr::Or(Box::new(instance), Box::new(rest))),
        });
    }
    result.unwrap_or(Expr::Bool(forall))
}

/// Folds one node whose children are already folded.
fn fold(expr: Expr) -> Expr {
    match expr {
        Expr::Not(inner) => match *inner {
            Expr::Bool(value) => Expr::Bool(!value),
            Expr::Not(double) => *double,
            other => Expr::Not(Box::new(other)),
        },
        Expr::Neg(inner, site) => match *inner {
            Expr::Int(value) if value != i64::MIN => Expr::Int(-value),
            other => Expr::Neg(Box::new(other), site),
        },
        Expr::Arith {
            op,
            lhs,
            rhs,
            overflow,
            division,
        } => match (&*lhs, &*rhs) {
            (Expr::Int(l), Expr::Int(r)) => match arith(op, *l, *r, overflow, division) {
                Ok(value) => Expr::Int(value),
                Err(_) => Expr::Arith {
                    op,
                    lhs,
                    rhs,
                    overflow,
                    division,
                },
            },
            _ => Expr::Arith {
                op,
                lhs,
                rhs,
                overflow,
                division,
            },
        },
        Expr::Cmp { op, lhs, rhs } => match (lhs.constant(), rhs.constant()) {
            (Some(l), Some(r)) => Expr::Bool(compare(op, l, r)),
            _ => Expr::Cmp { op, lhs, rhs },
        },
        Expr::And(lhs, rhs) => match *lhs {
            Expr::Bool(false) => Expr::Bool(false),
            Expr::Bool(true) => *rhs,
            lhs => match *rhs {
                Expr::Bool(true) => lhs,
                rhs => Expr::And(Box::new(lhs), Box::new(rhs)),
            },
        },
        Expr::Or(lhs, rhs) => match *lhs {
            Expr::Bool(true) => Expr::Bool(true),
            Expr::Bool(false) => *rhs,
            lhs => match *rhs {
                Expr::Bool(false) => lhs,
                rhs => Expr::Or(Box::new(lhs), Box::new(rhs)),
            },
        },
        Expr::Cond {
            cond,
            then,
            otherwise,
        } => match *cond {
            Expr::Bool(true) => *then,
            Expr::Bool(false) => *otherwise,
            cond => Expr::Cond {
                cond: Box::new(cond),
                then,
                otherwise,
            },
        },
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{ArithOp, CmpOp, GlobalId, SiteId, VarRef};

    fn int(v: i64) -> Box<Expr> {
        Box::new(Expr::Int(v))
    }

    fn add(lhs: Box<Expr>, rhs: Box<Expr>) -> Box<Expr> {
        Box::new(Expr::Arith {
            op: ArithOp::Add,
            lhs,
            rhs,
            overflow: Some(SiteId(0)),
            division: None,
        })
    }

    #[test]
    fn the_instance_index_becomes_a_constant_and_folds() {
        // (index + 1) % 5 for instance 4 is 0.
        let expr = Expr::Arith {
            op: ArithOp::Rem,
            lhs: add(Box::new(Expr::InstanceIndex), int(1)),
            rhs: int(5),
            overflow: Some(SiteId(0)),
            division: Some(SiteId(1)),
        };
        assert!(matches!(specialize(&expr, 4), Expr::Int(0)));
    }

    #[test]
    fn faulting_constants_are_kept_for_the_runtime() {
        let expr = Expr::Arith {
            op: ArithOp::Div,
            lhs: int(1),
            rhs: int(0),
            overflow: Some(SiteId(0)),
            division: Some(SiteId(1)),
        };
        assert!(matches!(specialize(&expr, 0), Expr::Arith { .. }));
    }

    #[test]
    fn quantifiers_unroll_and_drop_decided_terms() {
        // forall k in 0..3 : (k == index || a[k] < 2), for index 1
        let body = Expr::Or(
            Box::new(Expr::Cmp {
                op: CmpOp::Eq,
                lhs: Box::new(Expr::QuantVar(QuantVarId(7))),
                rhs: Box::new(Expr::InstanceIndex),
            }),
            Box::new(Expr::Cmp {
                op: CmpOp::Lt,
                lhs: Box::new(Expr::Element {
                    var: VarRef::Global(GlobalId(0)),
                    index: Box::new(Expr::QuantVar(QuantVarId(7))),
                    site: SiteId(0),
                }),
                rhs: int(2),
            }),
        );
        let quant = Expr::Quant {
            forall: true,
            var: QuantVarId(7),
            lo: 0,
            hi: 3,
            body: Box::new(body),
        };
        let Expr::And(first, second) = specialize(&quant, 1) else {
            panic!("expected a conjunction of two terms");
        };
        let index_of = |e: &Expr| match e {
            Expr::Cmp { lhs, .. } => match &**lhs {
                Expr::Element { index, .. } => index.constant(),
                _ => None,
            },
            _ => None,
        };
        assert_eq!((index_of(&first), index_of(&second)), (Some(0), Some(2)));
    }

    #[test]
    fn only_the_left_operand_short_circuits() {
        let faulty = || {
            Box::new(Expr::Arith {
                op: ArithOp::Div,
                lhs: int(1),
                rhs: int(0),
                overflow: Some(SiteId(0)),
                division: Some(SiteId(1)),
            })
        };
        let cmp = |e| {
            Box::new(Expr::Cmp {
                op: CmpOp::Eq,
                lhs: e,
                rhs: int(0),
            })
        };
        let kept = fold(Expr::And(cmp(faulty()), Box::new(Expr::Bool(false))));
        assert!(matches!(kept, Expr::And(..)));
        let dropped = fold(Expr::And(Box::new(Expr::Bool(false)), cmp(faulty())));
        assert!(matches!(dropped, Expr::Bool(false)));
    }
}
