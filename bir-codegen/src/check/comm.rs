//! Channels and locks (LANGUAGE.md, "Channels", "Locks"), translated to the step form: each
//! buffered channel is its length and its message slots, each lock its owner and hold
//! count, and each instance that can wait its wait mark and remembered count — hidden
//! globals of exactly the bits their ranges need, which no name in the model can reach. A
//! communication or a lock operation becomes the actions on them, and its readiness (a
//! blocking action's) a conjunct of its step's guard, so that every later stage sees
//! version 1's steps.
//!
//! Encodings: a channel's slots past its length hold the field types' default values (equal
//! queues are equal states); a lock's owner is the global number of the holding instance or
//! -1, its count 0 to [`MAX_HOLDS`]; an instance's wait mark is 0 (none), `1 + l` (waiting on
//! lock `l`, locks numbered across the model's lock elements) or `1 + L + l` (notified by
//! lock `l`, of `L` lock elements). Lock elements are numbered over the declared locks in
//! declaration order (an array's elements by index), then over the record types in
//! declaration order: a record's own lock (one number for all its objects, the object
//! being the waiting instance's `wait(R)` reference), then its lock fields in declaration
//! order (`lock f[n];` one number per element, again for all objects).

use super::expr::scalar_kind;
use super::expr::Scope;
use super::{Checker, Kind, Symbol};
use crate::front::ast::{self, Builtin, LockOp, Name, Spans};
use crate::ir::{self, ArithOp, CmpOp, Expr, FaultKind, Id as _, Place, Scalar, VarRef};

/// A lock holds at most this many nested `lock`s of one instance (LANGUAGE.md).
pub(super) const MAX_HOLDS: i64 = 3;

/// The most message slots (over the elements of an array of channels) one channel holds.
const MAX_SLOTS: i64 = 1 << 16;

/// A checked channel (or array of channels): its hidden state.
#[derive(Clone, Debug)]
pub(super) struct Channel {
    /// The field types of a message.
    pub fields: Vec<Scalar>,
    /// The capacity; 0 for a rendezvous channel.
    pub capacity: u32,
    /// The length of an array of channels.
    pub len: Option<u32>,
    /// The length of each channel, `int (0, capacity)` per element: for a rendezvous
    /// channel always 0, in no bits, read only to check an index.
    pub length: ir::GlobalId,
    /// Per field, the slots of every channel, element `c * capacity + s` for slot `s` of
    /// channel `c`.
    pub slots: Vec<ir::GlobalId>,
}

/// A checked lock (or array of locks).
#[derive(Clone, Debug)]
pub(super) struct Lock {
    /// Its name in the model (the record's, for the locks of its objects; `R.f` for a
    /// lock field).
    pub name: String,
    /// The record type whose objects carry these locks (`lock(x)` on a reference): one
    /// element per object, element `x - 1`, but one lock number (`first`) for all of
    /// them, the waiting instance's object held in the record's `waiting` references.
    pub record: Option<ir::RecordId>,
    /// For a lock field of the record's objects (`lock f;`, `lock f[n];`), its name and
    /// length: element `(x - 1) * n + i` for `x.f[i]`, lock number `first + i`.
    pub field: Option<(String, Option<u32>)>,
    /// The length of an array of locks.
    pub len: Option<u32>,
    /// The number of its first element among the model's lock elements.
    pub first: u32,
    /// The owner of each element: an instance's global number, or -1.
    pub owner: ir::GlobalId,
    /// The hold count of each element.
    pub count: ir::GlobalId,
}

/// The wait marks of every instance, when the model waits.
#[derive(Clone, Copy, Debug)]
pub(super) struct Waits {
    /// Per instance: 0, `1 + l` waiting on lock `l`, `1 + L + l` notified by lock `l`.
    pub mark: ir::GlobalId,
    /// Per instance: the hold count a `wait` released, for its `unwait`.
    pub count: ir::GlobalId,
    /// The lock elements of the model (`L`).
    pub locks: u32,
}

/// A channel or a lock as an operation names it: which one, and the element.
struct Operand {
    /// The index into `Checker::channels` or `Checker::locks`.
    which: usize,
    /// The element of an array: the index and its index-error site.
    index: Option<(Expr, ir::SiteId)>,
    /// The text for messages: `c`, `c[i]`.
    text: String,
    /// For the lock of an object, the reference to it.
    object: Option<Expr>,
    /// For an element of an array of lock fields, `x.f[i]`: `i` (an index error outside
    /// the array), which numbers the lock with `first` for the wait marks.
    element: Option<Expr>,
}

