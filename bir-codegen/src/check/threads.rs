//! Threads (signatures, then bodies), their actions and jumps, and invariants.

use std::collections::HashMap;

use super::comm::Communication;
use super::expr::Scope;
use super::refs::Resolved;
use super::{line_of, Checker, Kind, Symbol, ThreadSig};
use crate::front::ast;
use crate::ir::{self, FaultKind, Id as _, Place, Scalar, ThreadKind};

/// The most instances bir accepts in one model.
const MAX_INSTANCES: i64 = 1 << 12;

/// Rule: a state holds at most this many values (globals' and locals' elements and thread
/// statuses, over all instances): twice the longest array. The tables and the generated code
/// hold a few entries for every value (its name, its decoding), so the macro's work, memory
/// and output grow with it; without a bound, `active [4096] thread T() { int[65536] a; ...`
/// asks for 2^28 values, and the macro for gigabytes.
pub(super) const MAX_STATE_VALUES: u64 = 1 << 17;

impl<'a> Checker<'a> {
    /// What other threads and invariants see of each thread: its instances, parameter,
    /// locals and location names.
    pub(super) fn check_thread_signatures(&mut self) {
        for (index, decl) in self.thread_decls.clone().into_iter().enumerate() {
            let kind = match self.kinds.get(index) {
                Some(&kind) => kind,
                None => self.thread_kind(decl),
            };
            let id = self.sigs.push(ThreadSig {
                kind,
                index_param: None,
                start_params: Vec::new(),
                locals: ir::IdVec::new(),
                local_ok: ir::IdVec::new(),
                locations: HashMap::new(),
                location_names: Vec::new(),
            });
            for (position, param) in decl.params.iter().enumerate() {
                if position > 0 && !kind.is_started() {
                    // Rule: an active thread has at most one parameter, its index.
                    self.diags.error(
                        param.name.spans(),
                        "an active thread takes at most one parameter, its instance index",
                    );
                    continue;
                }
                self.param(id, param);
            }
            for local in &decl.body.locals {
                let fresh = self.check_new_name(&local.name, &Scope::runtime(Some(id)), "a local");
                let (mut var, ok) = self.var(local);
                if !fresh {
                    // A clashing local is kept (ids stay dense) but can never be found.
                    var.name.clear();
                }
                let sig = &mut self.sigs[id];
                sig.locals.push(var);
                sig.local_ok.push(ok);
            }
            if !decl.body.catches.is_empty() {
                self.check_catch_variables(id, decl);
            }
            if let Some(first) = decl.body.statements.first() {
                self.unsupported(first.spans, "a body of statements");
            }
            let owner = self.body_name(id);
            for location in &decl.body.locations {
                let sig = &mut self.sigs[id];
                if let Some(first) = sig.locations.get(&location.name.text) {
                    let first = decl.body.locations[first.index()].name.spans();
                    self.diags.duplicate(
                        location.name.spans(),
                        format!("duplicate location `{}` in {owner}", location.name.text),
                        &location.name.text,
                        first,
                    );
                } else {
                    sig.locations.insert(
                        location.name.text.clone(),
                        ir::LocationId::new(sig.location_names.len()),
                    );
                }
                sig.location_names.push(location.name.text.clone());
            }
        }
    }

    /// Rule: the state holds at most [`MAX_STATE_VALUES`] values; the error stands on the
    /// declaration (global or thread) whose values pass the limit.
    pub(super) fn check_state_size(&mut self) {
        let mut values: u64 = 0;
        // The user's globals first, then the hidden state of channels and locks.
        for (index, var) in self.globals.iter().enumerate() {
            values += u64::from(var.ty.elements());
            if values > MAX_STATE_VALUES {
                let spans = self
                    .global_decls
                    .get(index)
                    .map_or(ast::Spans::one(var.span), |decl| decl.name.spans());
                return self.state_too_large(spans, values);
            }
        }
        for (sig, decl) in self.sigs.iter().zip(&self.thread_decls) {
            let instances = u64::from(sig.kind.instances());
            let locals: u64 = sig
                .locals
                .iter()
                .map(|var| u64::from(var.ty.elements()))
                .sum();
            // Each instance stores its status and its locals.
            values += instances * (1 + locals);
            if values > MAX_STATE_VALUES {
                return self.state_too_large(decl.name.spans(), values);
            }
        }
    }

