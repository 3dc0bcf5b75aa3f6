//! Evaluation of checked expressions by their definition: 64-bit checked arithmetic,
//! short-circuit `&&`/`||`/`?:`/quantifiers, every index checked. The checker folds
//! constants with it, and the reference interpreter evaluates guards and actions with it,
//! so it favours plainness over speed.

use super::{ArithOp, CmpOp, Expr, QuantVarId, SiteId, ThreadId, VarRef};

/// Where the values of variables (and the shapes of arrays and threads) come from.
pub trait Env {
    /// The length of array `var` (1 for a scalar).
    fn len(&self, var: VarRef) -> Option<u32>;
    /// The number of instances of `thread`.
    fn instances(&self, thread: ThreadId) -> Option<u32>;
    /// The value of element `element` of `var` (0 for a scalar), or `None` when variables
    /// cannot be read here (constant expressions).
    fn read(&self, var: VarRef, element: u32) -> Option<i64>;
    /// The status of instance `instance` of `thread` (see `ir::Thread::ended_status`).
    fn status(&self, thread: ThreadId, instance: u32) -> Option<i64>;
    /// The executing instance's index (the parameter of an active thread).
    fn instance_index(&self) -> Option<i64>;

    /// Called where a read of a variable or a status starts in the source, before its index
    /// (if any) is evaluated; what it returns is passed to [`Env::read_at`] or
    /// [`Env::status_at`] for that read. Environments that record what an expression reads
    /// (a failing check's operands) return their position; the default does nothing.
    fn mark(&self) -> usize {
        0
    }

    /// [`Env::read`], for a read that started at `mark`.
    fn read_at(&self, mark: usize, var: VarRef, element: u32) -> Option<i64> {
        let _ = mark;
        self.read(var, element)
    }

    /// [`Env::status`], for a read that started at `mark`.
    fn status_at(&self, mark: usize, thread: ThreadId, instance: u32) -> Option<i64> {
        let _ = mark;
        self.status(thread, instance)
    }
}

/// Why an expression has no value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvalError {
    /// A runtime fault at a site, with the offending value.
    Fault {
        /// The fault site.
        site: SiteId,
        /// The offending value (index, divisor...), 0 if none.
        value: i64,
    },
    /// The expression reads state where no state is available.
    NotConstant,
}

/// An environment without state, for constant expressions.
pub struct NoState;

impl Env for NoState {
    fn len(&self, _: VarRef) -> Option<u32> {
        None
    }
    fn instances(&self, _: ThreadId) -> Option<u32> {
        None
    }
    fn read(&self, _: VarRef, _: u32) -> Option<i64> {
        None
    }
    fn status(&self, _: ThreadId, _: u32) -> Option<i64> {
        None
    }
    fn instance_index(&self) -> Option<i64> {
        None
    }
}

/// Evaluates expressions against an environment.
pub struct Evaluator<'a, E> {
    env: &'a E,
    quant: Vec<(QuantVarId, i64)>,
}

impl<'a, E: Env> Evaluator<'a, E> {
    /// An evaluator reading `env`.
    pub fn new(env: &'a E) -> Self {
        Evaluator {
            env,
            quant: Vec::new(),
        }
    }

    /// The value of `expr` (booleans as 0/1).
    pub fn eval(&mut self, expr: &Expr) -> Result<i64, EvalError> {
        Ok(match expr {
            Expr::Bool(value) => i64::from(*value),
            Expr::Int(value) => *value,
            Expr::Read(var) => {
                let mark = self.env.mark();
                self.read(mark, *var, 0)?
            }
            Expr::Element { var, index, site } => {
                let mark = self.env.mark();
                let index = self.eval(index)?;
                let len = self.env.len(*var).ok_or(EvalError::NotConstant)?;
                if !(0..i64::from(len)).contains(&index) {
                    return Err(EvalError::Fault {
                        site: *site,
                        value: index,
                    });
                }
                self.read(mark, *var, index as u32)?
            }
            Expr::InstanceIndex => self.env.instance_index().ok_or(EvalError::NotConstant)?,
            Expr::QuantVar(id) => self
                .quant
                .iter()
                .rev()
                .find(|(var, _)| var == id)
                .map(|(_, value)| *value)
                .ok_or(EvalError::NotConstant)?,
            Expr::Not(inner) => i64::from(self.eval(inner)? == 0),
            Expr::Neg(inner, site) => self.eval(inner)?.checked_neg().ok_or(EvalError::Fault {
                site: *site,
                value: 0,
            })?,
            Expr::Arith {
                op,
                lhs,
                rhs,
                overflow,
                division,
            } => {
                let lhs = self.eval(lhs)?;
                let rhs = self.eval(rhs)?;
                arith(*op, lhs, rhs, *overflow, *division)?
            }
            Expr::Cmp { op, lhs, rhs } => {
                let lhs = self.eval(lhs)?;
                let rhs = self.eval(rhs)?;
                i64::from(compare(*op, lhs, rhs))
            }
            Expr::And(lhs, rhs) => i64::from(self.eval(lhs)? != 0 && self.eval(rhs)? != 0),
            Expr::Or(lhs, rhs) => i64::from(self.eval(lhs)? != 0 || self.eval(rhs)? != 0),
            Expr::Cond {
                cond,
                then,
                otherwise,
            } => {
                if self.eval(cond)? != 0 {
                    self.eval(then)?
                } else {
                    self.eval(otherwise)?
                }
            }
            Expr::At {
                thread,
                instance,
                location,
            } => {
                let mark = self.env.mark();
                let instance = match instance {
                    Some((index, site)) => {
                        let index = self.eval(index)?;
                        let count = self.env.instances(*thread).ok_or(EvalError::NotConstant)?;
                        if !(0..i64::from(count)).contains(&index) {
                            return Err(EvalError::Fault {
                                site: *site,
                                value: index,
                            });
                        }
                        index as u32
                    }
                    None => 0,
                };
                let status = self
                    .env
                    .status_at(mark, *thread, instance)
                    .ok_or(EvalError::NotConstant)?;
                i64::from(status == i64::from(location.0))
            }
            Expr::Quant {
                forall,
                var,
                lo,
                hi,
                body,
            } => {
                let mut result = *forall;
                for value in *lo..*hi {
                    self.quant.push((*var, value));
                    let holds = self.eval(body);
                    self.quant.pop();
                    if (holds? != 0) != *forall {
                        result = !*forall;
                        break;
                    }
                }
                i64::from(result)
            }
        })
    }

