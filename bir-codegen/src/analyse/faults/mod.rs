//! Faults that the model's constants make certain: an index outside its array (`a[2]` on
//! `boolean[2] a`), a division or remainder by zero (`x / 0`, `x % Param.Z`), a value
//! written outside a variable's range (`x := 5` on `int (0, 3) x`) or passed outside a
//! parameter's (`start T(5)`), an overflow of constants alone.
//!
//! Rule (LANGUAGE.md, "Compile-time checks"): such a fault is never a compile error. It is a
//! run-time error where the search reaches it and nothing where it does not, so a model that
//! has one compiles and is checked as any other; `bir!` and `bir check` only warn about it.
//! A warning must never stand on something that can be fine at run time, so only constant
//! operands count (literals, named constants, constant expressions, folded by the rules
//! of [`crate::ir::eval`]), and only where every execution of the step (or evaluation of
//! the guard or invariant) that gets there evaluates them: not in the branch of a `? :`,
//! the right operand of `&&` or `||`, the body of a quantifier over an empty range, nor
//! after what ends a step before (`exit`, an `assume` or `assert` of the constant false, a
//! guard that is the constant false, or an earlier certain fault: only the first of a step
//! is reported). A value that differs between instances (`index`) is not a constant.

use crate::diag::Spans;
use crate::ir::eval::{arith, compare, EvalError};
use crate::ir::{self, Action, ArithOp, Expr, FaultKind, Scalar, SiteId, ThreadId, VarRef};

/// A fault that every evaluation reaching its construct meets, found at compile time.
#[derive(Clone, Debug)]
pub struct ConstantFault {
    /// The operand that makes it fault (the index, the divisor, the value written), or the
    /// whole construct where no one operand does (an overflow).
    pub spans: Spans,
    /// The run-time error's own message, then which evaluations meet it.
    pub message: String,
    /// The kind of run-time error it is.
    pub kind: FaultKind,
}

/// Every certain fault of `system`'s transformations and invariants, in source order (as
/// far as spans tell it; otherwise threads, transformations, then invariants in
/// declaration order).
pub fn constant_faults(system: &ir::System) -> Vec<ConstantFault> {
    let mut found = Vec::new();
    for (id, thread) in system.threads.iter_enumerated() {
        let walk = Walk {
            system,
            thread: Some(id),
        };
        for transform in &thread.transforms {
            found.extend(walk.transform(transform));
        }
    }
    let walk = Walk {
        system,
        thread: None,
    };
    for invariant in &system.invariants {
        if let Outcome::Fault(site, value) = walk.expr(&invariant.cond) {
            let reached = format!("every evaluation of invariant `{}`", invariant.name);
            found.push(walk.report(site, value, &reached));
        }
    }
    found.sort_by_key(|fault| {
        let start = fault.spans.first.start();
        (start.line, start.column)
    });
    // The translation to steps copies an `if`'s or a `while`'s condition into the guards
    // of its branches: one fault in the source is one warning.
    let mut seen = std::collections::HashSet::new();
    found.retain(|fault| {
        let start = fault.spans.first.start();
        start.line == 0 || seen.insert((start.line, start.column, fault.message.clone()))
    });
    found
}

/// What every evaluation of an expression does, as far as constants tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    /// It has this value (booleans as 0/1).
    Value(i64),
    /// It faults at this site, with this offending value.
    Fault(SiteId, i64),
    /// It depends on the state, and what is evaluated in every case does not fault for
    /// certain.
    Unknown,
}

/// Walks the expressions of one thread (or, without one, of the invariants).
struct Walk<'a> {
    system: &'a ir::System,
    thread: Option<ThreadId>,
}

