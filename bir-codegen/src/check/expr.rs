//! Expressions: names resolved, operand kinds checked, constants folded, fault sites
//! assigned. An ill-typed expression is reported once and then has kind `Error`, which is
//! accepted everywhere, so one mistake yields one error.

use super::{Checker, Kind};
use crate::front::ast::{self, BinOp, Name, Quantifier, Spans, UnOp};
use crate::ir::eval::{EvalError, Evaluator, NoState};
use crate::ir::{self, ArithOp, CmpOp, Expr, FaultKind, Scalar};

/// What an expression may refer to.
#[derive(Clone, Debug, Default)]
pub(super) struct Scope {
    /// When set, the expression must be constant; this says what it stands for
    /// ("an array length") for messages.
    pub constant: Option<&'static str>,
    /// The thread whose locals and parameter are visible.
    pub thread: Option<ir::ThreadId>,
    /// Quantified variables in scope, innermost last.
    pub(super) quant: Vec<(Name, ir::QuantVarId)>,
    /// How many of `quant` are bound outside the constant expression being checked (a
    /// quantifier bound sees them, but may not read them).
    pub(super) outer_quant: usize,
    /// In a run-time expression, how many times the innermost enclosing quantifier's body
    /// is evaluated, at most: the product of the enclosing quantifiers' ranges (1 outside
    /// any).
    pub(super) quant_weight: u64,
    /// In a run-time expression, the quantifier steps (body evaluations) of the quantifiers
    /// checked so far, at most; see [`MAX_QUANTIFIER_STEPS`].
    pub(super) quant_steps: u64,
    /// Outside any thread, what reads the state as a whole, for messages: an invariant,
    /// a property.
    pub(super) reader: &'static str,
    /// In a `fun`'s body, its parameters: the variables they are read as, and their kinds.
    pub(super) params: Vec<(Name, ir::QuantVarId, Kind)>,
}

impl Scope {
    /// A scope for a constant expression standing for `what`.
    pub fn constant(what: &'static str) -> Scope {
        Scope {
            constant: Some(what),
            ..Scope::default()
        }
    }

    /// A scope for the predicate of a property, which reads the state as a whole (as an
    /// invariant does).
    pub fn property() -> Scope {
        Scope {
            reader: "a property",
            ..Scope::runtime(None)
        }
    }

    /// The scope of a heuristic's expression: what an invariant may read.
    pub fn heuristic() -> Scope {
        Scope {
            reader: "a heuristic",
            ..Scope::runtime(None)
        }
    }

    /// A scope for a runtime expression of `thread` (or of no thread, for invariants).
    pub fn runtime(thread: Option<ir::ThreadId>) -> Scope {
        Scope {
            thread,
            quant_weight: 1,
            reader: "an invariant",
            ..Scope::default()
        }
    }
}

/// Rule: evaluating a constant expression takes at most this many steps, counting each
/// quantifier's body once per value of its range (the worst case, without short-circuits).
/// The macro folds constants while rustc waits: nested quantifiers over large ranges would
/// hang the build.
const MAX_CONSTANT_STEPS: u64 = 1 << 20;

/// Rule: the quantifiers of one guard, one action or one invariant evaluate their bodies at
/// most this many times in all, a nested quantifier's body once per value of each enclosing
/// range (the quantifiers' ranges multiply). These are evaluated at run time, by every
/// state's successor function or invariant check: `exists i in -2147483648 .. 2147483648`
/// in a guard made a single guard evaluation take seconds, so that no time limit of the
/// search could hold. 2^16 steps take well under a millisecond.
pub(crate) const MAX_QUANTIFIER_STEPS: u64 = 1 << 16;

/// The most steps evaluating `expr` can take: one per node, a quantifier's body once per
/// value of its range. Saturates.
fn worst_steps(expr: &Expr) -> u64 {
    expr.weighted_size(&|lo, hi, _| u64::try_from(hi.saturating_sub(lo)).unwrap_or(0))
}

/// An erroneous expression, already reported.
pub(super) fn error() -> (Expr, Kind) {
    (Expr::Int(0), Kind::Error)
}

