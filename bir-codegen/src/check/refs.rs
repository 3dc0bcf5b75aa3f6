//! Names in expressions: variables (globals, locals, the instance index, quantified
//! variables), constants and enum values (`C.A`, `E.V`), array elements and `T@loc`, each
//! resolved to what it denotes and checked; and the rule that a new local name reuses none.

use super::expr::{error, scalar_kind, Scope};
use super::{Checker, Kind, Symbol};
use crate::front::ast::{self, Name, Spans};
use crate::ir::{self, Expr, FaultKind, Id as _, Scalar, ThreadKind, VarRef};

impl<'a> Checker<'a> {
    /// Rule: a name is, innermost first, a quantified variable, the thread's parameter or
    /// local, or a global; other top-level names (const blocks, enums, types, threads) are
    /// not values. A constant expression reads no variable.
    pub(super) fn name(&mut self, name: &Name, scope: &Scope) -> (Expr, Kind) {
        if let Some((_, var, kind)) = scope.params.iter().find(|(n, _, _)| n.text == name.text) {
            return (Expr::QuantVar(*var), *kind);
        }
        if let Some(position) = scope.quant.iter().rposition(|(n, _)| n.text == name.text) {
            if let (Some(what), true) = (scope.constant, position < scope.outer_quant) {
                self.diags.error(
                    name.spans(),
                    format!(
                        "{what} must be a constant expression, but `{}` is a quantified \
                         variable",
                        name.text
                    ),
                );
                return error();
            }
            return (Expr::QuantVar(scope.quant[position].1), Kind::Int);
        }
        let var = match self.lookup_var(name, scope) {
            Some(var) => var,
            None => return error(),
        };
        if let Some(what) = scope.constant {
            self.diags.error(
                name.spans(),
                format!(
                    "{what} must be a constant expression, but `{}` is a variable",
                    name.text
                ),
            );
            return error();
        }
        match var {
            Resolved::Index => (Expr::InstanceIndex, Kind::Int),
            Resolved::Var(var, ty, ok) => {
                if !ok {
                    return error();
                }
                if let Some(len) = ty.len {
                    self.diags.error(
                        name.spans(),
                        format!(
                            "`{}` is an array of {len} and cannot be used as a value; \
                             read an element: `{}[i]`",
                            name.text, name.text
                        ),
                    );
                    return error();
                }
                (Expr::Read(var), scalar_kind(ty.scalar))
            }
        }
    }

    /// Finds the variable a name denotes in `scope`, reporting unknown and non-variable
    /// names.
    pub(super) fn lookup_var(&mut self, name: &Name, scope: &Scope) -> Option<Resolved> {
        if let Some(thread) = scope.thread {
            let sig = &self.sigs[thread];
            if sig.index_param.as_deref() == Some(name.text.as_str()) {
                return Some(Resolved::Index);
            }
            if let Some((id, local)) = sig
                .locals
                .iter_enumerated()
                .find(|(_, local)| local.name == name.text)
            {
                return Some(Resolved::Var(VarRef::Local(id), local.ty, sig.local_ok[id]));
            }
        }
        match self.symbols.get(&name.text).copied() {
            Some(Symbol::Global(id)) => {
                // A constant expression of an earlier global can name a later one; it is
                // rejected as not constant, so its type does not matter yet.
                let ty = self.globals.get(id).map_or(
                    ir::Ty {
                        scalar: Scalar::INT,
                        len: None,
                    },
                    |var| var.ty,
                );
                let ok = self.global_ok.get(id).copied().unwrap_or(true);
                Some(Resolved::Var(VarRef::Global(id), ty, ok))
            }
            Some(other) => {
                let hint = match other {
                    Symbol::ConstBlock(_) => {
                        format!("write `{}.NAME` for one of its constants", name.text)
                    }
                    Symbol::Enum(_) => format!("write `{}.VALUE` for one of its values", name.text),
                    Symbol::Alias(_) => "a type is not a value".to_string(),
                    Symbol::Thread(_) => format!("write `{}@loc` to test where it is", name.text),
                    Symbol::Channel(_) => format!(
                        "a channel is not a value: send and receive with `{0}!(..)` and \
                         `{0}?(..)`, or read `len({0})`, `empty({0})` or `full({0})`",
                        name.text
                    ),
                    Symbol::Lock(_) => format!(
                        "a lock is not a value: take it with `lock({0});`, or ask \
                         `hasLock({0})` or `lockAvailable({0})`",
                        name.text
                    ),
                    Symbol::Function(_) => format!(
                        "call it as a statement of its own: `x := {}(..);`",
                        name.text
                    ),
                    Symbol::Fun(_) => {
                        format!("call it with its arguments: `{}(..)`", name.text)
                    }
                    Symbol::Record(_) => format!(
                        "a record type is not a value: declare a reference, `{0} x;`, and \
                         make an object with `x := new {0};`",
                        name.text
                    ),
                    Symbol::Global(_) => unreachable!("a global is a variable"),
                };
                self.diags.error(
                    name.spans(),
                    format!(
                        "`{}` is {}, not a variable; {hint}",
                        name.text,
                        other.describe()
                    ),
                );
                None
            }
            None => {
                let text = &name.text;
                let message = match (self.local_owner(text), scope.constant, scope.thread) {
                    (Some((what, owner)), Some(constant), _) => format!(
                        "{constant} must be a constant expression, but `{text}` is {what} of \
                         {owner}"
                    ),
                    (Some((what, owner)), None, None) => format!(
                        "unknown name `{text}`: it is {what} of {owner}, and {} reads only \
                         globals, constants and `T@loc`",
                        scope.reader
                    ),
                    (Some((what, owner)), None, Some(reader)) => {
                        let reader = match self.function_of(reader) {
                            Some(_) => "a function reads only its own parameters and locals",
                            None => "a thread reads only its own locals",
                        };
                        format!(
                            "unknown name `{text}`: it is {what} of {owner}, and {reader} and \
                             the globals"
                        )
                    }
                    (None, ..) => {
                        let hint = self.unknown_value_hint(text, scope);
                        format!("unknown name `{text}`{hint}")
                    }
                };
                self.diags.error(name.spans(), message);
                None
            }
        }
    }

