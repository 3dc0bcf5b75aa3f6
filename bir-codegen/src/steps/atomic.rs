//! `atomic S end` (LANGUAGE.md, "High-level bodies"): one step, translated to one
//! transformation per path through S, in source order. The conditions of the `if`s and
//! `choose`s on a path become its guard where they come before any action, and `assume`s at
//! their place after one, so that a path whose condition fails is discarded and the others
//! stay. S may hold actions, `if`, `choose`, `skip` and a jump as the last statement of its
//! path: no loop, call, nested `atomic`, `wait` statement or label.

use proc_macro2::Span;

use super::{conjunction, negation, plain_transform, Lowering, Next};
use crate::diag::Spans;
use crate::front::ast::*;

/// The most paths an `atomic` block may have: each is a transformation (and code), and the
/// paths multiply with every `if` or `choose` in sequence.
pub const MAX_ATOMIC_PATHS: usize = 1024;

/// One path through an `atomic` block: its conditions and actions in order, and the jump
/// that ends it, if any.
#[derive(Clone, Debug, Default)]
struct Path {
    items: Vec<Item>,
    jump: Option<Next>,
}

/// A condition met on a path, or an action.
#[derive(Clone, Debug)]
enum Item {
    Condition(Expr),
    Action(Action),
}

impl Lowering<'_> {
    /// The transformations of `atomic body end` at `spans`, continuing at `next`.
    pub(super) fn atomic(
        &mut self,
        keyword: Span,
        body: &[Stmt],
        spans: Spans,
        next: &Next,
    ) -> Vec<Transform> {
        let Some(paths) = self.paths(body) else {
            return vec![plain_transform(None, Vec::new(), next, spans)];
        };
        if paths.len() > MAX_ATOMIC_PATHS {
            self.diags.error(
                Spans::one(keyword),
                format!(
                    "this `atomic` block has {} paths through it, each a transformation; bir \
                     takes at most {MAX_ATOMIC_PATHS}",
                    paths.len()
                ),
            );
            return vec![plain_transform(None, Vec::new(), next, spans)];
        }
        paths
            .into_iter()
            .map(|path| {
                let mut guard = Vec::new();
                let mut actions = Vec::new();
                for item in path.items {
                    match item {
                        Item::Condition(cond) if actions.is_empty() => guard.push(cond),
                        Item::Condition(cond) => actions.push(Action::Assume {
                            spans: cond.spans(),
                            expr: cond,
                        }),
                        Item::Action(action) => actions.push(action),
                    }
                }
                let guard = (!guard.is_empty()).then(|| conjunction(&guard, None));
                plain_transform(guard, actions, path.jump.as_ref().unwrap_or(next), spans)
            })
            .collect()
    }

    /// Every path through `stmts`, in source order; `None` after an error (reported).
    fn paths(&mut self, stmts: &[Stmt]) -> Option<Vec<Path>> {
        let mut paths = vec![Path::default()];
        let mut ok = true;
        for stmt in stmts {
            let Some(alternatives) = self.alternatives(stmt) else {
                ok = false;
                continue;
            };
            let mut extended = Vec::new();
            for path in &paths {
                if path.jump.is_some() {
                    self.diags.error(
                        stmt.spans,
                        "a statement after a jump inside `atomic`: a jump may only be the last \
                         statement of its path",
                    );
                    return None;
                }
                for alternative in &alternatives {
                    let mut joined = path.clone();
                    joined.items.extend(alternative.items.iter().cloned());
                    joined.jump.clone_from(&alternative.jump);
                    extended.push(joined);
                }
                if extended.len() > MAX_ATOMIC_PATHS {
                    return Some(extended);
                }
            }
            paths = extended;
        }
        ok.then_some(paths)
    }

    /// The paths through one statement of an `atomic` block; `None` (reported) for a
    /// statement it does not allow.
    fn alternatives(&mut self, stmt: &Stmt) -> Option<Vec<Path>> {
        if let Some(label) = &stmt.label {
            return self.not_in_atomic(
                label.spans(),
                "a label",
                "the block is one step at one location, so a statement inside it has no \
                 location to name; label the `atomic` itself",
            );
        }
        match &stmt.kind {
            StmtKind::Action(Action::Lock {
                op: LockOp::Wait,
                spans,
                ..
            }) => self.not_in_atomic(
                *spans,
                "a `wait` statement",
                "it is two steps (`wait`, then re-acquiring the lock once notified), and the \
                 block is one; wait before or after it",
            ),
            StmtKind::Action(action) => Some(vec![Path {
                items: vec![Item::Action(action.clone())],
                jump: None,
            }]),
            StmtKind::Skip => Some(vec![Path::default()]),
            StmtKind::Jump(jump) => Some(vec![Path {
                items: Vec::new(),
                jump: Some(super::jump_target(jump)),
            }]),
            StmtKind::Call(call) if self.fun_assignment(call).is_some() => Some(vec![Path {
                items: self
                    .fun_assignment(call)
                    .map(Item::Action)
                    .into_iter()
                    .collect(),
                jump: None,
            }]),
            StmtKind::Call(call) => self.not_in_atomic(
                call.spans,
                "a call of a function",
                "the call is a step, and the function's body runs in steps of its own, while \
                 the block is one step; call it before or after the block",
            ),
            StmtKind::While { keyword, .. } => self.not_in_atomic(
                Spans::one(*keyword),
                "a loop",
                "the block is one step, and a loop may run any number of times; write the loop \
                 around the block, or unroll it",
            ),
            StmtKind::Try { keyword, .. } => self.not_in_atomic(
                Spans::one(*keyword),
                "a `try`",
                "its handlers are locations of their own, reached by steps of their own, and the \
                 block is one step; write the `try` around the block",
            ),
            StmtKind::Atomic { keyword, .. } => self.not_in_atomic(
                Spans::one(*keyword),
                "a nested `atomic`",
                "the outer block is one step already; write the inner block's statements in it",
            ),
            StmtKind::If {
                branches,
                otherwise,
                ..
            } => self.branch_paths(branches, otherwise.as_deref(), true),
            StmtKind::Choose {
                branches,
                otherwise,
                ..
            } => self.branch_paths(branches, otherwise.as_deref(), false),
        }
    }

    /// The paths through the branches of an `if` (`exclusive`) or a `choose`.
    fn branch_paths(
        &mut self,
        branches: &[Branch],
        otherwise: Option<&[Stmt]>,
        exclusive: bool,
    ) -> Option<Vec<Path>> {
        let mut all = Vec::new();
        let mut earlier: Vec<Expr> = Vec::new();
        let mut ok = true;
        for branch in branches {
            let guard = if exclusive {
                conjunction(&earlier, Some(&branch.cond))
            } else {
                branch.cond.clone()
            };
            earlier.push(negation(&branch.cond, branch.keyword));
            match self.paths(&branch.body) {
                Some(paths) => all.extend(paths.into_iter().map(|mut path| {
                    path.items.insert(0, Item::Condition(guard.clone()));
                    path
                })),
                None => ok = false,
            }
        }
        let else_paths = match otherwise {
            Some(body) => self.paths(body),
            None if exclusive => Some(vec![Path::default()]),
            None => Some(Vec::new()),
        };
        match else_paths {
            Some(paths) => all.extend(paths.into_iter().map(|mut path| {
                if !earlier.is_empty() {
                    path.items
                        .insert(0, Item::Condition(conjunction(&earlier, None)));
                }
                path
            })),
            None => ok = false,
        }
        ok.then_some(all)
    }

    /// Reports a statement `atomic` does not allow: `what` it is, and `why` not.
    fn not_in_atomic(&mut self, spans: Spans, what: &str, why: &str) -> Option<Vec<Path>> {
        self.diags.error(
            spans,
            format!(
                "{what} inside `atomic`: {why} (an atomic block holds actions, `if`, `choose`, \
                 `skip` and a final jump)"
            ),
        );
        None
    }
}
