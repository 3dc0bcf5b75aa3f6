//! Checked expressions written in Murphi: its operators, booleans kept apart from integers
//! as Murphi's types require, quantifiers as Murphi's.

use super::{Scope, Writer};
use crate::ir::{CmpOp, Expr, Id, Scalar, VarRef};

impl Writer<'_> {
    /// True when `expr` is a boolean (Murphi keeps booleans and integers apart).
    pub(super) fn is_bool(&self, expr: &Expr, scope: &Scope) -> bool {
        match expr {
            Expr::Bool(_)
            | Expr::Not(_)
            | Expr::Cmp { .. }
            | Expr::And(..)
            | Expr::Or(..)
            | Expr::At { .. }
            | Expr::Quant { .. } => true,
            Expr::Int(_)
            | Expr::Neg(..)
            | Expr::Arith { .. }
            | Expr::InstanceIndex
            | Expr::QuantVar(_) => false,
            Expr::Read(var) | Expr::Element { var, .. } => match (var, scope.thread) {
                (VarRef::Global(id), _) => self.system.globals[*id].ty.scalar == Scalar::Bool,
                (VarRef::Local(id), Some(thread)) => {
                    self.system.threads[thread].locals[*id].ty.scalar == Scalar::Bool
                }
                (VarRef::Local(_), None) => false,
            },
            Expr::Cond {
                then, otherwise, ..
            } => self.is_bool(then, scope) || self.is_bool(otherwise, scope),
        }
    }

    /// `expr` in Murphi; `boolean` when a boolean is wanted (constants folded to integers
    /// become `true`/`false` there).
    pub(super) fn expr(&self, expr: &Expr, scope: &Scope, boolean: bool) -> String {
        match expr {
            Expr::Bool(value) => value.to_string(),
            Expr::Int(value) if boolean => (*value != 0).to_string(),
            Expr::Int(value) if *value < 0 => format!("({value})"),
            Expr::Int(value) => value.to_string(),
            Expr::Read(var) => self.var_ref(*var, None, scope),
            Expr::Element { var, index, .. } => self.var_ref(*var, Some(index), scope),
            Expr::InstanceIndex => scope.inst.into(),
            Expr::QuantVar(id) => scope.quant(*id),
            Expr::Not(inner) => format!("!({})", self.expr(inner, scope, true)),
            Expr::Neg(inner, _) => format!("(-({}))", self.expr(inner, scope, false)),
            Expr::Arith { op, lhs, rhs, .. } => {
                let op = op.symbol();
                format!(
                    "({} {op} {})",
                    self.expr(lhs, scope, false),
                    self.expr(rhs, scope, false)
                )
            }
            Expr::Cmp { op, lhs, rhs } => {
                let operands_bool = self.is_bool(lhs, scope) || self.is_bool(rhs, scope);
                // Murphi writes equality `=`, and the others as BIR does.
                let op = match op {
                    CmpOp::Eq => "=",
                    op => op.symbol(),
                };
                format!(
                    "({} {op} {})",
                    self.expr(lhs, scope, operands_bool),
                    self.expr(rhs, scope, operands_bool)
                )
            }
            Expr::And(lhs, rhs) => format!(
                "({} & {})",
                self.expr(lhs, scope, true),
                self.expr(rhs, scope, true)
            ),
            Expr::Or(lhs, rhs) => format!(
                "({} | {})",
                self.expr(lhs, scope, true),
                self.expr(rhs, scope, true)
            ),
            Expr::Cond {
                cond,
                then,
                otherwise,
            } => {
                let branches_bool =
                    boolean || self.is_bool(then, scope) || self.is_bool(otherwise, scope);
                format!(
                    "({} ? {} : {})",
                    self.expr(cond, scope, true),
                    self.expr(then, scope, branches_bool),
                    self.expr(otherwise, scope, branches_bool)
                )
            }
            Expr::At {
                thread,
                instance,
                location,
            } => {
                let index = instance
                    .as_ref()
                    .map_or_else(|| "0".into(), |(i, _)| self.expr(i, scope, false));
                let status = scope.var(self.status(*thread));
                format!("({status}[{index}] = {})", location.index())
            }
            Expr::Quant {
                forall,
                var,
                lo,
                hi,
                body,
            } => {
                if lo >= hi {
                    // An empty range: `forall` holds, `exists` fails.
                    return forall.to_string();
                }
                let (open, close) = if *forall {
                    ("forall", "endforall")
                } else {
                    ("exists", "endexists")
                };
                format!(
                    "({open} {}: {lo}..{} do {} {close})",
                    scope.quant(*var),
                    hi - 1,
                    self.expr(body, scope, true)
                )
            }
        }
    }
}
