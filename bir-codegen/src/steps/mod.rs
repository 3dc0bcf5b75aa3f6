//! High-level bodies to steps (LANGUAGE.md, "High-level bodies"): every body of statements
//! (a thread's or a function's) becomes a body of locations, by the spec's translation, so
//! that every later stage — the checker, the analyses, the code generator, the interpreter
//! and the peers' writers — sees only locations and transformations.
//!
//! The rules, as this module applies them:
//! - Each statement but a jump is one location, named by its label or by a generated name
//!   (`while#2`: the kind of statement and its place among the generated names of the body,
//!   in source order), which no identifier can clash with.
//! - A simple statement (an action, a call, `skip`) is one transformation to the next
//!   statement; `wait(l);` is two (`wait`, then `unwait` at a location of its own).
//! - A jump is not a step: it is the jump of every transformation that reaches it, and the
//!   end of a body is `return;`. Only a jump that no transformation reaches (the first
//!   statement of a body) is a step of its own.
//! - `if`, `choose` and `while` are one location whose transformations are the branches,
//!   guarded as the spec says; a branch whose first statement is simple (and unlabelled) is
//!   merged with it, any other branch is a step that moves to it.
//! - `atomic` is one transformation per path through it (`atomic`).
//! - `try S catch (R x) H ... end` has no location of its own: each handler becomes a
//!   low-level `catch R x at (S's locations) goto h;` clause of the body, in the order of
//!   the `catch` keywords in the source (so an inner `try`'s handlers come before an outer
//!   one's), `h` the location of H's first statement. A handler that is empty or starts
//!   with a jump gets a step of its own (`catch#n`) that moves on, as a branch does.
//!
//! Locations come in source order (a block's location before those of its statements), so
//! that transformations, and the successor order, follow the source.

mod atomic;
mod handlers;

use std::collections::{HashMap, HashSet};

use proc_macro2::Span;

use crate::diag::{Diagnostics, Spans};
use crate::front::ast::*;

/// Translates every high-level body of `system` into locations; bodies of locations are
/// left as they are. Errors (a label on a jump, a construct `atomic` does not allow...) are
/// recorded in `diags`.
pub fn steps(system: &mut System, diags: &mut Diagnostics) {
    let funs: HashSet<String> = system
        .decls
        .iter()
        .filter_map(|decl| match decl {
            Decl::Fun(fun) => Some(fun.name.text.clone()),
            _ => None,
        })
        .collect();
    for decl in &mut system.decls {
        match decl {
            Decl::Thread(thread) => lower_body(&mut thread.body, &thread.name, &funs, diags),
            Decl::Function(function) => {
                lower_body(&mut function.body, &function.name, &funs, diags)
            }
            _ => {}
        }
    }
}

/// Translates one body, if it is made of statements; `funs` names the system's `fun`s.
fn lower_body(body: &mut Body, owner: &Name, funs: &HashSet<String>, diags: &mut Diagnostics) {
    if body.statements.is_empty() {
        return;
    }
    let statements = std::mem::take(&mut body.statements);
    let mut lowering = Lowering {
        diags,
        generated: 0,
        locations: Vec::new(),
        own: HashMap::new(),
        unwaits: HashMap::new(),
        owner: owner.span,
        funs,
        catches: Vec::new(),
        handlers: HashMap::new(),
    };
    lowering.reserve(&statements, false);
    let end = Next::Return(None, Spans::one(owner.span), true);
    let entry = lowering.list(&statements, &end);
    // The initial location is the first statement's; a body that starts with a jump gets a
    // step of its own that takes it.
    let first_location = lowering.locations.first().map(|l| l.name.text.clone());
    let starts_at_first =
        matches!(&entry, Next::Location(name, _) if Some(name) == first_location.as_ref());
    if !starts_at_first {
        let spans = statements[0].spans;
        let name = lowering.generated_name("goto", spans.first);
        let transform = plain_transform(None, Vec::new(), &entry, spans);
        lowering
            .locations
            .insert(0, location(name, String::new(), vec![transform]));
    }
    body.locations = lowering.locations;
    body.catches.extend(lowering.catches);
}

/// Where control goes next: a location, or a return (with the value of a function's
/// `return e`), which is the end of the body when its flag is set.
#[derive(Clone, Debug)]
enum Next {
    /// The location of this name, with the token of the `goto` that names it, if one does
    /// (for errors about the name).
    Location(String, Option<Span>),
    /// `return [e];`, at these tokens; or the end of the body (true), at its owner's name.
    Return(Option<Expr>, Spans, bool),
}