    fn read(&self, mark: usize, var: VarRef, element: u32) -> Result<i64, EvalError> {
        self.env
            .read_at(mark, var, element)
            .ok_or(EvalError::NotConstant)
    }
}

/// Why an arithmetic operation has no value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArithError {
    /// `/` or `%` by zero: a division error.
    DivisionByZero,
    /// The result does not fit in 64 bits: a range error.
    Overflow,
}

/// `lhs op rhs` on 64-bit values, by LANGUAGE.md: the mathematical result when it fits in
/// 64 bits; `/` truncates toward zero and `%` takes the dividend's sign, so `%` always fits
/// (`i64::MIN % -1` is 0) and `/` does but for `i64::MIN / -1`.
pub fn arith_value(op: ArithOp, lhs: i64, rhs: i64) -> Result<i64, ArithError> {
    if matches!(op, ArithOp::Div | ArithOp::Rem) && rhs == 0 {
        return Err(ArithError::DivisionByZero);
    }
    let result = match op {
        ArithOp::Add => lhs.checked_add(rhs),
        ArithOp::Sub => lhs.checked_sub(rhs),
        ArithOp::Mul => lhs.checked_mul(rhs),
        ArithOp::Div => lhs.checked_div(rhs),
        // Only `i64::MIN % -1` overflows Rust's `%`; its mathematical value is 0.
        ArithOp::Rem => Some(lhs.wrapping_rem(rhs)),
    };
    result.ok_or(ArithError::Overflow)
}

/// [`arith_value`], its failure a fault at the operation's site: `overflow` for a result
/// that does not fit, `division` for a zero divisor. The checker gives every `/` and `%` a
/// division site and every operator but `%` an overflow site.
pub fn arith(
    op: ArithOp,
    lhs: i64,
    rhs: i64,
    overflow: Option<SiteId>,
    division: Option<SiteId>,
) -> Result<i64, EvalError> {
    arith_value(op, lhs, rhs).map_err(|error| {
        let site = match error {
            ArithError::DivisionByZero => division,
            ArithError::Overflow => overflow,
        };
        EvalError::Fault {
            site: site.expect("the checker gives every operation that can fail its sites"),
            value: 0,
        }
    })
}

/// `lhs op rhs`.
pub fn compare(op: CmpOp, lhs: i64, rhs: i64) -> bool {
    match op {
        CmpOp::Eq => lhs == rhs,
        CmpOp::Ne => lhs != rhs,
        CmpOp::Lt => lhs < rhs,
        CmpOp::Le => lhs <= rhs,
        CmpOp::Gt => lhs > rhs,
        CmpOp::Ge => lhs >= rhs,
    }
}

/// The value a write of `value` stores in a wrapping range `lo..=hi`.
pub fn wrap(value: i64, lo: i64, hi: i64) -> i64 {
    let modulus = i128::from(hi) - i128::from(lo) + 1;
    let offset = (i128::from(value) - i128::from(lo)).rem_euclid(modulus);
    (i128::from(lo) + offset) as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn division_and_remainder_give_the_mathematical_result_when_it_fits() {
        use ArithOp::{Div, Rem};
        assert_eq!(arith_value(Rem, i64::MIN, -1), Ok(0));
        assert_eq!(arith_value(Rem, -7, 2), Ok(-1));
        assert_eq!(arith_value(Rem, 7, -2), Ok(1));
        assert_eq!(arith_value(Div, -7, 2), Ok(-3));
        assert_eq!(arith_value(Div, i64::MIN, 1), Ok(i64::MIN));
        assert_eq!(arith_value(Div, i64::MIN, -1), Err(ArithError::Overflow));
        assert_eq!(arith_value(Rem, 1, 0), Err(ArithError::DivisionByZero));
        assert_eq!(arith_value(Div, 1, 0), Err(ArithError::DivisionByZero));
        // Each failure at its site.
        let (overflow, division) = (Some(SiteId(1)), Some(SiteId(2)));
        let fault = |site| Err(EvalError::Fault { site, value: 0 });
        assert_eq!(
            arith(Div, i64::MIN, -1, overflow, division),
            fault(SiteId(1))
        );
        assert_eq!(arith(Rem, i64::MIN, 0, None, division), fault(SiteId(2)));
        assert_eq!(arith(Rem, i64::MIN, -1, None, division), Ok(0));
    }

    #[test]
    fn sums_and_products_fail_only_past_64_bits() {
        let site = Some(SiteId(0));
        assert_eq!(arith(ArithOp::Mul, 1 << 62, 2, site, None).ok(), None);
        assert_eq!(arith(ArithOp::Mul, -(1 << 62), 2, site, None), Ok(i64::MIN));
        assert_eq!(arith(ArithOp::Sub, i64::MIN, 1, site, None).ok(), None);
        assert_eq!(
            arith(ArithOp::Add, i64::MAX, -1, site, None),
            Ok(i64::MAX - 1)
        );
    }
}
