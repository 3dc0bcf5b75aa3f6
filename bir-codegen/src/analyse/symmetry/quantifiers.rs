//! The quantifiers met in the walk, and whether an expression may fault: a quantifier over
//! a family's instances whose body may fault keeps the family unpermuted, since the order
//! of evaluation would decide which instance faults first.

use super::constant;
use crate::ir::{self, ArithOp, Expr, QuantVarId, VarRef};

/// A quantifier met in the walk.
pub(super) struct Quantifier {
    /// Its variable's node.
    pub(super) node: usize,
    /// `lo .. hi`.
    pub(super) range: (i64, i64),
    /// Its body may fault.
    pub(super) may_fault: bool,
    /// Where it is.
    pub(super) place: String,
}

/// Whether evaluating `expr` may fault (conservatively): an index not known to be in
/// bounds, a division, a multiplication (which may overflow), a negation. `ranges` holds
/// the range of each enclosing quantifier's variable, and `instances` the number of
/// instances of the thread whose `index` the expression may read.
pub(super) fn may_fault(
    system: &ir::System,
    expr: &Expr,
    ranges: &mut Vec<(QuantVarId, i64, i64)>,
    instances: u32,
) -> bool {
    let in_bounds = |index: &Expr, len: u32, ranges: &[(QuantVarId, i64, i64)]| {
        let len = i64::from(len);
        match index {
            Expr::Int(value) => (0..len).contains(value),
            Expr::InstanceIndex => i64::from(instances) <= len,
            Expr::QuantVar(var) => ranges
                .iter()
                .rev()
                .find(|(v, ..)| v == var)
                .is_some_and(|&(_, lo, hi)| lo >= 0 && hi <= len),
            _ => false,
        }
    };
    let this = match expr {
        Expr::Element { var, index, .. } => {
            let len = match var {
                VarRef::Global(id) => system.globals[*id].ty.elements(),
                VarRef::Local(_) => 0,
            };
            !in_bounds(index, len, ranges)
        }
        Expr::At {
            thread,
            instance: Some((index, _)),
            ..
        } => !in_bounds(index, system.threads[*thread].instances(), ranges),
        Expr::Arith { op, .. } => matches!(op, ArithOp::Div | ArithOp::Rem | ArithOp::Mul),
        // A negated constant (`-1`, which the IR keeps as a negation) cannot overflow.
        Expr::Neg(..) => constant(expr).is_none_or(|value| i32::try_from(value).is_err()),
        _ => false,
    };
    if this {
        return true;
    }
    if let Expr::Quant {
        var, lo, hi, body, ..
    } = expr
    {
        ranges.push((*var, *lo, *hi));
        let faults = may_fault(system, body, ranges, instances);
        ranges.pop();
        return faults;
    }
    expr.children()
        .any(|child| may_fault(system, child, ranges, instances))
}
