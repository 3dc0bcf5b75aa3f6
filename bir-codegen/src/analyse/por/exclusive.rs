//! When two transformations of one location can never be enabled together because of
//! what the instance alone holds: a conjunct of one guard and a conjunct of the other that
//! read only the instance's scalar locals (and `index` and constants) and are never both
//! true (`!done` and `done`, `kind == 1` and `kind == 2`, `passive` and `!passive`).
//!
//! Partial-order reduction needs it where the steps of a location wait for different
//! lengths of a channel ([`super::channels`]): while one step is enabled, the other must
//! not be one that another instance could enable. A step whose local conjunct is false
//! stays disabled whatever the other instances do, until the instance itself moves, which
//! it does only by a step of the location; so a location whose steps wait for different
//! lengths is still safe when each such pair is exclusive so.
//!
//! The check is by enumeration, over the values of the locals the two conjuncts read (at
//! most [`MAX_ASSIGNMENTS`] combinations) and each instance's `index`: a conjunct that
//! faults counts as true (the step would be an error step, which is enabled).

use crate::ir::{self, eval, Expr, LocalId, Scalar, ThreadId, VarRef};

/// The most combinations of values one pair of conjuncts is tried at.
const MAX_ASSIGNMENTS: u64 = 1 << 12;

/// True when guards `a` and `b` of transformations of `thread` are never both true, by a
/// pair of their conjuncts over the instance's scalar locals.
pub(super) fn exclusive(
    system: &ir::System,
    thread: ThreadId,
    a: Option<&Expr>,
    b: Option<&Expr>,
) -> bool {
    let (Some(a), Some(b)) = (a, b) else {
        return false;
    };
    let thread = &system.threads[thread];
    let (left, right) = (local_conjuncts(thread, a), local_conjuncts(thread, b));
    left.iter().any(|(x, x_vars)| {
        right.iter().any(|(y, y_vars)| {
            let mut vars = x_vars.clone();
            vars.extend(y_vars);
            vars.sort();
            vars.dedup();
            never_both(system, thread, x, y, &vars)
        })
    })
}

/// The conjuncts of `guard` that read nothing but scalar locals, `index` and constants,
/// each with the locals it reads, among those evaluated before any conjunct that may fault:
/// a false one makes the guard false only if no fault comes first (the conjuncts are
/// evaluated left to right, and a fault is an error step, which is enabled; a length that
/// another instance changes could let the evaluation reach such a fault).
fn local_conjuncts<'e>(thread: &ir::Thread, guard: &'e Expr) -> Vec<(&'e Expr, Vec<LocalId>)> {
    let mut conjuncts = Vec::new();
    let mut stack = vec![guard];
    while let Some(expr) = stack.pop() {
        if let Expr::And(lhs, rhs) = expr {
            stack.push(rhs);
            stack.push(lhs);
            continue;
        }
        let mut vars = Vec::new();
        if locals_only(thread, expr, &mut vars) {
            conjuncts.push((expr, vars));
        }
        if !cannot_fault(expr) {
            break;
        }
    }
    conjuncts
}

/// True when evaluating `expr` cannot fault: no index, no division, no multiplication, no
/// quantifier; sums and differences of the model's bounded values stay far from 64 bits.
fn cannot_fault(expr: &Expr) -> bool {
    let this = match expr {
        Expr::Element { .. } | Expr::Quant { .. } | Expr::At { .. } => false,
        Expr::Arith { op, .. } => matches!(op, ir::ArithOp::Add | ir::ArithOp::Sub),
        _ => true,
    };
    this && expr.children().all(cannot_fault)
}

/// True when `expr` reads only scalar locals of `thread` (pushed on `vars`), `index`,
/// constants and quantified variables.
fn locals_only(thread: &ir::Thread, expr: &Expr, vars: &mut Vec<LocalId>) -> bool {
    let this = match expr {
        Expr::Read(VarRef::Local(local)) => {
            vars.push(*local);
            thread.locals[*local].ty.len.is_none()
        }
        Expr::Read(VarRef::Global(_)) | Expr::Element { .. } | Expr::At { .. } => false,
        _ => true,
    };
    this && expr
        .children()
        .all(|child| locals_only(thread, child, vars))
}

/// The values of a scalar type, when there are few enough to try.
fn values(system: &ir::System, scalar: Scalar) -> Option<(i64, i64)> {
    let (lo, hi) = match scalar {
        Scalar::Bool => (0, 1),
        Scalar::Int { lo, hi, .. } => (lo, hi),
        Scalar::Enum(id) => (0, system.enums[id].variants.len() as i64 - 1),
        Scalar::Ref { bound, .. } => (0, i64::from(bound)),
        Scalar::Tid { instances } => (0, i64::from(instances)),
    };
    (hi.checked_sub(lo)? < MAX_ASSIGNMENTS as i64).then_some((lo, hi))
}