    fn state_too_large(&mut self, spans: ast::Spans, values: u64) {
        self.diags.error(
            spans,
            format!(
                "the state is too large: {values} values up to here (variables, array elements \
                 and thread statuses, over all instances); bir stores at most {MAX_STATE_VALUES}"
            ),
        );
    }

    /// The kind of every thread declaration, in order, before the globals are checked:
    /// the type `tid` needs the model's number of instances.
    pub(super) fn check_thread_kinds(&mut self) {
        for decl in self.thread_decls.clone() {
            let kind = self.thread_kind(decl);
            self.kinds.push(kind);
        }
        self.tid_instances = self
            .kinds
            .iter()
            .take(self.real_threads)
            .map(|kind| kind.instances())
            .sum();
    }

    /// Rule: `active [k]` and `thread[k]` take a constant k >= 1.
    fn thread_kind(&mut self, decl: &ast::Thread) -> ThreadKind {
        if let (None, Some(size)) = (&decl.active, &decl.pool) {
            let count = self.instance_count(size, "a pool size");
            return ThreadKind::Pool { count };
        }
        match &decl.active {
            None => ThreadKind::Started,
            Some(ast::Active { count: None, .. }) => ThreadKind::Active {
                count: 1,
                replicated: false,
            },
            Some(ast::Active {
                count: Some(expr), ..
            }) => ThreadKind::Active {
                count: self.instance_count(expr, "a replication count"),
                replicated: true,
            },
        }
    }

    /// A replication count or pool size: a constant from 1 to [`MAX_INSTANCES`] (1 after
    /// an error, reported).
    fn instance_count(&mut self, expr: &ast::Expr, what: &'static str) -> u32 {
        let count = match self.const_int(expr, what) {
            Some(count) if count < 1 => {
                self.diags.error(
                    expr.spans(),
                    format!("a thread needs at least 1 instance; the count is {count}"),
                );
                1
            }
            Some(count) if count > MAX_INSTANCES => {
                self.diags.error(
                    expr.spans(),
                    format!("too many instances: {count} (bir runs at most {MAX_INSTANCES})"),
                );
                1
            }
            Some(count) => count,
            None => 1,
        };
        count as u32
    }

    /// Rule: the parameter of an active thread is an int type containing 0..k-1 (it is the
    /// instance index, read-only); a started thread's parameter is a scalar local.
    fn param(&mut self, id: ir::ThreadId, param: &ast::Param) {
        let fresh = self.check_new_name(&param.name, &Scope::runtime(Some(id)), "a parameter");
        let ty = self.ty(&param.ty);
        if let Some(ir::Ty { len: Some(_), .. }) = ty {
            self.diags.error(
                param.ty.spans,
                "a thread parameter is a scalar, not an array",
            );
        }
        let ty = ty.filter(|ty| ty.len.is_none());
        match self.sigs[id].kind {
            ThreadKind::Active { count, .. } => {
                let fits = matches!(ty, Some(ir::Ty { scalar: Scalar::Int { lo, hi, .. }, .. })
                    if lo <= 0 && hi >= i64::from(count) - 1);
                if ty.is_some() && !fits {
                    self.diags.error(
                        param.ty.spans,
                        format!(
                            "the parameter of an active thread is its instance index: \
                             an int type containing 0..{} (`int index`)",
                            count - 1
                        ),
                    );
                }
                if fresh {
                    self.sigs[id].index_param = Some(param.name.text.clone());
                }
            }
            ThreadKind::Started | ThreadKind::Pool { .. } => {
                let scalar = ty.map_or(Scalar::INT, |ty| ty.scalar);
                let var = ir::Var {
                    name: if fresh {
                        param.name.text.clone()
                    } else {
                        String::new()
                    },
                    span: param.name.span,
                    doc: String::new(),
                    ty: ir::Ty { scalar, len: None },
                    init: vec![scalar.default_value()],
                };
                let sig = &mut self.sigs[id];
                let local = sig.locals.push(var);
                sig.start_params.push(local);
                sig.local_ok.push(ty.is_some());
            }
        }
    }

