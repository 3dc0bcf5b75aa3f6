//! Functions (LANGUAGE.md, "Functions"): each `function` is checked once, as a body of its
//! own — a thread that nothing starts, after the model's threads (`ThreadId`s from
//! `Checker::real_threads` on), its parameters its first locals — and its calls and returns
//! are recorded beside the transformations that make them. `inline` then lays every call
//! out in the calling thread, so that the checked system has version 1's steps only.
//!
//! Rules checked here: a call names a function, with one argument per parameter, each of
//! the parameter's kind; a call whose result is used names a function that returns one, of
//! a kind the target holds; a function that returns a type returns a value on every path
//! (its end unreachable in its location graph, guards constant false pruned) and one that
//! does not never does; every function on a cycle of calls declares its bound
//! `function[k]`; a `function` is not called inside an expression.

use std::collections::HashMap;

use super::expr::Scope;
use super::{Checker, Symbol};
use crate::front::ast::{self, Spans};
use crate::front::kw;
use crate::ir::{self, Expr, FaultKind, Id as _, Place, Scalar};

/// The most frames a recursive function may declare (`function[k]`).
pub(super) const MAX_BOUND: i64 = 64;

/// A function as callers see it.
#[derive(Clone, Debug)]
pub(super) struct FunctionSig {
    /// The type of its result, if it returns one.
    pub returns: Option<Scalar>,
    /// The most frames of it one stack holds (1 unless declared).
    pub bound: u32,
    /// Whether `[k]` was written.
    pub bounded: bool,
    /// Its parameters' types, in order (its first locals).
    pub params: Vec<Scalar>,
}

/// A call recorded beside the transformation that makes it.
#[derive(Clone, Debug)]
pub(super) struct CallInfo {
    /// The function called, by index into `Checker::function_decls`.
    pub function: usize,
    /// The arguments, each with the range site of its conversion to the parameter's type.
    pub args: Vec<(Expr, ir::SiteId)>,
    /// Where the result goes, with the range site of that write.
    pub target: Option<(Place, ir::SiteId)>,
    /// The call's tokens.
    pub spans: Spans,
}

/// A `return e` recorded beside its transformation: the value and the range site of its
/// conversion to the function's result type.
#[derive(Clone, Debug)]
pub(super) struct ReturnInfo {
    pub value: Expr,
    pub site: ir::SiteId,
}

/// The bodies of the model's functions as threads for the checker: their parameters, then
/// their locals, then their body.
pub(super) fn function_threads(system: &ast::System) -> Vec<ast::Thread> {
    system
        .decls
        .iter()
        .filter_map(|decl| match decl {
            ast::Decl::Function(function) => Some(function),
            _ => None,
        })
        .map(|function| {
            let mut body = function.body.clone();
            let params = function.params.iter().map(|param| ast::VarDecl {
                doc: String::new(),
                ty: param.ty.clone(),
                name: param.name.clone(),
                init: None,
            });
            body.locals = params.chain(body.locals).collect();
            ast::Thread {
                doc: function.doc.clone(),
                active: None,
                keyword: function.keyword,
                name: function.name.clone(),
                pool: None,
                params: Vec::new(),
                param_spans: function.param_spans,
                body,
            }
        })
        .collect()
}

