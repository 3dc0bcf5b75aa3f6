//! The checked model written in Promela with its `ltl` properties, so that SPIN can check
//! them and count its states and transitions: the LTL differential against SPIN on random
//! models (`bir-difftest`'s test `spin`) and the count cross-check of the reference models.
//!
//! The state is all in global variables, as bir's is: every global, array element, status
//! and local is a variable of its own (`g_name`, `g_name_3`, `st_Thread_1`,
//! `l<thread>_<instance>_name`), so that each starts at its initial value, with no step
//! before the first state; the hidden globals of buffered channels, locks and call frames
//! are globals like the others. Each thread instance is one process whose body is a loop
//! over its transformations, each one `d_step` (one SPIN step, as one transformation is
//! one BIR step) guarded by the status and the guard (`steps.rs`); the outcomes of a
//! `notify` are transformations like the others. A rendezvous is one of SPIN's, on a
//! channel `chan rdv_N = [0] of {..}`, its blocks run by the receiver (`rendezvous.rs`).
//! A process is therefore enabled exactly when its instance is, as weak fairness
//! (`pan -f`) needs. A last process loops exactly where no instance is enabled: SPIN
//! stutters there as LANGUAGE.md does, but its weak fairness misses a stuttered deadlock
//! (`peers/weak_fairness_stutter.pml`), which a real step does not. Quantifiers are
//! expanded, an array read with a computed index becomes a chain of `->` `:` choices.
//!
//! Counting: with `spin -a -o2 -DCOUNTS`, the stutter process and the `ltl` blocks are
//! left out, the variables that no step reads are kept (`-o2`; SPIN hides them otherwise),
//! and SPIN's states and transitions (pan's `transitions` minus 1, its initial state;
//! compiled with `-DNOREDUCE`) are bir's on every model whose search meets no error.
//!
//! The encoding keeps BIR's semantics where no step faults (Promela checks no ranges and
//! computes on 32 bits): it is for models whose search meets no error. An `assume` that
//! reads what an earlier action of its step writes cannot be written as a guard, and is
//! refused ([`Unsupported`]); an `ltl` property with `X` (SPIN's Debian build has no next
//! operator) or with a predicate that needs `->` `:` (which an `ltl` block reads as
//! implication) is left out, with a comment saying why.

use std::fmt::Write as _;

use super::ident;
use crate::ir::eval::arith_value;
use crate::ir::{Expr, Id, QuantVarId, Scalar, System, ThreadId, ThreadKind, VarRef};
use crate::ltl::Formula;

pub use super::Unsupported;

/// The Promela model of `system` with the `ltl` blocks that SPIN can read.
pub fn promela(system: &System) -> Result<String, Unsupported> {
    super::refuse_records(system, "bir promela")?;
    let writer = Writer {
        system,
        channels: rendezvous::channels(system),
    };
    let mut out = format!(
        "/* The BIR system `{}`, written for SPIN (spin -a; pan -a [-f] -N NAME). With\n   \
         spin -a -o2 -DCOUNTS (no stutter, no ltl; pan.c compiled with -DNOREDUCE), pan's\n   \
         states and transitions minus 1 are bir's states and transitions. */\n\n",
        system.name
    );
    writer.variables(&mut out);
    writer.channel_declarations(&mut out);
    let mut enabled = Vec::new();
    for (id, thread) in system.threads.iter_enumerated() {
        for instance in 0..thread.instances() {
            writer.process(&mut out, id, instance, &mut enabled)?;
        }
    }
    let anything = if enabled.is_empty() {
        "false".to_string()
    } else {
        enabled.join(" || ")
    };
    let _ = writeln!(
        out,
        "#ifndef COUNTS\n\
         /* No instance is enabled: the stutter of a deadlock or of an end, as a step. */\n\
         active proctype stutter() {{\n  do :: d_step {{ !({anything}) }} od\n}}\n"
    );
    for property in &system.properties {
        let Some(formula) = &property.formula else {
            continue;
        };
        match writer.ltl(formula, &property.atoms) {
            Ok(text) => {
                let _ = writeln!(out, "ltl {} {{ {text} }}", property.name);
            }
            Err(why) => {
                let _ = writeln!(out, "/* ltl {} left out: {why} */", property.name);
            }
        }
    }
    out.push_str("#endif\n");
    Ok(out)
}

struct Writer<'a> {
    system: &'a System,
    /// The rendezvous channels, by the IR's channel number.
    channels: rendezvous::Channels,
}

/// An integer as Promela reads it: `0 - n` for a negative one, not `-n`, which SPIN's `ltl`
/// parser reads after `<` as the start of `<->`.
fn literal(value: i64) -> String {
    if value < 0 {
        format!("(0 - {})", value.unsigned_abs())
    } else {
        value.to_string()
    }
}