    /// Every thread's locations and transformations.
    pub(super) fn check_thread_bodies(&mut self) {
        let mut first_instance = ir::InstanceId(0);
        for (id, decl) in self.thread_decls.clone().into_iter().enumerate() {
            let id = ir::ThreadId::new(id);
            let mut transforms = ir::IdVec::new();
            let mut locations = ir::IdVec::new();
            for (location_id, location) in decl.body.locations.iter().enumerate() {
                let location_id = ir::LocationId::new(location_id);
                if location.transforms.is_empty() {
                    self.diags.error(
                        location.name.spans(),
                        format!(
                            "location `{}` has no transformations; add at least one \
                             `[when guard] do {{ ... }} goto loc;`",
                            location.name.text
                        ),
                    );
                }
                let mut ids = Vec::new();
                for transform in &location.transforms {
                    let (variants, call, returned, thrown) =
                        self.transform(id, location_id, transform);
                    let bare = [&transform.inner_jump, &transform.outer_jump]
                        .into_iter()
                        .flatten()
                        .find_map(|jump| match jump {
                            ast::Jump::Return {
                                value: None,
                                spans,
                                end,
                            } => Some((*spans, *end)),
                            _ => None,
                        });
                    // The transformations of one step (a `notify`'s outcomes) share its
                    // call and its returned value.
                    for variant in variants {
                        let next = transforms.push(variant);
                        if let Some(call) = &call {
                            self.calls.insert((id, next), call.clone());
                        }
                        if let Some(returned) = &returned {
                            self.returns.insert((id, next), returned.clone());
                        }
                        if let Some(bare) = bare {
                            self.bare_returns.insert((id, next), bare);
                        }
                        if let Some(thrown) = &thrown {
                            self.throws.insert((id, next), thrown.clone());
                        }
                        ids.push(next);
                    }
                }
                locations.push(ir::Location {
                    name: location.name.text.clone(),
                    span: location.name.span,
                    doc: location.doc.clone(),
                    transforms: ids,
                });
            }
            if !decl.body.catches.is_empty() {
                self.check_catches(id, decl);
            }
            let can_end = transforms
                .iter()
                .any(|t: &ir::Transform| t.destination() == ir::Jump::Return);
            let sig = &self.sigs[id];
            let thread = ir::Thread {
                name: decl.name.text.clone(),
                span: decl.name.span,
                doc: decl.doc.clone(),
                kind: sig.kind,
                index_param: sig.index_param.clone(),
                start_params: sig.start_params.clone(),
                locals: sig.locals.clone(),
                locations,
                transforms,
                can_end,
                first_instance,
            };
            first_instance.0 += thread.instances();
            self.threads.push(thread);
        }
    }

