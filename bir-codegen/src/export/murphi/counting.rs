//! [`Errors::CountPast`](super::Errors::CountPast): every fault decided before it happens.
//!
//! A step's outcome is computed by a Murphi function that runs its guard and actions on
//! copies of what they write, testing each fault LANGUAGE.md defines before the operation
//! that would meet it: an index outside its array or instances, a zero divisor, a write
//! outside a type that does not wrap, a false assert, a start of an instance that has
//! started. Tests follow BIR's order of evaluation, short circuits included
//! ([`Writer::faults`]), so a fault that BIR's evaluation never reaches is never tested.

use std::fmt::Write as _;

use super::{Scope, Writer};
use crate::ir::{Action, Expr, Scalar, ThreadId, Transform, VarRef};

/// The outcome of a step whose guard is false or whose assume fails: no transition.
pub(super) const DISABLED: u32 = 0;
/// The outcome of a step that faults: a transition to no new state.
pub(super) const FAULTS: u32 = 1;
/// The outcome of a step that completes.
pub(super) const COMPLETES: u32 = 2;

impl Writer<'_> {
    /// A function telling whether every invariant holds, without a fault, in the state: a
    /// state where one does not is counted and not expanded.
    pub(super) fn invariants_function(&self, out: &mut String) {
        if self.system.invariants.is_empty() {
            return;
        }
        let scope = Scope::invariant();
        out.push_str("function invariants_hold(): boolean;\nbegin\n");
        for invariant in &self.system.invariants {
            let _ = writeln!(out, "  -- {}", invariant.name);
            if let Some(faults) = self.faults(&invariant.cond, &scope) {
                let _ = writeln!(out, "  if {faults} then return false; endif;");
            }
            let cond = self.expr(&invariant.cond, &scope, true);
            let _ = writeln!(out, "  if !({cond}) then return false; endif;");
        }
        out.push_str("  return true;\nend;\n\n");
    }

    /// A function giving the outcome of `t` by instance `inst`: [`DISABLED`], [`FAULTS`] or
    /// [`COMPLETES`].
    pub(super) fn outcome_function(
        &self,
        out: &mut String,
        name: &str,
        instances: &str,
        id: ThreadId,
        t: &Transform,
    ) {
        let header = format!("function {name}({instances}): {DISABLED}..{COMPLETES};");
        let scope = self.open_function_on_copies(out, &header, id, &t.actions);
        // Rule: a later outcome of a `notify` (`quiet`) leaves the faults of its guard and
        // of its first `q` actions to the first outcome, which every outcome meets alike:
        // they disable its rule.
        let quiet = t.quiet.unwrap_or(0);
        let guard_fault = if t.quiet.is_some() { DISABLED } else { FAULTS };
        self.checked_guard(out, t.guard.as_ref(), &scope, guard_fault);
        for (position, action) in t.actions.iter().enumerate() {
            let fault = if position < quiet { DISABLED } else { FAULTS };
            if !self.checked_action(out, action, &scope, fault) {
                break;
            }
        }
        let _ = writeln!(out, "  return {COMPLETES};\nend;\n");
    }

    /// The guard of an outcome function: returns `fault` where it faults, [`DISABLED`]
    /// where it is false.
    pub(super) fn checked_guard(
        &self,
        out: &mut String,
        guard: Option<&Expr>,
        scope: &Scope,
        fault: u32,
    ) {
        if let Some(guard) = guard {
            if let Some(faults) = self.faults(guard, scope) {
                let _ = writeln!(out, "  if {faults} then return {fault}; endif;");
            }
            let guard = self.expr(guard, scope, true);
            let _ = writeln!(out, "  if !({guard}) then return {DISABLED}; endif;");
        }
    }

    /// One action of an outcome function: returns `fault` on its fault ([`FAULTS`], or
    /// [`DISABLED`] for a fault another transformation reports), [`DISABLED`] on a failed
    /// assume, else writes the copies. False after `exit`, which ends the block.
    pub(super) fn checked_action(
        &self,
        out: &mut String,
        action: &Action,
        scope: &Scope,
        code: u32,
    ) -> bool {
        let thread = scope.thread.expect("actions run in a thread");
        let fault = |out: &mut String, test: Option<String>| {
            if let Some(test) = test {
                let _ = writeln!(out, "  if {test} then return {code}; endif;");
            }
        };
        match action {
            Action::Assign { place, value, .. } => {
                let ty = self.system.var(thread, place.var).ty;
                // Rule: in `a[i] := e` the index is evaluated (and checked) before `e`.
                if let Some((index, _)) = &place.index {
                    fault(out, Some(self.index_faults(index, ty.elements(), scope)));
                }
                fault(out, self.faults(value, scope));
                if let Scalar::Int {
                    lo,
                    hi,
                    wrap: false,
                } = ty.scalar
                {
                    let value = self.expr(value, scope, false);
                    fault(out, Some(format!("({value} < {lo}) | ({value} > {hi})")));
                }
                self.assign(out, "  ", place, value, scope);
            }
            Action::Assert { cond, .. } => {
                fault(out, self.faults(cond, scope));
                fault(out, Some(format!("!({})", self.expr(cond, scope, true))));
            }
            Action::Assume(cond) => {
                fault(out, self.faults(cond, scope));
                let cond = self.expr(cond, scope, true);
                let _ = writeln!(out, "  if !({cond}) then return {DISABLED}; endif;");
            }
            Action::Start {
                thread: target,
                args,
                ..
            } => {
                let started = &self.system.threads[*target];
                let status = scope.var(self.status(*target));
                fault(
                    out,
                    Some(format!("{status}[0] != {}", started.not_started_status())),
                );
                for (arg, &param) in args.iter().zip(&started.start_params) {
                    fault(out, self.faults(arg, scope));
                    let scalar = started.locals[param].ty.scalar;
                    // Rule: an argument outside the parameter's type is a range error,
                    // never wrapped.
                    if let Scalar::Int { lo, hi, .. } = scalar {
                        let value = self.expr(arg, scope, false);
                        fault(out, Some(format!("({value} < {lo}) | ({value} > {hi})")));
                    }
                    let value = self.expr(arg, scope, scalar == Scalar::Bool);
                    let local = scope.var(self.local(*target, param));
                    let _ = writeln!(out, "  {local}[0] := {value};");
                }
                let _ = writeln!(out, "  {status}[0] := 0;");
            }
            Action::Exit => return false,
        }
        true
    }

    /// A test that evaluating `index` faults or gives a value outside `0..len`.
    pub(super) fn index_faults(&self, index: &Expr, len: u32, scope: &Scope) -> String {
        let value = self.expr(index, scope, false);
        let outside = format!("(({value} < 0) | ({value} >= {len}))");
        any([self.faults(index, scope), Some(outside)]).unwrap_or_default()
    }

    /// A Murphi test, itself without faults, that BIR's evaluation of `expr` faults (`None`
    /// when it cannot): operands left to right, `&&`, `||`, `?:` and quantifiers
    /// short-circuited as BIR evaluates them, so that only faults the evaluation reaches
    /// count.
    pub(super) fn faults(&self, expr: &Expr, scope: &Scope) -> Option<String> {
        let thread = scope.thread;
        match expr {
            Expr::Bool(_)
            | Expr::Int(_)
            | Expr::Read(_)
            | Expr::InstanceIndex
            | Expr::QuantVar(_) => None,
            Expr::Not(inner) | Expr::Neg(inner, _) => self.faults(inner, scope),
            Expr::Element { var, index, .. } => {
                let len = match (var, thread) {
                    (VarRef::Global(id), _) => self.system.globals[*id].ty.elements(),
                    (VarRef::Local(id), Some(thread)) => {
                        self.system.threads[thread].locals[*id].ty.elements()
                    }
                    (VarRef::Local(_), None) => 1,
                };
                Some(self.index_faults(index, len, scope))
            }
            Expr::Arith {
                lhs, rhs, division, ..
            } => {
                let zero = division.map(|_| format!("({} = 0)", self.expr(rhs, scope, false)));
                any([self.faults(lhs, scope), self.faults(rhs, scope), zero])
            }
            Expr::Cmp { lhs, rhs, .. } => any([self.faults(lhs, scope), self.faults(rhs, scope)]),
            Expr::And(lhs, rhs) | Expr::Or(lhs, rhs) => {
                // The right operand runs when the left one does not decide.
                let negate = if matches!(expr, Expr::Or(..)) {
                    "!"
                } else {
                    ""
                };
                let left = self.expr(lhs, scope, true);
                let right = self
                    .faults(rhs, scope)
                    .map(|faults| format!("({negate}({left}) & {faults})"));
                any([self.faults(lhs, scope), right])
            }
            Expr::Cond {
                cond,
                then,
                otherwise,
            } => {
                let (then, otherwise) = (self.faults(then, scope), self.faults(otherwise, scope));
                let branch = (then.is_some() || otherwise.is_some()).then(|| {
                    let [then, otherwise] =
                        [then, otherwise].map(|f| f.unwrap_or_else(|| "false".into()));
                    format!("({} ? {then} : {otherwise})", self.expr(cond, scope, true))
                });
                any([self.faults(cond, scope), branch])
            }
            Expr::At {
                thread: target,
                instance,
                ..
            } => instance.as_ref().map(|(index, _)| {
                let count = self.system.threads[*target].instances();
                self.index_faults(index, count, scope)
            }),
            Expr::Quant {
                forall,
                var,
                lo,
                hi,
                body,
            } => {
                let faults = self.faults(body, scope).filter(|_| lo < hi)?;
                // The body faults at some value that the loop reaches: every value before
                // it neither faulted nor stopped the loop (a false body for `forall`, a
                // true one for `exists`).
                let q = scope.quant(*var);
                let earlier_name = format!("{q}e");
                let mut earlier = scope.clone();
                earlier.renamed.push((*var, earlier_name.clone()));
                let continues = if *forall { "" } else { "!" };
                let mut went_on = format!("{continues}({})", self.expr(body, &earlier, true));
                if let Some(earlier_faults) = self.faults(body, &earlier) {
                    went_on = format!("!({earlier_faults}) & {went_on}");
                }
                Some(format!(
                    "(exists {q}: {lo}..{last} do ({faults}) & (forall {earlier_name}: \
                     {lo}..{last} do ({earlier_name} >= {q}) | ({went_on}) endforall) endexists)",
                    last = hi - 1,
                ))
            }
        }
    }
}

/// The disjunction of the tests given, `None` when there is none.
fn any<const N: usize>(tests: [Option<String>; N]) -> Option<String> {
    let tests: Vec<String> = tests.into_iter().flatten().collect();
    match tests.len() {
        0 => None,
        1 => tests.into_iter().next(),
        _ => Some(format!("({})", tests.join(" | "))),
    }
}
