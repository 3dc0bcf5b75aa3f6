//! The checked model written as a Murphi model, so that Rumur, a checker with a front end
//! and a search of its own, can count the same states and transitions (`bir murphi`).
//!
//! The encoding follows LANGUAGE.md rule by rule, so that Rumur's "states" are bir's states
//! and its "rules fired" bir's transitions: on every model whose search meets no error
//! when Rumur stops at errors ([`Errors::Stop`]), and on every model when the encoding
//! decides each fault before it happens ([`Errors::CountPast`], `counting.rs`):
//! - a variable per global (`g_name`), per thread an array of the instances' statuses
//!   (`st_Thread`: a location's number, then "ended", then "not started", as the state
//!   stores them) and an array per local (`l<thread>_name`, indexed by the instance);
//! - one rule per transformation and instance (a `ruleset` over the instances), guarded by
//!   the status and the guard; its body runs the actions in order and then jumps;
//! - an `assume` discards the step as a false guard would: the guard calls a function that
//!   runs the actions before it on copies of what they write, and answers whether every
//!   `assume` holds;
//! - `int wrap` writes are wrapped with Murphi's `%` (the remainder with the dividend's
//!   sign, as BIR's), other writes are range-checked by Murphi's types; Rumur computes on
//!   32 bits (`--value-type int32_t`; its 64-bit type leaves no room for "undefined"), BIR
//!   on 64, so an intermediate past 32 bits that BIR writes nowhere is Rumur's error alone;
//! - an ended instance keeps its locals; a `start` checks that its target has not started;
//! - the outcomes of a `notify` are rules of their own, the later ones ignoring the faults
//!   that the first reports (`ir::Transform::quiet`);
//! - a rendezvous is one rule per sender's and receiver's transformation, over both
//!   instances (`rendezvous.rs`).
//!
//! Deadlocks are no error here (run Rumur with `--deadlock-detection off`); bir reports
//! them, Rumur counts past them.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use super::ident;
use crate::ir::{
    Action, Expr, GlobalId, Id, Jump, LocalId, Place, QuantVarId, Scalar, System, ThreadId,
    ThreadKind, Transform, TransformId, Ty, VarRef,
};

/// What the Murphi model does where bir's search meets an error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Errors {
    /// Rumur reports it and stops, as a Murphi model's errors do: asserts, `error`
    /// statements, invariants, and Murphi's own range and index checks. What `bir murphi`
    /// writes.
    Stop,
    /// Rumur counts past it as bir does when it keeps going (`bir murphi --past-errors`): a
    /// step that faults fires its rule and changes nothing (a transition, no new state),
    /// and a state that violates an invariant enables no rule (a state, not expanded).
    /// Every fault is decided before it happens, so Rumur meets none, and its states and
    /// rules fired are bir's states and transitions on every model (below 32-bit values).
    CountPast,
}

/// The Murphi model of `system`, as Rumur reads it, with its errors as `errors` says; or
/// what of it the encoding does not keep (records and the heap, and so exceptions, are
/// refused).
pub fn murphi(system: &System, errors: Errors) -> Result<String, super::Unsupported> {
    super::refuse_heap(system, "Murphi")?;
    super::refuse_pools(system)?;
    let mut out = String::new();
    let mut writer = Writer {
        system,
        errors,
        variables: Vec::new(),
    };
    writer.variables = writer.variable_types();
    let counts = match errors {
        Errors::Stop => "while no error is met",
        Errors::CountPast => "(each error a step to the same state)",
    };
    let _ = writeln!(
        out,
        "-- The BIR system `{}`, written by `bir murphi` for Rumur:\n\
         --   rumur --deadlock-detection off --value-type int32_t MODEL.m -o MODEL.c\n\
         -- Its states and rules fired are bir's states and transitions {counts}.\n",
        system.name
    );
    writer.variables(&mut out);
    writer.start_state(&mut out);
    if errors == Errors::CountPast {
        writer.invariants_function(&mut out);
    }
    for (id, thread) in system.threads.iter_enumerated() {
        for (transform_id, transform) in thread.transforms.iter_enumerated() {
            // A rendezvous transformation's own rule is the error step of its guard or
            // channel index; each pairing with a receiver is a rule of its own.
            writer.rule(&mut out, id, transform_id, transform);
            for receiver in writer.receivers(transform) {
                writer.pair_rule(&mut out, (id, transform_id), receiver);
            }
        }
    }
    if errors == Errors::Stop {
        for invariant in &system.invariants {
            let cond = writer.expr(&invariant.cond, &Scope::invariant(), true);
            let _ = writeln!(
                out,
                "invariant \"{}: {}\"\n  {cond};\n",
                invariant.name,
                quoted(&invariant.text)
            );
        }
    }
    Ok(out)
}

