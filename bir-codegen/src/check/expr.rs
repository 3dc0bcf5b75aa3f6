//! Expressions: names resolved, operand kinds checked, constants folded, fault sites
//! assigned. An ill-typed expression is reported once and then has kind `Error`, which is
//! accepted everywhere, so one mistake yields one error.

use super::{Checker, Kind, Symbol};
use crate::ast::{self, BinOp, Name, Quantifier, Spans, UnOp};
use crate::ir::eval::{EvalError, Evaluator, NoState};
use crate::ir::{self, ArithOp, CmpOp, Expr, FaultKind, Scalar, ThreadKind, VarRef};

/// What an expression may refer to.
#[derive(Clone, Debug, Default)]
pub(super) struct Scope {
    /// When set, the expression must be constant; this says what it stands for
    /// ("an array length") for messages.
    pub constant: Option<&'static str>,
    /// The thread whose locals and parameter are visible.
    pub thread: Option<ir::ThreadId>,
    /// Quantified variables in scope, innermost last.
    quant: Vec<(String, ir::QuantVarId)>,
}

impl Scope {
    /// A scope for a constant expression standing for `what`.
    pub fn constant(what: &'static str) -> Scope {
        Scope {
            constant: Some(what),
            ..Scope::default()
        }
    }

    /// A scope for a runtime expression of `thread` (or of no thread, for invariants).
    pub fn runtime(thread: Option<ir::ThreadId>) -> Scope {
        Scope {
            thread,
            ..Scope::default()
        }
    }
}

/// An erroneous expression, already reported.
fn error() -> (Expr, Kind) {
    (Expr::Int(0), Kind::Error)
}