    fn transform(
        &mut self,
        thread: ir::ThreadId,
        location: ir::LocationId,
        transform: &ast::Transform,
    ) -> (
        Vec<ir::Transform>,
        Option<super::functions::CallInfo>,
        Option<super::functions::ReturnInfo>,
        Option<super::exceptions::ThrowInfo>,
    ) {
        let mut scope = Scope::runtime(Some(thread));
        let mut guard = transform
            .guard
            .as_ref()
            .map(|guard| self.expr_of(guard, &mut scope, Kind::Bool, "the guard"));
        let mut actions = Vec::new();
        // A `notify`: where its outcomes part in the actions, and each outcome's condition
        // and actions.
        let mut notify: Option<(usize, Vec<super::comm::Outcome>)> = None;
        // A rendezvous: where the rest of its block starts in the actions, and it.
        let mut rendezvous: Option<(usize, ir::Rendezvous)> = None;
        // A send or receive on a buffered channel.
        let mut buffered: Option<ir::Buffered> = None;
        // A `throw`, which ends the step: the actions after it are never executed.
        let mut thrown: Option<super::exceptions::ThrowInfo> = None;
        for (position, action) in transform.actions.iter().enumerate() {
            if action.is_blocking() && position > 0 {
                self.blocking_not_first(transform, action);
            }
            match action {
                ast::Action::Send { .. }
                | ast::Action::Receive { .. }
                | ast::Action::Lock { .. } => {
                    let mut scope = Scope::runtime(Some(thread));
                    let Some(super::comm::CommAction {
                        ready,
                        actions: more,
                        outcomes,
                        communication,
                    }) = self.comm_action(thread, action, &mut scope)
                    else {
                        continue;
                    };
                    match (communication, position) {
                        (Some(Communication::Rendezvous(meets)), 0) => {
                            rendezvous = Some((actions.len() + more.len(), meets));
                        }
                        (Some(Communication::Buffered(op)), 0) => buffered = Some(op),
                        _ => {}
                    }
                    if !outcomes.is_empty() {
                        if notify.is_some() {
                            self.diags.error(
                                action.spans(),
                                "two `notify`s in one step: bir takes one per step (each \
                                 outcome of it is a transition of its own)",
                            );
                        }
                        notify = Some((actions.len() + more.len(), outcomes));
                    }
                    // A blocking action's readiness joins the guard, after it.
                    if let (Some(ready), 0) = (ready, position) {
                        guard = Some(match guard {
                            Some(guard) => ir::Expr::And(Box::new(guard), Box::new(ready)),
                            None => ready,
                        });
                    }
                    actions.extend(more);
                }
                ast::Action::New {
                    target,
                    record,
                    spans,
                } => actions.extend(self.new_object(thread, target, record, *spans)),
                ast::Action::Throw { value, spans } => {
                    // After an `exit`, the throw is never reached.
                    let exits = transform.actions[..position]
                        .iter()
                        .any(|a| matches!(a, ast::Action::Exit { .. }));
                    if let Some((check, info)) =
                        self.throw(thread, value, *spans, action.to_string())
                    {
                        if !exits {
                            actions.push(check);
                            thrown = Some(info);
                        }
                    }
                    break;
                }
                other => actions.extend(self.action(thread, other)),
            }
        }
        if let (Some(_), Some(invoke)) = (&thrown, &transform.invoke) {
            self.diags.error(
                ast::Spans {
                    first: invoke.function.span,
                    last: invoke.spans.last,
                },
                format!(
                    "a call of `{}` after a `throw`: the throw ends the step, so the call would \
                     never be made",
                    invoke.function.text
                ),
            );
        }
        // `x := f(a);` of a `fun` is an assignment of its value, not a call of a function.
        let fun_call = transform
            .invoke
            .as_ref()
            .filter(|call| matches!(self.symbols.get(&call.function.text), Some(Symbol::Fun(_))));
        if let Some(call) = fun_call {
            actions.extend(self.fun_assignment(thread, call));
        }
        let call = transform
            .invoke
            .as_ref()
            .filter(|_| fun_call.is_none())
            .and_then(|call| self.call(thread, call));
        let returned = [&transform.inner_jump, &transform.outer_jump]
            .into_iter()
            .flatten()
            .find_map(|jump| match jump {
                ast::Jump::Return {
                    value: Some(value),
                    spans,
                    ..
                } => Some((value, *spans)),
                _ => None,
            });
        let returned = returned.and_then(|(value, spans)| self.return_value(thread, value, spans));
        let jump = self.jump(thread, transform);
        let rendezvous = rendezvous.map(|(at, mut meets)| {
            meets.block = actions.split_off(at);
            // Rule (bir's, not the spec's): a rendezvous step neither notifies nor calls.
            let notifies = transform.actions.iter().find(|action| {
                matches!(
                    action,
                    ast::Action::Lock {
                        op: ast::LockOp::Notify,
                        ..
                    }
                )
            });
            if let Some(action) = notifies.filter(|_| notify.is_some()) {
                self.diags.error(
                    action.spans(),
                    format!(
                        "`{action}` in a rendezvous step: bir does not take a `notify` in the \
                         step of a send or receive on a rendezvous channel yet; notify in a \
                         step of its own"
                    ),
                );
                notify = None;
            }
            if let (Some(_), Some(invoke)) = (&call, &transform.invoke) {
                self.diags.error(
                    ast::Spans {
                        first: invoke.function.span,
                        last: invoke.spans.last,
                    },
                    format!(
                        "a call of `{}` in a rendezvous step: bir does not take a call in the \
                         step of a send or receive on a rendezvous channel yet; call it in a \
                         step of its own",
                        invoke.function.text
                    ),
                );
            }
            Box::new(meets)
        });
        // A throw's step never takes its jump: its text leaves the jump out.
        let text = match &thrown {
            Some(_) => ast::Transform {
                inner_jump: None,
                outer_jump: None,
                ..transform.clone()
            }
            .to_string(),
            None => transform.to_string(),
        };
        let step = ir::Transform {
            location,
            guard,
            actions,
            jump,
            quiet: None,
            rendezvous,
            buffered: buffered.map(Box::new),
            text,
            line: line_of(transform.spans.first),
            span: transform.spans.first,
            doc: transform.doc.clone(),
        };
        let Some((at, outcomes)) = notify else {
            return (vec![step], call, returned, thrown);
        };
        // One transformation per outcome of the `notify`, in order: the first alone reports
        // what faults before the outcomes part.
        let variants = outcomes
            .into_iter()
            .enumerate()
            .map(|(n, (cond, outcome, label))| {
                let mut variant = step.clone();
                variant.text = format!("{} ({label})", step.text);
                let tail = variant.actions.split_off(at);
                variant.actions.push(ir::Action::Assume(cond));
                variant.actions.extend(outcome);
                variant.actions.extend(tail);
                variant.quiet = (n > 0).then_some(at);
                variant
            })
            .collect();
        (variants, call, returned, thrown)
    }