/// Writes the parts of one system's model.
struct Writer<'a> {
    system: &'a System,
    errors: Errors,
    /// Every Murphi variable with its type ([`Writer::variable_types`]): the declarations,
    /// and what a function over copies copies.
    variables: Vec<(String, String)>,
}

/// Where an expression is evaluated: by which thread's instance (none for invariants),
/// named by which Murphi variable (`inst`, or `pin` for a rendezvous's receiver), and which
/// variables stand for their copies (`c_` prefixed, in an assume or outcome function).
#[derive(Clone)]
struct Scope {
    thread: Option<ThreadId>,
    /// The ruleset variable of the instance.
    inst: &'static str,
    copied: BTreeSet<String>,
    /// Quantifier variables written under another name (a second loop over the same
    /// range, in [`Writer::faults`]).
    renamed: Vec<(QuantVarId, String)>,
}

impl Scope {
    fn invariant() -> Scope {
        Scope {
            thread: None,
            inst: "inst",
            copied: BTreeSet::new(),
            renamed: Vec::new(),
        }
    }

    fn step(thread: ThreadId) -> Scope {
        Scope {
            thread: Some(thread),
            inst: "inst",
            copied: BTreeSet::new(),
            renamed: Vec::new(),
        }
    }

    /// The scope of the receiver of a rendezvous, instance `pin` of `thread`.
    fn partner(thread: ThreadId) -> Scope {
        Scope {
            inst: "pin",
            ..Scope::step(thread)
        }
    }

    /// The Murphi name of quantifier variable `id`.
    fn quant(&self, id: QuantVarId) -> String {
        self.renamed
            .iter()
            .rev()
            .find(|(renamed, _)| *renamed == id)
            .map_or_else(|| format!("q{}", id.index()), |(_, name)| name.clone())
    }

    /// The Murphi variable `name`, or its copy.
    fn var(&self, name: String) -> String {
        if self.copied.contains(&name) {
            format!("c_{name}")
        } else {
            name
        }
    }
}

/// `text` fit for a Murphi string: without double quotes or line breaks.
fn quoted(text: &str) -> String {
    text.replace('"', "'").replace(['\n', '\r'], " ")
}