impl<'a> Checker<'a> {
    /// Checks a constant expression and folds it to its value.
    pub(super) fn constant(&mut self, expr: &ast::Expr, scope: &Scope) -> Option<(i64, Kind)> {
        let sites_before = self.sites.len();
        let (ir, kind) = self.expr(expr, &mut scope.clone());
        let steps = worst_steps(&ir);
        let result = if kind == Kind::Error {
            None
        } else if steps > MAX_CONSTANT_STEPS {
            self.diags.error(
                expr.spans(),
                format!(
                    "this constant expression is too costly to evaluate at compile time: up to \
                     {steps} steps, at most {MAX_CONSTANT_STEPS} (its quantifiers range over too \
                     many values)"
                ),
            );
            None
        } else {
            match Evaluator::new(&NoState).eval(&ir) {
                Ok(value) => Some((value, kind)),
                Err(EvalError::Fault { site, .. }) => {
                    let message = self.sites[site].message.clone();
                    self.diags.error(
                        expr.spans(),
                        format!("this constant expression fails: {message}"),
                    );
                    None
                }
                Err(EvalError::NotConstant) => {
                    let what = scope.constant.unwrap_or("this");
                    self.diags.error(
                        expr.spans(),
                        format!("{what} must be a constant expression"),
                    );
                    None
                }
            }
        };
        self.truncate_sites(sites_before);
        result
    }

    /// Checks an expression that must have kind `want`; `context` completes the message
    /// "`context` must be a boolean".
    pub(super) fn expr_of(
        &mut self,
        expr: &ast::Expr,
        scope: &mut Scope,
        want: Kind,
        context: &str,
    ) -> Expr {
        self.typed(expr, scope, want, context).0
    }

    /// [`Self::expr_of`], also telling whether the expression has kind `want` (false when
    /// it was erroneous, whether reported here or before): an operator applied to it then
    /// yields `Kind::Error`, so that the mistake is not reported again further out.
    fn typed(
        &mut self,
        expr: &ast::Expr,
        scope: &mut Scope,
        want: Kind,
        context: &str,
    ) -> (Expr, bool) {
        let (ir, kind) = self.expr(expr, scope);
        if kind != want && kind != Kind::Error {
            // Rule: a `tid` is not a number (no arithmetic, no order, no int variable).
            let hint = match (kind, want) {
                (Kind::Tid | Kind::Null, Kind::Int) => {
                    " (a `tid` names a thread instance, it is not a number)"
                }
                _ => "",
            };
            self.diags.error(
                expr.spans(),
                format!(
                    "mismatched types: {context} must be {}, found {}{hint}",
                    self.kind_name(want),
                    self.kind_name(kind)
                ),
            );
        }
        (ir, kind == want)
    }

