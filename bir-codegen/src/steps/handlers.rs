//! `try S catch (R x) H ... end` (LANGUAGE.md, "High-level bodies"): no location of its
//! own. Each handler becomes a low-level `catch R x at l1, .. goto h;` clause of the body
//! (`Body::catches`), covering every location of S (those of the blocks inside S, and of
//! an inner `try`'s handlers, included), in the order of the `catch` keywords in the
//! source, so that an inner `try`'s handlers come before an outer one's: the checker then
//! takes the first clause that covers the throwing location and matches.
//!
//! `h` is the location of H's first statement. A handler that is empty, or whose first
//! statement is a jump, has no such location: it gets a step of its own (`catch#n`, an
//! empty transformation to where it goes), as the spec makes a step of a branch's first
//! jump, so that the handler is always the instance's next step.

use proc_macro2::Span;

use super::{location, plain_transform, Lowering, Next};
use crate::diag::Spans;
use crate::front::ast::*;

/// What [`Lowering::reserve_try`] set aside for one handler.
#[derive(Clone, Copy, Debug)]
pub(super) struct Reserved {
    /// Its clause in `Lowering::catches`.
    clause: usize,
    /// The location of its own step, when it needs one.
    own: Option<usize>,
}

impl Lowering<'_> {
    /// Reserves, in source order, the locations of a `try`'s statements, then, for each
    /// handler, its clause (covering those locations), its own step if it needs one and
    /// its statements' locations. A label on the `try` is reported: it names no location.
    pub(super) fn reserve_try(
        &mut self,
        label: Option<&Name>,
        keyword: Span,
        body: &[Stmt],
        handlers: &[Handler],
    ) {
        if let Some(label) = label {
            self.diags.error(
                label.spans(),
                format!(
                    "a label on a `try`: `{}` would name no location (a `try` has none of its \
                     own, its handlers cover its statements' locations); label its first \
                     statement",
                    label.text
                ),
            );
        }
        let start = self.locations.len();
        self.reserve(body, false);
        let covered: Vec<Name> = self.locations[start..]
            .iter()
            .map(|l| l.name.clone())
            .collect();
        for handler in handlers {
            let clause = self.catches.len();
            self.catches.push(Catch {
                keyword: handler.keyword,
                record: handler.record.clone(),
                var: handler.var.clone(),
                covered: covered.clone(),
                handler: Name {
                    text: String::new(),
                    span: keyword,
                },
                spans: Spans::one(handler.keyword).to(handler.var.spans()),
            });
            let own = (!starts_at_own_location(&handler.body)).then(|| {
                let name = self.generated_name("catch", handler.keyword);
                self.locations
                    .push(location(name, String::new(), Vec::new()));
                self.locations.len() - 1
            });
            self.handlers
                .insert(handler as *const Handler, Reserved { clause, own });
            self.reserve(&handler.body, false);
        }
    }

    /// Translates a `try` that continues at `next`: its handlers (each continuing at
    /// `next` too, their clauses given their locations), then its statements; returns
    /// where the statements start.
    pub(super) fn try_block(&mut self, body: &[Stmt], handlers: &[Handler], next: &Next) -> Next {
        for handler in handlers {
            let entry = self.list(&handler.body, next);
            let Some(&reserved) = self.handlers.get(&(handler as *const Handler)) else {
                continue;
            };
            let own = match (reserved.own, &entry) {
                (Some(place), _) => Some(place),
                (None, Next::Location(..)) => None,
                // Not met (a handler that starts at no location of its own reserved one),
                // but a step of its own at the end is still a translation.
                (None, Next::Return(..)) => {
                    let name = self.generated_name("catch", handler.keyword);
                    self.locations
                        .push(location(name, String::new(), Vec::new()));
                    Some(self.locations.len() - 1)
                }
            };
            let target = match (own, entry) {
                (Some(place), entry) => {
                    let spans = Spans::one(handler.keyword).to(handler.var.spans());
                    self.locations[place].transforms =
                        vec![plain_transform(None, Vec::new(), &entry, spans)];
                    self.locations[place].name.text.clone()
                }
                (None, Next::Location(name, _)) => name,
                (None, Next::Return(..)) => continue,
            };
            self.catches[reserved.clause].handler = Name {
                text: target,
                span: handler.var.span,
            };
        }
        self.list(body, next)
    }
}

/// True when `stmts` start at a location of their own: their first statement is not a
/// jump, nor a `try` whose statements start at none.
fn starts_at_own_location(stmts: &[Stmt]) -> bool {
    match stmts.first().map(|stmt| &stmt.kind) {
        None | Some(StmtKind::Jump(_)) => false,
        Some(StmtKind::Try { body, .. }) => starts_at_own_location(body),
        Some(_) => true,
    }
}