/// The translation of one body.
struct Lowering<'d> {
    diags: &'d mut Diagnostics,
    /// Generated names so far, for the next one's number.
    generated: usize,
    /// The locations, in source order: reserved first (empty), filled as the statements
    /// are translated.
    locations: Vec<Location>,
    /// The location of each statement that has one, by the statement's address (the
    /// statements stay borrowed, unmoved, while the body is translated).
    own: HashMap<*const Stmt, usize>,
    /// The location where each `wait(l);` statement re-acquires its lock.
    unwaits: HashMap<*const Stmt, usize>,
    /// The thread or function, for the spans of generated jumps.
    owner: Span,
    /// The names of the system's `fun`s: `x := f(a);` of one is an assignment, an action.
    funs: &'d HashSet<String>,
    /// The `catch` clauses of the body's `try` blocks, in source order; each handler's
    /// location is filled in when the handler is translated (`handlers`).
    catches: Vec<Catch>,
    /// For each handler (by its first statement list's address): its clause in `catches`
    /// and the location reserved for a handler that needs a step of its own.
    handlers: HashMap<*const Handler, handlers::Reserved>,
}

impl Lowering<'_> {
    /// A new generated location name: `kind#n`.
    fn generated_name(&mut self, kind: &str, span: Span) -> Name {
        self.generated += 1;
        Name {
            text: format!("{kind}#{}", self.generated),
            span,
        }
    }

    /// Reserves, in source order, the locations of `stmts` and of the statements in their
    /// blocks: every statement but a jump and but the first of a branch when it is merged
    /// with the branch (`in_branch`), and the second location of each `wait(l);`.
    fn reserve(&mut self, stmts: &[Stmt], in_branch: bool) {
        for (index, stmt) in stmts.iter().enumerate() {
            let merged = in_branch && index == 0 && stmt.label.is_none() && is_simple(stmt);
            if let StmtKind::Try {
                keyword,
                body,
                handlers,
            } = &stmt.kind
            {
                self.reserve_try(stmt.label.as_ref(), *keyword, body, handlers);
                continue;
            }
            if let StmtKind::Jump(_) = stmt.kind {
                if let Some(label) = &stmt.label {
                    self.diags.error(
                        label.spans(),
                        format!(
                            "a label on a jump: `{}` would name no step (a jump is not a \
                             step); put the label on the statement the jump goes to",
                            label.text
                        ),
                    );
                }
            } else if !merged {
                let name = match &stmt.label {
                    Some(label) => label.clone(),
                    None => self.generated_name(kind_name(&stmt.kind), stmt.spans.first),
                };
                self.own.insert(stmt, self.locations.len());
                self.locations
                    .push(location(name, stmt.doc.clone(), Vec::new()));
            }
            if let StmtKind::Action(Action::Lock {
                op: LockOp::Wait,
                spans,
                ..
            }) = &stmt.kind
            {
                let name = self.generated_name("unwait", spans.first);
                self.unwaits.insert(stmt, self.locations.len());
                self.locations
                    .push(location(name, String::new(), Vec::new()));
            }
            match &stmt.kind {
                StmtKind::If {
                    branches,
                    otherwise,
                    ..
                }
                | StmtKind::Choose {
                    branches,
                    otherwise,
                    ..
                } => {
                    for branch in branches {
                        self.reserve(&branch.body, true);
                    }
                    if let Some(body) = otherwise {
                        self.reserve(body, true);
                    }
                }
                StmtKind::While { body, .. } => self.reserve(body, true),
                _ => {}
            }
        }
    }

    /// Translates `stmts`, which continue at `next` when they end, and returns where they
    /// start.
    fn list(&mut self, stmts: &[Stmt], next: &Next) -> Next {
        let mut after = next.clone();
        for stmt in stmts.iter().rev() {
            after = self.stmt(stmt, &after);
        }
        after
    }

    /// Translates one statement (not merged into a branch), which continues at `next`;
    /// returns where it starts.
    fn stmt(&mut self, stmt: &Stmt, next: &Next) -> Next {
        if let StmtKind::Try { body, handlers, .. } = &stmt.kind {
            return self.try_block(body, handlers, next);
        }
        let Some(&place) = self.own.get(&(stmt as *const Stmt)) else {
            let StmtKind::Jump(jump) = &stmt.kind else {
                unreachable!("only a jump has no location")
            };
            return jump_target(jump);
        };
        let here = Next::Location(self.locations[place].name.text.clone(), None);
        let transforms = match &stmt.kind {
            StmtKind::Jump(_) | StmtKind::Try { .. } => {
                unreachable!("a jump or a `try` has no location")
            }
            StmtKind::Action(_) | StmtKind::Call(_) | StmtKind::Skip => {
                vec![self.simple(None, stmt, next)]
            }
            StmtKind::If {
                branches,
                otherwise,
                ..
            } => self.branches(branches, otherwise.as_deref(), true, next),
            StmtKind::Choose {
                branches,
                otherwise,
                ..
            } => self.branches(branches, otherwise.as_deref(), false, next),
            StmtKind::While {
                keyword,
                cond,
                body,
            } => {
                let enter = self.branch(Some(cond.clone()), body, stmt.spans, &here);
                let exit = plain_transform(
                    Some(negation(cond, *keyword)),
                    Vec::new(),
                    next,
                    Spans::one(*keyword).to(cond.spans()),
                );
                vec![enter, exit]
            }
            StmtKind::Atomic { keyword, body } => self.atomic(*keyword, body, stmt.spans, next),
        };
        self.locations[place].transforms = transforms;
        here
    }

    /// The transformations of an `if` (`exclusive`: each branch's guard excludes the ones
    /// before it) or a `choose` (each branch guarded by its own condition), with the else
    /// branch guarded by the negation of every condition. An `if` without `else` has an
    /// empty one; a `choose` without `else` has none.
    fn branches(
        &mut self,
        branches: &[Branch],
        otherwise: Option<&[Stmt]>,
        exclusive: bool,
        next: &Next,
    ) -> Vec<Transform> {
        let mut transforms = Vec::new();
        let mut earlier: Vec<Expr> = Vec::new();
        for branch in branches {
            let spans = Spans::one(branch.keyword).to(branch.cond.spans());
            let guard = if exclusive {
                conjunction(&earlier, Some(&branch.cond))
            } else {
                branch.cond.clone()
            };
            transforms.push(self.branch(Some(guard), &branch.body, spans, next));
            earlier.push(negation(&branch.cond, branch.keyword));
        }
        let else_guard =
            |earlier: &[Expr]| (!earlier.is_empty()).then(|| conjunction(earlier, None));
        match otherwise {
            Some(body) => {
                let spans = body.first().map_or_else(
                    || Spans::one(branches.last().map_or(self.owner, |b| b.keyword)),
                    |first| first.spans,
                );
                transforms.push(self.branch(else_guard(&earlier), body, spans, next));
            }
            None if exclusive => {
                let spans = Spans::one(branches.last().map_or(self.owner, |b| b.keyword));
                transforms.push(plain_transform(
                    else_guard(&earlier),
                    Vec::new(),
                    next,
                    spans,
                ));
            }
            None => {}
        }
        transforms
    }

    /// The transformation of a branch guarded by `guard`: merged with its first statement
    /// when that is simple and unlabelled, else a step that moves to the branch's start.
    fn branch(
        &mut self,
        guard: Option<Expr>,
        body: &[Stmt],
        spans: Spans,
        next: &Next,
    ) -> Transform {
        let Some(first) = body.first() else {
            return plain_transform(guard, Vec::new(), next, spans);
        };
        if first.label.is_none() && is_simple(first) {
            let rest = self.list(&body[1..], next);
            return self.simple(guard, first, &rest);
        }
        if let (None, StmtKind::Jump(jump)) = (&first.label, &first.kind) {
            // The jump is this branch's step; what follows it is reached only by a label.
            self.list(&body[1..], next);
            return plain_transform(guard, Vec::new(), &jump_target(jump), spans);
        }
        let entry = self.list(body, next);
        plain_transform(guard, Vec::new(), &entry, spans)
    }

    /// The transformation of a simple statement, guarded by `guard`, continuing at `next`.
    /// `wait(l);` waits here and re-acquires the lock at a location of its own.
    fn simple(&mut self, guard: Option<Expr>, stmt: &Stmt, next: &Next) -> Transform {
        match &stmt.kind {
            StmtKind::Action(Action::Lock {
                op: LockOp::Wait,
                operand,
                spans,
            }) => {
                let place = self.unwaits[&(stmt as *const Stmt)];
                let unwait = Action::Lock {
                    op: LockOp::Unwait,
                    operand: operand.clone(),
                    spans: *spans,
                };
                self.locations[place].transforms =
                    vec![plain_transform(None, vec![unwait], next, *spans)];
                let name = self.locations[place].name.clone();
                let wait = Action::Lock {
                    op: LockOp::Wait,
                    operand: operand.clone(),
                    spans: *spans,
                };
                plain_transform(
                    guard,
                    vec![wait],
                    &Next::Location(name.text, None),
                    stmt.spans,
                )
            }
            StmtKind::Action(action) => {
                plain_transform(guard, vec![action.clone()], next, stmt.spans)
            }
            StmtKind::Call(call) if self.fun_assignment(call).is_some() => {
                let actions = self.fun_assignment(call).into_iter().collect();
                plain_transform(guard, actions, next, stmt.spans)
            }
            StmtKind::Call(call) => {
                let mut transform = plain_transform(guard, Vec::new(), next, stmt.spans);
                transform.invoke = Some(call.clone());
                transform
            }
            StmtKind::Skip => plain_transform(guard, Vec::new(), next, stmt.spans),
            _ => unreachable!("only simple statements are merged"),
        }
    }
}

