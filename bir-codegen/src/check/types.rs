//! Types, ranges, array lengths and initialisers; the globals.

use super::expr::Scope;
use super::{Checker, Kind, Symbol};
use crate::front::ast::{self, Name};
use crate::ir::{self, Scalar, Ty, INT_MAX, INT_MIN};

/// The longest array bir accepts: the state of a model must stay small enough to store
/// millions of times.
pub(super) const MAX_ARRAY_LEN: i64 = 1 << 16;

impl<'a> Checker<'a> {
    /// Rule: a type is `boolean`, `byte`, `int`, `int [wrap] (lo, hi)` with constant
    /// bounds `lo <= hi` inside the 32-bit range, or the name of a typealias or enum.
    pub(super) fn scalar_type(&mut self, base: &ast::BaseType) -> Option<Scalar> {
        match base {
            ast::BaseType::Boolean(_) => Some(Scalar::Bool),
            ast::BaseType::Byte(_) => Some(Scalar::BYTE),
            ast::BaseType::Tid(_) => Some(self.tid_scalar()),
            ast::BaseType::Int { range: None, .. } => Some(Scalar::INT),
            ast::BaseType::Int {
                range: Some(range), ..
            } => {
                let lo = self.const_int(&range.lo, "a range bound");
                let hi = self.const_int(&range.hi, "a range bound");
                let (lo, hi) = (lo?, hi?);
                for (bound, expr) in [(lo, &range.lo), (hi, &range.hi)] {
                    if !(INT_MIN..=INT_MAX).contains(&bound) {
                        self.diags.error(
                            expr.spans(),
                            format!(
                                "range bound {bound} lies outside the 32-bit int \
                                 ({INT_MIN}..{INT_MAX})"
                            ),
                        );
                        return None;
                    }
                }
                if lo > hi {
                    self.diags.error(
                        range.spans,
                        format!("empty range ({lo}, {hi}): the lower bound exceeds the upper"),
                    );
                    return None;
                }
                Some(Scalar::Int {
                    lo,
                    hi,
                    wrap: range.wrap,
                })
            }
            ast::BaseType::Named(name) => self.named_type(name),
        }
    }

    fn named_type(&mut self, name: &Name) -> Option<Scalar> {
        match self.symbols.get(&name.text).copied() {
            Some(Symbol::Alias(alias)) => self.alias_type(alias, name),
            Some(Symbol::Enum(id)) => Some(Scalar::Enum(id)),
            Some(Symbol::Record(id)) => Some(self.reference_type(id)),
            Some(other) => {
                self.diags.error(
                    name.spans(),
                    format!(
                        "`{}` is {}, not a type; expected `boolean`, `byte`, `int`, \
                         a typealias or an enum",
                        name.text,
                        other.describe()
                    ),
                );
                None
            }
            None => {
                let hint = self.unknown_type_hint(&name.text);
                self.diags
                    .error(name.spans(), format!("unknown type `{}`{hint}", name.text));
                None
            }
        }
    }

    /// Rule: an array length is a constant of at least 1.
    pub(super) fn ty(&mut self, ty: &ast::Type) -> Option<Ty> {
        let scalar = self.scalar_type(&ty.base);
        let len = match &ty.len {
            None => None,
            Some(expr) => {
                let len = self.const_int(expr, "an array length")?;
                if len < 1 {
                    self.diags.error(
                        expr.spans(),
                        format!("an array needs at least 1 element; the length is {len}"),
                    );
                    return None;
                }
                if len > MAX_ARRAY_LEN {
                    self.diags.error(
                        expr.spans(),
                        format!(
                            "array too long: {len} elements (bir stores at most {MAX_ARRAY_LEN})"
                        ),
                    );
                    return None;
                }
                Some(len as u32)
            }
        };
        Some(Ty {
            scalar: scalar?,
            len,
        })
    }

    /// The value of a constant int expression standing for `what`.
    pub(super) fn const_int(&mut self, expr: &ast::Expr, what: &'static str) -> Option<i64> {
        let (value, kind) = self.constant(expr, &Scope::constant(what))?;
        match kind {
            Kind::Int => Some(value),
            Kind::Error => None,
            other => {
                self.diags.error(
                    expr.spans(),
                    format!("{what} must be an int, found {}", self.kind_name(other)),
                );
                None
            }
        }
    }