impl Checker<'_> {
    /// The hidden state of every channel and lock, once the threads (and so the instances)
    /// are known; the wait marks when some step waits or asks `wasNotified`.
    pub(super) fn check_comm_decls(&mut self) {
        if let Some(span) = self
            .channel_decls
            .first()
            .map(|c| c.keyword)
            .or(self.lock_decls.first().map(|l| l.keyword))
        {
            let site = self.site(
                FaultKind::Range,
                "a channel's or lock's hidden state left its range (a bug of bir's)".to_string(),
                span,
                Spans::one(span),
            );
            self.hidden_site = Some(site);
        }
        for decl in self.channel_decls.clone() {
            let channel = self.channel(decl);
            self.channels.push(channel);
        }
        let instances: i64 = self
            .sigs
            .iter()
            .take(self.real_threads)
            .map(|sig| i64::from(sig.kind.instances()))
            .sum();
        let mut first = 0u32;
        // Rule: a lock held by a pool instance that is freed stays held, by no instance:
        // its owner becomes the number past the last instance (`ir::System::freeing`).
        let pools = self
            .sigs
            .iter()
            .take(self.real_threads)
            .any(|sig| matches!(sig.kind, ir::ThreadKind::Pool { .. }));
        let nobody = if pools { instances } else { instances - 1 };
        for decl in self.lock_decls.clone() {
            let len = self.comm_len(decl.len.as_ref(), "an array of locks");
            let elements = len.unwrap_or(1);
            let owner = self.hidden_global(
                bir_model::lock_owner_name(&decl.name.text),
                decl.name.span,
                Scalar::Int {
                    lo: -1,
                    hi: nobody,
                    wrap: false,
                },
                len,
                true,
            );
            let count = self.hidden_global(
                bir_model::lock_holds_name(&decl.name.text),
                decl.name.span,
                Scalar::Int {
                    lo: 0,
                    hi: MAX_HOLDS,
                    wrap: false,
                },
                len,
                false,
            );
            self.locks.push(Lock {
                name: decl.name.text.clone(),
                record: None,
                field: None,
                len,
                first,
                owner,
                count,
            });
            first += elements;
        }
        // Rule: every object carries a lock; its owner and count are hidden fields of its
        // record (only when some operation takes the lock of an object). A lock field is
        // another lock of each object, its owner and count hidden fields too, so that they
        // move with the object and reset when it is collected.
        let object_locks = self.uses_object_locks();
        let records: Vec<(ir::RecordId, ir::Record)> = self
            .records
            .iter_enumerated()
            .map(|(id, r)| (id, r.clone()))
            .collect();
        let owner_scalar = Scalar::Int {
            lo: -1,
            hi: nobody,
            wrap: false,
        };
        let count_scalar = Scalar::Int {
            lo: 0,
            hi: MAX_HOLDS,
            wrap: false,
        };
        // The records whose objects carry some lock: each has its `wait(R)` references.
        let mut locking = Vec::new();
        for (id, record) in records {
            let lock_fields = self
                .lock_fields
                .get(id.index())
                .cloned()
                .unwrap_or_default();
            if object_locks || !lock_fields.is_empty() {
                locking.push(id);
            }
            let own = object_locks.then(|| {
                (
                    bir_model::OBJECT_LOCK_FIELD.to_string(),
                    None,
                    record.span,
                    None,
                )
            });
            let fields = lock_fields.into_iter().map(|lock| {
                let name = lock.name.text.clone();
                (
                    name.clone(),
                    lock.len,
                    lock.name.span,
                    Some((name, lock.len)),
                )
            });
            for (name, len, span, field) in own.into_iter().chain(fields) {
                let elements = record.bound * len.unwrap_or(1);
                let holds_name = bir_model::heap_lock_holds_field(&name);
                let owner = self.hidden_global(
                    bir_model::heap_field_name(&record.name, &name),
                    span,
                    owner_scalar,
                    Some(elements),
                    true,
                );
                let count = self.hidden_global(
                    bir_model::heap_field_name(&record.name, &holds_name),
                    span,
                    count_scalar,
                    Some(elements),
                    false,
                );
                let fields = &mut self.records[id].fields;
                fields.push(ir::RecordField {
                    name: name.clone(),
                    scalar: owner_scalar,
                    len,
                    default: -1,
                    global: owner,
                });
                fields.push(ir::RecordField {
                    name: holds_name,
                    scalar: count_scalar,
                    len,
                    default: 0,
                    global: count,
                });
                let lock_name = match &field {
                    Some((field, _)) => format!("{}.{field}", record.name),
                    None => record.name.clone(),
                };
                self.locks.push(Lock {
                    name: lock_name,
                    record: Some(id),
                    field,
                    len: Some(elements),
                    first,
                    owner,
                    count,
                });
                first += len.unwrap_or(1);
            }
        }
        if self.hidden_site.is_none() {
            if let Some(span) = locking.first().map(|&id| self.records[id].span) {
                let site = self.site(
                    FaultKind::Range,
                    "a channel's or lock's hidden state left its range (a bug of bir's)"
                        .to_string(),
                    span,
                    Spans::one(span),
                );
                self.hidden_site = Some(site);
            }
        }
        if first > 0 && self.uses_waits() {
            let marks = 2 * i64::from(first);
            let per_instance = u32::try_from(instances).ok().filter(|&n| n >= 1);
            let span = self
                .lock_decls
                .first()
                .map(|l| l.name.span)
                .or(self.records.iter().next().map(|r| r.span))
                .unwrap_or_else(proc_macro2::Span::call_site);
            let mark = self.hidden_global(
                bir_model::WAIT_MARK_NAME.to_string(),
                span,
                Scalar::Int {
                    lo: 0,
                    hi: marks,
                    wrap: false,
                },
                per_instance,
                false,
            );
            let count = self.hidden_global(
                bir_model::WAIT_HOLDS_NAME.to_string(),
                span,
                Scalar::Int {
                    lo: 0,
                    hi: MAX_HOLDS,
                    wrap: false,
                },
                per_instance,
                false,
            );
            self.waits = Some(Waits {
                mark,
                count,
                locks: first,
            });
            for id in locking {
                let record = self.records[id].clone();
                let waiting = self.hidden_global(
                    bir_model::object_wait_name(&record.name),
                    record.span,
                    self.reference_type(id),
                    per_instance,
                    false,
                );
                self.records[id].waiting = Some(waiting);
            }
        }
    }

    /// The hidden state of every channel and lock, as the IR describes it to the analyses.
    pub(super) fn hidden(&self) -> ir::Hidden {
        let channels = self
            .channels
            .iter()
            .zip(&self.channel_decls)
            .map(|(channel, decl)| ir::HiddenChannel {
                name: decl.name.text.clone(),
                fields: channel.fields.clone(),
                capacity: channel.capacity,
                len: channel.len,
                length: channel.length,
                slots: channel.slots.clone(),
            })
            .collect();
        let locks = self
            .locks
            .iter()
            .map(|lock| ir::HiddenLock {
                name: lock.name.clone(),
                len: lock.len,
                first: lock.first,
                owner: lock.owner,
                count: lock.count,
            })
            .collect();
        let waits = self.waits.map(|waits| ir::HiddenWaits {
            mark: waits.mark,
            count: waits.count,
            locks: waits.locks,
        });
        ir::Hidden {
            channels,
            locks,
            waits,
            records: self.records.clone(),
        }
    }

    /// Rule: a rendezvous channel that no thread sends on, or none receives from, is a
    /// warning (its sends or receives can never pair). Once the calls are laid out, so
    /// that a function's sends count where it is called, and only there.
    pub(super) fn check_rendezvous_partners(&mut self) {
        for (which, decl) in self.channel_decls.clone().into_iter().enumerate() {
            if self.channels[which].capacity != 0 {
                continue;
            }
            let (mut sends, mut receives) = (false, false);
            for transform in self
                .threads
                .iter()
                .flat_map(|thread| thread.transforms.iter())
            {
                match transform.rendezvous.as_deref() {
                    Some(ir::Rendezvous { channel, role, .. }) if *channel as usize == which => {
                        match role {
                            ir::RendezvousRole::Send(_) => sends = true,
                            ir::RendezvousRole::Receive(_) => receives = true,
                        }
                    }
                    _ => {}
                }
            }
            let name = &decl.name.text;
            let message = match (sends, receives) {
                (true, true) => continue,
                (false, false) => format!(
                    "rendezvous channel `{name}` is never used: no thread sends on it or \
                     receives from it"
                ),
                (true, false) => format!(
                    "no thread receives from rendezvous channel `{name}`, so every send on it \
                     blocks for ever (a rendezvous needs a receiver; `buffer k` makes the \
                     channel a queue)"
                ),
                (false, true) => format!(
                    "no thread sends on rendezvous channel `{name}`, so every receive from it \
                     blocks for ever"
                ),
            };
            self.warnings.push(ir::Warning {
                spans: decl.name.spans(),
                message,
            });
        }
    }

    /// A checked channel declaration and its hidden globals.
    fn channel(&mut self, decl: &ast::ChannelDecl) -> Channel {
        let fields: Vec<Scalar> = decl
            .fields
            .iter()
            .map(|field| match self.ty(field) {
                Some(ir::Ty { scalar, len: None }) => scalar,
                Some(_) => {
                    self.diags.error(
                        field.spans,
                        "a message field is a scalar, an enum or a reference, not an array",
                    );
                    Scalar::INT
                }
                None => Scalar::INT,
            })
            .collect();
        let capacity = match &decl.buffer {
            None => 0,
            Some(expr) => match self.const_int(expr, "a channel's capacity") {
                Some(k) if !(1..=MAX_SLOTS).contains(&k) => {
                    self.diags.error(
                        expr.spans(),
                        format!(
                            "a buffered channel holds 1 to {MAX_SLOTS} messages; this one \
                             would hold {k} (a rendezvous channel has no `buffer`)"
                        ),
                    );
                    1
                }
                Some(k) => k as u32,
                None => 1,
            },
        };
        let len = self.comm_len(decl.len.as_ref(), "an array of channels");
        let elements = len.unwrap_or(1);
        if i64::from(elements) * i64::from(capacity) > MAX_SLOTS {
            self.diags.error(
                decl.name.spans(),
                format!(
                    "`{}` would hold {} message slots ({elements} channels of {capacity}); bir \
                     stores at most {MAX_SLOTS} for one channel declaration",
                    decl.name.text,
                    i64::from(elements) * i64::from(capacity)
                ),
            );
        }
        // A rendezvous channel's length is named apart: it has no state, and a buffered
        // channel without fields (no cells either) must still be told from it.
        let length_name = if capacity == 0 {
            bir_model::rendezvous_name(&decl.name.text)
        } else {
            bir_model::channel_length_name(&decl.name.text)
        };
        let length = self.hidden_global(
            length_name,
            decl.name.span,
            Scalar::Int {
                lo: 0,
                hi: i64::from(capacity),
                wrap: false,
            },
            len,
            false,
        );
        let slots = if capacity == 0 {
            Vec::new()
        } else {
            let slots = (elements * capacity).min(MAX_SLOTS as u32);
            fields
                .iter()
                .enumerate()
                .map(|(field, &scalar)| {
                    // A field is checked, never wrapped: a message keeps the value sent.
                    let scalar = match scalar {
                        Scalar::Int { lo, hi, .. } => Scalar::Int {
                            lo,
                            hi,
                            wrap: false,
                        },
                        other => other,
                    };
                    self.hidden_global(
                        bir_model::channel_field_name(&decl.name.text, field),
                        decl.name.span,
                        scalar,
                        Some(slots),
                        false,
                    )
                })
                .collect()
        };
        Channel {
            fields,
            capacity,
            len,
            length,
            slots,
        }
    }

    /// The length of an array of channels or locks, `None` for a single one; an invalid
    /// length is reported and taken as 1.
    pub(super) fn comm_len(&mut self, len: Option<&ast::Expr>, what: &'static str) -> Option<u32> {
        let expr = len?;
        match self.const_int(expr, what) {
            Some(n) if (1..=MAX_SLOTS).contains(&n) => Some(n as u32),
            Some(n) => {
                self.diags.error(
                    expr.spans(),
                    format!("{what} has 1 to {MAX_SLOTS} elements, not {n}"),
                );
                Some(1)
            }
            None => Some(1),
        }
    }

    /// A global no name of the model can reach, holding hidden state; a lock's `owner`
    /// starts free.
    pub(super) fn hidden_global(
        &mut self,
        name: String,
        span: proc_macro2::Span,
        scalar: Scalar,
        len: Option<u32>,
        owner: bool,
    ) -> ir::GlobalId {
        let elements = len.unwrap_or(1) as usize;
        // A lock's owner starts at -1, free (the only hidden global of an `int (-1, _)`
        // type that the checker declares itself); everything else at its type's default,
        // a message slot too, whatever its field's range: a receive gives the last slot
        // that default again, and equal queues are equal states.
        let initial = if owner { -1 } else { scalar.default_value() };
        self.global_ok.push(true);
        self.globals.push(ir::Var {
            name,
            span,
            doc: String::new(),
            ty: ir::Ty { scalar, len },
            init: vec![initial; elements],
        })
    }

    /// True when some step of the model waits, notifies or asks `wasNotified`: only then do
    /// the instances carry wait marks.
    fn uses_waits(&self) -> bool {
        self.any_step(
            |expr| {
                matches!(
                    expr,
                    ast::Expr::Builtin {
                        builtin: Builtin::WasNotified,
                        ..
                    }
                )
            },
            |op, _| !matches!(op, LockOp::Lock | LockOp::Unlock),
        )
    }

    /// True when some lock operation or lock built-in names something other than a
    /// declared `lock` (or an element of one) or a lock field: the lock of an object, so
    /// that the records' objects carry locks.
    fn uses_object_locks(&self) -> bool {
        let object =
            |operand: &ast::Expr| !self.names_lock(operand) && !self.names_lock_field(operand);
        !self.records.is_empty()
            && self.any_step(
                |expr| match expr {
                    ast::Expr::Builtin {
                        builtin, operand, ..
                    } => builtin.needs_instance() && object(operand),
                    _ => false,
                },
                |_, operand| object(operand),
            )
    }

    /// True when `expr` is a field (`x.f`, `a[i].f`, `x.f[i]`) whose name only lock fields
    /// have: some record has a lock field of that name, and no record a field of another
    /// kind (which `lock(x.f)` would read as a reference to an object). Told before the
    /// types are known, by the name alone; an ambiguous name counts as an object's lock.
    fn names_lock_field(&self, expr: &ast::Expr) -> bool {
        let field = match expr {
            ast::Expr::Paren { expr, .. } => return self.names_lock_field(expr),
            ast::Expr::Member { member, .. } => member,
            ast::Expr::Field { field, .. } | ast::Expr::FieldIndex { field, .. } => field,
            _ => return false,
        };
        let lock = self
            .lock_fields
            .iter()
            .flatten()
            .any(|lock| lock.name.text == field.text);
        let value = self
            .record_decls
            .iter()
            .flat_map(|record| &record.fields)
            .any(|f| f.name.text == field.text);
        lock && !value
    }

    /// True when some step of a thread or function has an expression (a guard, an assigned
    /// value, an assertion, or any part of one) for which `expr` holds, or a lock operation
    /// for which `lock` holds.
    fn any_step(
        &self,
        expr: impl Fn(&ast::Expr) -> bool,
        lock: impl Fn(&LockOp, &ast::Expr) -> bool,
    ) -> bool {
        let bodies = self
            .thread_decls
            .iter()
            .map(|t| &t.body)
            .chain(self.function_decls.iter().map(|f| &f.body));
        let in_expr = |e: &ast::Expr| e.any(&expr);
        bodies
            .flat_map(|body| &body.locations)
            .flat_map(|location| &location.transforms)
            .any(|transform| {
                transform.guard.as_ref().is_some_and(in_expr)
                    || transform.actions.iter().any(|action| match action {
                        ast::Action::Lock { op, operand, .. } => lock(op, operand),
                        ast::Action::Assign { value, .. } => in_expr(value),
                        ast::Action::Assert { expr, .. } | ast::Action::Assume { expr, .. } => {
                            in_expr(expr)
                        }
                        _ => false,
                    })
            })
    }

    /// True when `expr` names a declared `lock` or an element of one.
    fn names_lock(&self, expr: &ast::Expr) -> bool {
        match expr {
            ast::Expr::Paren { expr, .. } => self.names_lock(expr),
            ast::Expr::Name(name) | ast::Expr::Index { array: name, .. } => {
                matches!(self.symbols.get(&name.text), Some(Symbol::Lock(_)))
            }
            _ => false,
        }
    }

    /// The lock of the object `expr` refers to, as an operand: element `expr - 1` of its
    /// record's lock owners and counts, whose index error at `null` is a null error. Rule:
    /// `expr` is a lock field (see [`Self::lock_field_operand`]) or a reference (when it is
    /// not a declared lock).
    fn object_operand(&mut self, expr: &ast::Expr, scope: &mut Scope) -> Option<Operand> {
        if let Some(field) = self.lock_field_operand(expr, scope) {
            return field;
        }
        let (reference, kind) = self.expr(expr, scope);
        let record = match kind {
            Kind::Ref(record) => record,
            Kind::Error => return None,
            Kind::Null => {
                self.diags.error(
                    expr.spans(),
                    "expected a lock: `null` refers to no object, and has no lock",
                );
                return None;
            }
            other => {
                self.diags.error(
                    expr.spans(),
                    format!(
                        "expected a lock: `{expr}` is {}, neither a `lock` nor a reference to \
                         an object (whose lock it would be)",
                        self.kind_name(other)
                    ),
                );
                return None;
            }
        };
        let Some(which) = self
            .locks
            .iter()
            .position(|l| l.record == Some(record) && l.field.is_none())
        else {
            // `uses_object_locks` saw every operand that names no lock and no lock field.
            self.diags.error(
                expr.spans(),
                format!("`{expr}` names the lock of an object, which bir did not expect here (a bug of bir's)"),
            );
            return None;
        };
        let site = self.site(
            FaultKind::Null,
            format!("`{expr}` is `null`: the lock of no object"),
            expr.spans().first,
            expr.spans(),
        );
        let index = Expr::Arith {
            op: ArithOp::Sub,
            lhs: Box::new(reference.clone()),
            rhs: Box::new(Expr::Int(1)),
            overflow: None,
            division: None,
        };
        Some(Operand {
            which,
            index: Some((index, site)),
            text: expr.to_string(),
            object: Some(reference),
            element: None,
        })
    }

    /// The lock field `expr` names, `x.f` or `x.f[i]` (or `a[j].f`, ...), as an operand:
    /// element `x - 1` of the field's owners and counts, or `(x - 1) * n + i` for an
    /// element of `lock f[n];`. Rule: the base is a reference whose record has the lock
    /// field; `lock f[n];` is named by element, with an int index, and only it is indexed.
    /// Faults, in the order of the spec's operand: `x` null, a null error; `i` outside
    /// `0..n`, an index error. `None` when `expr` names no lock field (the caller reads it
    /// as a reference to an object), `Some(None)` after an error (reported).
    fn lock_field_operand(
        &mut self,
        expr: &ast::Expr,
        scope: &mut Scope,
    ) -> Option<Option<Operand>> {
        let member_base;
        let (base, field, index) = match expr {
            ast::Expr::Paren { expr, .. } => return self.lock_field_operand(expr, scope),
            ast::Expr::Member {
                scope: owner,
                member,
            } if self.names_variable(owner, scope) => {
                member_base = ast::Expr::Name(owner.clone());
                (&member_base, member, None)
            }
            ast::Expr::Field { base, field } => (&**base, field, None),
            ast::Expr::FieldIndex {
                base,
                field,
                index,
                spans,
            } => (&**base, field, Some((&**index, *spans))),
            _ => return None,
        };
        if !self
            .lock_fields
            .iter()
            .flatten()
            .any(|l| l.name.text == field.text)
        {
            return None;
        }
        // The base is checked once: when its record has no such lock field, its sites are
        // forgotten and the caller checks the whole operand again.
        let sites = self.sites.len();
        let (base_ir, kind) = self.expr(base, scope);
        let record = match kind {
            Kind::Ref(record) => record,
            Kind::Error => return Some(None),
            _ => {
                self.truncate_sites(sites);
                return None;
            }
        };
        let Some(lock) = self.lock_field(record, &field.text).cloned() else {
            self.truncate_sites(sites);
            return None;
        };
        let record_name = self.records[record].name.clone();
        let Some(which) = self.locks.iter().position(|l| {
            l.record == Some(record) && l.field.as_ref().is_some_and(|(f, _)| *f == field.text)
        }) else {
            return Some(None);
        };
        let text = match index {
            Some((index, _)) => format!("{base}.{}[{index}]", field.text),
            None => format!("{base}.{}", field.text),
        };
        let spans = base.spans().to(field.spans());
        let null_site = self.site(
            FaultKind::Null,
            format!("`{base}` is `null`: `{text}` is a lock of no object"),
            spans.first,
            base.spans(),
        );
        let minus_one = Expr::Arith {
            op: ArithOp::Sub,
            lhs: Box::new(base_ir.clone()),
            rhs: Box::new(Expr::Int(1)),
            overflow: None,
            division: None,
        };
        let (global_index, element) = match (lock.len, index) {
            (None, None) => (minus_one, None),
            (Some(len), Some((index, index_spans))) => {
                let i = self.expr_of(
                    index,
                    scope,
                    Kind::Int,
                    "the index of an array of lock fields",
                );
                let index_site = self.site(
                    FaultKind::Index,
                    format!(
                        "index out of bounds in `{text}`: the lock field `{}` of record \
                         `{record_name}` has {len} locks",
                        field.text
                    ),
                    index_spans.first,
                    index.spans(),
                );
                let count = self.locks[which].count;
                let n = i64::from(len);
                let within = Expr::And(
                    Box::new(compare(CmpOp::Le, Expr::Int(0), i.clone())),
                    Box::new(compare(CmpOp::Lt, i.clone(), Expr::Int(n))),
                );
                // Outside the array the index error, raised by reading the counts at -1;
                // for a `null` base the null error comes first (the owners' read at -1).
                let out_of_bounds = Expr::Element {
                    var: VarRef::Global(count),
                    index: Box::new(Expr::Int(-1)),
                    site: index_site,
                };
                let element_index = Expr::Arith {
                    op: ArithOp::Add,
                    lhs: Box::new(Expr::Arith {
                        op: ArithOp::Mul,
                        lhs: Box::new(minus_one),
                        rhs: Box::new(Expr::Int(n)),
                        overflow: None,
                        division: None,
                    }),
                    rhs: Box::new(i.clone()),
                    overflow: None,
                    division: None,
                };
                let outside = Expr::Cond {
                    cond: Box::new(compare(CmpOp::Eq, base_ir.clone(), Expr::Int(0))),
                    then: Box::new(Expr::Int(-1)),
                    otherwise: Box::new(out_of_bounds.clone()),
                };
                let global_index = Expr::Cond {
                    cond: Box::new(within.clone()),
                    then: Box::new(element_index),
                    otherwise: Box::new(outside),
                };
                // The element's number for the wait marks is `i` when inside the array:
                // outside, the same index error, so that `wasNotified(x.f[i])`, which reads
                // no owner, faults as the other operations do.
                let element = Expr::Cond {
                    cond: Box::new(within),
                    then: Box::new(i),
                    otherwise: Box::new(out_of_bounds),
                };
                (global_index, Some(element))
            }
            (Some(len), None) => {
                self.diags.error(
                    spans,
                    format!("`{text}` is an array of {len} locks; name one of them: `{text}[i]`"),
                );
                return Some(None);
            }
            (None, Some((_, index_spans))) => {
                self.diags.error(
                    index_spans,
                    format!(
                        "the lock field `{}` of record `{record_name}` is a single lock, not \
                         an array of locks, and cannot be indexed",
                        field.text
                    ),
                );
                return Some(None);
            }
        };
        Some(Some(Operand {
            which,
            index: Some((global_index, null_site)),
            text,
            object: Some(base_ir),
            element,
        }))
    }

    /// For the lock of an object: `waiting(R)[instance] == x`, that the wait mark of
    /// `instance` names this object; `None` for a declared lock.
    fn same_object(&self, lock: &Operand, instance: Expr) -> Option<Expr> {
        let object = lock.object.clone()?;
        let record = self.locks[lock.which].record?;
        let waiting = self.records.get(record)?.waiting?;
        Some(compare(
            CmpOp::Eq,
            Expr::Element {
                var: VarRef::Global(waiting),
                index: Box::new(instance),
                site: self.any_site(),
            },
            object,
        ))
    }

    /// `cond`, and for the lock of an object also that `instance`'s mark names it.
    fn and_same_object(&self, lock: &Operand, instance: Expr, cond: Expr) -> Expr {
        match self.same_object(lock, instance) {
            Some(same) => Expr::And(Box::new(cond), Box::new(same)),
            None => cond,
        }
    }

    /// For the lock of an object, `waiting(R)[instance] := value`; nothing otherwise.
    fn set_waiting(
        &mut self,
        lock: &Operand,
        instance: Expr,
        value: Expr,
        spans: Spans,
    ) -> Vec<ir::Action> {
        let Some(record) = self.locks[lock.which].record else {
            return Vec::new();
        };
        let Some(waiting) = self.records.get(record).and_then(|r| r.waiting) else {
            return Vec::new();
        };
        vec![ir::Action::Assign {
            place: Place {
                var: VarRef::Global(waiting),
                index: Some((Box::new(instance), self.any_site())),
            },
            value,
            site: self.internal_site(spans),
        }]
    }

    /// The channel or lock an operation names (`c`, `c[i]`), with its index checked
    /// against the array; `locks` chooses which kind. `None` after an error (reported).
    fn operand(&mut self, expr: &ast::Expr, locks: bool, scope: &mut Scope) -> Option<Operand> {
        if locks && !self.names_lock(expr) && !self.records.is_empty() {
            return self.object_operand(expr, scope);
        }
        let (name, index, spans) = match expr {
            ast::Expr::Name(name) => (name, None, name.spans()),
            ast::Expr::Index {
                array,
                index,
                spans,
            } => (array, Some(&**index), *spans),
            ast::Expr::Paren { expr, .. } => return self.operand(expr, locks, scope),
            other => {
                let what = if locks { "a lock" } else { "a channel" };
                self.diags.error(
                    other.spans(),
                    format!("expected {what} (a name, or an element `name[i]`)"),
                );
                return None;
            }
        };
        let which = match (self.symbols.get(&name.text).copied(), locks) {
            (Some(Symbol::Lock(which)), true) | (Some(Symbol::Channel(which)), false) => which,
            (found, _) => {
                let what = if locks { "a lock" } else { "a channel" };
                let is = match found {
                    Some(symbol) => format!("`{}` is {}", name.text, symbol.describe()),
                    None => format!("no `{}` is declared", name.text),
                };
                self.diags
                    .error(name.spans(), format!("expected {what}: {is}"));
                return None;
            }
        };
        let len = if locks {
            self.locks[which].len
        } else {
            self.channels[which].len
        };
        let index = match (index, len) {
            (None, None) => None,
            (Some(index), Some(len)) => {
                let index_ir = self.expr_of(index, scope, Kind::Int, "an index");
                let site = self.index_site(name, index, len, spans);
                Some((index_ir, site))
            }
            (Some(_), None) => {
                let what = if locks { "lock" } else { "channel" };
                self.diags.error(
                    name.spans(),
                    format!(
                        "`{}` is a single {what}, not an array of {what}s, and cannot be \
                         indexed",
                        name.text
                    ),
                );
                return None;
            }
            (None, Some(len)) => {
                let what = if locks { "locks" } else { "channels" };
                self.diags.error(
                    name.spans(),
                    format!(
                        "`{}` is an array of {len} {what}; name one of them: `{}[i]`",
                        name.text, name.text
                    ),
                );
                return None;
            }
        };
        let text = match index {
            Some(_) => format!("{expr}"),
            None => name.text.clone(),
        };
        Some(Operand {
            which,
            index,
            text,
            object: None,
            element: None,
        })
    }

    /// `len(c)`, `empty(c)`, `full(c)`, `lockAvailable(l)`, `hasLock(l)`, `wasNotified(l)`.
    pub(super) fn builtin(
        &mut self,
        builtin: Builtin,
        name: &Name,
        operand: &ast::Expr,
        scope: &mut Scope,
    ) -> (Expr, Kind) {
        if let Some(what) = scope.constant {
            self.diags.error(
                name.spans(),
                format!(
                    "{what} must be a constant expression, but `{}(..)` reads the state",
                    name.text
                ),
            );
            return (Expr::Bool(false), Kind::Error);
        }
        if builtin == Builtin::ThreadTerminated {
            return self.thread_terminated(name, operand, scope);
        }
        let locks = builtin.needs_instance();
        let Some(operand) = self.operand(operand, locks, scope) else {
            return (Expr::Bool(false), Kind::Error);
        };
        if locks {
            let Some(thread) = scope.thread else {
                self.diags.error(
                    name.spans(),
                    format!(
                        "`{}` asks about the instance that evaluates it, and {} is evaluated \
                         by none",
                        name.text, scope.reader
                    ),
                );
                return (Expr::Bool(false), Kind::Error);
            };
            let me = self.this_instance(thread);
            let expr = match builtin {
                Builtin::HasLock => self.holds(&operand, me),
                Builtin::LockAvailable => {
                    let free = self.lock_free(&operand);
                    Expr::Or(Box::new(free), Box::new(self.holds(&operand, me)))
                }
                _ => self.notified(&operand, me),
            };
            return (expr, Kind::Bool);
        }
        let channel = &self.channels[operand.which];
        let capacity = i64::from(channel.capacity);
        let length = self.channel_length(&operand);
        match builtin {
            Builtin::Len => (length, Kind::Int),
            Builtin::Empty => (compare(CmpOp::Eq, length, Expr::Int(0)), Kind::Bool),
            _ => (compare(CmpOp::Eq, length, Expr::Int(capacity)), Kind::Bool),
        }
    }

    /// The readiness and the actions of a blocking action, `c!(..)`, `c?(..)`, `lock(l)` or
    /// `unwait(l)`; or the actions of a lock operation that does not block (no readiness);
    /// and for `notify(l)` the step's outcomes after those actions, each a condition and
    /// its actions (nobody waits; instance 0 waits and is taken out; ...). `None` after an
    /// error (reported).
    pub(super) fn comm_action(
        &mut self,
        thread: ir::ThreadId,
        action: &ast::Action,
        scope: &mut Scope,
    ) -> Option<CommAction> {
        if let ast::Action::Lock {
            op: LockOp::Notify,
            operand,
            spans,
        } = action
        {
            return self.notify(thread, operand, *spans, scope);
        }
        let (ready, actions, communication) = self.plain_comm_action(thread, action, scope)?;
        Some(CommAction {
            ready,
            actions,
            outcomes: Vec::new(),
            communication,
        })
    }

    /// [`Self::comm_action`] of everything but `notify`.
    fn plain_comm_action(
        &mut self,
        thread: ir::ThreadId,
        action: &ast::Action,
        scope: &mut Scope,
    ) -> Option<Plain> {
        match action {
            ast::Action::Send {
                channel,
                values,
                spans,
            } => self.send(channel, values, *spans, scope),
            ast::Action::Receive {
                channel,
                targets,
                spans,
            } => self.receive(channel, targets, *spans, scope),
            ast::Action::Lock { op, operand, spans } => self
                .lock_op(thread, *op, operand, *spans, scope)
                .map(|(ready, actions)| (ready, actions, None)),
            _ => None,
        }
    }

    /// The operand of a send or receive, as an operand expression.
    fn channel_operand(&mut self, channel: &ast::ChannelRef, scope: &mut Scope) -> Option<Operand> {
        let expr = match &channel.index {
            None => ast::Expr::Name(channel.name.clone()),
            Some(index) => ast::Expr::Index {
                array: channel.name.clone(),
                index: index.clone(),
                spans: channel.spans,
            },
        };
        self.operand(&expr, false, scope)
    }

    /// `c!(values)` on a buffered channel: ready when not full; appends the values. On a
    /// rendezvous channel: a rendezvous, whose own step only checks the channel's index.
    fn send(
        &mut self,
        channel: &ast::ChannelRef,
        values: &[ast::Expr],
        spans: Spans,
        scope: &mut Scope,
    ) -> Option<Plain> {
        let operand = self.channel_operand(channel, scope)?;
        let ch = self.channels[operand.which].clone();
        if values.len() != ch.fields.len() {
            self.field_count(&channel.name, ch.fields.len(), values.len(), "sends", spans);
            return None;
        }
        let mut checked = Vec::new();
        for (field, (value, &scalar)) in values.iter().zip(&ch.fields).enumerate() {
            let (ir, kind) = self.expr(value, scope);
            if !self.assignable(scalar, kind) {
                self.diags.error(
                    value.spans(),
                    format!(
                        "mismatched types: {} of `{}` is {}, but this sends {}",
                        field_name(field, ch.fields.len()),
                        operand.text,
                        self.scalar_name(scalar),
                        self.kind_name(kind)
                    ),
                );
            }
            checked.push((ir, scalar, value));
        }
        if ch.capacity == 0 {
            let values = checked
                .into_iter()
                .map(|(value, scalar, text)| {
                    let site = self.sent_site(&operand, scalar, text, spans);
                    (value, scalar, site)
                })
                .collect();
            return Some(self.rendezvous(operand, ir::RendezvousRole::Send(values)));
        }
        let length = self.channel_length(&operand);
        let ready = compare(CmpOp::Lt, length.clone(), Expr::Int(i64::from(ch.capacity)));
        let mut actions = Vec::new();
        let mut sent = Vec::new();
        for ((value, scalar, text), &slots) in checked.into_iter().zip(&ch.slots) {
            let site = self.sent_site(&operand, scalar, text, spans);
            sent.push((value.clone(), scalar, site));
            let slot = self.slot_index(&operand, ch.capacity, length.clone());
            actions.push(ir::Action::Assign {
                place: self.element_place(slots, slot, &operand),
                value,
                site,
            });
        }
        actions.push(self.bump(ch.length, &operand, ArithOp::Add, spans));
        let buffered = ir::Buffered {
            channel: operand.which as u32,
            index: operand.index.map(|(index, _)| index),
            role: ir::RendezvousRole::Send(sent),
            actions: actions.len(),
        };
        Some((
            Some(ready),
            actions,
            Some(Communication::Buffered(buffered)),
        ))
    }

    /// The range site of a sent value outside its field's type.
    fn sent_site(
        &mut self,
        operand: &Operand,
        scalar: Scalar,
        text: &ast::Expr,
        spans: Spans,
    ) -> ir::SiteId {
        let message = format!(
            "`{}!(..)` sends {{value}} in `{text}`, outside the field's type {}",
            operand.text,
            self.scalar_name(scalar)
        );
        self.site(FaultKind::Range, message, spans.first, text.spans())
    }

    /// A rendezvous on the channel `operand` names: its own step is the error step of its
    /// guard or index (the index checked, the step never enabled); each pairing with a
    /// partner is a transition of its own.
    fn rendezvous(&mut self, operand: Operand, role: ir::RendezvousRole) -> Plain {
        let length = self.channel_length(&operand);
        let never = ir::Action::Assume(compare(CmpOp::Ne, length, Expr::Int(0)));
        let rendezvous = ir::Rendezvous {
            channel: operand.which as u32,
            index: operand.index,
            role,
            block: Vec::new(),
        };
        (
            None,
            vec![never],
            Some(Communication::Rendezvous(rendezvous)),
        )
    }

    /// `c?(targets)` on a buffered channel: ready when not empty; removes the first message
    /// and writes its fields to the targets in order, each target's place evaluated just
    /// before its write.
    fn receive(
        &mut self,
        channel: &ast::ChannelRef,
        targets: &[Option<ast::Expr>],
        spans: Spans,
        scope: &mut Scope,
    ) -> Option<Plain> {
        let operand = self.channel_operand(channel, scope)?;
        let ch = self.channels[operand.which].clone();
        if targets.len() != ch.fields.len() {
            self.field_count(
                &channel.name,
                ch.fields.len(),
                targets.len(),
                "receives",
                spans,
            );
            return None;
        }
        let mut places = Vec::new();
        for (field, (target, &scalar)) in targets.iter().zip(&ch.fields).enumerate() {
            let Some(target) = target else {
                places.push(None);
                continue;
            };
            let (place, target_scalar) = self.place(target, scope)?;
            if !self.assignable(target_scalar, scalar_kind(scalar)) {
                self.diags.error(
                    target.spans(),
                    format!(
                        "mismatched types: {} of `{}` is {}, which `{target}` of type {} \
                         cannot hold",
                        field_name(field, ch.fields.len()),
                        operand.text,
                        self.scalar_name(scalar),
                        self.scalar_name(target_scalar)
                    ),
                );
            }
            let site = self.site(
                FaultKind::Range,
                format!(
                    "`{}?(..)` receives {{value}} into `{target}`, outside its type {}",
                    operand.text,
                    self.scalar_name(target_scalar)
                ),
                spans.first,
                target.spans(),
            );
            places.push(Some((place, site)));
        }
        if ch.capacity == 0 {
            return Some(self.rendezvous(operand, ir::RendezvousRole::Receive(places)));
        }
        let length = self.channel_length(&operand);
        let ready = compare(CmpOp::Gt, length, Expr::Int(0));
        let mut actions = vec![self.bump(ch.length, &operand, ArithOp::Sub, spans)];
        let first = self.slot_index(&operand, ch.capacity, Expr::Int(0));
        let targets = places.clone();
        for (target, &slots) in places.into_iter().zip(&ch.slots) {
            if let Some((place, site)) = target {
                actions.push(ir::Action::Assign {
                    place,
                    value: self.slot_read(slots, first.clone(), &operand),
                    site,
                });
            }
        }
        // The queue moves up one slot; the last slot takes the field's default again.
        for (&slots, &scalar) in ch.slots.iter().zip(&ch.fields) {
            for slot in 0..ch.capacity {
                let value = if slot + 1 < ch.capacity {
                    let from =
                        self.slot_index(&operand, ch.capacity, Expr::Int(i64::from(slot) + 1));
                    self.slot_read(slots, from, &operand)
                } else {
                    Expr::Int(scalar.default_value())
                };
                let to = self.slot_index(&operand, ch.capacity, Expr::Int(i64::from(slot)));
                let site = self.internal_site(spans);
                actions.push(ir::Action::Assign {
                    place: self.element_place(slots, to, &operand),
                    value,
                    site,
                });
            }
        }
        let buffered = ir::Buffered {
            channel: operand.which as u32,
            index: operand.index.map(|(index, _)| index),
            role: ir::RendezvousRole::Receive(targets),
            actions: actions.len(),
        };
        Some((
            Some(ready),
            actions,
            Some(Communication::Buffered(buffered)),
        ))
    }

    /// Reports a send or receive with the wrong number of fields.
    fn field_count(&mut self, name: &Name, fields: usize, given: usize, verb: &str, spans: Spans) {
        let plural = if fields == 1 { "" } else { "s" };
        self.diags.error(
            spans,
            format!(
                "`{}` carries {fields} field{plural} per message, but this {verb} {given}",
                name.text
            ),
        );
    }

    /// The length of the channel `operand` names.
    fn channel_length(&self, operand: &Operand) -> Expr {
        self.hidden_read(self.channels[operand.which].length, operand)
    }

    /// The element of hidden global `var` that `operand` names (the global itself for a
    /// single channel or lock).
    fn hidden_read(&self, var: ir::GlobalId, operand: &Operand) -> Expr {
        match &operand.index {
            None if !self.is_array(var) => Expr::Read(VarRef::Global(var)),
            None => Expr::Element {
                var: VarRef::Global(var),
                index: Box::new(Expr::Int(0)),
                site: self.any_site(),
            },
            Some((index, site)) => Expr::Element {
                var: VarRef::Global(var),
                index: Box::new(index.clone()),
                site: *site,
            },
        }
    }

    /// The place of hidden global `var` that `operand` names.
    fn hidden_place(&self, var: ir::GlobalId, operand: &Operand) -> Place {
        Place {
            var: VarRef::Global(var),
            index: match &operand.index {
                None if !self.is_array(var) => None,
                None => Some((Box::new(Expr::Int(0)), self.any_site())),
                Some((index, site)) => Some((Box::new(index.clone()), *site)),
            },
        }
    }

    /// True when hidden global `var` is an array.
    fn is_array(&self, var: ir::GlobalId) -> bool {
        self.globals[var].ty.len.is_some()
    }

    /// The site of hidden operations that cannot fail (an index or a value the construction
    /// keeps in range), never raised: made with the hidden state.
    fn any_site(&self) -> ir::SiteId {
        self.hidden_site.unwrap_or(ir::SiteId(0))
    }

    /// A range site for a hidden write that cannot fail.
    fn internal_site(&mut self, spans: Spans) -> ir::SiteId {
        self.site(
            FaultKind::Range,
            "a channel's or lock's hidden state left its range (a bug of bir's)".to_string(),
            spans.first,
            spans,
        )
    }

    /// Slot `slot` of the channel `operand` names, as an index into a field's slots.
    fn slot_index(&mut self, operand: &Operand, capacity: u32, slot: Expr) -> Expr {
        match &operand.index {
            None => slot,
            Some((index, _)) => {
                let overflow = Some(self.any_site());
                let base = Expr::Arith {
                    op: ArithOp::Mul,
                    lhs: Box::new(index.clone()),
                    rhs: Box::new(Expr::Int(i64::from(capacity))),
                    overflow,
                    division: None,
                };
                Expr::Arith {
                    op: ArithOp::Add,
                    lhs: Box::new(base),
                    rhs: Box::new(slot),
                    overflow,
                    division: None,
                }
            }
        }
    }

    /// A read of element `slot` of a field's slots.
    fn slot_read(&self, slots: ir::GlobalId, slot: Expr, operand: &Operand) -> Expr {
        Expr::Element {
            var: VarRef::Global(slots),
            index: Box::new(slot),
            site: operand
                .index
                .as_ref()
                .map_or(self.any_site(), |(_, site)| *site),
        }
    }

    /// The place of element `slot` of a field's slots.
    fn element_place(&self, slots: ir::GlobalId, slot: Expr, operand: &Operand) -> Place {
        Place {
            var: VarRef::Global(slots),
            index: Some((
                Box::new(slot),
                operand
                    .index
                    .as_ref()
                    .map_or(self.any_site(), |(_, site)| *site),
            )),
        }
    }

    /// `var[operand] := var[operand] ± 1`, which the readiness keeps in range.
    fn bump(
        &mut self,
        var: ir::GlobalId,
        operand: &Operand,
        op: ArithOp,
        spans: Spans,
    ) -> ir::Action {
        let site = self.internal_site(spans);
        let value = Expr::Arith {
            op,
            lhs: Box::new(self.hidden_read(var, operand)),
            rhs: Box::new(Expr::Int(1)),
            overflow: Some(site),
            division: None,
        };
        ir::Action::Assign {
            place: self.hidden_place(var, operand),
            value,
            site,
        }
    }

    /// The global number of the instance of `thread` that executes the step.
    pub(super) fn this_instance(&mut self, thread: ir::ThreadId) -> Expr {
        if self.function_of(thread).is_some() {
            // Laid out in each calling thread with that thread's own (`inline`).
            return Expr::QuantVar(super::inline::THIS_INSTANCE);
        }
        let first: i64 = self
            .sigs
            .iter()
            .take(thread.index())
            .map(|s| i64::from(s.kind.instances()))
            .sum();
        if self.sigs[thread].index_param.is_none() && self.sigs[thread].kind.instances() == 1 {
            return Expr::Int(first);
        }
        if first == 0 {
            return Expr::InstanceIndex;
        }
        Expr::Arith {
            op: ArithOp::Add,
            lhs: Box::new(Expr::InstanceIndex),
            rhs: Box::new(Expr::Int(first)),
            overflow: Some(self.any_site()),
            division: None,
        }
    }

    /// `owner(l) == me`.
    fn holds(&self, lock: &Operand, me: Expr) -> Expr {
        compare(
            CmpOp::Eq,
            self.hidden_read(self.locks[lock.which].owner, lock),
            me,
        )
    }

    /// `owner(l) == -1`.
    fn lock_free(&self, lock: &Operand) -> Expr {
        compare(
            CmpOp::Eq,
            self.hidden_read(self.locks[lock.which].owner, lock),
            Expr::Int(-1),
        )
    }

    /// The number of lock element `lock` among the model's: for the locks of objects the
    /// same for every object (an element of a lock field's array has its own).
    fn lock_number(&mut self, lock: &Operand) -> Expr {
        let first = i64::from(self.locks[lock.which].first);
        if let Some(element) = &lock.element {
            return Expr::Arith {
                op: ArithOp::Add,
                lhs: Box::new(element.clone()),
                rhs: Box::new(Expr::Int(first)),
                overflow: Some(self.any_site()),
                division: None,
            };
        }
        match &lock.index {
            _ if lock.object.is_some() => Expr::Int(first),
            None => Expr::Int(first),
            Some((index, _)) => Expr::Arith {
                op: ArithOp::Add,
                lhs: Box::new(index.clone()),
                rhs: Box::new(Expr::Int(first)),
                overflow: Some(self.any_site()),
                division: None,
            },
        }
    }

    /// The wait mark `mark` would have for lock `lock`: waiting (`offset` 1) or notified
    /// (`offset` 1 + L).
    fn mark_for(&mut self, lock: &Operand, offset: i64) -> Expr {
        let number = self.lock_number(lock);
        Expr::Arith {
            op: ArithOp::Add,
            lhs: Box::new(number),
            rhs: Box::new(Expr::Int(offset)),
            overflow: Some(self.any_site()),
            division: None,
        }
    }

    /// The wait mark of instance `me`.
    fn mark_of(&self, waits: Waits, me: Expr) -> Expr {
        Expr::Element {
            var: VarRef::Global(waits.mark),
            index: Box::new(me),
            site: self.any_site(),
        }
    }

    /// `wasNotified(l)` of instance `me`: false when the model never waits.
    fn notified(&mut self, lock: &Operand, me: Expr) -> Expr {
        let Some(waits) = self.waits else {
            return Expr::Bool(false);
        };
        let notified = self.mark_for(lock, 1 + i64::from(waits.locks));
        let cond = compare(CmpOp::Eq, self.mark_of(waits, me.clone()), notified);
        self.and_same_object(lock, me, cond)
    }

    /// The readiness and actions of a lock operation (Java monitors, reentrant).
    fn lock_op(
        &mut self,
        thread: ir::ThreadId,
        op: LockOp,
        operand: &ast::Expr,
        spans: Spans,
        scope: &mut Scope,
    ) -> Option<(Option<Expr>, Vec<ir::Action>)> {
        let lock = self.operand(operand, true, scope)?;
        let me = self.this_instance(thread);
        let vars = self.locks[lock.which].clone();
        let owner = self.hidden_place(vars.owner, &lock);
        let count = self.hidden_place(vars.count, &lock);
        let site = |checker: &mut Self, message: String| {
            checker.site(FaultKind::Lock, message, spans.first, spans)
        };
        let not_held = |checker: &mut Self, verb: &str| {
            let message = format!(
                "`{verb}({})` by an instance that does not hold `{}`",
                lock.text, lock.text
            );
            let site = site(checker, message);
            ir::Action::Assert {
                cond: checker.holds(&lock, me.clone()),
                site,
            }
        };
        match op {
            LockOp::Lock => {
                let free = self.lock_free(&lock);
                let ready = Expr::Or(Box::new(free), Box::new(self.holds(&lock, me.clone())));
                let fourth = site(
                    self,
                    format!(
                        "`lock({})`: a fourth nested hold of `{}` (a lock counts at most {MAX_HOLDS})",
                        lock.text, lock.text
                    ),
                );
                let holds = Expr::Arith {
                    op: ArithOp::Add,
                    lhs: Box::new(self.hidden_read(vars.count, &lock)),
                    rhs: Box::new(Expr::Int(1)),
                    overflow: Some(fourth),
                    division: None,
                };
                let actions = vec![
                    ir::Action::Assign {
                        place: owner,
                        value: me,
                        site: self.internal_site(spans),
                    },
                    ir::Action::Assign {
                        place: count,
                        value: holds,
                        site: fourth,
                    },
                ];
                Some((Some(ready), actions))
            }
            LockOp::Unlock => {
                let check = not_held(self, "unlock");
                let fewer = Expr::Arith {
                    op: ArithOp::Sub,
                    lhs: Box::new(self.hidden_read(vars.count, &lock)),
                    rhs: Box::new(Expr::Int(1)),
                    overflow: Some(self.any_site()),
                    division: None,
                };
                let released = Expr::Cond {
                    cond: Box::new(compare(
                        CmpOp::Eq,
                        self.hidden_read(vars.count, &lock),
                        Expr::Int(0),
                    )),
                    then: Box::new(Expr::Int(-1)),
                    otherwise: Box::new(self.hidden_read(vars.owner, &lock)),
                };
                let actions = vec![
                    check,
                    ir::Action::Assign {
                        place: count,
                        value: fewer,
                        site: self.internal_site(spans),
                    },
                    ir::Action::Assign {
                        place: owner,
                        value: released,
                        site: self.internal_site(spans),
                    },
                ];
                Some((None, actions))
            }
            LockOp::Wait => {
                let waits = self.waits?;
                let check = not_held(self, "wait");
                let twice = site(
                    self,
                    format!(
                        "`wait({})` while this instance waits on, or was notified by, a lock",
                        lock.text
                    ),
                );
                let mark = self.mark_of(waits, me.clone());
                let waiting = self.mark_for(&lock, 1);
                let mark_place = Place {
                    var: VarRef::Global(waits.mark),
                    index: Some((Box::new(me.clone()), self.any_site())),
                };
                let me_wait = me.clone();
                let remembered = Place {
                    var: VarRef::Global(waits.count),
                    index: Some((Box::new(me), self.any_site())),
                };
                let actions = vec![
                    check,
                    ir::Action::Assert {
                        cond: compare(CmpOp::Eq, mark, Expr::Int(0)),
                        site: twice,
                    },
                    ir::Action::Assign {
                        place: remembered,
                        value: self.hidden_read(vars.count, &lock),
                        site: self.internal_site(spans),
                    },
                    ir::Action::Assign {
                        place: count,
                        value: Expr::Int(0),
                        site: self.internal_site(spans),
                    },
                    ir::Action::Assign {
                        place: owner,
                        value: Expr::Int(-1),
                        site: self.internal_site(spans),
                    },
                    ir::Action::Assign {
                        place: mark_place,
                        value: waiting,
                        site: self.internal_site(spans),
                    },
                ];
                let mut actions = actions;
                let object = lock.object.clone().unwrap_or(Expr::Int(0));
                actions.extend(self.set_waiting(&lock, me_wait, object, spans));
                Some((None, actions))
            }
            LockOp::Unwait => {
                let waits = self.waits?;
                // The owner first: the operand's null and index faults come before the
                // readiness (LANGUAGE.md's order of evaluation), which the wait mark alone
                // would decide.
                let notified = self.notified(&lock, me.clone());
                let free = self.lock_free(&lock);
                let ready = Expr::And(Box::new(free), Box::new(notified));
                let remembered = Expr::Element {
                    var: VarRef::Global(waits.count),
                    index: Box::new(me.clone()),
                    site: self.any_site(),
                };
                let at_me = |var: ir::GlobalId, checker: &Self| Place {
                    var: VarRef::Global(var),
                    index: Some((Box::new(me.clone()), checker.any_site())),
                };
                let actions = vec![
                    ir::Action::Assign {
                        place: owner,
                        value: me.clone(),
                        site: self.internal_site(spans),
                    },
                    ir::Action::Assign {
                        place: count,
                        value: remembered,
                        site: self.internal_site(spans),
                    },
                    ir::Action::Assign {
                        place: at_me(waits.count, self),
                        value: Expr::Int(0),
                        site: self.internal_site(spans),
                    },
                    ir::Action::Assign {
                        place: at_me(waits.mark, self),
                        value: Expr::Int(0),
                        site: self.internal_site(spans),
                    },
                ];
                let mut actions = actions;
                actions.extend(self.set_waiting(&lock, me.clone(), Expr::Int(0), spans));
                Some((Some(ready), actions))
            }
            LockOp::NotifyAll => {
                let mut actions = vec![not_held(self, "notifyAll")];
                let Some(waits) = self.waits else {
                    return Some((None, actions));
                };
                let instances: u32 = self
                    .sigs
                    .iter()
                    .take(self.real_threads)
                    .map(|s| s.kind.instances())
                    .sum();
                let waiting = self.mark_for(&lock, 1);
                let notified = self.mark_for(&lock, 1 + i64::from(waits.locks));
                for instance in 0..instances {
                    let mark = self.mark_of(waits, Expr::Int(i64::from(instance)));
                    let cond = self.and_same_object(
                        &lock,
                        Expr::Int(i64::from(instance)),
                        compare(CmpOp::Eq, mark.clone(), waiting.clone()),
                    );
                    let value = Expr::Cond {
                        cond: Box::new(cond),
                        then: Box::new(notified.clone()),
                        otherwise: Box::new(mark),
                    };
                    actions.push(ir::Action::Assign {
                        place: Place {
                            var: VarRef::Global(waits.mark),
                            index: Some((
                                Box::new(Expr::Int(i64::from(instance))),
                                self.any_site(),
                            )),
                        },
                        value,
                        site: self.internal_site(spans),
                    });
                }
                Some((None, actions))
            }
            LockOp::Notify => unreachable!("`notify` has outcomes of its own"),
        }
    }
}

