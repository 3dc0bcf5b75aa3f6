//! Exceptions (LANGUAGE.md, "Exceptions"): `throw e;`, the `catch R x at l1, .. goto h;`
//! clauses of a body (a high-level `try`'s handlers among them, written so by the `steps`
//! stage) and their catch variables.
//!
//! Lowered here and in `inline`, once, to version 1's actions: a throw is the null check
//! of its value (a null error at the throw's site), the end of its step's actions, and a
//! record beside its transformation (`Checker::throws`). Each frame's call path is static,
//! and so is the thrown object's type (records have no `extends`), so the handler of a
//! throw at location L of frame F is known at compile time: the first clause of F, in
//! source order, that covers L and catches the type; else that of F's caller at the call's
//! location, F popped; and so on. `inline` turns each laid-out throw into what it does:
//! the catch variable bound to the exception, the popped frames' locals reset, and the
//! jump to the handler; or, when no frame catches it, the uncaught-exception error.

use super::expr::Scope;
use super::inline::{remap_expr, Frame};
use super::{Checker, Kind, Symbol};
use crate::front::ast::{self, Name, Spans};
use crate::ir::{self, Expr, FaultKind, Id as _, RecordId};

/// A checked `catch` clause of a body.
#[derive(Clone, Debug)]
pub(super) struct CatchInfo {
    /// The clause as written (`catch Bad x`), for the text of the throws it catches.
    pub text: String,
    /// The record type it catches.
    pub record: RecordId,
    /// Its catch variable, a local of the body.
    pub local: ir::LocalId,
    /// The locations it covers.
    pub covered: Vec<ir::LocationId>,
    /// The handler's location.
    pub handler: ir::LocationId,
}

/// A `throw e;` recorded beside the transformation it ends: its null check is the last
/// action of the transformation (of its rendezvous block, for a rendezvous).
#[derive(Clone, Debug)]
pub(super) struct ThrowInfo {
    /// The exception, in the terms of the body.
    pub value: Expr,
    /// Its static type; `None` for `throw null;`, which is always a null error.
    pub record: Option<RecordId>,
    /// The statement's tokens and text, for the uncaught exception's message.
    pub spans: Spans,
    /// The statement as written.
    pub text: String,
}

