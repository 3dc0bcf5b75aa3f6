//! Records and the heap (LANGUAGE.md, version 3): record types and their bounds, the
//! hidden globals their objects live in, field reads and writes, `null` and `new`.
//!
//! The heap is lowered here, once, to version 1's globals and actions (docs/LANGUAGE.md,
//! "How `bir` implements version 3"): object `j` of record `R` is element `j` of the
//! hidden array `live(R)` and of one hidden array per field, `R#f`; a reference holds
//! `j + 1`, `null` 0. So `x.f` reads element `x - 1` of `R#f`, and the index error that
//! `null` (-1) meets is the null error of the read (its site has the kind `Null`); an array
//! field's element `x.f[i]` is element `(x - 1) * n + i` of `R#f` (see
//! [`Checker::field_place`]); `x.f :=
//! e` writes it, `x := new R` takes the free object of lowest number. The garbage
//! collector and the canonical numbering run after each step that needs them
//! (`bir_model::heap`), outside the actions.

use super::expr::{error, Scope};
use super::{Checker, Kind};
use crate::front::ast::{self, Name, Spans};
use crate::ir::{self, ArithOp, Expr, FaultKind, Id as _, Place, RecordId, Scalar, VarRef};

/// The bound of a record declared without one.
const DEFAULT_BOUND: i64 = 8;

/// Rule: a record type holds at most this many objects. A `new` finds the free object of
/// lowest number by testing each in turn, in one expression, and the state holds every
/// object's fields; models need a handful.
pub(crate) const MAX_BOUND: i64 = 64;

/// A checked lock field of a record (`lock f;`, `lock f[n];`): another lock of each of its
/// objects, besides the object's own; its hidden state is made with the other locks'
/// (`comm`).
#[derive(Clone, Debug)]
pub(super) struct LockField {
    /// Its name.
    pub name: Name,
    /// For `lock f[n];`, `n`.
    pub len: Option<u32>,
}