impl Writer<'_> {
    fn global(&self, id: GlobalId) -> String {
        let name = &self.system.globals[id].name;
        format!("g_{}", ident(name, || id.index().to_string()))
    }

    fn status(&self, id: ThreadId) -> String {
        let name = &self.system.threads[id].name;
        format!("st_{}", ident(name, || id.index().to_string()))
    }

    fn local(&self, thread: ThreadId, id: LocalId) -> String {
        let name = &self.system.threads[thread].locals[id].name;
        format!(
            "l{}_{}",
            thread.index(),
            ident(name, || id.index().to_string())
        )
    }

    fn scalar_type(&self, scalar: Scalar) -> String {
        match scalar {
            Scalar::Bool => "boolean".into(),
            _ => {
                let (lo, hi) = scalar.bounds(&self.system.enums);
                format!("{lo}..{hi}")
            }
        }
    }

    fn var_type(&self, ty: Ty) -> String {
        match ty.len {
            Some(len) => format!("array [0..{}] of {}", len - 1, self.scalar_type(ty.scalar)),
            None => self.scalar_type(ty.scalar),
        }
    }

    /// The type of every Murphi variable, by name: what an assume function copies.
    fn variable_types(&self) -> Vec<(String, String)> {
        let system = self.system;
        let mut vars = Vec::new();
        for (id, var) in system.globals.iter_enumerated() {
            vars.push((self.global(id), self.var_type(var.ty)));
        }
        for (id, thread) in system.threads.iter_enumerated() {
            let instances = format!("array [0..{}] of", thread.instances() - 1);
            vars.push((
                self.status(id),
                format!("{instances} 0..{}", thread.not_started_status()),
            ));
            for (local, var) in thread.locals.iter_enumerated() {
                vars.push((
                    self.local(id, local),
                    format!("{instances} {}", self.var_type(var.ty)),
                ));
            }
        }
        vars
    }

    fn variables(&self, out: &mut String) {
        if self.variables.is_empty() {
            return;
        }
        out.push_str("var\n");
        for (name, ty) in &self.variables {
            let _ = writeln!(out, "  {name}: {ty};");
        }
        out.push('\n');
    }

    fn value(scalar: Scalar, value: i64) -> String {
        match scalar {
            Scalar::Bool => (value != 0).to_string(),
            _ => value.to_string(),
        }
    }

    /// Assignments of `init` to the variable `name` (of type `ty`, an instance's when
    /// `instance` is given).
    fn initialise(out: &mut String, name: &str, instance: Option<u32>, ty: Ty, init: &[i64]) {
        let at = instance.map(|i| format!("[{i}]")).unwrap_or_default();
        for (element, &value) in init.iter().enumerate() {
            let index = ty.len.map(|_| format!("[{element}]")).unwrap_or_default();
            let value = Self::value(ty.scalar, value);
            let _ = writeln!(out, "  {name}{at}{index} := {value};");
        }
    }

    fn start_state(&self, out: &mut String) {
        let system = self.system;
        out.push_str("startstate \"initial state\"\nbegin\n");
        for (id, var) in system.globals.iter_enumerated() {
            Self::initialise(out, &self.global(id), None, var.ty, &var.init);
        }
        for (id, thread) in system.threads.iter_enumerated() {
            let status = match thread.kind {
                ThreadKind::Active { .. } => 0,
                ThreadKind::Started | ThreadKind::Pool { .. } => thread.not_started_status(),
            };
            for instance in 0..thread.instances() {
                let _ = writeln!(out, "  {}[{instance}] := {status};", self.status(id));
                for (local, var) in thread.locals.iter_enumerated() {
                    let name = self.local(id, local);
                    Self::initialise(out, &name, Some(instance), var.ty, &var.init);
                }
            }
        }
        out.push_str("end;\n\n");
    }

    /// The rule of one transformation, over the instances of its thread, and before it the
    /// function that decides its assumes, if it has any.
    fn rule(&self, out: &mut String, id: ThreadId, transform_id: TransformId, t: &Transform) {
        let thread = &self.system.threads[id];
        let instances = format!("inst: 0..{}", thread.instances() - 1);
        let scope = Scope::step(id);
        let at = format!("{}[inst] = {}", self.status(id), t.location.index());
        let name = format!("{}_{}", id.index(), transform_id.index());
        let (guard, outcome) = match self.errors {
            Errors::Stop => {
                let mut guard = at;
                if let Some(cond) = &t.guard {
                    let _ = write!(guard, " & {}", self.expr(cond, &scope, true));
                }
                if t.actions.iter().any(|a| matches!(a, Action::Assume(_))) {
                    let function = format!("assumed_{name}");
                    self.assume_function(out, &function, &instances, id, t);
                    let _ = write!(guard, " & {function}(inst)");
                }
                (guard, None)
            }
            Errors::CountPast => {
                let function = format!("outcome_{name}");
                self.outcome_function(out, &function, &instances, id, t);
                let invariants = if self.system.invariants.is_empty() {
                    ""
                } else {
                    "invariants_hold() & "
                };
                let guard = format!("{invariants}{at} & {function}(inst) != {DISABLED}");
                (guard, Some(function))
            }
        };
        let from = &thread.locations[t.location].name;
        let to = match t.destination() {
            Jump::Goto(location) => thread.locations[location].name.as_str(),
            Jump::Return => "end",
        };
        let _ = writeln!(
            out,
            "ruleset {instances} do\n  rule \"{} {from} -> {to} (line {}): {}\"\n    {guard}\n  ==>\n  begin",
            thread.name,
            t.line,
            quoted(&t.text),
        );
        // Counting past errors, a step that faults changes nothing.
        let indent = match &outcome {
            Some(function) => {
                let _ = writeln!(out, "    if {function}(inst) = {COMPLETES} then");
                "      "
            }
            None => "    ",
        };
        for action in &t.actions {
            if !self.action(out, indent, action, &scope, false) {
                break;
            }
        }
        let status = match t.jump {
            Jump::Goto(location) => location.index() as i64,
            Jump::Return => thread.ended_status(),
        };
        if !t.actions.iter().any(|a| matches!(a, Action::Exit)) {
            let _ = writeln!(out, "{indent}{}[inst] := {status};", self.status(id));
        }
        if outcome.is_some() {
            out.push_str("    endif;\n");
        }
        out.push_str("  end;\nend;\n\n");
    }

    /// A function that runs `t`'s actions up to its last assume on copies of the variables
    /// they write, and answers whether every assume holds: the step's guard calls it, since
    /// a false assume discards the step as a false guard does.
    fn assume_function(
        &self,
        out: &mut String,
        name: &str,
        instances: &str,
        id: ThreadId,
        t: &Transform,
    ) {
        let last = t
            .actions
            .iter()
            .rposition(|a| matches!(a, Action::Assume(_)))
            .unwrap_or(0);
        let actions = &t.actions[..=last];
        let header = format!("function {name}({instances}): boolean;");
        let scope = self.open_function_on_copies(out, &header, id, actions);
        for action in actions {
            self.action(out, "  ", action, &scope, true);
        }
        out.push_str("  return true;\nend;\n\n");
    }

    /// Opens a Murphi function (`header`) that runs `actions` of `id`'s instance `inst` on
    /// copies of the variables they write: declares and fills the copies, and returns the
    /// scope whose reads see them.
    fn open_function_on_copies(
        &self,
        out: &mut String,
        header: &str,
        id: ThreadId,
        actions: &[Action],
    ) -> Scope {
        let mut scope = Scope::step(id);
        self.written(id, actions, &mut scope.copied);
        self.open_function(out, header, &scope.copied, &[]);
        scope
    }

    /// Adds to `written` the Murphi variables that `actions` of `id`'s instances write.
    fn written(&self, id: ThreadId, actions: &[Action], written: &mut BTreeSet<String>) {
        for action in actions {
            match action {
                Action::Assign { place, .. } => {
                    written.insert(self.place_var(place.var, id));
                }
                Action::Start { thread, .. } => {
                    written.insert(self.status(*thread));
                    for &param in &self.system.threads[*thread].start_params {
                        written.insert(self.local(*thread, param));
                    }
                }
                _ => {}
            }
        }
    }

    /// Opens a Murphi function (`header`) with a copy of each variable of `copied`, filled
    /// from the original, and the further local variables `locals` (name, type).
    fn open_function(
        &self,
        out: &mut String,
        header: &str,
        copied: &BTreeSet<String>,
        locals: &[(String, String)],
    ) {
        let _ = writeln!(out, "{header}");
        let copies: Vec<_> = self
            .variables
            .iter()
            .filter(|(var, _)| copied.contains(var))
            .collect();
        if !copies.is_empty() || !locals.is_empty() {
            out.push_str("var\n");
            for (var, ty) in &copies {
                let _ = writeln!(out, "  c_{var}: {ty};");
            }
            for (var, ty) in locals {
                let _ = writeln!(out, "  {var}: {ty};");
            }
        }
        out.push_str("begin\n");
        for (var, _) in &copies {
            let _ = writeln!(out, "  c_{var} := {var};");
        }
    }

    /// The Murphi variable behind a BIR variable of `thread`'s instances.
    fn place_var(&self, var: VarRef, thread: ThreadId) -> String {
        match var {
            VarRef::Global(id) => self.global(id),
            VarRef::Local(id) => self.local(thread, id),
        }
    }

    /// A read or write of `var` (element `index`) by instance `inst` of the scope's thread.
    fn var_ref(&self, var: VarRef, index: Option<&Expr>, scope: &Scope) -> String {
        let element = index
            .map(|index| format!("[{}]", self.expr(index, scope, false)))
            .unwrap_or_default();
        match (var, scope.thread) {
            (VarRef::Global(id), _) => format!("{}{element}", scope.var(self.global(id))),
            (VarRef::Local(id), Some(thread)) => {
                let inst = scope.inst;
                format!("{}[{inst}]{element}", scope.var(self.local(thread, id)))
            }
            // The checker keeps locals out of invariants.
            (VarRef::Local(_), None) => "false".into(),
        }
    }

    /// Writes one action; false after `exit`, which ends the block. In an assume function
    /// (`deciding`), an assume returns false when it fails, and a failing assert or start
    /// returns true: the step then fires and meets that error, as BIR's does before it
    /// reaches the assume. (A range, index or division fault before the assume faults in the
    /// function, in the guard: an error either way.)
    fn action(
        &self,
        out: &mut String,
        indent: &str,
        action: &Action,
        scope: &Scope,
        deciding: bool,
    ) -> bool {
        let thread = scope.thread.expect("actions run in a thread");
        match action {
            Action::Assign { place, value, .. } => self.assign(out, indent, place, value, scope),
            Action::Assert { cond, site } => {
                let cond = self.expr(cond, scope, true);
                if deciding {
                    // A failing assert before the assumes is the step's error: let it fire.
                    let _ = writeln!(out, "{indent}if !({cond}) then return true; endif;");
                } else {
                    let message = quoted(&self.system.fault_sites[*site].message);
                    let _ = writeln!(out, "{indent}assert {cond} \"{message}\";");
                }
            }
            Action::Assume(cond) => {
                if deciding {
                    let cond = self.expr(cond, scope, true);
                    let _ = writeln!(out, "{indent}if !({cond}) then return false; endif;");
                }
            }
            Action::Start {
                thread: target,
                args,
                site,
                ..
            } => {
                let started = &self.system.threads[*target];
                let status = scope.var(self.status(*target));
                let not_started = started.not_started_status();
                if deciding {
                    // So is a start error: the step fires and meets it.
                    let _ = writeln!(
                        out,
                        "{indent}if {status}[0] != {not_started} then return true; endif;"
                    );
                } else {
                    let message = quoted(&self.system.fault_sites[*site].message);
                    let _ = writeln!(
                        out,
                        "{indent}if {status}[0] != {not_started} then error \"{message}\"; endif;"
                    );
                }
                for (arg, &param) in args.iter().zip(&started.start_params) {
                    let value =
                        self.expr(arg, scope, started.locals[param].ty.scalar == Scalar::Bool);
                    let local = scope.var(self.local(*target, param));
                    let _ = writeln!(out, "{indent}{local}[0] := {value};");
                }
                let _ = writeln!(out, "{indent}{status}[0] := 0;");
            }
            Action::Exit => {
                let status = self.system.threads[thread].ended_status();
                let inst = scope.inst;
                let _ = writeln!(out, "{indent}{}[{inst}] := {status};", self.status(thread));
                return false;
            }
        }
        true
    }

    fn assign(&self, out: &mut String, indent: &str, place: &Place, value: &Expr, scope: &Scope) {
        let thread = scope.thread.expect("actions run in a thread");
        let ty = self.system.var(thread, place.var).ty;
        let value = self.expr(value, scope, ty.scalar == Scalar::Bool);
        self.assign_text(out, indent, place, &value, scope);
    }

    /// `place := value` for a value written in Murphi already, wrapped when the place's
    /// type wraps.
    fn assign_text(
        &self,
        out: &mut String,
        indent: &str,
        place: &Place,
        value: &str,
        scope: &Scope,
    ) {
        let thread = scope.thread.expect("actions run in a thread");
        let ty = self.system.var(thread, place.var).ty;
        let target = self.var_ref(place.var, place.index.as_ref().map(|(i, _)| &**i), scope);
        let value = match ty.scalar {
            Scalar::Int {
                lo, hi, wrap: true, ..
            } => {
                let modulus = hi - lo + 1;
                format!("{lo} + (({value} - ({lo})) % {modulus} + {modulus}) % {modulus}")
            }
            _ => value.to_string(),
        };
        let _ = writeln!(out, "{indent}{target} := {value};");
    }
}

mod counting;
mod expr;
mod rendezvous;
#[cfg(test)]
mod tests;

use counting::{COMPLETES, DISABLED};