/// True when `x` and `y` are never both true (a fault counting as true) at any values of
/// `vars` within their types and any instance's `index`.
fn never_both(
    system: &ir::System,
    thread: &ir::Thread,
    x: &Expr,
    y: &Expr,
    vars: &[LocalId],
) -> bool {
    let mut ranges = Vec::new();
    let mut combinations: u64 = 1;
    for &var in vars {
        let Some((lo, hi)) = values(system, thread.locals[var].ty.scalar) else {
            return false;
        };
        combinations = combinations.saturating_mul((hi - lo + 1) as u64);
        ranges.push((lo, hi));
    }
    if combinations > MAX_ASSIGNMENTS {
        return false;
    }
    let mut env = Assignment {
        vars,
        values: ranges.iter().map(|&(lo, _)| lo).collect(),
        index: 0,
    };
    for index in 0..i64::from(thread.instances()) {
        env.index = index;
        env.values = ranges.iter().map(|&(lo, _)| lo).collect();
        loop {
            let holds = |expr: &Expr| !matches!(eval::Evaluator::new(&env).eval(expr), Ok(0));
            if holds(x) && holds(y) {
                return false;
            }
            // The next combination, the first variable fastest.
            let mut at = 0;
            while let Some(&(lo, hi)) = ranges.get(at) {
                if env.values[at] < hi {
                    env.values[at] += 1;
                    break;
                }
                env.values[at] = lo;
                at += 1;
            }
            if at == ranges.len() {
                break;
            }
        }
    }
    true
}

/// Values of some scalar locals and the instance's `index`: what a local conjunct reads.
struct Assignment<'a> {
    vars: &'a [LocalId],
    values: Vec<i64>,
    index: i64,
}

impl eval::Env for Assignment<'_> {
    fn len(&self, var: VarRef) -> Option<u32> {
        matches!(var, VarRef::Local(_)).then_some(1)
    }
    fn instances(&self, _: ThreadId) -> Option<u32> {
        None
    }
    fn read(&self, var: VarRef, element: u32) -> Option<i64> {
        let VarRef::Local(local) = var else {
            return None;
        };
        let at = self.vars.iter().position(|&v| v == local)?;
        (element == 0).then(|| self.values[at])
    }
    fn status(&self, _: ThreadId, _: u32) -> Option<i64> {
        None
    }
    fn instance_index(&self) -> Option<i64> {
        Some(self.index)
    }
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use proc_macro2::TokenStream;

    use super::*;
    use crate::ir::TransformId;

    /// Whether the guards of transformations `a` and `b` of the first thread are exclusive.
    fn pair(source: &str, a: u32, b: u32) -> bool {
        let tokens = TokenStream::from_str(source).expect("tokenizes");
        let system = crate::front_end(tokens)
            .unwrap_or_else(|d| panic!("{:?}", d.iter().map(|d| &d.message).collect::<Vec<_>>()));
        let thread = &system.threads[ThreadId(0)];
        let guard = |t: u32| thread.transforms[TransformId(t)].guard.as_ref();
        exclusive(&system, ThreadId(0), guard(a), guard(b))
    }

    #[test]
    fn conjuncts_over_the_instance_s_locals_that_contradict_each_other() {
        let model = "system S {
            int (0, 3) g;
            active [2] thread T(int index) {
                int (0, 2) kind;
                boolean done;
                int (0, 28) number;
                loc l: when !done && kind == 1 do { } goto l;
                       when done do { } goto l;
                       when kind == 2 && g == 1 do { } goto l;
                       when g == 1 do { } goto l;
                       when number == (index * 11) % 29 do { } goto l;
                       when number != (index * 11) % 29 && !done do { } goto l;
                       when number / kind == 1 do { } goto l;
                       when kind == 0 do { } goto l;
                       when number / 2 == g && !done do { } goto l;
            }
        }";
        assert!(pair(model, 0, 1)); // `!done`, `done`
        assert!(pair(model, 0, 2)); // `kind == 1`, `kind == 2`
        assert!(!pair(model, 0, 3)); // `g == 1` reads a global
        assert!(!pair(model, 2, 3));
        assert!(pair(model, 4, 5)); // the instance's own number, or not
        assert!(!pair(model, 5, 0)); // `!done` in both
                                     // `number / kind` faults at kind 0: it may be an error step when `kind == 0`.
        assert!(!pair(model, 6, 7));
        assert!(!pair(model, 6, 0));
        // Nor does a conjunct after one that may fault count: the fault may come first.
        assert!(!pair(model, 8, 1));
    }
}