impl Checker<'_> {
    /// Rule: a record's bound is a constant of 1 to [`MAX_BOUND`] (8 when not written).
    /// Runs before the globals, whose types may name records.
    pub(super) fn check_record_bounds(&mut self) {
        for decl in self.record_decls.clone() {
            let bound = match &decl.bound {
                None => DEFAULT_BOUND,
                Some(expr) => match self.const_int(expr, "a record's bound") {
                    Some(bound) if (1..=MAX_BOUND).contains(&bound) => bound,
                    Some(bound) => {
                        self.diags.error(
                            expr.spans(),
                            format!(
                                "a record's bound is the most live objects of it, from 1 to \
                                 {MAX_BOUND}; `{}` has {bound}",
                                decl.name.text
                            ),
                        );
                        1
                    }
                    None => 1,
                },
            };
            self.record_bounds.push(bound as u32);
        }
    }

    /// The type of a reference to record `id`.
    pub(super) fn reference_type(&self, id: RecordId) -> Scalar {
        Scalar::Ref {
            record: id,
            bound: self.record_bounds.get(id.index()).copied().unwrap_or(1),
        }
    }

    /// Rule: a field has a scalar type (a reference included) or a fixed array of one, and a
    /// name no other field of its record has. Declares the hidden globals of every record's
    /// objects, after the model's own globals (an array field of `n` elements: `n` per
    /// object, element `i` of object `j` at `j * n + i`).
    pub(super) fn check_records(&mut self) {
        for (index, decl) in self.record_decls.clone().into_iter().enumerate() {
            let bound = self.record_bounds[index];
            let live = self.hidden_global(
                bir_model::heap_live_name(&decl.name.text),
                decl.name.span,
                Scalar::Bool,
                Some(bound),
                false,
            );
            let mut fields: Vec<ir::RecordField> = Vec::new();
            for field in &decl.fields {
                let ty = self.ty(&field.ty);
                if fields.iter().any(|f| f.name == field.name.text) {
                    self.diags.error(
                        field.name.spans(),
                        format!(
                            "duplicate field `{}` in record `{}`",
                            field.name.text, decl.name.text
                        ),
                    );
                    continue;
                }
                let Some(ty) = ty else { continue };
                let global = self.hidden_global(
                    bir_model::heap_field_name(&decl.name.text, &field.name.text),
                    field.name.span,
                    ty.scalar,
                    Some(bound * ty.len.unwrap_or(1)),
                    false,
                );
                fields.push(ir::RecordField {
                    name: field.name.text.clone(),
                    scalar: ty.scalar,
                    len: ty.len,
                    default: ty.scalar.default_value(),
                    global,
                });
            }
            let locks = self.check_lock_fields(decl, &fields);
            self.lock_fields.push(locks);
            self.records.push(ir::Record {
                name: decl.name.text.clone(),
                span: decl.name.span,
                doc: decl.doc.clone(),
                throwable: decl.throwable.is_some(),
                bound,
                live,
                fields,
                waiting: None,
            });
        }
    }

    /// Rule: a lock field has a name no other field of its record has, and `lock f[n];` a
    /// constant length of 1 to 65536 (as an array of locks). `fields` are the record's
    /// checked fields.
    fn check_lock_fields(
        &mut self,
        decl: &ast::RecordDecl,
        fields: &[ir::RecordField],
    ) -> Vec<LockField> {
        let mut locks: Vec<LockField> = Vec::new();
        for lock in &decl.locks {
            let name = &lock.name.text;
            let taken = decl.fields.iter().any(|f| &f.name.text == name)
                || fields.iter().any(|f| &f.name == name)
                || locks.iter().any(|l| &l.name.text == name);
            if taken {
                self.diags.error(
                    lock.name.spans(),
                    format!("duplicate field `{name}` in record `{}`", decl.name.text),
                );
                continue;
            }
            let len = self.comm_len(lock.len.as_ref(), "an array of lock fields");
            locks.push(LockField {
                name: lock.name.clone(),
                len,
            });
        }
        locks
    }

    /// The lock field `field` of record `record`, when it has one.
    pub(super) fn lock_field(&self, record: RecordId, field: &str) -> Option<&LockField> {
        self.lock_fields
            .get(record.index())?
            .iter()
            .find(|lock| lock.name.text == field)
    }

    /// True when `owner` in `owner.member` names a variable in `scope` (a field access)
    /// rather than a const block or an enum.
    pub(super) fn names_variable(&self, owner: &Name, scope: &Scope) -> bool {
        let local = scope.thread.is_some_and(|thread| {
            let sig = &self.sigs[thread];
            sig.locals.iter().any(|local| local.name == owner.text)
        });
        local
            || scope.params.iter().any(|(n, _, _)| n.text == owner.text)
            || matches!(
                self.symbols.get(&owner.text),
                Some(super::Symbol::Global(_))
            )
    }

    /// `base.field` (or `base.field[index]`, an element of an array field) read as a value.
    pub(super) fn field_read(
        &mut self,
        base: &ast::Expr,
        field: &Name,
        index: Option<(&ast::Expr, Spans)>,
        scope: &mut Scope,
    ) -> (Expr, Kind) {
        match self.field_place(base, field, index, scope) {
            Some((place, scalar)) => {
                let Some((index, site)) = place.index else {
                    return error();
                };
                let read = Expr::Element {
                    var: place.var,
                    index,
                    site,
                };
                (read, super::expr::scalar_kind(scalar))
            }
            None => error(),
        }
    }

    /// `base.field` as a place (to read or write): element `base - 1` of the field's
    /// global, whose index error is the null error of `base`. Rule: `base` is a reference
    /// and its record has the field; an array field is used with an index, `base.field[i]`
    /// (an int), and only an array field is indexed. Element `i` of an array field of `n`
    /// elements is element `(base - 1) * n + i` of the global when `0 <= i < n`; otherwise
    /// the index is -1 for a `null` base (the null error, which comes first) and an index
    /// error of its own (at `index`'s site) for an object.
    pub(super) fn field_place(
        &mut self,
        base: &ast::Expr,
        field: &Name,
        index: Option<(&ast::Expr, Spans)>,
        scope: &mut Scope,
    ) -> Option<(Place, Scalar)> {
        let (base_ir, kind) = self.expr(base, scope);
        let index_ir = index
            .map(|(index, _)| self.expr_of(index, scope, Kind::Int, "the index of an array field"));
        let record = match kind {
            Kind::Ref(record) => record,
            Kind::Error => return None,
            Kind::Null => {
                self.diags.error(
                    base.spans(),
                    format!(
                        "`null` refers to no object: it has no field `{}`",
                        field.text
                    ),
                );
                return None;
            }
            other => {
                self.diags.error(
                    base.spans(),
                    format!(
                        "`{base}` is {}, not a reference to a record: it has no field `{}`",
                        self.kind_name(other),
                        field.text
                    ),
                );
                return None;
            }
        };
        // Rule: a lock field is no value (its hidden owner and count are fields of the
        // record's, which no expression reads or writes): only a lock operation names it.
        if let Some(lock) = self.lock_field(record, &field.text) {
            let text = match (lock.len, index) {
                (_, Some((index, _))) => format!("{base}.{}[{index}]", field.text),
                (Some(_), None) => format!("{base}.{}[i]", field.text),
                (None, None) => format!("{base}.{}", field.text),
            };
            let record_name = &self.record_decls[record.index()].name.text;
            self.diags.error(
                field.spans(),
                format!(
                    "`{}` is a lock field of record `{record_name}`, not a value: it cannot \
                     be read, assigned, compared or sent; take it with `lock({text});`, or \
                     ask `hasLock({text})` or `lockAvailable({text})`",
                    field.text
                ),
            );
            return None;
        }
        let Some(found) = self.records.get(record).and_then(|r| {
            r.fields
                .iter()
                .find(|f| f.name == field.text)
                .map(|f| (f.global, f.scalar, f.len))
        }) else {
            let record = &self.record_decls[record.index()];
            let names = record.fields.iter().map(|f| f.name.text.as_str());
            let hint = self.suggest.did_you_mean(&field.text, names);
            self.diags.error(
                field.spans(),
                format!(
                    "record `{}` has no field `{}`{hint}",
                    record.name.text, field.text
                ),
            );
            return None;
        };
        let (global, scalar, len) = found;
        let record_name = &self.record_decls[record.index()].name.text;
        match (len, index) {
            (Some(len), None) => {
                self.diags.error(
                    base.spans().to(field.spans()),
                    format!(
                        "`{base}.{0}` is an array field of {len} elements and is used by \
                         element: `{base}.{0}[i]`",
                        field.text
                    ),
                );
                return None;
            }
            (None, Some((_, spans))) => {
                self.diags.error(
                    spans,
                    format!(
                        "field `{}` of record `{record_name}` is not an array and cannot be \
                         indexed",
                        field.text
                    ),
                );
                return None;
            }
            _ => {}
        }
        let spans = base.spans().to(field.spans());
        let text = match index {
            Some((index, _)) => format!("{base}.{}[{index}]", field.text),
            None => format!("{base}.{}", field.text),
        };
        let site = self.site(
            FaultKind::Null,
            format!("`{text}` reads or writes a field of `null`"),
            spans.first,
            base.spans(),
        );
        let minus_one = |base: Expr| Expr::Arith {
            op: ArithOp::Sub,
            lhs: Box::new(base),
            rhs: Box::new(Expr::Int(1)),
            overflow: None,
            division: None,
        };
        let index = match (len, index, index_ir) {
            (Some(len), Some((index, index_spans)), Some(i)) => {
                let index_site = self.site(
                    FaultKind::Index,
                    format!(
                        "index out of bounds in `{text}`: the field `{}` of record \
                         `{record_name}` has {len} elements",
                        field.text
                    ),
                    index_spans.first,
                    index.spans(),
                );
                let n = i64::from(len);
                let cmp = |op, lhs: Expr, rhs: Expr| Expr::Cmp {
                    op,
                    lhs: Box::new(lhs),
                    rhs: Box::new(rhs),
                };
                let within = Expr::And(
                    Box::new(cmp(ir::CmpOp::Le, Expr::Int(0), i.clone())),
                    Box::new(cmp(ir::CmpOp::Lt, i.clone(), Expr::Int(n))),
                );
                let element = Expr::Arith {
                    op: ArithOp::Add,
                    lhs: Box::new(Expr::Arith {
                        op: ArithOp::Mul,
                        lhs: Box::new(minus_one(base_ir.clone())),
                        rhs: Box::new(Expr::Int(n)),
                        overflow: None,
                        division: None,
                    }),
                    rhs: Box::new(i),
                    overflow: None,
                    division: None,
                };
                // Outside the array: the null error first, else the index error (an element
                // read at -1 of the field's global, which always raises its site).
                let outside = Expr::Cond {
                    cond: Box::new(cmp(ir::CmpOp::Eq, base_ir, Expr::Int(0))),
                    then: Box::new(Expr::Int(-1)),
                    otherwise: Box::new(Expr::Element {
                        var: VarRef::Global(global),
                        index: Box::new(Expr::Int(-1)),
                        site: index_site,
                    }),
                };
                Expr::Cond {
                    cond: Box::new(within),
                    then: Box::new(element),
                    otherwise: Box::new(outside),
                }
            }
            (Some(_), _, None) | (None, Some(_), _) => return None,
            (_, _, _) => minus_one(base_ir),
        };
        let place = Place {
            var: VarRef::Global(global),
            index: Some((Box::new(index), site)),
        };
        Some((place, scalar))
    }

    /// `target := new R;`: rule: R is a record and the target holds references to it. The
    /// actions: the heap error when every object of R is live, then the target takes the
    /// free object of lowest number, which becomes live.
    pub(super) fn new_object(
        &mut self,
        thread: ir::ThreadId,
        target: &ast::Expr,
        record: &Name,
        spans: Spans,
    ) -> Vec<ir::Action> {
        let mut scope = Scope::runtime(Some(thread));
        let place = self.place(target, &mut scope);
        let id = match self.symbols.get(&record.text).copied() {
            Some(super::Symbol::Record(id)) => id,
            other => {
                let what = other.map_or("not declared", |symbol| symbol.describe());
                self.diags.error(
                    record.spans(),
                    format!(
                        "`new {0}` needs a record type, and `{0}` is {what}",
                        record.text
                    ),
                );
                return Vec::new();
            }
        };
        let Some((place, scalar)) = place else {
            return Vec::new();
        };
        if scalar.record() != Some(id) {
            self.diags.error(
                record.spans(),
                format!(
                    "mismatched types: cannot assign a new `{}` to `{target}` of type {}",
                    record.text,
                    self.scalar_name(scalar)
                ),
            );
            return Vec::new();
        }
        let Some(live) = self.records.get(id).map(|r| r.live) else {
            return Vec::new();
        };
        let bound = self.record_bounds[id.index()];
        let heap_site = self.site(
            FaultKind::Heap,
            format!(
                "`{target} := new {0};` needs a new `{0}`, and all {bound} of `record[{bound}] \
                 {0}` are live",
                record.text
            ),
            spans.first,
            spans,
        );
        // Constant indices and references to an object just made never fault: their site
        // is never raised.
        let live_at = |object: i64| Expr::Element {
            var: VarRef::Global(live),
            index: Box::new(Expr::Int(object)),
            site: heap_site,
        };
        // The first free object's reference: `!live[0] ? 1 : !live[1] ? 2 : ... : bound`
        // (the last is free: the heap error came first).
        let mut first_free = Expr::Int(i64::from(bound));
        for object in (0..i64::from(bound) - 1).rev() {
            first_free = Expr::Cond {
                cond: Box::new(Expr::Not(Box::new(live_at(object)))),
                then: Box::new(Expr::Int(object + 1)),
                otherwise: Box::new(first_free),
            };
        }
        let full = (0..i64::from(bound))
            .map(live_at)
            .reduce(|all, next| Expr::And(Box::new(all), Box::new(next)))
            .unwrap_or(Expr::Bool(false));
        let range_site = heap_site;
        let made = self.place_read(&place);
        let live_place = Place {
            var: VarRef::Global(live),
            index: Some((
                Box::new(Expr::Arith {
                    op: ArithOp::Sub,
                    lhs: Box::new(made),
                    rhs: Box::new(Expr::Int(1)),
                    overflow: None,
                    division: None,
                }),
                range_site,
            )),
        };
        vec![
            ir::Action::Assert {
                cond: Expr::Not(Box::new(full)),
                site: heap_site,
            },
            ir::Action::Assign {
                place,
                value: first_free,
                site: range_site,
            },
            ir::Action::Assign {
                place: live_place,
                value: Expr::Bool(true),
                site: range_site,
            },
        ]
    }

    /// The value a place holds, read with the place's own index and site.
    fn place_read(&self, place: &Place) -> Expr {
        match &place.index {
            None => Expr::Read(place.var),
            Some((index, site)) => Expr::Element {
                var: place.var,
                index: index.clone(),
                site: *site,
            },
        }
    }
}
