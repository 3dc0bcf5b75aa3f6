//! Threads created at run time (LANGUAGE.md, "Threads created at run time"): `start` of a
//! thread or a pool, the type `tid` and `threadTerminated`.
//!
//! A `tid` is an int slot holding 0 (`null`) or `g + 1` for the instance of global number
//! `g` ([`ir::System::tid_of`]); the checker keeps tids apart from ints (no arithmetic, no
//! order, no mixing), so that version 1's comparisons are their identity. `threadTerminated(t)`
//! is translated here into version 1's expressions: `t == 0`, or `t` names an instance of
//! a started thread or pool that is at none of its locations (a `tid` only names an instance
//! that was started, so "at no location" is "ended").

use super::expr::{cmp, Scope};
use super::{Checker, Kind};
use crate::front::ast::{self, Name, Spans};
use crate::ir::{self, CmpOp, Expr, FaultKind, Id as _, Scalar, ThreadKind};

/// The words that explain why a `tid` may not go where an int is expected, for messages
/// about a value of `kind` stored in `scalar` (empty otherwise).
pub(super) fn tid_hint(kind: Kind, scalar: Scalar) -> &'static str {
    match (kind, scalar) {
        (Kind::Tid | Kind::Null, Scalar::Int { .. }) => {
            " (a `tid` names a thread instance, it is not a number)"
        }
        (Kind::Int, Scalar::Tid { .. }) => {
            " (a `tid` holds `null` or what `start` yields, never a number)"
        }
        _ => "",
    }
}