    /// The first thread or function declaring a local or parameter named `text`, for the
    /// message about a name used out of its body: ("a local" or "the parameter", "thread
    /// `T`" or "function `f`").
    pub(super) fn local_owner(&self, text: &str) -> Option<(&'static str, String)> {
        self.thread_decls
            .iter()
            .enumerate()
            .find_map(|(index, thread)| {
                let id = ir::ThreadId::new(index);
                // A function's parameters are its body's first locals.
                let params = self
                    .function_of(id)
                    .map_or(0, |f| self.function_decls[f].params.len());
                let position = thread
                    .body
                    .locals
                    .iter()
                    .position(|local| local.name.text == text);
                let what = if thread.params.iter().any(|p| p.name.text == text) {
                    "the parameter"
                } else {
                    match position? {
                        p if p < params => "a parameter",
                        _ => "a local",
                    }
                };
                Some((what, self.body_name(id)))
            })
    }

    /// `Const.X` or `Enum.Value`.
    pub(super) fn member(&mut self, owner: &Name, member: &Name) -> (Expr, Kind) {
        match self.symbols.get(&owner.text).copied() {
            Some(Symbol::ConstBlock(block)) => match self.const_member(block, owner, member) {
                Some((value, Kind::Bool)) => (Expr::Bool(value != 0), Kind::Bool),
                Some((value, kind)) => (Expr::Int(value), kind),
                None => error(),
            },
            Some(Symbol::Enum(id)) => {
                match self.enums[id]
                    .variants
                    .iter()
                    .position(|v| *v == member.text)
                {
                    Some(ordinal) => (Expr::Int(ordinal as i64), Kind::Enum(id)),
                    None => {
                        let values = self.enums[id].variants.iter().map(String::as_str);
                        let hint = self.suggest.did_you_mean(&member.text, values);
                        self.diags.error(
                            member.spans(),
                            format!("enum `{}` has no value `{}`{hint}", owner.text, member.text),
                        );
                        error()
                    }
                }
            }
            Some(other) => {
                self.diags.error(
                    owner.spans(),
                    format!(
                        "`{}` is {}; only const blocks and enums have members (`Param.N`, `Color.Red`)",
                        owner.text,
                        other.describe()
                    ),
                );
                error()
            }
            None => {
                let hint = self.unknown_scope_hint(&owner.text);
                self.diags.error(
                    owner.spans(),
                    format!("unknown const block or enum `{}`{hint}", owner.text),
                );
                error()
            }
        }
    }