    /// Rule: an initialiser is constant, of the variable's type and inside its range; an
    /// array takes a list of exactly one value per element, a scalar never does. Without
    /// one, every element takes its type's default value.
    pub(super) fn initial_values(
        &mut self,
        ty: Ty,
        init: Option<&ast::Init>,
        name: &Name,
    ) -> Vec<i64> {
        let default = vec![ty.scalar.default_value(); ty.elements() as usize];
        let items: Vec<&ast::Expr> = match (init, ty.len) {
            (None, _) => return default,
            (Some(ast::Init::Scalar(expr)), None) => vec![expr],
            (Some(ast::Init::List { items, .. }), Some(len)) if items.len() == len as usize => {
                items.iter().collect()
            }
            (Some(ast::Init::List { items, spans }), Some(len)) => {
                self.diags.error(
                    *spans,
                    format!(
                        "`{}` has {len} elements but its initialiser has {} values",
                        name.text,
                        items.len()
                    ),
                );
                return default;
            }
            (Some(ast::Init::Scalar(expr)), Some(len)) => {
                self.diags.error(
                    expr.spans(),
                    format!(
                        "`{}` is an array of {len}; initialise it with a list of {len} values: `{{ v0, v1, ... }}`",
                        name.text
                    ),
                );
                return default;
            }
            (Some(ast::Init::List { spans, .. }), None) => {
                self.diags.error(
                    *spans,
                    format!(
                        "`{}` is not an array; initialise it with a single value",
                        name.text
                    ),
                );
                return default;
            }
        };
        let mut values = Vec::with_capacity(items.len());
        for (item, default) in items.into_iter().zip(default) {
            values.push(self.initial_value(ty.scalar, item).unwrap_or(default));
        }
        values
    }

    fn initial_value(&mut self, scalar: Scalar, expr: &ast::Expr) -> Option<i64> {
        let (value, kind) = self.constant(expr, &Scope::constant("an initialiser"))?;
        if !self.assignable(scalar, kind) {
            self.diags.error(
                expr.spans(),
                format!(
                    "mismatched types: expected {}, found {}",
                    self.scalar_name(scalar),
                    self.kind_name(kind)
                ),
            );
            return None;
        }
        if !scalar.contains(value, &self.enums) {
            self.diags.error(
                expr.spans(),
                format!(
                    "initial value {value} lies outside {}",
                    self.scalar_name(scalar)
                ),
            );
            return None;
        }
        Some(value)
    }

    /// The globals, in declaration order.
    pub(super) fn check_globals(&mut self) {
        for decl in self.global_decls.clone() {
            let (var, ok) = self.var(decl);
            self.globals.push(var);
            self.global_ok.push(ok);
        }
    }

    /// A variable declaration, and whether its type is sound; a type error leaves an `int`
    /// placeholder whose uses are not reported again.
    pub(super) fn var(&mut self, decl: &ast::VarDecl) -> (ir::Var, bool) {
        let ty = self.ty(&decl.ty);
        let init = match ty {
            Some(ty) => self.initial_values(ty, decl.init.as_ref(), &decl.name),
            None => vec![0],
        };
        let var = ir::Var {
            name: decl.name.text.clone(),
            span: decl.name.span,
            doc: decl.doc.clone(),
            ty: ty.unwrap_or(Ty {
                scalar: Scalar::INT,
                len: None,
            }),
            init,
        };
        (var, ty.is_some())
    }

    /// True when a value of `kind` may be stored in `scalar`.
    pub(super) fn assignable(&self, scalar: Scalar, kind: Kind) -> bool {
        matches!(
            (scalar, kind),
            (_, Kind::Error)
                | (Scalar::Bool, Kind::Bool)
                | (Scalar::Int { .. }, Kind::Int)
                | (Scalar::Tid { .. }, Kind::Tid | Kind::Null)
        ) || matches!((scalar, kind), (Scalar::Enum(a), Kind::Enum(b)) if a == b)
            || matches!((scalar, kind), (Scalar::Ref { record, .. }, Kind::Ref(b)) if record == b)
            || matches!((scalar, kind), (Scalar::Ref { .. }, Kind::Null))
    }

    /// A scalar type as users write it.
    pub(super) fn scalar_name(&self, scalar: Scalar) -> String {
        match scalar {
            Scalar::Bool => "boolean".into(),
            Scalar::INT => "int".into(),
            Scalar::BYTE => "byte".into(),
            Scalar::Int { lo, hi, wrap } => {
                format!("int {}({lo}, {hi})", if wrap { "wrap " } else { "" })
            }
            Scalar::Enum(id) => format!("enum `{}`", self.enums[id].name),
            Scalar::Ref { record, .. } => format!("`{}`", self.record_name(record)),
            Scalar::Tid { .. } => "tid".into(),
        }
    }

    /// A value kind as users read it.
    pub(super) fn kind_name(&self, kind: Kind) -> String {
        match kind {
            Kind::Bool => "boolean".into(),
            Kind::Int => "int".into(),
            Kind::Enum(id) => format!("enum `{}`", self.enums[id].name),
            Kind::Ref(id) => format!("a reference to `{}`", self.record_name(id)),
            Kind::Tid => "tid".into(),
            Kind::Null => "`null`".into(),
            Kind::Error => "an erroneous expression".into(),
        }
    }

    /// The name of record `id`.
    pub(super) fn record_name(&self, id: ir::RecordId) -> &str {
        self.record_decls
            .get(id.0 as usize)
            .map_or("?", |decl| decl.name.text.as_str())
    }
}