    /// Checks an expression and returns it with the kind of its value.
    pub(super) fn expr(&mut self, expr: &ast::Expr, scope: &mut Scope) -> (Expr, Kind) {
        match expr {
            ast::Expr::Int { value, .. } => (Expr::Int(*value), Kind::Int),
            ast::Expr::Bool { value, .. } => (Expr::Bool(*value), Kind::Bool),
            ast::Expr::Null { .. } => (Expr::Int(0), Kind::Null),
            ast::Expr::Paren { expr, .. } => self.expr(expr, scope),
            ast::Expr::Field { base, field } => self.field_read(base, field, None, scope),
            ast::Expr::FieldIndex {
                base,
                field,
                index,
                spans,
            } => self.field_read(base, field, Some((index, *spans)), scope),
            ast::Expr::Member {
                scope: owner,
                member,
            } if scope.constant.is_none() && self.names_variable(owner, scope) => {
                self.field_read(&ast::Expr::Name(owner.clone()), member, None, scope)
            }
            ast::Expr::Name(name) => self.name(name, scope),
            ast::Expr::Member {
                scope: owner,
                member,
            } => self.member(owner, member),
            ast::Expr::Index {
                array,
                index,
                spans,
            } => self.element(array, index, *spans, scope),
            ast::Expr::At {
                thread,
                index,
                location,
                function,
            } => self.at(
                expr,
                thread,
                index.as_deref(),
                function.as_ref(),
                location,
                scope,
            ),
            ast::Expr::Builtin {
                builtin,
                name,
                operand,
                ..
            } => self.builtin(*builtin, name, operand, scope),
            ast::Expr::Call {
                function,
                args,
                spans,
            } => self.fun_call(function, args, *spans, scope),
            ast::Expr::Quant {
                kind,
                keyword,
                var,
                lo,
                hi,
                body,
                ..
            } => {
                let head = Spans::one(*keyword).to(hi.spans());
                self.quantifier(*kind, head, var, (lo, hi), body, scope)
            }
            ast::Expr::Unary {
                op, expr: inner, ..
            } => match op {
                UnOp::Not => {
                    let (inner, ok) = self.typed(inner, scope, Kind::Bool, "the operand of `!`");
                    (
                        Expr::Not(Box::new(inner)),
                        if ok { Kind::Bool } else { Kind::Error },
                    )
                }
                UnOp::Neg => {
                    let (operand, ok) = self.typed(inner, scope, Kind::Int, "the operand of `-`");
                    let site = self.site(
                        FaultKind::Range,
                        format!("arithmetic overflow in `{expr}`"),
                        expr.spans().first,
                        expr.spans(),
                    );
                    let kind = if ok { Kind::Int } else { Kind::Error };
                    (Expr::Neg(Box::new(operand), site), kind)
                }
            },
            ast::Expr::Binary {
                op,
                op_span,
                lhs,
                rhs,
            } => self.binary(expr, *op, *op_span, lhs, rhs, scope),
            ast::Expr::Cond {
                cond,
                then,
                otherwise,
            } => {
                let cond = self.expr_of(cond, scope, Kind::Bool, "the condition of `? :`");
                let (then_ir, then_kind) = self.expr(then, scope);
                let (else_ir, else_kind) = self.expr(otherwise, scope);
                let kind = self.unify(
                    then_kind,
                    else_kind,
                    otherwise.spans(),
                    "the branches of `? :`",
                );
                let ir = Expr::Cond {
                    cond: Box::new(cond),
                    then: Box::new(then_ir),
                    otherwise: Box::new(else_ir),
                };
                (ir, kind)
            }
        }
    }

    /// Rule: both sides of `==`, `!=` and of `? :` have the same kind (two ints, two
    /// booleans, or two values of one enum).
    fn unify(&mut self, a: Kind, b: Kind, spans: Spans, what: &str) -> Kind {
        match (a, b) {
            (Kind::Error, other) | (other, Kind::Error) => other,
            (a, b) if a == b => a,
            (Kind::Ref(r), Kind::Null) | (Kind::Null, Kind::Ref(r)) => Kind::Ref(r),
            (Kind::Ref(a), Kind::Ref(b)) => {
                self.diags.error(
                    spans,
                    format!(
                        "mismatched types: {what} refer to two record types, `{}` and `{}`; \
                         references of different types are never equal",
                        self.record_name(a),
                        self.record_name(b)
                    ),
                );
                Kind::Error
            }
            // Rule: `null` is a `tid` where one is expected.
            (Kind::Null, Kind::Tid) | (Kind::Tid, Kind::Null) => Kind::Tid,
            (a, b) => {
                self.diags.error(
                    spans,
                    format!(
                        "mismatched types: {what} must have the same type, found {} and {}",
                        self.kind_name(a),
                        self.kind_name(b)
                    ),
                );
                Kind::Error
            }
        }
    }

