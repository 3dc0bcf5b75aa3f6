//! `fun` (LANGUAGE.md, "Functions"): a pure function of its parameters, constants,
//! globals, `T@loc`, `len/empty/full` and fields, usable in any expression, properties
//! included. Its body is checked once, its parameters bound as variables of their types;
//! each call is the body with every parameter replaced by its argument converted to the
//! parameter's type (a range error, or wrapped for a `wrap` type), the result converted to
//! the result type, and the arguments' conversions evaluated first, left to right, so that
//! their faults come before the body's, in the spec's order. No new construct reaches the
//! later stages: a call is an expression of version 1.

use super::expr::{scalar_kind, Scope};
use super::{Checker, Kind, Lazy, Symbol};
use crate::front::ast::{self, Name, Spans};
use crate::ir::{self, ArithOp, CmpOp, Expr, FaultKind, Scalar};

/// A checked `fun`: its parameters (the variables its body reads them as, and their
/// types), its result type, and its body.
#[derive(Clone, Debug)]
pub(super) struct CheckedFun {
    params: Vec<(ir::QuantVarId, Scalar)>,
    returns: Scalar,
    body: Expr,
}

impl Checker<'_> {
    /// The call `f(args)` in an expression: of a `fun`, its value; a `function` there is an
    /// error.
    pub(super) fn fun_call(
        &mut self,
        function: &Name,
        args: &[ast::Expr],
        spans: Spans,
        scope: &mut Scope,
    ) -> (Expr, Kind) {
        let Some(Symbol::Fun(index)) = self.symbols.get(&function.text).copied() else {
            self.call_in_expression(function, spans);
            return (Expr::Bool(false), Kind::Error);
        };
        let mut checked = Vec::new();
        for arg in args {
            checked.push(self.expr(arg, scope));
        }
        let Some(fun) = self.checked_fun(index) else {
            return (Expr::Bool(false), Kind::Error);
        };
        let decl = self.fun_decls[index];
        if args.len() != fun.params.len() {
            let plural = if fun.params.len() == 1 { "" } else { "s" };
            self.diags.error(
                spans,
                format!(
                    "`{}` takes {} argument{plural}, but this call passes {}",
                    function.text,
                    fun.params.len(),
                    args.len()
                ),
            );
            return (Expr::Bool(false), Kind::Error);
        }
        let call = format!("{function}(..)", function = function.text);
        let mut conversions = Vec::new();
        let mut bindings = Vec::new();
        for (((value, kind), arg), (&(var, scalar), param)) in checked
            .into_iter()
            .zip(args)
            .zip(fun.params.iter().zip(&decl.params))
        {
            if !self.assignable(scalar, kind) {
                self.diags.error(
                    arg.spans(),
                    format!(
                        "mismatched types: parameter `{}` of `{}` is {}, not {}",
                        param.name.text,
                        function.text,
                        self.scalar_name(scalar),
                        self.kind_name(kind)
                    ),
                );
                return (Expr::Bool(false), Kind::Error);
            }
            let message = format!(
                "`{call}` passes a value outside `{}`'s type {}",
                param.name.text,
                self.scalar_name(scalar)
            );
            let site = self.site(FaultKind::Range, message, spans.first, arg.spans());
            let converted = convert(value, scalar, site);
            conversions.push(converted.clone());
            bindings.push((var, converted));
        }
        let message = format!(
            "`{call}` returns a value outside its type {}",
            self.scalar_name(fun.returns)
        );
        let site = self.site(FaultKind::Range, message, spans.first, spans);
        let mut body = fun.body.clone();
        substitute(&mut body, &bindings);
        let result = convert(body, fun.returns, site);
        let kind = scalar_kind(fun.returns);
        // The arguments' conversions first, left to right (`c == c` holds unless it faults).
        let first = conversions
            .into_iter()
            .map(|c| Expr::Cmp {
                op: CmpOp::Eq,
                lhs: Box::new(c.clone()),
                rhs: Box::new(c),
            })
            .reduce(|a, b| Expr::And(Box::new(a), Box::new(b)));
        let expr = match (first, kind) {
            (None, _) => result,
            (Some(first), Kind::Bool) => Expr::And(Box::new(first), Box::new(result)),
            (Some(first), _) => Expr::Cond {
                cond: Box::new(first),
                then: Box::new(result),
                otherwise: Box::new(Expr::Int(0)),
            },
        };
        (expr, kind)
    }

    /// The statement `target := f(args);` of a `fun` `f` in a step of `thread`: the
    /// assignment of its value (a `fun` called for nothing is an error: it does nothing).
    pub(super) fn fun_assignment(
        &mut self,
        thread: ir::ThreadId,
        call: &ast::Call,
    ) -> Option<ir::Action> {
        let Some(target) = &call.target else {
            self.diags.error(
                call.spans,
                format!(
                    "`{}` is a `fun`: a pure function, whose call does nothing but give its \
                     value; use it in an expression (`x := {}(..);`)",
                    call.function.text, call.function.text
                ),
            );
            return None;
        };
        let value = ast::Expr::Call {
            function: call.function.clone(),
            args: call.args.clone(),
            spans: Spans {
                first: call.function.span,
                last: call.spans.last,
            },
        };
        let action = ast::Action::Assign {
            target: target.clone(),
            value,
            spans: call.spans,
        };
        self.action(thread, &action)
    }

    /// `fun` number `index`, checked on first use; `None` after an error (reported). Rule:
    /// a `fun` does not call itself, directly or through others.
    fn checked_fun(&mut self, index: usize) -> Option<CheckedFun> {
        match self.funs.get(index).cloned().unwrap_or(Lazy::Pending) {
            Lazy::Done(fun) => return fun,
            Lazy::InProgress => {
                let decl = self.fun_decls[index];
                self.diags.error(
                    decl.name.spans(),
                    format!(
                        "`{}` calls itself (directly or through other `fun`s): a `fun` cannot \
                         be recursive; a recursive `function[k]` can",
                        decl.name.text
                    ),
                );
                self.funs[index] = Lazy::Done(None);
                return None;
            }
            Lazy::Pending => {}
        }
        self.funs[index] = Lazy::InProgress;
        let fun = self.check_fun(self.fun_decls[index]);
        if matches!(self.funs[index], Lazy::InProgress) {
            self.funs[index] = Lazy::Done(fun.clone());
        }
        fun
    }

    /// Every `fun`, called or not, so that a mistake in one is reported where it is.
    pub(super) fn check_funs(&mut self) {
        for index in 0..self.fun_decls.len() {
            self.refuse_builtin_name(&self.fun_decls[index].name, "a `fun`");
            self.checked_fun(index);
        }
    }

    /// A `fun`'s parameters, result type and body.
    fn check_fun(&mut self, decl: &ast::Fun) -> Option<CheckedFun> {
        let mut params = Vec::new();
        let mut scope = Scope::runtime(None);
        scope.reader = "a `fun`";
        let mut ok = true;
        for param in &decl.params {
            let scalar = match self.ty(&param.ty) {
                Some(ir::Ty { scalar, len: None }) => scalar,
                Some(_) => {
                    self.diags
                        .error(param.ty.spans, "a parameter is a scalar, not an array");
                    ok = false;
                    Scalar::INT
                }
                None => {
                    ok = false;
                    Scalar::INT
                }
            };
            let var = self.next_quant_var;
            self.next_quant_var.0 += 1;
            scope
                .params
                .push((param.name.clone(), var, scalar_kind(scalar)));
            params.push((var, scalar));
        }
        let returns = match self.ty(&decl.returns) {
            Some(ir::Ty { scalar, len: None }) => scalar,
            Some(_) => {
                self.diags
                    .error(decl.returns.spans, "a `fun` returns a scalar, not an array");
                return None;
            }
            None => return None,
        };
        let (body, kind) = self.expr(&decl.expr, &mut scope);
        if !self.assignable(returns, kind) {
            self.diags.error(
                decl.expr.spans(),
                format!(
                    "mismatched types: `{}` returns {}, not {}",
                    decl.name.text,
                    self.scalar_name(returns),
                    self.kind_name(kind)
                ),
            );
            return None;
        }
        ok.then_some(CheckedFun {
            params,
            returns,
            body,
        })
    }
}

