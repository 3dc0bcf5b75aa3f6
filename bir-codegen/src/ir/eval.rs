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
            Expr::Read(var) => self.read(*var, 0)?,
            Expr::Element { var, index, site } => {
                let index = self.eval(index)?;
                let len = self.env.len(*var).ok_or(EvalError::NotConstant)?;
                if !(0..i64::from(len)).contains(&index) {
                    return Err(EvalError::Fault {
                        site: *site,
                        value: index,
                    });
                }
                self.read(*var, index as u32)?
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
                    .status(*thread, instance)
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

    fn read(&self, var: VarRef, element: u32) -> Result<i64, EvalError> {
        self.env.read(var, element).ok_or(EvalError::NotConstant)
    }
}

/// `lhs op rhs` on 64-bit values: overflow faults at `overflow`, a zero divisor at
/// `division`; `/` truncates toward zero and `%` takes the dividend's sign.
pub fn arith(
    op: ArithOp,
    lhs: i64,
    rhs: i64,
    overflow: SiteId,
    division: Option<SiteId>,
) -> Result<i64, EvalError> {
    if matches!(op, ArithOp::Div | ArithOp::Rem) && rhs == 0 {
        return Err(EvalError::Fault {
            site: division.unwrap_or(overflow),
            value: 0,
        });
    }
    let result = match op {
        ArithOp::Add => lhs.checked_add(rhs),
        ArithOp::Sub => lhs.checked_sub(rhs),
        ArithOp::Mul => lhs.checked_mul(rhs),
        ArithOp::Div => lhs.checked_div(rhs),
        ArithOp::Rem => lhs.checked_rem(rhs),
    };
    result.ok_or(EvalError::Fault {
        site: overflow,
        value: 0,
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