    /// Rule: a blocking action (a communication, `lock`, `unwait`) is the first action of
    /// its step, and a step has at most one: its readiness is part of the step's enabling
    /// condition, evaluated after the guard and before any action.
    fn blocking_not_first(&mut self, transform: &ast::Transform, action: &ast::Action) {
        let first_blocking = transform.actions.iter().position(ast::Action::is_blocking);
        let message = match first_blocking {
            Some(0) => format!(
                "two blocking actions in one step: `{action}` waits too, after `{}`; a step \
                 waits for one thing at most (split it into two steps)",
                transform.actions[0]
            ),
            _ => format!(
                "`{action}` is a blocking action, so it must be the first action of its step \
                 (its readiness is part of the step's enabling condition)"
            ),
        };
        self.diags.error(action.spans(), message);
    }

    /// Rule: a transformation has exactly one jump, inside its braces or after them, and
    /// `goto` names a location of the same thread; or none when an action is `exit`, which
    /// ends the instance, so that a jump would never be taken.
    fn jump(&mut self, thread: ir::ThreadId, t: &ast::Transform) -> ir::Jump {
        let exits = t
            .actions
            .iter()
            .any(|action| matches!(action, ast::Action::Exit { .. } | ast::Action::Throw { .. }));
        let jump = match (&t.inner_jump, &t.outer_jump) {
            (Some(jump), None) | (None, Some(jump)) => jump,
            (None, None) if exits => return ir::Jump::Return,
            (None, None) => {
                self.diags.error(
                    ast::Spans::one(t.spans.first),
                    "this transformation has no jump: end it with `goto loc;` or `return;`",
                );
                return ir::Jump::Return;
            }
            (Some(_), Some(second)) => {
                self.diags.error(
                    second.spans(),
                    "this transformation has two jumps: keep either the one inside the braces \
                     or the one after them",
                );
                second
            }
        };
        match jump {
            ast::Jump::Return { .. } => ir::Jump::Return,
            ast::Jump::Goto { target, .. } => {
                if let Some(&id) = self.sigs[thread].locations.get(&target.text) {
                    return ir::Jump::Goto(id);
                }
                let owner = self
                    .sigs
                    .iter()
                    .position(|sig| sig.locations.contains_key(&target.text));
                let here = self.body_name(thread);
                let message = match owner {
                    Some(other) => {
                        let what = match self.function_of(thread) {
                            Some(_) => "function",
                            None => "thread",
                        };
                        format!(
                            "`{}` is a location of {}; a `goto` stays within its own {what} \
                             (`{}`)",
                            target.text,
                            self.body_name(ir::ThreadId::new(other)),
                            self.thread_decls[thread.index()].name.text
                        )
                    }
                    None => {
                        let hint = self.unknown_location_hint(thread, &target.text);
                        format!("unknown location `{}` in {here}{hint}", target.text)
                    }
                };
                self.diags.error(target.spans(), message);
                ir::Jump::Return
            }
        }
    }