    /// `a[i]`: rule: only arrays are indexed, by an int.
    pub(super) fn element(
        &mut self,
        array: &Name,
        index: &ast::Expr,
        spans: Spans,
        scope: &mut Scope,
    ) -> (Expr, Kind) {
        let resolved = self.lookup_var(array, scope);
        let index_ir = self.expr_of(index, scope, Kind::Int, "an array index");
        let (var, ty, ok) = match resolved {
            Some(Resolved::Var(var, ty, ok)) => (var, ty, ok),
            Some(Resolved::Index) => {
                self.not_an_array(array);
                return error();
            }
            None => return error(),
        };
        if let Some(what) = scope.constant {
            self.diags.error(
                array.spans(),
                format!(
                    "{what} must be a constant expression, but `{}` is a variable",
                    array.text
                ),
            );
            return error();
        }
        if !ok {
            return error();
        }
        let Some(len) = ty.len else {
            self.not_an_array(array);
            return error();
        };
        let site = self.index_site(array, index, len, spans);
        let ir = Expr::Element {
            var,
            index: Box::new(index_ir),
            site,
        };
        (ir, scalar_kind(ty.scalar))
    }

    /// The index-error site of `array[index]`, an array of `len` elements.
    pub(super) fn index_site(
        &mut self,
        array: &Name,
        index: &ast::Expr,
        len: u32,
        spans: Spans,
    ) -> ir::SiteId {
        self.site(
            FaultKind::Index,
            format!(
                "index {{value}} out of bounds in `{}[{index}]`: `{}` has {len} elements",
                array.text, array.text
            ),
            spans.first,
            index.spans(),
        )
    }

    pub(super) fn not_an_array(&mut self, name: &Name) {
        self.diags.error(
            name.spans(),
            format!("`{}` is not an array and cannot be indexed", name.text),
        );
    }

    /// `T@loc` / `T[i]@loc`: rule: the thread and location exist; a replicated thread
    /// takes an index and a single-instance thread does not.
    pub(super) fn at(
        &mut self,
        whole: &ast::Expr,
        thread: &Name,
        index: Option<&ast::Expr>,
        function: Option<&Name>,
        location: &Name,
        scope: &mut Scope,
    ) -> (Expr, Kind) {
        let index_ir =
            index.map(|index| self.expr_of(index, scope, Kind::Int, "an instance index"));
        if let Some(what) = scope.constant {
            self.diags.error(
                whole.spans(),
                format!("{what} must be a constant expression, but `{whole}` reads the state"),
            );
            return error();
        }
        let Some(id) = self.thread_named(thread) else {
            return error();
        };
        // `T@f.loc` names a location of function `f`, laid out in `T`'s frames (`inline`).
        let function =
            match function {
                None => None,
                Some(name) => match self.symbols.get(&name.text).copied() {
                    Some(Symbol::Function(f)) => Some((f, name)),
                    other => {
                        let is = match other {
                            Some(s) => {
                                format!("`{}` is {}, not a function", name.text, s.describe())
                            }
                            None => format!("no function `{}` is declared", name.text),
                        };
                        self.diags.error(
                            name.spans(),
                            format!(
                            "{is}: in `{}@{}.{}`, `{}` names a function, and the whole is true \
                             when `{}`'s top frame is that function at `{}`",
                            thread.text, name.text, location.text, name.text, thread.text,
                            location.text
                        ),
                        );
                        return error();
                    }
                },
            };
        let owner = function.map_or(id, |(f, _)| self.function_thread(f));
        let location_id = self.sigs[owner].locations.get(&location.text).copied();
        let sig = &self.sigs[id];
        let replicated = matches!(
            sig.kind,
            ThreadKind::Active {
                replicated: true,
                ..
            } | ThreadKind::Pool { .. }
        );
        let is_pool = matches!(sig.kind, ThreadKind::Pool { .. });
        let count = sig.kind.instances();
        let Some(mut location_id) = location_id else {
            let hint = self.unknown_location_hint(owner, &location.text);
            let (what, owner_name) = match function {
                Some((_, name)) => ("function", &name.text),
                None => ("thread", &thread.text),
            };
            self.diags.error(
                location.spans(),
                format!(
                    "{what} `{owner_name}` has no location `{}`{hint}",
                    location.text
                ),
            );
            return error();
        };
        if let Some((f, _)) = function {
            let marker = super::inline::FUNCTION_AT + self.function_ats.len() as u32;
            self.function_ats.push((f, location_id));
            location_id = ir::LocationId(marker);
        }
        let instance = match (replicated, index_ir) {
            (true, Some(index_ir)) => {
                let site = self.site(
                    FaultKind::Index,
                    format!(
                        "instance index {{value}} out of bounds in `{whole}`: `{}` has {count} instances",
                        thread.text
                    ),
                    thread.span,
                    index.map_or(whole.spans(), ast::Expr::spans),
                );
                Some((Box::new(index_ir), site))
            }
            (false, None) => None,
            (true, None) => {
                let declared = if is_pool {
                    format!("a pool (`thread[{count}]`)")
                } else {
                    format!("replicated (`active [{count}]`)")
                };
                self.diags.error(
                    whole.spans(),
                    format!(
                        "`{}` is {declared}; say which instance: `{}[i]@{}`",
                        thread.text, thread.text, location.text
                    ),
                );
                return error();
            }
            (false, Some(_)) => {
                self.diags.error(
                    whole.spans(),
                    format!(
                        "`{}` is not replicated (`active [k]`) and takes no index: write `{}@{}`",
                        thread.text, thread.text, location.text
                    ),
                );
                return error();
            }
        };
        let ir = Expr::At {
            thread: id,
            instance,
            location: location_id,
        };
        (ir, Kind::Bool)
    }