impl Checker<'_> {
    /// The catch variables of body `id`, after its locals: one per name (a second clause
    /// with the same name and type shares it). Rules: a `catch` names a `throwable`
    /// record; its variable takes no name of a local, parameter or top-level declaration,
    /// and a catch variable of another type. Records the clause's record and local.
    pub(super) fn check_catch_variables(&mut self, id: ir::ThreadId, decl: &ast::Thread) {
        let mut checked = Vec::new();
        let mut seen: Vec<(&Name, RecordId, ir::LocalId)> = Vec::new();
        for catch in &decl.body.catches {
            let record = self.caught_record(&catch.record);
            let earlier = seen.iter().find(|(name, _, _)| name.text == catch.var.text);
            let local = match (earlier, record) {
                (_, None) => None,
                (Some(&(_, first, local)), Some(record)) if first == record => Some(local),
                (Some(&(name, first, _)), Some(_)) => {
                    let first = self.record_name(first).to_string();
                    self.diags.duplicate(
                        catch.var.spans(),
                        format!(
                            "duplicate name `{}`: this catch variable catches `{}`, and the \
                             body's catch variable `{}` holds `{first}`; give it another name",
                            catch.var.text, catch.record.text, catch.var.text
                        ),
                        &catch.var.text,
                        name.spans(),
                    );
                    None
                }
                (None, Some(record)) => {
                    let scope = Scope::runtime(Some(id));
                    if self.check_new_name(&catch.var, &scope, "a catch variable") {
                        let scalar = self.reference_type(record);
                        let sig = &mut self.sigs[id];
                        let local = sig.locals.push(ir::Var {
                            name: catch.var.text.clone(),
                            span: catch.var.span,
                            doc: String::new(),
                            ty: ir::Ty { scalar, len: None },
                            init: vec![scalar.default_value()],
                        });
                        sig.local_ok.push(true);
                        seen.push((&catch.var, record, local));
                        Some(local)
                    } else {
                        None
                    }
                }
            };
            checked.push(record.zip(local));
        }
        self.catch_locals.insert(id, checked);
    }

    /// The record a `catch` names. Rule: a `throwable record`.
    fn caught_record(&mut self, name: &Name) -> Option<RecordId> {
        match self.symbols.get(&name.text).copied() {
            Some(Symbol::Record(id)) => {
                if self.records.get(id).is_some_and(|r| r.throwable) {
                    Some(id)
                } else {
                    self.diags.error(
                        name.spans(),
                        format!(
                            "`catch` of `{0}`, which is not declared `throwable`: only objects \
                             of a `throwable record` are thrown and caught (`throwable record \
                             {0} {{ .. }}`)",
                            name.text
                        ),
                    );
                    None
                }
            }
            Some(other) => {
                self.diags.error(
                    name.spans(),
                    format!(
                        "`catch` of `{}`, which is {}: a `catch` names the `throwable record` \
                         whose objects it catches",
                        name.text,
                        other.describe()
                    ),
                );
                None
            }
            None => {
                let names: Vec<String> = self
                    .record_decls
                    .iter()
                    .map(|decl| decl.name.text.clone())
                    .collect();
                let hint = self
                    .suggest
                    .did_you_mean(&name.text, names.iter().map(String::as_str));
                self.diags.error(
                    name.spans(),
                    format!(
                        "unknown type `{}` in `catch`: it names the `throwable record` whose \
                         objects it catches{hint}",
                        name.text
                    ),
                );
                None
            }
        }
    }

    /// The `catch` clauses of body `id`, after its locations are known. Rule: the covered
    /// locations and the handler are locations of the body.
    pub(super) fn check_catches(&mut self, id: ir::ThreadId, decl: &ast::Thread) {
        let checked = self.catch_locals.get(&id).cloned().unwrap_or_default();
        let mut clauses = Vec::new();
        for (catch, checked) in decl.body.catches.iter().zip(checked) {
            let covered: Vec<Option<ir::LocationId>> = catch
                .covered
                .iter()
                .map(|name| self.catch_location(id, name, "covers"))
                .collect();
            let handler = self.catch_location(id, &catch.handler, "goes to");
            let (Some((record, local)), Some(handler)) = (checked, handler) else {
                continue;
            };
            clauses.push(CatchInfo {
                text: format!("catch {} {}", catch.record.text, catch.var.text),
                record,
                local,
                covered: covered.into_iter().flatten().collect(),
                handler,
            });
        }
        self.catches.insert(id, clauses);
    }

    /// The location `name` of body `id` that a `catch` covers or goes to (`what`).
    fn catch_location(
        &mut self,
        id: ir::ThreadId,
        name: &Name,
        what: &str,
    ) -> Option<ir::LocationId> {
        if let Some(&location) = self.sigs[id].locations.get(&name.text) {
            return Some(location);
        }
        let hint = self.unknown_location_hint(id, &name.text);
        let here = self.body_name(id);
        self.diags.error(
            name.spans(),
            format!(
                "unknown location `{}` in {here}: a `catch` {what} locations of its own body{hint}",
                name.text
            ),
        );
        None
    }

    /// `throw value;`: rule: `value` is a reference to an object of a `throwable record`
    /// (or `null`). The action: its null check.
    pub(super) fn throw(
        &mut self,
        thread: ir::ThreadId,
        value: &ast::Expr,
        spans: Spans,
        text: String,
    ) -> Option<(ir::Action, ThrowInfo)> {
        let mut scope = Scope::runtime(Some(thread));
        let (value_ir, kind) = self.expr(value, &mut scope);
        let record = match kind {
            Kind::Ref(record) if self.records.get(record).is_some_and(|r| r.throwable) => {
                Some(record)
            }
            Kind::Ref(record) => {
                let name = self.record_name(record).to_string();
                self.diags.error(
                    value.spans(),
                    format!(
                        "`throw {value}` throws a `{name}`, which is not declared `throwable`: \
                         only objects of a `throwable record` are thrown (`throwable record \
                         {name} {{ .. }}`)"
                    ),
                );
                return None;
            }
            Kind::Null => None,
            Kind::Error => return None,
            other => {
                self.diags.error(
                    value.spans(),
                    format!(
                        "`throw {value}` throws {}: only references to objects of a \
                         `throwable record` are thrown",
                        self.kind_name(other)
                    ),
                );
                return None;
            }
        };
        let site = self.site(
            FaultKind::Null,
            format!("`{text}` throws `null`"),
            spans.first,
            value.spans(),
        );
        let check = ir::Action::Assert {
            cond: Expr::Cmp {
                op: ir::CmpOp::Ne,
                lhs: Box::new(value_ir.clone()),
                rhs: Box::new(Expr::Int(0)),
            },
            site,
        };
        let info = ThrowInfo {
            value: value_ir,
            record,
            spans,
            text,
        };
        Some((check, info))
    }

    /// The uncaught exception's site of a throw laid out in a frame whose call path is
    /// `path` (the throwing body first, the thread last).
    pub(super) fn uncaught_site(&mut self, throw: &ThrowInfo, path: &[String]) -> ir::SiteId {
        let record = throw
            .record
            .map(|record| self.record_name(record).to_string())
            .unwrap_or_default();
        let (body, callers) = path
            .split_first()
            .map_or(("", &[][..]), |(b, c)| (b.as_str(), c));
        let called: String = callers
            .iter()
            .map(|caller| format!(" called from `{caller}`"))
            .collect::<Vec<_>>()
            .join(",");
        let called = if called.is_empty() {
            String::new()
        } else {
            format!(" ({})", called.trim_start())
        };
        self.site(
            FaultKind::UncaughtException,
            format!(
                "uncaught exception: `{}` in `{body}`{called} throws a `{record}` that no \
                 handler catches",
                throw.text
            ),
            throw.spans.first,
            throw.spans,
        )
    }

    /// The handler locations of body `thread`, which a throw reaches: roots of its
    /// location graph beside the first location.
    pub(super) fn handler_locations(&self, thread: ir::ThreadId) -> Vec<ir::LocationId> {
        self.catches
            .get(&thread)
            .map(|clauses| clauses.iter().map(|c| c.handler).collect())
            .unwrap_or_default()
    }
}