impl<'a> Checker<'a> {
    /// Checks a constant expression and folds it to its value.
    pub(super) fn constant(&mut self, expr: &ast::Expr, scope: &Scope) -> Option<(i64, Kind)> {
        let sites_before = self.sites.len();
        let (ir, kind) = self.expr(expr, &mut scope.clone());
        let result = if kind == Kind::Error {
            None
        } else {
            match Evaluator::new(&NoState).eval(&ir) {
                Ok(value) => Some((value, kind)),
                Err(EvalError::Fault { site, .. }) => {
                    let message = self.sites[site as usize].message.clone();
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
        self.sites.truncate(sites_before);
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
        let (ir, kind) = self.expr(expr, scope);
        if kind != want && kind != Kind::Error {
            self.diags.error(
                expr.spans(),
                format!(
                    "mismatched types: {context} must be {}, found {}",
                    self.kind_name(want),
                    self.kind_name(kind)
                ),
            );
        }
        ir
    }

    /// Checks an expression and returns it with the kind of its value.
    pub(super) fn expr(&mut self, expr: &ast::Expr, scope: &mut Scope) -> (Expr, Kind) {
        match expr {
            ast::Expr::Int { value, .. } => (Expr::Int(*value), Kind::Int),
            ast::Expr::Bool { value, .. } => (Expr::Bool(*value), Kind::Bool),
            ast::Expr::Paren { expr, .. } => self.expr(expr, scope),
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
            } => self.at(expr, thread, index.as_deref(), location, scope),
            ast::Expr::Quant {
                kind,
                var,
                lo,
                hi,
                body,
                ..
            } => self.quantifier(*kind, var, lo, hi, body, scope),
            ast::Expr::Unary {
                op, expr: inner, ..
            } => match op {
                UnOp::Not => {
                    let inner = self.expr_of(inner, scope, Kind::Bool, "the operand of `!`");
                    (Expr::Not(Box::new(inner)), Kind::Bool)
                }
                UnOp::Neg => {
                    let operand = self.expr_of(inner, scope, Kind::Int, "the operand of `-`");
                    let site = self.site(
                        FaultKind::Range,
                        format!("arithmetic overflow in `{expr}`"),
                        expr.spans().first,
                    );
                    (Expr::Neg(Box::new(operand), site), Kind::Int)
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
                let l = self.expr_of(lhs, scope, Kind::Bool, &context);
                let r = self.expr_of(rhs, scope, Kind::Bool, &context);
                let (l, r) = (Box::new(l), Box::new(r));
                let ir = if op == BinOp::And {
                    Expr::And(l, r)
                } else {
                    Expr::Or(l, r)
                };
                (ir, Kind::Bool)
            }
            BinOp::Eq | BinOp::Ne => {
                let (l, lk) = self.expr(lhs, scope);
                let (r, rk) = self.expr(rhs, scope);
                self.unify(lk, rk, rhs.spans(), &format!("the operands of `{symbol}`"));
                let op = if op == BinOp::Eq {
                    CmpOp::Eq
                } else {
                    CmpOp::Ne
                };
                (cmp(op, l, r), Kind::Bool)
            }
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                let l = self.ordered_operand(lhs, scope, symbol);
                let r = self.ordered_operand(rhs, scope, symbol);
                let op = match op {
                    BinOp::Lt => CmpOp::Lt,
                    BinOp::Le => CmpOp::Le,
                    BinOp::Gt => CmpOp::Gt,
                    _ => CmpOp::Ge,
                };
                (cmp(op, l, r), Kind::Bool)
            }
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem => {
                let context = format!("an operand of `{symbol}`");
                let l = self.expr_of(lhs, scope, Kind::Int, &context);
                let r = self.expr_of(rhs, scope, Kind::Int, &context);
                let overflow = self.site(
                    FaultKind::Range,
                    format!("arithmetic overflow in `{whole}`"),
                    op_span,
                );
                let division = matches!(op, BinOp::Div | BinOp::Rem).then(|| {
                    self.site(
                        FaultKind::Division,
                        format!("division by zero in `{whole}`"),
                        op_span,
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
                (ir, Kind::Int)
            }
        }
    }

    /// Rule: `<`, `<=`, `>`, `>=` compare ints only; enums are unordered.
    fn ordered_operand(&mut self, expr: &ast::Expr, scope: &mut Scope, symbol: &str) -> Expr {
        let (ir, kind) = self.expr(expr, scope);
        match kind {
            Kind::Int | Kind::Error => {}
            Kind::Enum(_) => self.diags.error(
                expr.spans(),
                format!("`{symbol}` does not apply to enum values; only `==` and `!=` do"),
            ),
            other => self.diags.error(
                expr.spans(),
                format!(
                    "mismatched types: an operand of `{symbol}` must be int, found {}",
                    self.kind_name(other)
                ),
            ),
        }
        ir
    }

    /// Rule: a name is, innermost first, a quantified variable, the thread's parameter or
    /// local, or a global; other top-level names (const blocks, enums, types, threads) are
    /// not values. A constant expression reads no variable.
    fn name(&mut self, name: &Name, scope: &Scope) -> (Expr, Kind) {
        if let Some((_, id)) = scope.quant.iter().rev().find(|(n, _)| *n == name.text) {
            return (Expr::QuantVar(*id), Kind::Int);
        }
        let var = match self.lookup_var(name, scope) {
            Some(var) => var,
            None => return error(),
        };
        if let Some(what) = scope.constant {
            self.diags.error(
                name.spans(),
                format!(
                    "{what} must be a constant expression, but `{}` is a variable",
                    name.text
                ),
            );
            return error();
        }
        match var {
            Resolved::Index => (Expr::InstanceIndex, Kind::Int),
            Resolved::Var(var, ty, ok) => {
                if !ok {
                    return error();
                }
                if let Some(len) = ty.len {
                    self.diags.error(
                        name.spans(),
                        format!(
                            "`{}` is an array of {len} and cannot be used as a value; \
                             read an element: `{}[i]`",
                            name.text, name.text
                        ),
                    );
                    return error();
                }
                (Expr::Read(var), scalar_kind(ty.scalar))
            }
        }
    }

    /// Finds the variable a name denotes in `scope`, reporting unknown and non-variable
    /// names.
    pub(super) fn lookup_var(&mut self, name: &Name, scope: &Scope) -> Option<Resolved> {
        if let Some(thread) = scope.thread {
            let sig = &self.sigs[thread];
            if sig.index_param.as_deref() == Some(name.text.as_str()) {
                return Some(Resolved::Index);
            }
            if let Some(id) = sig.locals.iter().position(|local| local.name == name.text) {
                return Some(Resolved::Var(
                    VarRef::Local(id),
                    sig.locals[id].ty,
                    sig.local_ok[id],
                ));
            }
        }
        match self.symbols.get(&name.text).copied() {
            Some(Symbol::Global(id)) => Some(Resolved::Var(
                VarRef::Global(id),
                self.globals[id].ty,
                self.global_ok[id],
            )),
            Some(other) => {
                let hint = match other {
                    Symbol::ConstBlock(_) => {
                        format!("write `{}.NAME` for one of its constants", name.text)
                    }
                    Symbol::Enum(_) => format!("write `{}.VALUE` for one of its values", name.text),
                    Symbol::Alias(_) => "a type is not a value".to_string(),
                    _ => format!("write `{}@loc` to test where it is", name.text),
                };
                self.diags.error(
                    name.spans(),
                    format!(
                        "`{}` is {}, not a variable; {hint}",
                        name.text,
                        other.describe()
                    ),
                );
                None
            }
            None => {
                self.diags
                    .error(name.spans(), format!("unknown name `{}`", name.text));
                None
            }
        }
    }

    /// `Const.X` or `Enum.Value`.
    fn member(&mut self, owner: &Name, member: &Name) -> (Expr, Kind) {
        match self.symbols.get(&owner.text).copied() {
            Some(Symbol::ConstBlock(block)) => match self.const_member(block, member) {
                Some((value, Kind::Bool)) => (Expr::Bool(value != 0), Kind::Bool),
                Some((value, kind)) => (Expr::Int(value), kind),
                None => error(),
            },
            Some(Symbol::Enum(id)) => {
                match self.enums[id]
                    .variants
                    .iter()
                    .position(|v| *v == member.text)
                {
                    Some(ordinal) => (Expr::Int(ordinal as i64), Kind::Enum(id)),
                    None => {
                        self.diags.error(
                            member.spans(),
                            format!("enum `{}` has no value `{}`", owner.text, member.text),
                        );
                        error()
                    }
                }
            }
            Some(other) => {
                self.diags.error(
                    owner.spans(),
                    format!(
                        "`{}` is {}; only const blocks and enums have members (`Param.N`, `Color.Red`)",
                        owner.text,
                        other.describe()
                    ),
                );
                error()
            }
            None => {
                self.diags.error(
                    owner.spans(),
                    format!("unknown const block or enum `{}`", owner.text),
                );
                error()
            }
        }
    }

    /// `a[i]`: rule: only arrays are indexed, by an int.
    fn element(
        &mut self,
        array: &Name,
        index: &ast::Expr,
        spans: Spans,
        scope: &mut Scope,
    ) -> (Expr, Kind) {
        let resolved = self.lookup_var(array, scope);
        let index_ir = self.expr_of(index, scope, Kind::Int, "an array index");
        let (var, ty, ok) = match resolved {
            Some(Resolved::Var(var, ty, ok)) => (var, ty, ok),
            Some(Resolved::Index) => {
                self.not_an_array(array);
                return error();
            }
            None => return error(),
        };
        if let Some(what) = scope.constant {
            self.diags.error(
                array.spans(),
                format!(
                    "{what} must be a constant expression, but `{}` is a variable",
                    array.text
                ),
            );
            return error();
        }
        if !ok {
            return error();
        }
        let Some(len) = ty.len else {
            self.not_an_array(array);
            return error();
        };
        let site = self.site(
            FaultKind::Index,
            format!(
                "index out of bounds for `{}[{index}]`: `{}` has {len} elements",
                array.text, array.text
            ),
            spans.first,
        );
        let ir = Expr::Element {
            var,
            index: Box::new(index_ir),
            site,
        };
        (ir, scalar_kind(ty.scalar))
    }

    pub(super) fn not_an_array(&mut self, name: &Name) {
        self.diags.error(
            name.spans(),
            format!("`{}` is not an array and cannot be indexed", name.text),
        );
    }

    /// `T@loc` / `T[i]@loc`: rule: the thread and location exist; a replicated thread
    /// takes an index and a single-instance thread does not.
    fn at(
        &mut self,
        whole: &ast::Expr,
        thread: &Name,
        index: Option<&ast::Expr>,
        location: &Name,
        scope: &mut Scope,
    ) -> (Expr, Kind) {
        let index_ir =
            index.map(|index| self.expr_of(index, scope, Kind::Int, "an instance index"));
        if let Some(what) = scope.constant {
            self.diags.error(
                whole.spans(),
                format!("{what} must be a constant expression, but `{whole}` reads the state"),
            );
            return error();
        }
        let id = match self.symbols.get(&thread.text).copied() {
            Some(Symbol::Thread(id)) => id,
            Some(other) => {
                self.diags.error(
                    thread.spans(),
                    format!("`{}` is {}, not a thread", thread.text, other.describe()),
                );
                return error();
            }
            None => {
                self.diags
                    .error(thread.spans(), format!("unknown thread `{}`", thread.text));
                return error();
            }
        };
        let sig = &self.sigs[id];
        let location_id = sig.locations.get(&location.text).copied();
        let replicated = matches!(
            sig.kind,
            ThreadKind::Active {
                replicated: true,
                ..
            }
        );
        let count = match sig.kind {
            ThreadKind::Active { count, .. } => count,
            ThreadKind::Started => 1,
        };
        let Some(location_id) = location_id else {
            self.diags.error(
                location.spans(),
                format!(
                    "thread `{}` has no location `{}`",
                    thread.text, location.text
                ),
            );
            return error();
        };
        let instance = match (replicated, index_ir) {
            (true, Some(index_ir)) => {
                let site = self.site(
                    FaultKind::Index,
                    format!(
                        "instance index out of bounds in `{whole}`: `{}` has {count} instances",
                        thread.text
                    ),
                    thread.span,
                );
                Some((Box::new(index_ir), site))
            }
            (false, None) => None,
            (true, None) => {
                self.diags.error(
                    whole.spans(),
                    format!(
                        "`{}` has {count} instances; say which: `{}[i]@{}`",
                        thread.text, thread.text, location.text
                    ),
                );
                return error();
            }
            (false, Some(_)) => {
                self.diags.error(
                    whole.spans(),
                    format!(
                        "`{}` is not replicated (`active [k]`) and takes no index: write `{}@{}`",
                        thread.text, thread.text, location.text
                    ),
                );
                return error();
            }
        };
        let ir = Expr::At {
            thread: id,
            instance,
            location: location_id,
        };
        (ir, Kind::Bool)
    }

    /// `forall`/`exists k in lo .. hi : (body)`: rule: the bounds are constant ints with
    /// `lo <= hi`, and `k` reuses no name in scope.
    fn quantifier(
        &mut self,
        kind: Quantifier,
        var: &Name,
        lo: &ast::Expr,
        hi: &ast::Expr,
        body: &ast::Expr,
        scope: &mut Scope,
    ) -> (Expr, Kind) {
        let mut bounds_scope = Scope::constant("a quantifier bound");
        bounds_scope.quant = scope.quant.clone();
        let lo_value = self.constant_int_in(lo, &bounds_scope);
        let hi_value = self.constant_int_in(hi, &bounds_scope);
        let name_ok = self.check_new_name(var, scope, "a quantified variable");
        let id = self.next_quant_var;
        self.next_quant_var += 1;
        scope.quant.push((var.text.clone(), id));
        let body_ir = self.expr_of(body, scope, Kind::Bool, "a quantifier's body");
        scope.quant.pop();
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
        if !name_ok {
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

    /// Rule: a local, a parameter or a quantified variable reuses no top-level name and
    /// no name in scope. Returns false (after reporting) when it does.
    pub(super) fn check_new_name(&mut self, name: &Name, scope: &Scope, what: &str) -> bool {
        let clash = if let Some(symbol) = self.symbols.get(&name.text) {
            Some(symbol.describe().to_string())
        } else if scope.quant.iter().any(|(n, _)| *n == name.text) {
            Some("an enclosing quantified variable".to_string())
        } else if let Some(thread) = scope.thread {
            let sig = &self.sigs[thread];
            if sig.index_param.as_deref() == Some(name.text.as_str()) {
                Some("the thread's parameter".to_string())
            } else if sig.locals.iter().any(|local| local.name == name.text) {
                Some("a local of this thread".to_string())
            } else {
                None
            }
        } else {
            None
        };
        match clash {
            Some(previous) => {
                self.diags.error(
                    name.spans(),
                    format!(
                        "duplicate name `{}`: {what} may not reuse the name of {previous}",
                        name.text
                    ),
                );
                false
            }
            None => true,
        }
    }
}

/// A name resolved to something readable.
#[derive(Clone, Copy, Debug)]
pub(super) enum Resolved {
    /// The parameter of an active thread (the instance index).
    Index,
    /// A variable with its type, and whether that type is sound.
    Var(VarRef, ir::Ty, bool),
}

/// The kind of a scalar's values.
pub(super) fn scalar_kind(scalar: Scalar) -> Kind {
    match scalar {
        Scalar::Bool => Kind::Bool,
        Scalar::Int { .. } => Kind::Int,
        Scalar::Enum(id) => Kind::Enum(id),
    }
}

fn cmp(op: CmpOp, lhs: Expr, rhs: Expr) -> Expr {
    Expr::Cmp {
        op,
        lhs: Box::new(lhs),
        rhs: Box::new(rhs),
    }
}