impl Walk<'_> {
    /// The first certain fault of a transformation: in its guard, or in the actions that
    /// run after it in order.
    fn transform(&self, transform: &ir::Transform) -> Option<ConstantFault> {
        if let Some(guard) = &transform.guard {
            match self.expr(guard) {
                Outcome::Fault(site, value) => {
                    return Some(self.report(site, value, "every evaluation of this guard"));
                }
                // Never enabled: its actions never run.
                Outcome::Value(0) => return None,
                _ => {}
            }
        }
        let step = "every execution of this step";
        for action in &transform.actions {
            match self.action(action) {
                Continue::Next => {}
                Continue::Stop => return None,
                Continue::Fault(site, value) => return Some(self.report(site, value, step)),
            }
        }
        None
    }

    /// What running `action` tells about the rest of its step.
    fn action(&self, action: &Action) -> Continue {
        match action {
            Action::Assign { place, value, site } => {
                // Rule: the index is evaluated (and checked) before the value.
                if let Some((index, index_site)) = &place.index {
                    let len = self.var(place.var).map(|var| var.ty.elements());
                    if let Some(fault) = self.index(index, len, *index_site) {
                        return fault.into();
                    }
                }
                match self.expr(value) {
                    Outcome::Fault(site, value) => Continue::Fault(site, value),
                    Outcome::Value(value) => match self.var(place.var).map(|var| var.ty.scalar) {
                        // A wrapping type wraps; booleans and enum values are in their
                        // type by the checker's typing rules.
                        Some(scalar @ Scalar::Int { wrap: false, .. })
                            if !scalar.contains(value, &self.system.enums) =>
                        {
                            Continue::Fault(*site, value)
                        }
                        _ => Continue::Next,
                    },
                    Outcome::Unknown => Continue::Next,
                }
            }
            // A condition that is the constant false is no fault reported here: the step
            // goes no further (`assert (false)` marks a location that must not be reached,
            // `assume (false)` discards the step).
            Action::Assert { cond, .. } | Action::Assume(cond) => match self.expr(cond) {
                Outcome::Fault(site, value) => Continue::Fault(site, value),
                Outcome::Value(0) => Continue::Stop,
                _ => Continue::Next,
            },
            Action::Start {
                thread,
                args,
                arg_sites,
                ..
            } => {
                // The arguments are evaluated after the check that the thread has not
                // started (for a pool: before the free instance is taken) and refused
                // outside the parameter's type (never wrapped, except by a pool's wrap
                // parameter). A pool's start error depends on the state, so only the
                // arguments' faults are certain; the first one met is reported.
                let target = &self.system.threads[*thread];
                for ((arg, local), site) in args.iter().zip(&target.start_params).zip(arg_sites) {
                    let scalar = target.locals[*local].ty.scalar;
                    let wraps =
                        target.is_pool() && matches!(scalar, Scalar::Int { wrap: true, .. });
                    match self.expr(arg) {
                        Outcome::Fault(site, value) => return Continue::Fault(site, value),
                        Outcome::Value(value)
                            if !wraps && !scalar.contains(value, &self.system.enums) =>
                        {
                            return Continue::Fault(*site, value)
                        }
                        Outcome::Value(_) => {}
                        Outcome::Unknown => return Continue::Next,
                    }
                }
                Continue::Next
            }
            Action::Exit => Continue::Stop,
        }
    }

    /// What every evaluation of `expr` does.
    fn expr(&self, expr: &Expr) -> Outcome {
        match expr {
            Expr::Bool(value) => Outcome::Value(i64::from(*value)),
            Expr::Int(value) => Outcome::Value(*value),
            Expr::Read(_) | Expr::InstanceIndex | Expr::QuantVar(_) => Outcome::Unknown,
            Expr::Element { var, index, site } => {
                let len = self.var(*var).map(|var| var.ty.elements());
                self.index(index, len, *site).unwrap_or(Outcome::Unknown)
            }
            Expr::At {
                thread, instance, ..
            } => match instance {
                Some((index, site)) => {
                    let count = self.system.threads[*thread].instances();
                    self.index(index, Some(count), *site)
                        .unwrap_or(Outcome::Unknown)
                }
                None => Outcome::Unknown,
            },
            Expr::Not(inner) => match self.expr(inner) {
                Outcome::Value(value) => Outcome::Value(i64::from(value == 0)),
                other => other,
            },
            Expr::Neg(inner, site) => match self.expr(inner) {
                Outcome::Value(value) => value
                    .checked_neg()
                    .map_or(Outcome::Fault(*site, 0), Outcome::Value),
                other => other,
            },
            Expr::Arith {
                op,
                lhs,
                rhs,
                overflow,
                division,
            } => {
                let (lhs, rhs) = match self.both(lhs, rhs) {
                    Ok(operands) => operands,
                    Err(fault) => return fault,
                };
                match (lhs, rhs) {
                    (Outcome::Value(lhs), Outcome::Value(rhs)) => {
                        match arith(*op, lhs, rhs, *overflow, *division) {
                            Ok(value) => Outcome::Value(value),
                            Err(EvalError::Fault { site, value }) => Outcome::Fault(site, value),
                            Err(EvalError::NotConstant) => Outcome::Unknown,
                        }
                    }
                    // Whatever the dividend, a zero divisor fails.
                    (_, Outcome::Value(0)) if matches!(op, ArithOp::Div | ArithOp::Rem) => {
                        division.map_or(Outcome::Unknown, |site| Outcome::Fault(site, 0))
                    }
                    _ => Outcome::Unknown,
                }
            }
            Expr::Cmp { op, lhs, rhs } => match self.both(lhs, rhs) {
                Ok((Outcome::Value(lhs), Outcome::Value(rhs))) => {
                    Outcome::Value(i64::from(compare(*op, lhs, rhs)))
                }
                Ok(_) => Outcome::Unknown,
                Err(fault) => fault,
            },
            // The right operand is evaluated only where the left one does not decide:
            // certain only when the left one is a constant that does not.
            Expr::And(lhs, rhs) => match self.expr(lhs) {
                Outcome::Value(0) => Outcome::Value(0),
                Outcome::Value(_) => truth(self.expr(rhs)),
                other => other,
            },
            Expr::Or(lhs, rhs) => match self.expr(lhs) {
                Outcome::Value(0) => truth(self.expr(rhs)),
                Outcome::Value(_) => Outcome::Value(1),
                other => other,
            },
            Expr::Cond {
                cond,
                then,
                otherwise,
            } => match self.expr(cond) {
                Outcome::Value(0) => self.expr(otherwise),
                Outcome::Value(_) => self.expr(then),
                other => other,
            },
            // The body is evaluated at least once, unless the range is empty; a body that
            // does not depend on the variable has one value for all.
            Expr::Quant {
                forall,
                lo,
                hi,
                body,
                ..
            } => {
                if lo >= hi {
                    Outcome::Value(i64::from(*forall))
                } else {
                    truth(self.expr(body))
                }
            }
        }
    }

    /// Both operands of a binary operator, evaluated in order: the first certain fault
    /// is the outcome of the whole.
    fn both(&self, lhs: &Expr, rhs: &Expr) -> Result<(Outcome, Outcome), Outcome> {
        let lhs = self.expr(lhs);
        if let Outcome::Fault(..) = lhs {
            return Err(lhs);
        }
        let rhs = self.expr(rhs);
        if let Outcome::Fault(..) = rhs {
            return Err(rhs);
        }
        Ok((lhs, rhs))
    }

    /// The certain fault of an index into `len` elements (or instances), checked at
    /// `site`: one in the index itself, or a constant index outside `0..len` (when the
    /// length is known).
    fn index(&self, index: &Expr, len: Option<u32>, site: SiteId) -> Option<Outcome> {
        match self.expr(index) {
            fault @ Outcome::Fault(..) => Some(fault),
            Outcome::Value(value)
                if len.is_some_and(|len| !(0..i64::from(len)).contains(&value)) =>
            {
                Some(Outcome::Fault(site, value))
            }
            _ => None,
        }
    }

    /// The variable `var` as seen by the walked thread (globals only, for invariants).
    fn var(&self, var: VarRef) -> Option<&ir::Var> {
        match (var, self.thread) {
            (VarRef::Global(id), _) => Some(&self.system.globals[id]),
            (VarRef::Local(_), Some(thread)) => Some(self.system.var(thread, var)),
            (VarRef::Local(_), None) => None,
        }
    }

    /// The warning of the fault at `site` with the offending `value`, which `reached`
    /// ("every execution of this step") meets.
    fn report(&self, site: SiteId, value: i64, reached: &str) -> ConstantFault {
        let fault = &self.system.fault_sites[site];
        let what = fault.message.replace("{value}", &value.to_string());
        let error = match fault.kind {
            FaultKind::Assertion => "an assertion error",
            FaultKind::Range => "a range error",
            FaultKind::Index => "an index error",
            FaultKind::Division => "a division error",
            FaultKind::Start => "a start error",
            FaultKind::Stack => "a stack error",
            FaultKind::Lock => "a lock error",
            FaultKind::Heap => "a heap error",
            FaultKind::Null => "a null error",
            FaultKind::UncaughtException => "an uncaught exception",
        };
        ConstantFault {
            spans: self.system.site_spans[site],
            message: format!("{what}, so {reached} that gets here is {error}"),
            kind: fault.kind,
        }
    }
}

/// A boolean operator's value from its operand's: 0 or 1.
fn truth(outcome: Outcome) -> Outcome {
    match outcome {
        Outcome::Value(value) => Outcome::Value(i64::from(value != 0)),
        other => other,
    }
}

/// What an action tells about the rest of its step.
enum Continue {
    /// The next action runs (if the step gets there).
    Next,
    /// No further action runs: the step ended, was discarded or failed without a fault
    /// reported here.
    Stop,
    /// Every execution that gets here faults at this site with this value.
    Fault(SiteId, i64),
}

impl From<Outcome> for Continue {
    fn from(outcome: Outcome) -> Continue {
        match outcome {
            Outcome::Fault(site, value) => Continue::Fault(site, value),
            _ => Continue::Next,
        }
    }
}

#[cfg(test)]
mod tests;