impl Checker<'_> {
    /// The type `tid` of this model: `null` or one of its instances.
    pub(super) fn tid_scalar(&self) -> Scalar {
        Scalar::Tid {
            instances: self.tid_instances,
        }
    }

    /// `[target :=] start T(args);`: rule: T is a thread declared without `active`, the
    /// arguments match its parameters in number and kind, and the target holds a `tid`.
    pub(super) fn start(
        &mut self,
        target: Option<&ast::Expr>,
        name: &Name,
        args: &[ast::Expr],
        spans: Spans,
        scope: &mut Scope,
    ) -> Option<ir::Action> {
        let checked: Vec<_> = args
            .iter()
            .map(|arg| (arg, self.expr(arg, scope)))
            .collect();
        let result = target.map(|target| (target, self.place(target, scope)));
        let id = self.thread_named(name)?;
        let sig = &self.sigs[id];
        let kind = sig.kind;
        if let ThreadKind::Active { .. } = kind {
            self.diags.error(
                name.spans(),
                format!(
                    "cannot start `{}`: it is `active`, so it runs from the initial state; \
                     declare it without `active` to start it",
                    name.text
                ),
            );
            return None;
        }
        let params: Vec<(String, Scalar, bool)> = sig
            .start_params
            .iter()
            .map(|&local| {
                let var = &sig.locals[local];
                (var.name.clone(), var.ty.scalar, sig.local_ok[local])
            })
            .collect();
        if checked.len() != params.len() {
            let plural = |n: usize| if n == 1 { "argument" } else { "arguments" };
            self.diags.error(
                spans,
                format!(
                    "`{}` takes {} {} but {} {} given",
                    name.text,
                    params.len(),
                    plural(params.len()),
                    checked.len(),
                    if checked.len() == 1 { "was" } else { "were" }
                ),
            );
            return None;
        }
        let mut values = Vec::new();
        for ((_, scalar, ok), (expr, (ir, kind))) in params.iter().zip(checked.iter()) {
            if *ok && !self.assignable(*scalar, *kind) {
                self.diags.error(
                    expr.spans(),
                    format!(
                        "mismatched types: `{}` takes {}, found {}{}",
                        name.text,
                        self.scalar_name(*scalar),
                        self.kind_name(*kind),
                        tid_hint(*kind, *scalar)
                    ),
                );
            }
            values.push(ir.clone());
        }
        let result = match result {
            None => None,
            Some((_, None)) => return None,
            Some((target, Some((place, scalar)))) => {
                if !matches!(scalar, Scalar::Tid { .. }) {
                    self.diags.error(
                        target.spans(),
                        format!(
                            "mismatched types: `start {}(..)` yields a tid, which cannot be \
                             assigned to `{target}` of type {}{}",
                            name.text,
                            self.scalar_name(scalar),
                            tid_hint(Kind::Tid, scalar)
                        ),
                    );
                }
                Some(place)
            }
        };
        let message = match kind {
            ThreadKind::Pool { count } => format!(
                "cannot start `{}`: all {count} instances of the pool are running",
                name.text
            ),
            _ => format!("cannot start `{}`: it has already started", name.text),
        };
        let site = self.site(FaultKind::Start, message, spans.first, spans);
        let mut arg_sites = Vec::new();
        for (position, (param, scalar, _)) in params.iter().enumerate() {
            let message = if params.len() == 1 {
                format!(
                    "`start {}(..)` passes {{value}}, outside the parameter's type {}",
                    name.text,
                    self.scalar_name(*scalar)
                )
            } else {
                format!(
                    "`start {}(..)` passes {{value}} to `{param}`, outside its type {}",
                    name.text,
                    self.scalar_name(*scalar)
                )
            };
            let tokens = checked[position].0.spans();
            arg_sites.push(self.site(FaultKind::Range, message, spans.first, tokens));
        }
        if params.is_empty() {
            // The site a start without arguments always had: the sites after it keep
            // their numbers.
            let message = format!(
                "`start {}(..)` passes {{value}}, outside the parameter's type ",
                name.text
            );
            self.site(FaultKind::Range, message, spans.first, spans);
        }
        Some(ir::Action::Start {
            thread: id,
            args: values,
            site,
            arg_sites,
            result,
        })
    }

    /// Rule: `threadTerminated(t)` takes a `tid` (or `null`) and holds when `t` is `null`
    /// or names an ended instance: `t == 0 || (t == g + 1 && !(T[i]@l0 || T[i]@l1 ...))`
    /// over the instances of every thread that `start` starts.
    pub(super) fn thread_terminated(
        &mut self,
        name: &Name,
        operand: &ast::Expr,
        scope: &mut Scope,
    ) -> (Expr, Kind) {
        let (tid, kind) = self.expr(operand, scope);
        match kind {
            Kind::Tid | Kind::Null => {}
            Kind::Error => return (Expr::Bool(false), Kind::Error),
            other => {
                self.diags.error(
                    operand.spans(),
                    format!(
                        "mismatched types: the operand of `{}` must be tid, found {}",
                        name.text,
                        self.kind_name(other)
                    ),
                );
                return (Expr::Bool(false), Kind::Error);
            }
        }
        // The instance indices below are constants within their threads: never raised.
        let site = self.site(
            FaultKind::Index,
            "an instance index of `threadTerminated` left its range (a bug of bir's)".into(),
            name.span,
            name.spans(),
        );
        let mut ended = cmp(CmpOp::Eq, tid.clone(), Expr::Int(0));
        let mut number = 0u32;
        for thread in 0..self.real_threads {
            let sig = &self.sigs[ir::ThreadId::new(thread)];
            let kind = sig.kind;
            let locations = sig.location_names.len();
            for index in 0..kind.instances() {
                let instance = ir::InstanceId(number);
                number += 1;
                if !kind.is_started() || locations == 0 {
                    continue;
                }
                let at = |location: usize| Expr::At {
                    thread: ir::ThreadId::new(thread),
                    instance: matches!(kind, ThreadKind::Pool { .. })
                        .then(|| (Box::new(Expr::Int(i64::from(index))), site)),
                    location: ir::LocationId::new(location),
                };
                let running = (1..locations).fold(at(0), |running, location| {
                    Expr::Or(Box::new(running), Box::new(at(location)))
                });
                let names = cmp(
                    CmpOp::Eq,
                    tid.clone(),
                    Expr::Int(ir::System::tid_of(instance)),
                );
                let this = Expr::And(Box::new(names), Box::new(Expr::Not(Box::new(running))));
                ended = Expr::Or(Box::new(ended), Box::new(this));
            }
        }
        (ended, Kind::Bool)
    }
}