    fn binary(
        &mut self,
        whole: &ast::Expr,
        op: BinOp,
        op_span: proc_macro2::Span,
        lhs: &ast::Expr,
        rhs: &ast::Expr,
        scope: &mut Scope,
    ) -> (Expr, Kind) {
        let symbol = op.symbol();
        match op {
            BinOp::And | BinOp::Or => {
                let context = format!("an operand of `{symbol}`");
                let (l, l_ok) = self.typed(lhs, scope, Kind::Bool, &context);
                let (r, r_ok) = self.typed(rhs, scope, Kind::Bool, &context);
                let (l, r) = (Box::new(l), Box::new(r));
                let ir = if op == BinOp::And {
                    Expr::And(l, r)
                } else {
                    Expr::Or(l, r)
                };
                (
                    ir,
                    if l_ok && r_ok {
                        Kind::Bool
                    } else {
                        Kind::Error
                    },
                )
            }
            BinOp::Eq | BinOp::Ne => {
                let (l, lk) = self.expr(lhs, scope);
                let (r, rk) = self.expr(rhs, scope);
                let kind = self.unify(lk, rk, rhs.spans(), &format!("the operands of `{symbol}`"));
                let op = if op == BinOp::Eq {
                    CmpOp::Eq
                } else {
                    CmpOp::Ne
                };
                let ok = lk != Kind::Error && rk != Kind::Error && kind != Kind::Error;
                (cmp(op, l, r), if ok { Kind::Bool } else { Kind::Error })
            }
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                let (l, lk) = self.expr(lhs, scope);
                let (r, rk) = self.expr(rhs, scope);
                let l_ok = self.ordered_operand(lhs, lk, symbol, false);
                // `a < b` on two enum values is one mistake, reported on `a`.
                let both_enums = matches!(
                    (lk, rk),
                    (Kind::Enum(_), Kind::Enum(_))
                        | (Kind::Tid | Kind::Null, Kind::Tid | Kind::Null)
                );
                let r_ok = self.ordered_operand(rhs, rk, symbol, both_enums);
                let op = match op {
                    BinOp::Lt => CmpOp::Lt,
                    BinOp::Le => CmpOp::Le,
                    BinOp::Gt => CmpOp::Gt,
                    _ => CmpOp::Ge,
                };
                (
                    cmp(op, l, r),
                    if l_ok && r_ok {
                        Kind::Bool
                    } else {
                        Kind::Error
                    },
                )
            }
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem => {
                let context = format!("an operand of `{symbol}`");
                let (l, l_ok) = self.typed(lhs, scope, Kind::Int, &context);
                let (r, r_ok) = self.typed(rhs, scope, Kind::Int, &context);
                // Rule: `%` always has a value in 64 bits (`i64::MIN % -1` is 0), so only
                // the other operators have an overflow site.
                let overflow = (op != BinOp::Rem).then(|| {
                    self.site(
                        FaultKind::Range,
                        format!("arithmetic overflow in `{whole}`"),
                        op_span,
                        whole.spans(),
                    )
                });
                let division = matches!(op, BinOp::Div | BinOp::Rem).then(|| {
                    self.site(
                        FaultKind::Division,
                        format!("division by zero in `{whole}`"),
                        op_span,
                        rhs.spans(),
                    )
                });
                let op = match op {
                    BinOp::Add => ArithOp::Add,
                    BinOp::Sub => ArithOp::Sub,
                    BinOp::Mul => ArithOp::Mul,
                    BinOp::Div => ArithOp::Div,
                    _ => ArithOp::Rem,
                };
                let ir = Expr::Arith {
                    op,
                    lhs: Box::new(l),
                    rhs: Box::new(r),
                    overflow,
                    division,
                };
                (ir, if l_ok && r_ok { Kind::Int } else { Kind::Error })
            }
        }
    }

    /// Rule: `<`, `<=`, `>`, `>=` compare ints only; enums are unordered. Returns whether
    /// the operand is an int; `quiet` skips the report.
    fn ordered_operand(&mut self, expr: &ast::Expr, kind: Kind, symbol: &str, quiet: bool) -> bool {
        match kind {
            Kind::Int => return true,
            Kind::Error => {}
            _ if quiet => {}
            Kind::Enum(_) => self.diags.error(
                expr.spans(),
                format!("`{symbol}` does not apply to enum values; only `==` and `!=` do"),
            ),
            Kind::Tid | Kind::Null => self.diags.error(
                expr.spans(),
                format!(
                    "`{symbol}` does not apply to a `tid`: it names a thread instance, it is \
                     not a number; only `==` and `!=` compare tids"
                ),
            ),
            other => self.diags.error(
                expr.spans(),
                format!(
                    "mismatched types: an operand of `{symbol}` must be int, found {}",
                    self.kind_name(other)
                ),
            ),
        }
        false
    }

    /// `forall`/`exists k in lo .. hi : (body)`, whose `head` is `forall k in lo .. hi`:
    /// rule: the bounds are constant ints with `lo <= hi`, and `k` reuses no name in scope.
    fn quantifier(
        &mut self,
        kind: Quantifier,
        head: Spans,
        var: &Name,
        (lo, hi): (&ast::Expr, &ast::Expr),
        body: &ast::Expr,
        scope: &mut Scope,
    ) -> (Expr, Kind) {
        let mut bounds_scope = Scope::constant("a quantifier bound");
        bounds_scope.quant = scope.quant.clone();
        bounds_scope.outer_quant = scope.quant.len();
        let lo_value = self.constant_int_in(lo, &bounds_scope);
        let hi_value = self.constant_int_in(hi, &bounds_scope);
        let name_ok = self.check_new_name(var, scope, "a quantified variable");
        let id = self.next_quant_var;
        self.next_quant_var.0 += 1;
        let outer_weight = scope.quant_weight;
        // Bounds outside the int range, or inverted, are reported below instead.
        if let (Some(lo), Some(hi), None) = (lo_value, hi_value, scope.constant) {
            if ir::INT_MIN <= lo && lo <= hi && hi <= ir::INT_MAX + 1 {
                self.count_quantifier_steps(head, (hi - lo) as u64, scope);
            }
        }
        scope.quant.push((var.clone(), id));
        let (body_ir, body_ok) = self.typed(body, scope, Kind::Bool, "a quantifier's body");
        scope.quant.pop();
        scope.quant_weight = outer_weight;
        let (Some(lo_value), Some(hi_value)) = (lo_value, hi_value) else {
            return error();
        };
        if lo_value > hi_value {
            self.diags.error(
                lo.spans().to(hi.spans()),
                format!(
                    "inverted range {lo_value} .. {hi_value}: a quantifier needs lo <= hi \
                     (lo == hi is an empty range)"
                ),
            );
            return error();
        }
        // Rule: the quantified variable is an int, so its values lie in the 32-bit range
        // (`hi` is exclusive). Constants are folded in 64 bits, and wider bounds made the
        // range's length overflow.
        if lo_value < ir::INT_MIN || hi_value > ir::INT_MAX + 1 {
            self.diags.error(
                lo.spans().to(hi.spans()),
                format!(
                    "range {lo_value} .. {hi_value} leaves the 32-bit int: a quantified variable \
                     is an int, so lo >= {} and hi <= {}",
                    ir::INT_MIN,
                    ir::INT_MAX + 1
                ),
            );
            return error();
        }
        if !name_ok || !body_ok {
            return error();
        }
        let ir = Expr::Quant {
            forall: kind == Quantifier::Forall,
            var: id,
            lo: lo_value,
            hi: hi_value,
            body: Box::new(body_ir),
        };
        (ir, Kind::Bool)
    }

    /// Counts the steps of a run-time quantifier over `range` values in `scope`, and enters
    /// its body's weight. Rule: at most [`MAX_QUANTIFIER_STEPS`] in one expression; the
    /// error stands on the quantifier that passes the bound (once per expression).
    fn count_quantifier_steps(&mut self, spans: Spans, range: u64, scope: &mut Scope) {
        let before = scope.quant_steps;
        scope.quant_weight = scope.quant_weight.saturating_mul(range);
        scope.quant_steps = before.saturating_add(scope.quant_weight);
        if before <= MAX_QUANTIFIER_STEPS && scope.quant_steps > MAX_QUANTIFIER_STEPS {
            self.diags.error(
                spans,
                format!(
                    "too many quantifier steps: with this quantifier, the quantifiers of this \
                     guard, action or invariant evaluate their bodies up to {} times per \
                     evaluation, more than the {MAX_QUANTIFIER_STEPS} (2^16) bir allows; a \
                     nested quantifier's body counts once per value of each enclosing range",
                    scope.quant_steps
                ),
            );
        }
    }

    fn constant_int_in(&mut self, expr: &ast::Expr, scope: &Scope) -> Option<i64> {
        match self.constant(expr, scope)? {
            (value, Kind::Int) => Some(value),
            (_, other) => {
                self.diags.error(
                    expr.spans(),
                    format!(
                        "mismatched types: a quantifier bound must be int, found {}",
                        self.kind_name(other)
                    ),
                );
                None
            }
        }
    }
}

/// The kind of a scalar's values.
pub(super) fn scalar_kind(scalar: Scalar) -> Kind {
    match scalar {
        Scalar::Bool => Kind::Bool,
        Scalar::Int { .. } => Kind::Int,
        Scalar::Enum(id) => Kind::Enum(id),
        Scalar::Ref { record, .. } => Kind::Ref(record),
        Scalar::Tid { .. } => Kind::Tid,
    }
}

pub(super) fn cmp(op: CmpOp, lhs: Expr, rhs: Expr) -> Expr {
    Expr::Cmp {
        op,
        lhs: Box::new(lhs),
        rhs: Box::new(rhs),
    }
}