impl Checker<'_> {
    /// What a throw laid out in frame `index` of `thread` does after its null check, at
    /// location `at` of its body: when a frame's clause catches it, the catch variable
    /// bound to the exception, the frames above the catching one reset (the throwing one
    /// first), and the jump to the handler; when none does, the uncaught exception's error
    /// (and a jump to where it stands: the step ends in it). `throw null;` does nothing
    /// more: its null check always fails. The string says where the exception went, for
    /// the transformation's text.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn throw_chain(
        &mut self,
        thread: ir::ThreadId,
        frames: &[Frame],
        index: usize,
        at: ir::LocationId,
        thrown: &ThrowInfo,
        out: &ir::Thread,
        this: &Expr,
    ) -> (Vec<ir::Action>, ir::Jump, String) {
        let stays = ir::Jump::Goto(frames[index].locations[at.index()]);
        let Some(record) = thrown.record else {
            return (Vec::new(), stays, " (throws null)".to_string());
        };
        let body_of = |frame: &Frame| frame.function.map_or(thread, |f| self.function_thread(f));
        let (mut frame, mut at) = (index, at);
        let mut popped = Vec::new();
        let mut path = Vec::new();
        let caught = loop {
            let body = body_of(&frames[frame]);
            path.push(self.thread_decls[body.index()].name.text.clone());
            let clause = self.catches.get(&body).and_then(|clauses| {
                clauses
                    .iter()
                    .find(|c| c.record == record && c.covered.contains(&at))
            });
            if let Some(clause) = clause {
                let laid = &frames[frame];
                let by = format!(
                    " (caught by `{}` of `{}`)",
                    clause.text,
                    path.last().map_or("", String::as_str)
                );
                break Some((
                    laid.locals[clause.local.index()],
                    laid.locations[clause.handler.index()],
                    by,
                ));
            }
            let Some(parent) = &frames[frame].parent else {
                break None;
            };
            popped.push(frame);
            at = self.threads[body_of(&frames[parent.frame])].transforms[parent.call].location;
            frame = parent.frame;
        };
        let Some((local, handler, by)) = caught else {
            let site = self.uncaught_site(thrown, &path);
            let error = ir::Action::Assert {
                cond: Expr::Bool(false),
                site,
            };
            return (vec![error], stays, " (uncaught)".to_string());
        };
        let site = self.reset_site();
        let mut actions = vec![ir::Action::Assign {
            place: ir::Place {
                var: ir::VarRef::Local(local),
                index: None,
            },
            value: remap_expr(&thrown.value, &frames[index], this),
            site,
        }];
        for frame in popped {
            actions.extend(self.resets(&frames[frame], out));
        }
        (actions, ir::Jump::Goto(handler), by)
    }
}