    pub(super) fn action(
        &mut self,
        thread: ir::ThreadId,
        action: &ast::Action,
    ) -> Option<ir::Action> {
        let mut scope = Scope::runtime(Some(thread));
        match action {
            ast::Action::Send { spans, .. }
            | ast::Action::Receive { spans, .. }
            | ast::Action::New { spans, .. }
            | ast::Action::Throw { spans, .. }
            | ast::Action::Lock { spans, .. } => {
                self.unsupported(*spans, "this action");
                None
            }
            ast::Action::Assign { target, value, .. } => {
                let place = self.place(target, &mut scope);
                let (value_ir, kind) = self.expr(value, &mut scope);
                let (place, scalar) = place?;
                if !self.assignable(scalar, kind) {
                    self.diags.error(
                        value.spans(),
                        format!(
                            "mismatched types: cannot assign {} to `{target}` of type {}{}",
                            self.kind_name(kind),
                            self.scalar_name(scalar),
                            super::pools::tid_hint(kind, scalar)
                        ),
                    );
                }
                let site = self.site(
                    FaultKind::Range,
                    format!(
                        "`{action}` writes {{value}}, outside `{target}`'s type {}",
                        self.scalar_name(scalar)
                    ),
                    action.spans().first,
                    value.spans(),
                );
                Some(ir::Action::Assign {
                    place,
                    value: value_ir,
                    site,
                })
            }
            ast::Action::Assert { expr, spans } => {
                let cond = self.expr_of(expr, &mut scope, Kind::Bool, "an assertion");
                let site = self.site(
                    FaultKind::Assertion,
                    format!("assertion failed: {expr}"),
                    spans.first,
                    *spans,
                );
                Some(ir::Action::Assert { cond, site })
            }
            ast::Action::Assume { expr, .. } => {
                let cond = self.expr_of(expr, &mut scope, Kind::Bool, "an assumption");
                Some(ir::Action::Assume(cond))
            }
            ast::Action::Start {
                target,
                thread,
                args,
                spans,
            } => self.start(target.as_deref(), thread, args, *spans, &mut scope),
            ast::Action::Exit { .. } => Some(ir::Action::Exit),
        }
    }