/// The readiness, the actions and the outcomes of a communication or lock operation (see
/// [`Checker::comm_action`]).
pub(super) struct CommAction {
    /// The readiness of a blocking action, a conjunct of its step's guard.
    pub ready: Option<Expr>,
    /// Its actions.
    pub actions: Vec<ir::Action>,
    /// The outcomes of a `notify`, after its actions.
    pub outcomes: Vec<Outcome>,
    /// A send or receive, as the IR records it beside the actions.
    pub communication: Option<Communication>,
}

/// What a send or receive is, beside the actions that carry it out.
pub(super) enum Communication {
    /// On a rendezvous channel: the step pairs with a partner's (its block still empty:
    /// the rest of the step).
    Rendezvous(ir::Rendezvous),
    /// On a buffered channel: the first actions carry it out.
    Buffered(ir::Buffered),
}

/// The readiness, actions and communication of a communication or lock operation but
/// `notify`.
type Plain = (Option<Expr>, Vec<ir::Action>, Option<Communication>);

/// One outcome of a step with several: its condition, its actions, and what it does in
/// words (for the transformation's text).
pub(super) type Outcome = (Expr, Vec<ir::Action>, String);

impl Checker<'_> {
    /// `notify(l)`: the notifier must hold `l`; then one outcome per instance that may wait
    /// on `l`, taken out of its wait set, each a transition of its own, and one outcome
    /// when nobody waits, in which it does nothing.
    fn notify(
        &mut self,
        thread: ir::ThreadId,
        operand: &ast::Expr,
        spans: Spans,
        scope: &mut Scope,
    ) -> Option<CommAction> {
        let lock = self.operand(operand, true, scope)?;
        let me = self.this_instance(thread);
        let message = format!(
            "`notify({})` by an instance that does not hold `{}`",
            lock.text, lock.text
        );
        let site = self.site(FaultKind::Lock, message, spans.first, spans);
        let check = ir::Action::Assert {
            cond: self.holds(&lock, me),
            site,
        };
        let Some(waits) = self.waits else {
            return Some(CommAction {
                ready: None,
                actions: vec![check],
                outcomes: Vec::new(),
                communication: None,
            });
        };
        let instances: u32 = self
            .sigs
            .iter()
            .take(self.real_threads)
            .map(|s| s.kind.instances())
            .sum();
        let waiting = self.mark_for(&lock, 1);
        let notified = self.mark_for(&lock, 1 + i64::from(waits.locks));
        let waits_on = |checker: &Self, instance: u32| {
            let cond = compare(
                CmpOp::Eq,
                checker.mark_of(waits, Expr::Int(i64::from(instance))),
                waiting.clone(),
            );
            checker.and_same_object(&lock, Expr::Int(i64::from(instance)), cond)
        };
        let nobody = (0..instances)
            .map(|instance| Expr::Not(Box::new(waits_on(self, instance))))
            .reduce(|a, b| Expr::And(Box::new(a), Box::new(b)))
            .unwrap_or(Expr::Bool(true));
        let mut outcomes = vec![(nobody, Vec::new(), "nobody waits".to_string())];
        let names = self.instance_names();
        for instance in 0..instances {
            let wake = ir::Action::Assign {
                place: Place {
                    var: VarRef::Global(waits.mark),
                    index: Some((Box::new(Expr::Int(i64::from(instance))), self.any_site())),
                },
                value: notified.clone(),
                site: self.internal_site(spans),
            };
            let label = format!("wakes {}", names[instance as usize]);
            outcomes.push((waits_on(self, instance), vec![wake], label));
        }
        Some(CommAction {
            ready: None,
            actions: vec![check],
            outcomes,
            communication: None,
        })
    }
}

impl Checker<'_> {
    /// The display name of every instance of the model's threads, by global number.
    fn instance_names(&self) -> Vec<String> {
        let mut names = Vec::new();
        for (sig, decl) in self
            .sigs
            .iter()
            .zip(&self.thread_decls)
            .take(self.real_threads)
        {
            let replicated = matches!(
                sig.kind,
                ir::ThreadKind::Active {
                    replicated: true,
                    ..
                }
            );
            for index in 0..sig.kind.instances() {
                names.push(if replicated {
                    format!("{}[{index}]", decl.name.text)
                } else {
                    decl.name.text.clone()
                });
            }
        }
        names
    }
}

/// How messages name field `field` of a channel with `fields` fields: "the field", "field 2".
fn field_name(field: usize, fields: usize) -> String {
    match fields {
        1 => "the field".to_string(),
        _ => format!("field {}", field + 1),
    }
}

/// `lhs op rhs`.
fn compare(op: CmpOp, lhs: Expr, rhs: Expr) -> Expr {
    Expr::Cmp {
        op,
        lhs: Box::new(lhs),
        rhs: Box::new(rhs),
    }
}