/// True for a simple statement: an action, a call or `skip`, one step.
fn is_simple(stmt: &Stmt) -> bool {
    matches!(
        stmt.kind,
        StmtKind::Action(_) | StmtKind::Call(_) | StmtKind::Skip
    )
}

/// Where a jump goes.
fn jump_target(jump: &Jump) -> Next {
    match jump {
        Jump::Goto { target, .. } => Next::Location(target.text.clone(), Some(target.span)),
        Jump::Return { spans, value, end } => Next::Return(value.clone(), *spans, *end),
    }
}

/// The kind of statement a generated location name starts with.
fn kind_name(kind: &StmtKind) -> &'static str {
    match kind {
        StmtKind::Action(Action::Send { .. }) => "send",
        StmtKind::Action(Action::Receive { .. }) => "receive",
        StmtKind::Action(Action::Lock { op, .. }) => op.text(),
        StmtKind::Action(Action::Assert { .. }) => "assert",
        StmtKind::Action(Action::Assume { .. }) => "assume",
        StmtKind::Action(Action::Start { .. }) => "start",
        StmtKind::Action(Action::Exit { .. }) => "exit",
        StmtKind::Action(Action::Throw { .. }) => "throw",
        StmtKind::Action(Action::Assign { .. }) => "step",
        StmtKind::Action(Action::New { .. }) => "new",
        StmtKind::Call(_) => "call",
        StmtKind::Skip => "skip",
        StmtKind::Jump(_) => "goto",
        StmtKind::Atomic { .. } => "atomic",
        StmtKind::If { .. } => "if",
        StmtKind::While { .. } => "while",
        StmtKind::Choose { .. } => "choose",
        StmtKind::Try { .. } => "try",
    }
}

