//! Value ranges of integer expressions, computed at compile time so that generated code
//! checks only what can actually fail: arithmetic that can overflow 64 bits, divisors that
//! can be zero, indices and written values that can leave their bounds.
//!
//! [`Domains`] holds the range of every variable and of every thread's instance index;
//! [`Ranges`] bounds the value of any expression evaluated by one thread (or by an
//! invariant) from them, by interval arithmetic.

use crate::ir::{ArithOp, Expr, GlobalId, IdVec, LocalId, QuantVarId, System, ThreadId, VarRef};

/// A closed range of values, in 128 bits so that sums and products of 64-bit ranges fit.
pub type Interval = (i128, i128);

/// Every value an `i64` can take.
const ANY: Interval = (i64::MIN as i128, i64::MAX as i128);

/// The range of every variable of a system, and of each thread's instance index.
#[derive(Clone, Debug)]
pub struct Domains {
    globals: IdVec<GlobalId, Interval>,
    threads: IdVec<ThreadId, ThreadDomains>,
}

/// The ranges seen by one thread.
#[derive(Clone, Debug)]
struct ThreadDomains {
    locals: IdVec<LocalId, Interval>,
    /// The range of the instance index (its parameter, for an active thread).
    index: Interval,
}

impl Domains {
    /// The declared domains of `system`'s variables.
    pub fn new(system: &System) -> Domains {
        let domain = |var: &crate::ir::Var| {
            let (lo, hi) = var.ty.scalar.bounds(&system.enums);
            (i128::from(lo), i128::from(hi))
        };
        Domains {
            globals: system.globals.iter().map(domain).collect(),
            threads: system
                .threads
                .iter()
                .map(|thread| ThreadDomains {
                    locals: thread.locals.iter().map(domain).collect(),
                    index: (0, i128::from(thread.instances()) - 1),
                })
                .collect(),
        }
    }
}

/// Computes ranges of expressions of one thread (or of invariants).
pub struct Ranges<'a> {
    domains: &'a Domains,
    thread: Option<ThreadId>,
    quant: Vec<(QuantVarId, Interval)>,
}

impl<'a> Ranges<'a> {
    /// Ranges of expressions evaluated by `thread` (`None` for invariants).
    pub fn new(domains: &'a Domains, thread: Option<ThreadId>) -> Self {
        Ranges {
            domains,
            thread,
            quant: Vec::new(),
        }
    }

    /// Enters the scope of a quantified variable ranging over `lo..hi`.
    pub fn push_quant(&mut self, var: QuantVarId, lo: i64, hi: i64) {
        self.quant.push((var, (i128::from(lo), i128::from(hi) - 1)));
    }

    /// Leaves the innermost quantifier.
    pub fn pop_quant(&mut self) {
        self.quant.pop();
    }

    /// A range containing every value `expr` can take (booleans are 0..=1).
    pub fn of(&mut self, expr: &Expr) -> Interval {
        match expr {
            Expr::Int(value) => (i128::from(*value), i128::from(*value)),
            Expr::Read(var) | Expr::Element { var, .. } => self.var(*var),
            Expr::InstanceIndex => self
                .thread
                .map_or((0, 0), |t| self.domains.threads[t].index),
            Expr::QuantVar(id) => self
                .quant
                .iter()
                .rev()
                .find(|(var, _)| var == id)
                .map_or(ANY, |(_, range)| *range),
            Expr::Neg(inner, _) => {
                // Saturating like the other operations: a product of wide ranges saturates
                // to i128::MIN, whose negation overflows.
                let (lo, hi) = self.of(inner);
                (hi.saturating_neg(), lo.saturating_neg())
            }
            Expr::Arith { op, lhs, rhs, .. } => {
                let l = self.of(lhs);
                let r = self.of(rhs);
                arith(*op, l, r)
            }
            Expr::Cond {
                then, otherwise, ..
            } => {
                let a = self.of(then);
                let b = self.of(otherwise);
                (a.0.min(b.0), a.1.max(b.1))
            }
            Expr::Bool(_)
            | Expr::Not(_)
            | Expr::Cmp { .. }
            | Expr::And(..)
            | Expr::Or(..)
            | Expr::At { .. }
            | Expr::Quant { .. } => (0, 1),
        }
    }

    fn var(&self, var: VarRef) -> Interval {
        match (var, self.thread) {
            (VarRef::Global(id), _) => self.domains.globals[id],
            (VarRef::Local(id), Some(thread)) => self.domains.threads[thread].locals[id],
            (VarRef::Local(_), None) => ANY,
        }
    }
}