/// Where an expression is evaluated: by which instance of which thread (none in a
/// property), with which values of the quantifiers around it, whether `->` `:` may be
/// used (not in an `ltl` block), and whether a division must not fault (`safe`).
#[derive(Clone)]
struct Scope {
    thread: Option<(ThreadId, u32)>,
    quants: Vec<(QuantVarId, i64)>,
    choices: bool,
    /// Where SPIN evaluates what bir may not (a rendezvous's values and assumes, before
    /// it knows the partner): `/` and `%` by zero give 0 instead of stopping pan, and
    /// where the value mattered bir's transition faults (a model SPIN is not held to).
    safe: bool,
}

impl Scope {
    /// A step of instance `instance` of `thread`.
    fn step(thread: ThreadId, instance: u32) -> Scope {
        Scope {
            thread: Some((thread, instance)),
            quants: Vec::new(),
            choices: true,
            safe: false,
        }
    }
}

type Written = Result<String, String>;

impl Writer<'_> {
    fn global(&self, id: crate::ir::GlobalId) -> String {
        let name = &self.system.globals[id].name;
        format!("g_{}", ident(name, || id.index().to_string()))
    }

    fn status(&self, thread: ThreadId, instance: u32) -> String {
        let name = &self.system.threads[thread].name;
        format!(
            "st_{}_{instance}",
            ident(name, || thread.index().to_string())
        )
    }

    fn local(&self, thread: ThreadId, instance: u32, id: crate::ir::LocalId) -> String {
        let name = &self.system.threads[thread].locals[id].name;
        format!(
            "l{}_{instance}_{}",
            thread.index(),
            ident(name, || id.index().to_string())
        )
    }

    /// Declares `name` (an array as one variable per element) with its initial values.
    fn declare(out: &mut String, name: &str, scalar: Scalar, is_array: bool, init: &[i64]) {
        let ty = if scalar == Scalar::Bool {
            "bool"
        } else {
            "int"
        };
        for (element, value) in init.iter().enumerate() {
            let suffix = if is_array {
                format!("_{element}")
            } else {
                String::new()
            };
            let _ = writeln!(out, "{ty} {name}{suffix} = {value};");
        }
    }

    fn variables(&self, out: &mut String) {
        let system = self.system;
        for (id, var) in system.globals.iter_enumerated() {
            Self::declare(
                out,
                &self.global(id),
                var.ty.scalar,
                var.ty.len.is_some(),
                &var.init,
            );
        }
        for (id, thread) in system.threads.iter_enumerated() {
            let status = match thread.kind {
                ThreadKind::Active { .. } => 0,
                ThreadKind::Started => thread.not_started_status(),
            };
            for instance in 0..thread.instances() {
                let _ = writeln!(out, "int {} = {status};", self.status(id, instance));
                for (local, var) in thread.locals.iter_enumerated() {
                    let name = self.local(id, instance, local);
                    Self::declare(out, &name, var.ty.scalar, var.ty.len.is_some(), &var.init);
                }
            }
        }
        out.push('\n');
    }

    /// The value of `expr` when the scope fixes it (constants, the instance's index, the
    /// quantifiers' values, and arithmetic on them).
    fn constant(&self, expr: &Expr, scope: &Scope) -> Option<i64> {
        match expr {
            Expr::Int(value) => Some(*value),
            Expr::Bool(value) => Some(i64::from(*value)),
            Expr::InstanceIndex => scope.thread.map(|(_, instance)| i64::from(instance)),
            Expr::QuantVar(id) => scope
                .quants
                .iter()
                .rev()
                .find(|(q, _)| q == id)
                .map(|q| q.1),
            Expr::Neg(inner, _) => self.constant(inner, scope)?.checked_neg(),
            Expr::Arith { op, lhs, rhs, .. } => {
                let (lhs, rhs) = (self.constant(lhs, scope)?, self.constant(rhs, scope)?);
                arith_value(*op, lhs, rhs).ok()
            }
            _ => None,
        }
    }

    /// One of `count` values chosen by `index`: directly when the scope fixes it, else a
    /// chain of `->` `:` (an error in an `ltl` block).
    fn choose(
        &self,
        index: &Expr,
        count: u32,
        scope: &Scope,
        value: impl Fn(u32) -> String,
    ) -> Written {
        if let Some(index) = self.constant(index, scope) {
            // A constant index outside the array is never evaluated in a run without faults.
            return Ok(u32::try_from(index)
                .ok()
                .filter(|i| *i < count)
                .map_or_else(|| "0".to_string(), &value));
        }
        if !scope.choices {
            return Err("a predicate indexes with a computed value".into());
        }
        let index = self.expr(index, scope)?;
        let mut chain = value(count - 1);
        for element in (0..count - 1).rev() {
            chain = format!("(({index}) == {element} -> {} : {chain})", value(element));
        }
        Ok(chain)
    }

    /// `expr` in Promela.
    fn expr(&self, expr: &Expr, scope: &Scope) -> Written {
        Ok(match expr {
            Expr::Bool(value) => value.to_string(),
            Expr::Int(value) => literal(*value),
            Expr::InstanceIndex | Expr::QuantVar(_) => {
                literal(self.constant(expr, scope).unwrap_or_default())
            }
            Expr::Read(var) => self.var_name(*var, scope),
            Expr::Element { var, index, .. } => {
                let base = self.var_name(*var, scope);
                let len = match (var, scope.thread) {
                    (VarRef::Global(id), _) => self.system.globals[*id].ty.elements(),
                    (VarRef::Local(id), Some((thread, _))) => {
                        self.system.threads[thread].locals[*id].ty.elements()
                    }
                    (VarRef::Local(_), None) => 1,
                };
                self.choose(index, len, scope, |element| format!("{base}_{element}"))?
            }
            Expr::Not(inner) => format!("!({})", self.expr(inner, scope)?),
            Expr::Neg(inner, _) => format!("(0 - {})", self.expr(inner, scope)?),
            Expr::Arith {
                op,
                lhs,
                rhs,
                division,
                ..
            } => {
                let (lhs, rhs) = (self.expr(lhs, scope)?, self.expr(rhs, scope)?);
                let op = op.symbol();
                if scope.safe && division.is_some() && scope.choices {
                    format!("((({rhs}) == 0) -> 0 : ({lhs} {op} {rhs}))")
                } else {
                    format!("({lhs} {op} {rhs})")
                }
            }
            Expr::Cmp { op, lhs, rhs } => {
                let op = op.symbol();
                format!(
                    "({} {op} {})",
                    self.expr(lhs, scope)?,
                    self.expr(rhs, scope)?
                )
            }
            Expr::And(lhs, rhs) => {
                format!("({} && {})", self.expr(lhs, scope)?, self.expr(rhs, scope)?)
            }
            Expr::Or(lhs, rhs) => {
                format!("({} || {})", self.expr(lhs, scope)?, self.expr(rhs, scope)?)
            }
            Expr::Cond {
                cond,
                then,
                otherwise,
            } => {
                if !scope.choices {
                    return Err("a predicate has `? :`".into());
                }
                format!(
                    "(({}) -> ({}) : ({}))",
                    self.expr(cond, scope)?,
                    self.expr(then, scope)?,
                    self.expr(otherwise, scope)?
                )
            }
            Expr::At {
                thread,
                instance,
                location,
            } => {
                let at = |instance: u32| {
                    format!(
                        "({} == {})",
                        self.status(*thread, instance),
                        location.index()
                    )
                };
                match instance {
                    Some((index, _)) => {
                        let count = self.system.threads[*thread].instances();
                        self.choose(index, count, scope, at)?
                    }
                    None => at(0),
                }
            }
            Expr::Quant {
                forall,
                var,
                lo,
                hi,
                body,
            } => {
                let (join, empty) = if *forall {
                    (" && ", "true")
                } else {
                    (" || ", "false")
                };
                let mut parts = Vec::new();
                for value in *lo..*hi {
                    let mut inner = scope.clone();
                    inner.quants.push((*var, value));
                    parts.push(self.expr(body, &inner)?);
                }
                if parts.is_empty() {
                    empty.to_string()
                } else {
                    format!("({})", parts.join(join))
                }
            }
        })
    }

    /// An `ltl` formula in SPIN's syntax, each atom in parentheses.
    fn ltl(&self, formula: &Formula, atoms: &[Expr]) -> Written {
        let scope = Scope {
            thread: None,
            quants: Vec::new(),
            choices: false,
            safe: false,
        };
        let binary = |op: &str, lhs: &Formula, rhs: &Formula| -> Written {
            Ok(format!(
                "({} {op} {})",
                self.ltl(lhs, atoms)?,
                self.ltl(rhs, atoms)?
            ))
        };
        match formula {
            Formula::True => Ok("true".into()),
            Formula::False => Ok("false".into()),
            Formula::Atom(n) => Ok(format!("({})", self.expr(&atoms[*n as usize], &scope)?)),
            Formula::Not(inner) => Ok(format!("!({})", self.ltl(inner, atoms)?)),
            Formula::Always(inner) => Ok(format!("[]({})", self.ltl(inner, atoms)?)),
            Formula::Eventually(inner) => Ok(format!("<>({})", self.ltl(inner, atoms)?)),
            Formula::Next(_) => Err("it has `X`, which SPIN's Debian build lacks".into()),
            Formula::And(lhs, rhs) => binary("&&", lhs, rhs),
            Formula::Or(lhs, rhs) => binary("||", lhs, rhs),
            Formula::Implies(lhs, rhs) => binary("->", lhs, rhs),
            Formula::Equiv(lhs, rhs) => binary("<->", lhs, rhs),
            Formula::Until(lhs, rhs) => binary("U", lhs, rhs),
            Formula::WeakUntil(lhs, rhs) => binary("W", lhs, rhs),
            Formula::Release(lhs, rhs) => binary("V", lhs, rhs),
        }
    }
}

mod rendezvous;
mod steps;
#[cfg(test)]
mod tests;