/// `value` converted to `scalar` as an assignment converts it: wrapped into a `wrap`
/// type, else a range error at `site` outside the type's range (`-i64::MIN` raises it).
fn convert(value: Expr, scalar: Scalar, site: ir::SiteId) -> Expr {
    let Scalar::Int { lo, hi, wrap } = scalar else {
        return value;
    };
    if wrap {
        // lo + ((v - lo) % m + m) % m, with `%` of the dividend's sign.
        let arith = |op, lhs: Expr, rhs: Expr| Expr::Arith {
            op,
            lhs: Box::new(lhs),
            rhs: Box::new(rhs),
            overflow: (op != ArithOp::Rem).then_some(site),
            division: (op == ArithOp::Rem).then_some(site),
        };
        let m = hi - lo + 1;
        let offset = arith(ArithOp::Sub, value, Expr::Int(lo));
        let once = arith(ArithOp::Rem, offset, Expr::Int(m));
        let positive = arith(ArithOp::Add, once, Expr::Int(m));
        let reduced = arith(ArithOp::Rem, positive, Expr::Int(m));
        return arith(ArithOp::Add, reduced, Expr::Int(lo));
    }
    let within = Expr::And(
        Box::new(Expr::Cmp {
            op: CmpOp::Ge,
            lhs: Box::new(value.clone()),
            rhs: Box::new(Expr::Int(lo)),
        }),
        Box::new(Expr::Cmp {
            op: CmpOp::Le,
            lhs: Box::new(value.clone()),
            rhs: Box::new(Expr::Int(hi)),
        }),
    );
    Expr::Cond {
        cond: Box::new(within),
        then: Box::new(value),
        otherwise: Box::new(Expr::Neg(Box::new(Expr::Int(i64::MIN)), site)),
    }
}

/// Replaces every parameter of `bindings` in `expr` by its converted argument.
fn substitute(expr: &mut Expr, bindings: &[(ir::QuantVarId, Expr)]) {
    if let Expr::QuantVar(var) = expr {
        if let Some((_, value)) = bindings.iter().find(|(v, _)| v == var) {
            *expr = value.clone();
        }
        return;
    }
    match expr {
        Expr::Bool(_) | Expr::Int(_) | Expr::Read(_) | Expr::InstanceIndex | Expr::QuantVar(_) => {}
        Expr::Element { index, .. } => substitute(index, bindings),
        Expr::Not(inner) | Expr::Neg(inner, _) | Expr::Quant { body: inner, .. } => {
            substitute(inner, bindings)
        }
        Expr::Arith { lhs, rhs, .. }
        | Expr::Cmp { lhs, rhs, .. }
        | Expr::And(lhs, rhs)
        | Expr::Or(lhs, rhs) => {
            substitute(lhs, bindings);
            substitute(rhs, bindings);
        }
        Expr::Cond {
            cond,
            then,
            otherwise,
        } => {
            substitute(cond, bindings);
            substitute(then, bindings);
            substitute(otherwise, bindings);
        }
        Expr::At { instance, .. } => {
            if let Some((index, _)) = instance {
                substitute(index, bindings);
            }
        }
    }
}