/// True when every value of `range` is a valid `i64`.
pub fn fits_i64(range: Interval) -> bool {
    range.0 >= i128::from(i64::MIN) && range.1 <= i128::from(i64::MAX)
}

/// True when `range` lies within `lo..=hi`.
pub fn within(range: Interval, lo: i64, hi: i64) -> bool {
    range.0 >= i128::from(lo) && range.1 <= i128::from(hi)
}

/// A range containing every value of `x op y` for `x` in the first range and `y` in the
/// second (for `/` and `%`, every nonzero `y`: a zero divisor has no value).
pub fn arith(op: ArithOp, (a, b): Interval, (c, d): Interval) -> Interval {
    match op {
        ArithOp::Add => (a.saturating_add(c), b.saturating_add(d)),
        ArithOp::Sub => (a.saturating_sub(d), b.saturating_sub(c)),
        ArithOp::Mul => {
            let corners = [
                a.saturating_mul(c),
                a.saturating_mul(d),
                b.saturating_mul(c),
                b.saturating_mul(d),
            ];
            let lo = corners.iter().copied().min().unwrap_or(0);
            let hi = corners.iter().copied().max().unwrap_or(0);
            (lo, hi)
        }
        // Truncating toward zero, x / y lies between 0 and x / y' where y' is the divisor of
        // least magnitude with y's sign: 1 or c for positive divisors, -1 or d for negative
        // ones (0 has no quotient). Each sign of divisor gives a range; the result is their
        // union.
        ArithOp::Div => {
            let positive = (d >= 1).then(|| {
                let least = c.max(1);
                (0.min(a / least), 0.max(b / least))
            });
            let negative = (c <= -1).then(|| {
                let least = d.min(-1).saturating_neg();
                (
                    0.min((b / least).saturating_neg()),
                    0.max((a / least).saturating_neg()),
                )
            });
            match (positive, negative) {
                (Some(p), Some(n)) => (p.0.min(n.0), p.1.max(n.1)),
                (Some(range), None) | (None, Some(range)) => range,
                // Only a zero divisor: no value.
                (None, None) => (0, 0),
            }
        }
        // |x % y| < |y|, and the result takes the sign of x.
        ArithOp::Rem => {
            let m = c.saturating_abs().max(d.saturating_abs()).saturating_sub(1);
            let lo = if a < 0 { -m.min(a.saturating_abs()) } else { 0 };
            let hi = if b > 0 { m.min(b) } else { 0 };
            (lo, hi)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_ranges_are_conservative() {
        assert_eq!(arith(ArithOp::Add, (0, 3), (1, 1)), (1, 4));
        assert_eq!(arith(ArithOp::Sub, (0, 3), (1, 2)), (-2, 2));
        assert_eq!(arith(ArithOp::Mul, (-2, 3), (-5, 4)), (-15, 12));
        assert_eq!(arith(ArithOp::Div, (-7, 3), (1, 2)), (-7, 3));
        assert_eq!(arith(ArithOp::Div, (-7, 3), (2, 4)), (-3, 1));
        assert_eq!(arith(ArithOp::Div, (-7, 3), (-2, -1)), (-3, 7));
        assert_eq!(arith(ArithOp::Div, (-7, 3), (-3, 3)), (-7, 7));
        assert_eq!(arith(ArithOp::Div, (5, 9), (0, 3)), (0, 9));
        assert_eq!(arith(ArithOp::Div, (5, 9), (0, 0)), (0, 0));
        assert_eq!(arith(ArithOp::Rem, (0, 100), (5, 5)), (0, 4));
        assert_eq!(arith(ArithOp::Rem, (-3, 100), (-5, 5)), (-3, 4));
        // Saturated bounds (products of wide ranges) neither overflow nor shrink.
        let all = (i128::MIN, i128::MAX);
        assert_eq!(arith(ArithOp::Div, all, (1, 2)), all);
        assert_eq!(arith(ArithOp::Div, all, all), all);
        // i64::MIN / -1 leaves 64 bits, by a positive divisor it cannot.
        let long = (i128::from(i64::MIN), i128::from(i64::MAX));
        assert!(!fits_i64(arith(ArithOp::Div, long, (-1, -1))));
        assert!(fits_i64(arith(ArithOp::Div, long, (0, 5))));
        assert_eq!(
            arith(ArithOp::Rem, all, all),
            (-(i128::MAX - 1), i128::MAX - 1)
        );
        let int = (i128::from(i32::MIN), i128::from(i32::MAX));
        assert!(fits_i64(arith(ArithOp::Mul, int, int)));
        assert!(!fits_i64(arith(
            ArithOp::Mul,
            arith(ArithOp::Mul, int, int),
            int
        )));
    }
}