    /// The thread `name` denotes (in `T@loc` and `start T(..)`); reports an unknown name or
    /// one that denotes something else.
    pub(super) fn thread_named(&mut self, name: &Name) -> Option<ir::ThreadId> {
        match self.symbols.get(&name.text).copied() {
            Some(Symbol::Thread(id)) => Some(id),
            Some(other) => {
                self.diags.error(
                    name.spans(),
                    format!("`{}` is {}, not a thread", name.text, other.describe()),
                );
                None
            }
            None => {
                let hint = self.unknown_thread_hint(&name.text);
                self.diags.error(
                    name.spans(),
                    format!("unknown thread `{}`{hint}", name.text),
                );
                None
            }
        }
    }

    /// Rule: a local, a parameter or a quantified variable reuses no top-level name and
    /// no name in scope. Returns false (after reporting) when it does.
    pub(super) fn check_new_name(&mut self, name: &Name, scope: &Scope, what: &str) -> bool {
        let text = name.text.as_str();
        let clash = if let Some(&symbol) = self.symbols.get(text) {
            Some((symbol.describe(), self.symbol_name(symbol).spans()))
        } else if let Some((outer, _)) = scope.quant.iter().find(|(n, _)| n.text == text) {
            Some(("an enclosing quantified variable", outer.spans()))
        } else if let Some(thread) = scope.thread {
            let sig = &self.sigs[thread];
            let decl = self.thread_decls[thread.index()];
            let param = decl.params.iter().find(|param| param.name.text == text);
            let local = decl
                .body
                .locals
                .iter()
                .find(|local| local.name.text == text);
            if sig.index_param.as_deref() == Some(text) {
                param.map(|param| ("the thread's parameter", param.name.spans()))
            } else if sig.locals.iter().any(|local| local.name == text) {
                // A started thread's parameter is its first local, and a function's
                // parameters are its first locals.
                let first = param.map(|p| &p.name).or(local.map(|l| &l.name));
                let previous = match self.function_of(thread) {
                    Some(f)
                        if self.function_decls[f]
                            .params
                            .iter()
                            .any(|p| p.name.text == text) =>
                    {
                        "a parameter of this function"
                    }
                    Some(_) => "a local of this function",
                    None => "a local of this thread",
                };
                first.map(|first| (previous, first.spans()))
            } else {
                None
            }
        } else {
            None
        };
        match clash {
            Some((previous, first)) => {
                self.diags.duplicate(
                    name.spans(),
                    format!("duplicate name `{text}`: {what} may not reuse the name of {previous}"),
                    text,
                    first,
                );
                false
            }
            None => true,
        }
    }
}

/// A name resolved to something readable.
#[derive(Clone, Copy, Debug)]
pub(super) enum Resolved {
    /// The parameter of an active thread (the instance index).
    Index,
    /// A variable with its type, and whether that type is sound.
    Var(VarRef, ir::Ty, bool),
}