/// A location of this name.
fn location(name: Name, doc: String, transforms: Vec<Transform>) -> Location {
    Location {
        doc,
        keyword: name.span,
        name,
        transforms,
    }
}

/// A transformation with these guard and actions that goes to `next`.
fn plain_transform(
    guard: Option<Expr>,
    actions: Vec<Action>,
    next: &Next,
    spans: Spans,
) -> Transform {
    let jump = match next {
        Next::Location(target, named) => Jump::Goto {
            spans,
            target: Name {
                text: target.clone(),
                span: named.unwrap_or(spans.first),
            },
        },
        Next::Return(value, at, end) => Jump::Return {
            spans: *at,
            value: value.clone(),
            end: *end,
        },
    };
    Transform {
        doc: String::new(),
        spans,
        guard,
        do_keyword: spans.first,
        actions,
        inner_jump: None,
        outer_jump: Some(jump),
        invoke: None,
    }
}

/// `!(cond)`, at `span`.
fn negation(cond: &Expr, span: Span) -> Expr {
    Expr::Unary {
        op: UnOp::Not,
        span,
        expr: Box::new(parenthesised(cond)),
    }
}

/// `e`, in parentheses unless it is a leaf.
fn parenthesised(expr: &Expr) -> Expr {
    match expr {
        Expr::Int { .. }
        | Expr::Bool { .. }
        | Expr::Name(_)
        | Expr::Member { .. }
        | Expr::Index { .. }
        | Expr::FieldIndex { .. }
        | Expr::At { .. }
        | Expr::Paren { .. }
        | Expr::Builtin { .. }
        | Expr::Call { .. } => expr.clone(),
        _ => Expr::Paren {
            expr: Box::new(expr.clone()),
            spans: expr.spans(),
        },
    }
}

/// `a && b && ... [&& last]`, evaluated left to right (the conditions of earlier branches
/// first, so that they are evaluated in source order).
fn conjunction(conditions: &[Expr], last: Option<&Expr>) -> Expr {
    let mut all = conditions.iter().cloned().chain(last.map(parenthesised));
    let first = all.next().unwrap_or(Expr::Bool {
        value: true,
        span: Span::call_site(),
    });
    all.fold(first, |lhs, rhs| {
        let op_span = rhs.spans().first;
        Expr::Binary {
            op: BinOp::And,
            op_span,
            lhs: Box::new(lhs),
            rhs: Box::new(rhs),
        }
    })
}

impl Lowering<'_> {
    /// `x := f(a);` of a `fun` `f` as the assignment it is (a `fun` is an expression, its
    /// call no step of its own); `None` for a call of a function, or of a `fun` for nothing
    /// (which the checker reports).
    fn fun_assignment(&self, call: &Call) -> Option<Action> {
        let target = call.target.clone()?;
        self.funs
            .contains(&call.function.text)
            .then(|| Action::Assign {
                target,
                value: Expr::Call {
                    function: call.function.clone(),
                    args: call.args.clone(),
                    spans: Spans {
                        first: call.function.span,
                        last: call.spans.last,
                    },
                },
                spans: call.spans,
            })
    }
}
