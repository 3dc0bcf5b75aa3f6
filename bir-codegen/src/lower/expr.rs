//! Checked expressions, already specialised to their instance ([`rewrite`](super::rewrite)),
//! as lowered [`Expr`]s: booleans as booleans and everything else as integers, with a
//! conversion where the IR uses one as the other, and a run-time check only where the
//! value ranges show that the operation can fail.

use super::simplify::{self, and, from_bool, non_zero, not, or};
use super::{Check, Expr, Index};
use crate::analyse::interval::{arith, fits_i64, within, Ranges};
use crate::ir::{self, ArithOp, CmpOp, InstanceId, Owner, Scalar, SiteId, ThreadId, VarRef};

/// Lowers the expressions of one instance (or of the invariants).
pub(super) struct ExprLowerer<'a> {
    pub system: &'a ir::System,
    /// The executing thread and instance (`None` for invariants).
    pub instance: Option<(ThreadId, InstanceId)>,
    /// The value ranges of its expressions.
    pub ranges: Ranges<'a>,
}

impl ExprLowerer<'_> {
    /// `expr` as a boolean.
    pub fn boolean(&mut self, expr: &ir::Expr) -> Expr {
        match expr {
            ir::Expr::Bool(value) => Expr::Bool(*value),
            ir::Expr::Not(inner) => not(self.boolean(inner)),
            ir::Expr::And(lhs, rhs) => {
                let lhs = self.boolean(lhs);
                and(lhs, self.boolean(rhs))
            }
            ir::Expr::Or(lhs, rhs) => {
                let lhs = self.boolean(lhs);
                or(lhs, self.boolean(rhs))
            }
            ir::Expr::Cmp { op, lhs, rhs } => {
                let lhs = self.int(lhs);
                simplify::compare(*op, lhs, self.int(rhs))
            }
            ir::Expr::Cond {
                cond,
                then,
                otherwise,
            } => {
                let cond = self.boolean(cond);
                let then = self.boolean(then);
                simplify::cond(cond, then, self.boolean(otherwise))
            }
            ir::Expr::At {
                thread,
                instance,
                location,
            } => {
                let target = &self.system.threads[*thread];
                let status = |instance| Owner::Status {
                    thread: *thread,
                    instance,
                };
                let status = match instance {
                    None => Expr::Get(status(target.first_instance)),
                    Some((index, site)) => {
                        let count = target.instances();
                        match index.constant() {
                            Some(i) if (0..i64::from(count)).contains(&i) => {
                                Expr::Get(status(target.instance_id(i as u32)))
                            }
                            _ => {
                                let range = self.ranges.of(index);
                                let within = within(range, 0, i64::from(count) - 1);
                                Expr::InstanceStatus {
                                    index: Box::new(self.int(index)),
                                    instances: target.instance_ids().map(status).collect(),
                                    site: (!within).then_some(*site),
                                }
                            }
                        }
                    }
                };
                // Rule: an instance is at a location when its status is that location's
                // index (a running instance; "ended" and "not started" are not locations).
                simplify::compare(CmpOp::Eq, status, Expr::Int(i64::from(location.0)))
            }
            ir::Expr::Quant {
                forall,
                var,
                lo,
                hi,
                body,
            } => {
                self.ranges.push_quant(*var, *lo, *hi);
                let body = self.boolean(body);
                self.ranges.pop_quant();
                let stop = if *forall { not(body) } else { body };
                Expr::Quant {
                    forall: *forall,
                    var: *var,
                    lo: *lo,
                    hi: *hi,
                    stop: Box::new(stop),
                }
            }
            ir::Expr::Int(_)
            | ir::Expr::Read(_)
            | ir::Expr::Element { .. }
            | ir::Expr::InstanceIndex
            | ir::Expr::QuantVar(_)
            | ir::Expr::Neg(..)
            | ir::Expr::Arith { .. } => non_zero(self.int(expr)),
        }
    }

    /// `expr` as an integer (booleans as 0/1).
    pub fn int(&mut self, expr: &ir::Expr) -> Expr {
        match expr {
            ir::Expr::Int(value) => Expr::Int(*value),
            ir::Expr::InstanceIndex => Expr::Int(self.instance_index()),
            ir::Expr::QuantVar(var) => Expr::QuantVar(*var),
            ir::Expr::Read(var) => Expr::Get(self.owner(*var)),
            ir::Expr::Element { var, index, site } => {
                let len = self.len(*var);
                let index = self.index(index, len, *site);
                Expr::Element(self.owner(*var), index)
            }
            ir::Expr::Neg(inner, site) => {
                let range = self.ranges.of(expr);
                let inner = self.int(inner);
                let check = (!fits_i64(range)).then_some(*site);
                match (inner, check) {
                    // A negative literal is a literal.
                    (Expr::Int(value), None) => Expr::Int(-value),
                    (inner, check) => Expr::Neg(Box::new(inner), check),
                }
            }
            ir::Expr::Arith {
                op,
                lhs,
                rhs,
                overflow,
                division,
            } => {
                let check = self.arith_check(*op, lhs, rhs, *overflow, *division);
                let lhs = self.int(lhs);
                simplify::arith(*op, lhs, self.int(rhs), check)
            }
            ir::Expr::Cond {
                cond,
                then,
                otherwise,
            } => {
                let cond = self.boolean(cond);
                let then = self.int(then);
                simplify::cond(cond, then, self.int(otherwise))
            }
            ir::Expr::Bool(_)
            | ir::Expr::Not(_)
            | ir::Expr::Cmp { .. }
            | ir::Expr::And(..)
            | ir::Expr::Or(..)
            | ir::Expr::At { .. }
            | ir::Expr::Quant { .. } => from_bool(self.boolean(expr)),
        }
    }

    /// What `lhs op rhs` must check, from its operands' ranges: a zero divisor only if the
    /// divisor's range holds 0, a result outside 64 bits only if the result's range leaves
    /// them (never for `%`, which always fits).
    fn arith_check(
        &mut self,
        op: ArithOp,
        lhs: &ir::Expr,
        rhs: &ir::Expr,
        overflow: Option<SiteId>,
        division: Option<SiteId>,
    ) -> Check {
        let (l, r) = (self.ranges.of(lhs), self.ranges.of(rhs));
        let zero = if matches!(op, ArithOp::Div | ArithOp::Rem) && r.0 <= 0 && r.1 >= 0 {
            division
        } else {
            None
        };
        let overflow = if op != ArithOp::Rem && !fits_i64(arith(op, l, r)) {
            overflow
        } else {
            None
        };
        let min = i128::from(i64::MIN);
        let min_rem_minus_one =
            op == ArithOp::Rem && l.0 <= min && min <= l.1 && r.0 <= -1 && -1 <= r.1;
        match (zero, overflow) {
            (None, None) if min_rem_minus_one => Check::WrappingRem,
            (None, None) => Check::Plain,
            (zero, overflow) => Check::Sites { zero, overflow },
        }
    }

    /// An index into an array of `len` elements, checked unless its range lies within.
    pub fn index(&mut self, index: &ir::Expr, len: u32, site: SiteId) -> Index {
        if let Some(i) = index.constant() {
            if (0..i64::from(len)).contains(&i) {
                return Index::Const(i as usize);
            }
        }
        let range = self.ranges.of(index);
        let value = Box::new(self.int(index));
        if within(range, 0, i64::from(len) - 1) {
            Index::Unchecked(value)
        } else {
            Index::Checked { value, len, site }
        }
    }

    /// The stored value of a variable as seen by this instance.
    pub fn owner(&self, var: VarRef) -> Owner {
        match var {
            VarRef::Global(id) => Owner::Global(id),
            VarRef::Local(local) => {
                let (thread, instance) = self.executing();
                Owner::Local {
                    thread,
                    instance,
                    local,
                }
            }
        }
    }

    /// The domain of a variable.
    pub fn scalar(&self, var: VarRef) -> Scalar {
        self.declaration(var).ty.scalar
    }

    /// The length of an array variable.
    pub fn len(&self, var: VarRef) -> u32 {
        self.declaration(var).ty.elements()
    }

    fn declaration(&self, var: VarRef) -> &ir::Var {
        match var {
            VarRef::Global(id) => &self.system.globals[id],
            VarRef::Local(id) => &self.system.threads[self.executing().0].locals[id],
        }
    }

    /// The executing instance. Only threads read locals and their index: the checker lets
    /// an invariant read globals, constants and `T@loc` only.
    fn executing(&self) -> (ThreadId, InstanceId) {
        self.instance
            .expect("the checker lets no invariant read a local or an instance index")
    }

    fn instance_index(&self) -> i64 {
        let (thread, instance) = self.executing();
        i64::from(self.system.threads[thread].index_of(instance))
    }
}