    /// Rule: only variables and array elements are assigned; never a constant, an enum
    /// value, an active thread's parameter or a whole array.
    pub(super) fn place(
        &mut self,
        target: &ast::Expr,
        scope: &mut Scope,
    ) -> Option<(Place, Scalar)> {
        match target {
            ast::Expr::Name(name) => match self.lookup_var(name, scope)? {
                Resolved::Index => {
                    self.diags.error(
                        name.spans(),
                        format!(
                            "cannot assign to `{}`: the parameter of an active thread is its \
                             instance index and is read-only",
                            name.text
                        ),
                    );
                    None
                }
                Resolved::Var(var, ty, ok) => {
                    if let Some(len) = ty.len {
                        self.diags.error(
                            name.spans(),
                            format!(
                                "cannot assign to the whole array `{}` ({len} elements); assign \
                                 its elements: `{}[i] := ...`",
                                name.text, name.text
                            ),
                        );
                        return None;
                    }
                    ok.then_some((Place { var, index: None }, ty.scalar))
                }
            },
            ast::Expr::Index {
                array,
                index,
                spans,
            } => {
                let resolved = self.lookup_var(array, scope);
                let index_ir = self.expr_of(index, scope, Kind::Int, "an array index");
                match resolved? {
                    Resolved::Var(var, ty, ok) if ty.len.is_some() => {
                        let len = ty.elements();
                        let site = self.index_site(array, index, len, *spans);
                        let place = Place {
                            var,
                            index: Some((Box::new(index_ir), site)),
                        };
                        ok.then_some((place, ty.scalar))
                    }
                    _ => {
                        self.not_an_array(array);
                        None
                    }
                }
            }
            ast::Expr::Member {
                scope: owner,
                member,
            } if self.names_variable(owner, scope) => {
                self.field_place(&ast::Expr::Name(owner.clone()), member, None, scope)
            }
            ast::Expr::Field { base, field } => self.field_place(base, field, None, scope),
            ast::Expr::FieldIndex {
                base,
                field,
                index,
                spans,
            } => self.field_place(base, field, Some((index, *spans)), scope),
            ast::Expr::Member {
                scope: owner,
                member,
            } => {
                let what = match self.symbols.get(&owner.text) {
                    Some(Symbol::ConstBlock(_)) => "constant",
                    Some(Symbol::Enum(_)) => "enum value",
                    _ => "member",
                };
                self.diags.error(
                    target.spans(),
                    format!(
                        "cannot assign to {what} `{}.{}`; only variables can be assigned",
                        owner.text, member.text
                    ),
                );
                None
            }
            _ => {
                self.diags.error(
                    target.spans(),
                    "cannot assign to this expression; expected a variable or an array element",
                );
                None
            }
        }
    }

    /// Rule: invariants have distinct names and are boolean expressions over globals,
    /// constants and `T@loc`.
    pub(super) fn check_invariants(&mut self) {
        let ast = self.ast;
        let mut names = HashMap::new();
        for decl in &ast.decls {
            let ast::Decl::Invariant(invariant) = decl else {
                continue;
            };
            if let Some(&first) = names.get(&invariant.name.text) {
                self.diags.duplicate(
                    invariant.name.spans(),
                    format!("duplicate invariant `{}`", invariant.name.text),
                    &invariant.name.text,
                    first,
                );
            } else {
                names.insert(invariant.name.text.clone(), invariant.name.spans());
            }
            let errors = self.diags.len();
            let cond = self.expr_of(
                &invariant.expr,
                &mut Scope::runtime(None),
                Kind::Bool,
                "an invariant",
            );
            let atoms = if self.diags.len() == errors {
                self.invariant_atoms(&invariant.expr)
            } else {
                Vec::new()
            };
            self.invariants.push(ir::Invariant {
                name: invariant.name.text.clone(),
                cond,
                text: invariant.expr.to_string(),
                line: line_of(invariant.keyword),
                atoms,
            });
        }
    }
}