impl Checker<'_> {
    /// The pseudo-thread that holds function `index`'s body.
    pub(super) fn function_thread(&self, index: usize) -> ir::ThreadId {
        ir::ThreadId::new(self.real_threads + index)
    }

    /// The function whose body pseudo-thread `thread` holds, if it is one.
    pub(super) fn function_of(&self, thread: ir::ThreadId) -> Option<usize> {
        thread.index().checked_sub(self.real_threads)
    }

    /// How messages name body `thread`: "thread `T`", or "function `f`" for a function's.
    pub(super) fn body_name(&self, thread: ir::ThreadId) -> String {
        let what = match self.function_of(thread) {
            Some(_) => "function",
            None => "thread",
        };
        format!("{what} `{}`", self.thread_decls[thread.index()].name.text)
    }

    /// Reports `name` of a function or a `fun` (`what`) that is a built-in's: where `(`
    /// follows, a built-in's name is the built-in.
    pub(super) fn refuse_builtin_name(&mut self, name: &ast::Name, what: &str) {
        let text = name.text.as_str();
        if kw::lock_action(text).is_some()
            || ast::Builtin::named(text).is_some()
            || text == "threadTerminated"
        {
            self.diags.error(
                name.spans(),
                format!(
                    "`{text}` is a built-in (`{text}(..)`), so {what} may not take its name; \
                     call it something else"
                ),
            );
        }
    }

    /// Each function's result type, bound and parameter types. Rule: a function takes
    /// the name of no built-in (they are built-ins where `(` follows, as a call is).
    pub(super) fn check_function_signatures(&mut self) {
        for decl in self.function_decls.clone() {
            self.refuse_builtin_name(&decl.name, "a function");
            let returns = decl.returns.as_ref().and_then(|ty| match self.ty(ty) {
                Some(ir::Ty { scalar, len: None }) => Some(scalar),
                Some(_) => {
                    self.diags
                        .error(ty.spans, "a function returns a scalar, not an array");
                    None
                }
                None => None,
            });
            let bound = decl.bound.as_ref().and_then(|bound| {
                match self.const_int(bound, "a function's bound") {
                    Some(k) if (1..=MAX_BOUND).contains(&k) => Some(k as u32),
                    Some(k) => {
                        self.diags.error(
                            bound.spans(),
                            format!(
                                "a function's bound is the most frames of it one stack holds: \
                                 1 to {MAX_BOUND}, not {k}"
                            ),
                        );
                        None
                    }
                    None => None,
                }
            });
            let params = decl
                .params
                .iter()
                .map(|param| match self.ty(&param.ty) {
                    Some(ir::Ty { scalar, len: None }) => scalar,
                    Some(_) => {
                        self.diags
                            .error(param.ty.spans, "a parameter is a scalar, not an array");
                        Scalar::INT
                    }
                    None => Scalar::INT,
                })
                .collect();
            self.function_sigs.push(FunctionSig {
                returns,
                bound: bound.unwrap_or(1),
                bounded: decl.bound.is_some(),
                params,
            });
        }
    }

    /// The function `name` denotes, reporting a name that denotes none.
    fn function_named(&mut self, name: &ast::Name) -> Option<usize> {
        match self.symbols.get(&name.text).copied() {
            Some(Symbol::Function(index)) => Some(index),
            Some(other) => {
                self.diags.error(
                    name.spans(),
                    format!("`{}` is {}, not a function", name.text, other.describe()),
                );
                None
            }
            None => {
                let functions = self.function_decls.iter().map(|f| f.name.text.as_str());
                let hint = self.suggest.did_you_mean(&name.text, functions);
                self.diags.error(
                    name.spans(),
                    format!("no function `{}` is declared{hint}", name.text),
                );
                None
            }
        }
    }

    /// A call made by a transformation of `caller` (an `invoke`, or a call statement).
    pub(super) fn call(&mut self, caller: ir::ThreadId, call: &ast::Call) -> Option<CallInfo> {
        let mut scope = Scope::runtime(Some(caller));
        let target = call
            .target
            .as_ref()
            .map(|target| (target, self.place(target, &mut scope)));
        let function = self.function_named(&call.function)?;
        let sig = self.function_sigs.get(function)?.clone();
        let decl = self.function_decls[function];
        if call.args.len() != sig.params.len() {
            let plural = if sig.params.len() == 1 { "" } else { "s" };
            self.diags.error(
                Spans {
                    first: call.function.span,
                    last: call.spans.last,
                },
                format!(
                    "`{}` takes {} argument{plural}, but this call passes {}",
                    call.function.text,
                    sig.params.len(),
                    call.args.len()
                ),
            );
            return None;
        }
        let mut args = Vec::new();
        for ((arg, &scalar), param) in call.args.iter().zip(&sig.params).zip(&decl.params) {
            let (value, kind) = self.expr(arg, &mut scope);
            if !self.assignable(scalar, kind) {
                self.diags.error(
                    arg.spans(),
                    format!(
                        "mismatched types: parameter `{}` of `{}` is {}, not {}",
                        param.name.text,
                        call.function.text,
                        self.scalar_name(scalar),
                        self.kind_name(kind)
                    ),
                );
            }
            let site = self.site(
                FaultKind::Range,
                format!(
                    "`{call}` passes {{value}} for `{}`, outside its type {}",
                    param.name.text,
                    self.scalar_name(scalar)
                ),
                call.spans.first,
                arg.spans(),
            );
            args.push((value, site));
        }
        let target = match target {
            None => None,
            Some((_, None)) => return None,
            Some((target, Some((place, target_scalar)))) => {
                let Some(returns) = sig.returns else {
                    self.diags.error(
                        call.spans,
                        format!(
                            "`{}` returns no value, so its result cannot be assigned; call it \
                             as a statement: `{}(..);`",
                            call.function.text, call.function.text
                        ),
                    );
                    return None;
                };
                if !self.assignable(target_scalar, super::expr::scalar_kind(returns)) {
                    self.diags.error(
                        target.spans(),
                        format!(
                            "mismatched types: `{}` returns {}, which `{target}` of type {} \
                             cannot hold",
                            call.function.text,
                            self.scalar_name(returns),
                            self.scalar_name(target_scalar)
                        ),
                    );
                }
                let site = self.site(
                    FaultKind::Range,
                    format!(
                        "`{call}` returns {{value}} into `{target}`, outside its type {}",
                        self.scalar_name(target_scalar)
                    ),
                    call.spans.first,
                    target.spans(),
                );
                Some((place, site))
            }
        };
        Some(CallInfo {
            function,
            args,
            target,
            spans: call.spans,
        })
    }

    /// The value of `return e;` in a body of `thread`: a function that returns a type
    /// returns a value of it; a thread or a function that returns none takes none.
    pub(super) fn return_value(
        &mut self,
        thread: ir::ThreadId,
        value: &ast::Expr,
        spans: Spans,
    ) -> Option<ReturnInfo> {
        let Some(function) = self.function_of(thread) else {
            self.diags.error(
                value.spans(),
                "a thread returns no value: its `return;` ends the instance",
            );
            return None;
        };
        let decl = self.function_decls[function];
        let Some(returns) = self.function_sigs.get(function).and_then(|sig| sig.returns) else {
            self.diags.error(
                value.spans(),
                format!(
                    "`{}` returns no value (it declares no `returns` type): write `return;`, \
                     or declare the result's type, `function {}(..) returns T`",
                    decl.name.text, decl.name.text
                ),
            );
            return None;
        };
        let mut scope = Scope::runtime(Some(thread));
        let (value_ir, kind) = self.expr(value, &mut scope);
        if !self.assignable(returns, kind) {
            self.diags.error(
                value.spans(),
                format!(
                    "mismatched types: `{}` returns {}, not {}",
                    decl.name.text,
                    self.scalar_name(returns),
                    self.kind_name(kind)
                ),
            );
        }
        let site = self.site(
            FaultKind::Range,
            format!(
                "`return {value};` of `{}` returns {{value}}, outside its type {}",
                decl.name.text,
                self.scalar_name(returns)
            ),
            spans.first,
            value.spans(),
        );
        Some(ReturnInfo {
            value: value_ir,
            site,
        })
    }

    /// Rule: a function that returns a type cannot reach a `return` without a value (the
    /// end of its body among them), transformations whose guard is constant false left
    /// out. The error stands on the first such `return;` in source order, or on the step
    /// that reaches the end of the body.
    pub(super) fn check_returns(&mut self) {
        for function in 0..self.function_decls.len() {
            let Some(returns) = self.function_sigs.get(function).and_then(|sig| sig.returns) else {
                continue;
            };
            let thread = self.function_thread(function);
            let Some(body) = self.threads.get(thread) else {
                continue;
            };
            let mut reached = vec![false; body.locations.len()];
            // A handler is reached by a throw (of this frame or of one it calls).
            let mut stack = vec![ir::LocationId::new(0)];
            stack.extend(self.handler_locations(thread));
            let mut bare: Option<ir::TransformId> = None;
            while let Some(location) = stack.pop() {
                if location.index() >= reached.len() || reached[location.index()] {
                    continue;
                }
                reached[location.index()] = true;
                for &id in &body.locations[location].transforms {
                    let transform = &body.transforms[id];
                    if matches!(transform.guard, Some(Expr::Bool(false))) {
                        continue;
                    }
                    let exits = transform
                        .actions
                        .iter()
                        .any(|a| matches!(a, ir::Action::Exit))
                        || self.throws.contains_key(&(thread, id));
                    // A call continues at its transformation's jump once the callee returns.
                    match transform.jump {
                        _ if exits => {}
                        ir::Jump::Goto(next) => stack.push(next),
                        // The first in source order is reported.
                        ir::Jump::Return if !self.returns.contains_key(&(thread, id)) => {
                            if bare.is_none_or(|first| id < first) {
                                bare = Some(id);
                            }
                        }
                        ir::Jump::Return => {}
                    }
                }
            }
            let Some(id) = bare else {
                continue;
            };
            let step = body.transforms[id].span;
            let jump = self.bare_returns.get(&(thread, id)).copied();
            let name = &self.function_decls[function].name.text;
            let returns = self.scalar_name(returns);
            let (spans, message) = match jump {
                Some((spans, false)) => (
                    spans,
                    format!(
                        "`return;` without a value in `{name}`, which returns {returns}: \
                         return one, `return e;`"
                    ),
                ),
                _ => (
                    Spans::one(step),
                    format!(
                        "`{name}` returns {returns}, but after this step it can reach the end \
                         of its body, which returns no value: end every path with `return e;`"
                    ),
                ),
            };
            self.diags.error(spans, message);
        }
    }

    /// Rule: every function on a cycle of calls declares its bound, `function[k]`.
    pub(super) fn check_call_graph(&mut self) {
        let count = self.function_decls.len();
        let mut edges: Vec<Vec<usize>> = vec![Vec::new(); count];
        for (&(thread, _), call) in &self.calls {
            if let Some(caller) = self.function_of(thread) {
                if !edges[caller].contains(&call.function) {
                    edges[caller].push(call.function);
                }
            }
        }
        for edges in &mut edges {
            edges.sort_unstable();
        }
        for function in 0..count {
            let Some(cycle) = cycle_through(&edges, function) else {
                continue;
            };
            if self
                .function_sigs
                .get(function)
                .is_some_and(|sig| sig.bounded)
            {
                continue;
            }
            let decl = self.function_decls[function];
            let path: Vec<&str> = cycle
                .iter()
                .map(|&f| self.function_decls[f].name.text.as_str())
                .collect();
            self.diags.error(
                decl.name.spans(),
                format!(
                    "`{}` is recursive ({}): declare the most frames of it one stack may hold, \
                     `function[k] {}(..)`",
                    decl.name.text,
                    path.join(" -> "),
                    decl.name.text
                ),
            );
        }
    }

    /// A call in an expression: rule: a `function` is called only as a statement.
    pub(super) fn call_in_expression(&mut self, function: &ast::Name, spans: Spans) {
        let message = match self.symbols.get(&function.text) {
            Some(Symbol::Function(_)) => format!(
                "`{}` is a function: it is called as a statement of its own (`x := {}(..);`), \
                 not inside an expression",
                function.text, function.text
            ),
            Some(other) => format!(
                "`{}` is {}, not a function",
                function.text,
                other.describe()
            ),
            None => format!("no function `{}` is declared", function.text),
        };
        self.diags.error(spans, message);
    }
}

/// A cycle of calls from `start` back to it (the functions on it, `start` first and last),
/// by a depth-first search over `edges`.
fn cycle_through(edges: &[Vec<usize>], start: usize) -> Option<Vec<usize>> {
    let mut path = vec![start];
    let mut next = vec![0usize];
    let mut visited: HashMap<usize, ()> = HashMap::new();
    while let Some(&node) = path.last() {
        let i = *next.last()?;
        if let Some(&to) = edges[node].get(i) {
            *next.last_mut()? += 1;
            if to == start {
                path.push(start);
                return Some(path);
            }
            if visited.insert(to, ()).is_none() {
                path.push(to);
                next.push(0);
            }
        } else {
            path.pop();
            next.pop();
        }
    }
    None
}
