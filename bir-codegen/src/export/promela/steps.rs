//! The process of each instance: a loop over its transformations, each one `d_step` (one
//! SPIN step, as one transformation is one BIR step) guarded by the status, the guard and
//! the step's assumes, then its actions and its jump; a rendezvous as `rendezvous.rs`
//! writes it.
//!
//! Rule: an `assume` discards its step as a false guard does, so it joins the guard,
//! evaluated in the state before the step. That is its value where it stands when no
//! earlier action of the step writes a variable it reads; otherwise the model is refused.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use super::{Scope, Unsupported, Writer};
use crate::ir::{Action, Expr, Id, Jump, Place, Scalar, ThreadId, Transform, VarRef};

impl Writer<'_> {
    /// The process of one instance; appends to `enabled` when each of its steps is.
    pub(super) fn process(
        &self,
        out: &mut String,
        id: ThreadId,
        instance: u32,
        enabled: &mut Vec<String>,
    ) -> Result<(), Unsupported> {
        let thread = &self.system.threads[id];
        let scope = Scope::step(id, instance);
        let name = thread.instance_name(instance);
        let _ = writeln!(
            out,
            "/* {name} */\nactive proctype p{}_{instance}() {{\n  do",
            id.index()
        );
        let mut options = 0;
        for (transform_id, t) in thread.transforms.iter_enumerated() {
            if t.rendezvous.is_some() {
                // Its own step only meets the faults of its guard and channel index, which
                // a run without faults never does: the pairings are the transitions.
                options += self.rendezvous_options(out, (id, instance, transform_id), enabled)?;
                continue;
            }
            options += 1;
            let guard = self.guard(t, &scope)?;
            enabled.push(guard.clone());
            let _ = write!(out, "  :: d_step {{ {guard}");
            self.actions(out, &t.actions, &scope);
            let status = match t.destination() {
                Jump::Goto(location) => location.index() as i64,
                Jump::Return => thread.ended_status(),
            };
            let _ = writeln!(out, "; {} = {status} }}", self.status(id, instance));
        }
        if options == 0 {
            // A `do` needs an option: this one is never executable.
            out.push_str("  :: false\n");
        }
        out.push_str("  od\n}\n\n");
        Ok(())
    }

    /// The guard of a step: the status, the guard, and its assumes (see the module's rule).
    fn guard(&self, t: &Transform, scope: &Scope) -> Result<String, Unsupported> {
        let (id, instance) = scope.thread.expect("a step runs in an instance");
        let mut parts = vec![format!(
            "{} == {}",
            self.status(id, instance),
            t.location.index()
        )];
        if let Some(guard) = &t.guard {
            parts.push(self.expr(guard, scope).unwrap_or_default());
        }
        let mut written = BTreeSet::new();
        self.assumes(&t.actions, scope, &mut written, &mut parts)
            .map_err(|var| Unsupported(format!("`{}`: {}", t.text, assume_after_write(&var))))?;
        Ok(format!("({})", parts.join(" && ")))
    }

    /// Pushes to `parts` the condition of every assume of `actions` (up to an `exit`), and
    /// adds to `written` what the actions write; `Err` with a variable an assume reads
    /// after an earlier action (or what `written` held) wrote it.
    pub(super) fn assumes(
        &self,
        actions: &[Action],
        scope: &Scope,
        written: &mut BTreeSet<String>,
        parts: &mut Vec<String>,
    ) -> Result<(), String> {
        for action in actions {
            match action {
                Action::Assume(cond) => {
                    let mut read = BTreeSet::new();
                    self.reads(cond, scope, &mut read);
                    if let Some(var) = read.intersection(written).next() {
                        return Err(var.clone());
                    }
                    parts.push(self.expr(cond, scope).unwrap_or_default());
                }
                Action::Exit => break,
                other => self.writes(other, scope, written),
            }
        }
        Ok(())
    }

    /// Adds to `into` the Promela variables (the first element's prefix for an array,
    /// every instance's status for `T@loc`) that evaluating `expr` may read.
    fn reads(&self, expr: &Expr, scope: &Scope, into: &mut BTreeSet<String>) {
        match expr {
            Expr::Read(var) | Expr::Element { var, .. } => {
                into.insert(self.var_name(*var, scope));
            }
            Expr::At { thread, .. } => {
                for instance in 0..self.system.threads[*thread].instances() {
                    into.insert(self.status(*thread, instance));
                }
            }
            _ => {}
        }
        for child in expr.children() {
            self.reads(child, scope, into);
        }
    }

    /// Adds to `into` the Promela variables `action` writes (as [`Self::reads`] names them).
    pub(super) fn writes(&self, action: &Action, scope: &Scope, into: &mut BTreeSet<String>) {
        match action {
            Action::Assign { place, .. } => {
                into.insert(self.var_name(place.var, scope));
            }
            Action::Start { thread, .. } => {
                into.insert(self.status(*thread, 0));
                for &param in &self.system.threads[*thread].start_params {
                    into.insert(self.local(*thread, 0, param));
                }
            }
            _ => {}
        }
    }

    /// Writes `actions` (up to an `exit`, which ends the block), each after `; `; assumes
    /// are in the guard already.
    pub(super) fn actions(&self, out: &mut String, actions: &[Action], scope: &Scope) {
        for action in actions {
            match action {
                Action::Assign { place, value, .. } => {
                    let value = self.expr(value, scope).unwrap_or_default();
                    let _ = write!(out, "; {}", self.assign(place, &value, scope));
                }
                Action::Assert { cond, .. } => {
                    let cond = self.expr(cond, scope).unwrap_or_default();
                    let _ = write!(out, "; assert({cond})");
                }
                Action::Assume(_) => {}
                Action::Start {
                    thread: target,
                    args,
                    ..
                } => {
                    let started = &self.system.threads[*target];
                    for (arg, &param) in args.iter().zip(&started.start_params) {
                        let value = self.expr(arg, scope).unwrap_or_default();
                        let _ = write!(out, "; {} = {value}", self.local(*target, 0, param));
                    }
                    let _ = write!(out, "; {} = 0", self.status(*target, 0));
                }
                Action::Exit => break,
            }
        }
    }

    /// `place = value` (a value in Promela already, wrapped when the place's type wraps),
    /// an `if` over the elements when the index is computed.
    pub(super) fn assign(&self, place: &Place, value: &str, scope: &Scope) -> String {
        let (id, _) = scope.thread.expect("a step runs in an instance");
        let ty = self.system.var(id, place.var).ty;
        let mut value = value.to_string();
        if let Scalar::Int {
            lo, hi, wrap: true, ..
        } = ty.scalar
        {
            let modulus = hi - lo + 1;
            value = format!("{lo} + (({value} - ({lo})) % {modulus} + {modulus}) % {modulus}");
        }
        let base = self.var_name(place.var, scope);
        let Some((index, _)) = &place.index else {
            return format!("{base} = {value}");
        };
        if let Some(element) = self.constant(index, scope) {
            // A write outside the array is an index error, which a run without faults
            // never reaches: if one does, SPIN says so.
            return if (0..i64::from(ty.elements())).contains(&element) {
                format!("{base}_{element} = {value}")
            } else {
                "assert(false)".into()
            };
        }
        let index = self.expr(index, scope).unwrap_or_default();
        let options: String = (0..ty.elements())
            .map(|element| format!(" :: ({index}) == {element} -> {base}_{element} = {value}"))
            .collect();
        format!("if{options} fi")
    }

    /// The name of a variable of the scope's instance (the first element's prefix for an
    /// array).
    pub(super) fn var_name(&self, var: VarRef, scope: &Scope) -> String {
        match (var, scope.thread) {
            (VarRef::Global(id), _) => self.global(id),
            (VarRef::Local(id), Some((thread, instance))) => self.local(thread, instance, id),
            (VarRef::Local(_), None) => "0".into(),
        }
    }
}

/// Why an assume is refused: it reads `var` after its step wrote it.
pub(super) fn assume_after_write(var: &str) -> String {
    format!(
        "an assume reads `{var}` after an earlier action of its step writes it (SPIN decides \
         a step's assumes in its guard, before the step)"
    )
}
