//! Top-level names, enums, constants and typealiases.

use std::collections::HashMap;

use super::expr::Scope;
use super::{Checker, Kind, Lazy, Symbol, MAX_RESOLUTION_DEPTH};
use crate::front::ast::{self, Decl, Name};
use crate::ir::{self, Id as _};

impl<'a> Checker<'a> {
    /// Rule: const blocks, enums, typealiases, globals and threads share one namespace, and
    /// no name is declared twice in it (`boolean x; int x;` is an error on the second `x`).
    pub(super) fn collect_names(&mut self) {
        let ast = self.ast;
        for decl in &ast.decls {
            let (name, symbol) = match decl {
                Decl::Const(block) => {
                    self.const_blocks.push(block);
                    let mut entries = HashMap::with_capacity(block.entries.len());
                    for (index, entry) in block.entries.iter().enumerate() {
                        entries.entry(entry.name.text.as_str()).or_insert(index);
                    }
                    self.const_entries.push(entries);
                    (&block.name, Symbol::ConstBlock(self.const_blocks.len() - 1))
                }
                Decl::Alias(alias) => {
                    self.aliases.push(alias);
                    self.alias_types.push(Lazy::Pending);
                    (&alias.name, Symbol::Alias(self.aliases.len() - 1))
                }
                Decl::Enum(decl) => {
                    self.enum_decls.push(decl);
                    (
                        &decl.name,
                        Symbol::Enum(ir::EnumId::new(self.enum_decls.len() - 1)),
                    )
                }
                Decl::Global(var) => {
                    self.global_decls.push(var);
                    (
                        &var.name,
                        Symbol::Global(ir::GlobalId::new(self.global_decls.len() - 1)),
                    )
                }
                Decl::Thread(thread) => {
                    self.thread_decls.push(thread);
                    (
                        &thread.name,
                        Symbol::Thread(ir::ThreadId::new(self.thread_decls.len() - 1)),
                    )
                }
                Decl::Invariant(_) | Decl::Ltl(_) | Decl::Reachable(_) | Decl::Heuristic(_) => {
                    continue
                }
                Decl::Channel(channel) => {
                    self.channel_decls.push(channel);
                    (&channel.name, Symbol::Channel(self.channel_decls.len() - 1))
                }
                Decl::Lock(lock) => {
                    self.lock_decls.push(lock);
                    (&lock.name, Symbol::Lock(self.lock_decls.len() - 1))
                }
                Decl::Function(function) => {
                    self.function_decls.push(function);
                    (
                        &function.name,
                        Symbol::Function(self.function_decls.len() - 1),
                    )
                }
                Decl::Fun(fun) => {
                    self.fun_decls.push(fun);
                    self.funs.push(Lazy::Pending);
                    (&fun.name, Symbol::Fun(self.fun_decls.len() - 1))
                }
                Decl::Record(record) => {
                    self.record_decls.push(record);
                    (
                        &record.name,
                        Symbol::Record(ir::RecordId::new(self.record_decls.len() - 1)),
                    )
                }
            };
            if let Some(&previous) = self.symbols.get(&name.text) {
                let first = self.symbol_name(previous).spans();
                self.diags.duplicate(
                    name.spans(),
                    format!(
                        "duplicate name `{}`: already declared as {}",
                        name.text,
                        previous.describe()
                    ),
                    &name.text,
                    first,
                );
            } else {
                self.symbols.insert(name.text.clone(), symbol);
            }
        }
    }

    /// The name of the declaration a top-level symbol stands for.
    pub(super) fn symbol_name(&self, symbol: Symbol) -> &'a Name {
        match symbol {
            Symbol::ConstBlock(block) => &self.const_blocks[block].name,
            Symbol::Alias(alias) => &self.aliases[alias].name,
            Symbol::Enum(id) => &self.enum_decls[id.index()].name,
            Symbol::Global(id) => &self.global_decls[id.index()].name,
            Symbol::Thread(id) => &self.thread_decls[id.index()].name,
            Symbol::Channel(index) => &self.channel_decls[index].name,
            Symbol::Lock(index) => &self.lock_decls[index].name,
            Symbol::Function(index) => &self.function_decls[index].name,
            Symbol::Fun(index) => &self.fun_decls[index].name,
            Symbol::Record(id) => &self.record_decls[id.index()].name,
        }
    }

    /// Rule: an enum's values are distinct (`enum E { A, A }` is an error on the second `A`).
    pub(super) fn check_enums(&mut self) {
        for decl in self.enum_decls.clone() {
            let mut seen = HashMap::new();
            let mut variants = Vec::new();
            for variant in &decl.variants {
                if let Some(&first) = seen.get(&variant.text) {
                    self.diags.duplicate(
                        variant.spans(),
                        format!(
                            "duplicate value `{}` in enum `{}`",
                            variant.text, decl.name.text
                        ),
                        &variant.text,
                        first,
                    );
                } else {
                    seen.insert(variant.text.clone(), variant.spans());
                }
                variants.push(variant.text.clone());
            }
            self.enums.push(ir::Enum {
                name: decl.name.text.clone(),
                variants,
            });
        }
    }

    /// Rule: constants within a block are distinct, each is a constant int or boolean
    /// expression, and none depends on itself.
    pub(super) fn check_consts(&mut self) {
        self.check_overrides();
        for (block_id, block) in self.const_blocks.clone().into_iter().enumerate() {
            let mut seen = HashMap::new();
            for (entry_id, entry) in block.entries.iter().enumerate() {
                if let Some(first) = seen.get(&entry.name.text) {
                    self.diags.duplicate(
                        entry.name.spans(),
                        format!(
                            "duplicate constant `{}` in const block `{}`",
                            entry.name.text, block.name.text
                        ),
                        &entry.name.text,
                        *first,
                    );
                    continue;
                }
                seen.insert(entry.name.text.clone(), entry.name.spans());
                self.const_value(block_id, entry_id, entry.name.spans());
            }
        }
    }

    /// The value of constant `entry` of `block`, evaluating it on first use. `reference`
    /// is where it is used (`Param.N`), for the cycle error.
    pub(super) fn const_value(
        &mut self,
        block: usize,
        entry: usize,
        reference: ast::Spans,
    ) -> Option<(i64, Kind)> {
        match self
            .consts
            .get(&(block, entry))
            .copied()
            .unwrap_or(Lazy::Pending)
        {
            Lazy::Done(value) => value,
            Lazy::InProgress => {
                let decl = self.const_blocks[block];
                self.diags.error(
                    reference,
                    format!(
                        "cyclic constant: `{}.{}` depends on itself",
                        decl.name.text, decl.entries[entry].name.text
                    ),
                );
                self.consts.insert((block, entry), Lazy::Done(None));
                None
            }
            Lazy::Pending => {
                let decl: &'a ast::ConstBlock = self.const_blocks[block];
                if let Some(value) = self
                    .overrides
                    .get(&decl.name.text, &decl.entries[entry].name.text)
                {
                    // Rule: an override replaces the declared value, which is not evaluated.
                    let kind = if value.is_bool { Kind::Bool } else { Kind::Int };
                    let value = Some((value.value, kind));
                    self.consts.insert((block, entry), Lazy::Done(value));
                    return value;
                }
                if self.resolving >= MAX_RESOLUTION_DEPTH {
                    self.diags.error(
                        reference,
                        format!(
                            "`{}.{}` ends a chain of more than {MAX_RESOLUTION_DEPTH} constants \
                             and typealiases that depend on each other",
                            decl.name.text, decl.entries[entry].name.text
                        ),
                    );
                    self.consts.insert((block, entry), Lazy::Done(None));
                    return None;
                }
                self.consts.insert((block, entry), Lazy::InProgress);
                let expr = &decl.entries[entry].value;
                self.resolving += 1;
                let value = self.constant(expr, &Scope::constant("a constant's value"));
                self.resolving -= 1;
                let value = match value {
                    Some((_, Kind::Enum(_))) => {
                        self.diags.error(
                            expr.spans(),
                            "a constant is an int or a boolean, not an enum value",
                        );
                        None
                    }
                    Some((_, Kind::Null | Kind::Tid)) => {
                        self.diags.error(
                            expr.spans(),
                            "a constant is an int or a boolean, not `null`",
                        );
                        None
                    }
                    other => other,
                };
                if !matches!(self.consts.get(&(block, entry)), Some(Lazy::Done(None))) {
                    self.consts.insert((block, entry), Lazy::Done(value));
                }
                value
            }
        }
    }

    /// Looks up `Scope.Member` where `scope` is a const block.
    pub(super) fn const_member(
        &mut self,
        block: usize,
        owner: &Name,
        member: &Name,
    ) -> Option<(i64, Kind)> {
        let decl = self.const_blocks[block];
        match self.const_entries[block].get(member.text.as_str()) {
            Some(&entry) => self.const_value(block, entry, owner.spans().to(member.spans())),
            None => {
                let entries = decl.entries.iter().map(|entry| entry.name.text.as_str());
                let hint = self.suggest.did_you_mean(&member.text, entries);
                self.diags.error(
                    member.spans(),
                    format!(
                        "unknown constant `{}` in const block `{}`{hint}",
                        member.text, decl.name.text
                    ),
                );
                None
            }
        }
    }

    /// Rule: a typealias names a scalar type and does not depend on itself.
    pub(super) fn check_aliases(&mut self) {
        for alias in 0..self.aliases.len() {
            let name = self.aliases[alias].name.clone();
            self.alias_type(alias, &name);
        }
    }

    /// The scalar type an alias names, resolving it on first use.
    pub(super) fn alias_type(&mut self, alias: usize, reference: &Name) -> Option<ir::Scalar> {
        match self.alias_types[alias] {
            Lazy::Done(scalar) => scalar,
            Lazy::InProgress => {
                self.diags.error(
                    reference.spans(),
                    format!(
                        "cyclic typealias: `{}` is defined in terms of itself",
                        self.aliases[alias].name.text
                    ),
                );
                self.alias_types[alias] = Lazy::Done(None);
                None
            }
            Lazy::Pending => {
                if self.resolving >= MAX_RESOLUTION_DEPTH {
                    self.diags.error(
                        reference.spans(),
                        format!(
                            "`{}` ends a chain of more than {MAX_RESOLUTION_DEPTH} constants \
                             and typealiases that depend on each other",
                            self.aliases[alias].name.text
                        ),
                    );
                    self.alias_types[alias] = Lazy::Done(None);
                    return None;
                }
                self.alias_types[alias] = Lazy::InProgress;
                let decl: &'a ast::Alias = self.aliases[alias];
                self.resolving += 1;
                let scalar = match &decl.ty.len {
                    Some(_) => {
                        self.diags.error(
                            decl.ty.spans,
                            "a typealias names a scalar type; declare arrays as `Alias[n] name`",
                        );
                        None
                    }
                    None => self.scalar_type(&decl.ty.base),
                };
                self.resolving -= 1;
                if !matches!(self.alias_types[alias], Lazy::Done(None)) {
                    self.alias_types[alias] = Lazy::Done(scalar);
                }
                scalar
            }
        }
    }
}

/// Values that replace named constants, so that one model text can be checked at any size
/// (`Param.N = 12`). An override takes effect before anything depends on the constant: the
/// declared value is not evaluated, and every use (ranges, array sizes, replication counts,
/// initialisers, expressions) sees the override. Its kind is its value's: an integer or a
/// boolean. Naming a constant that is not declared is a compile error.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Overrides {
    entries: Vec<Override>,
}

/// One override: `block.name = value`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Override {
    /// The const block (`Param`).
    pub block: String,
    /// The constant (`N`).
    pub name: String,
    /// The new value (booleans as 0/1).
    pub value: i64,
    /// Whether the value is a boolean.
    pub is_bool: bool,
}

impl Override {
    /// Parses `Block.NAME=VALUE`, VALUE being a decimal integer (optionally negative),
    /// `true` or `false`; spaces around the parts are allowed.
    pub fn parse(text: &str) -> Result<Override, String> {
        let malformed = || format!("expected `Block.NAME=VALUE`, found `{text}`");
        let (target, value) = text.split_once('=').ok_or_else(malformed)?;
        let (block, name) = target.trim().split_once('.').ok_or_else(malformed)?;
        let (block, name, value) = (block.trim(), name.trim(), value.trim());
        let is_name = |s: &str| {
            s.chars()
                .next()
                .is_some_and(|c| c.is_alphabetic() || c == '_')
                && s.chars().all(|c| c.is_alphanumeric() || c == '_')
        };
        if !is_name(block) || !is_name(name) {
            return Err(malformed());
        }
        let (value, is_bool) = match value {
            "true" => (1, true),
            "false" => (0, true),
            _ => match value.replace('_', "").parse::<i64>() {
                Ok(value) => (value, false),
                Err(_) => {
                    return Err(format!(
                        "the value of `{block}.{name}` must be an integer, `true` or `false`, \
                         found `{value}`"
                    ))
                }
            },
        };
        Ok(Override {
            block: block.to_string(),
            name: name.to_string(),
            value,
            is_bool,
        })
    }
}

impl Overrides {
    /// Adds an override; a later one for the same constant replaces the earlier.
    pub fn push(&mut self, value: Override) {
        self.entries
            .retain(|o| (&o.block, &o.name) != (&value.block, &value.name));
        self.entries.push(value);
    }

    /// Overrides `block.name` with an integer.
    pub fn set_int(&mut self, block: &str, name: &str, value: i64) {
        self.push(Override {
            block: block.to_string(),
            name: name.to_string(),
            value,
            is_bool: false,
        });
    }

    /// The override of `block.name`, if any.
    pub fn get(&self, block: &str, name: &str) -> Option<&Override> {
        self.entries
            .iter()
            .find(|o| o.block == block && o.name == name)
    }

    /// Every override, in the order given.
    pub fn iter(&self) -> impl Iterator<Item = &Override> {
        self.entries.iter()
    }

    /// True when there is no override.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

impl Checker<'_> {
    /// Rule: every override names a declared constant. The error stands on the system's
    /// name, since an override has no place in the source.
    fn check_overrides(&mut self) {
        let overrides = self.overrides;
        for o in overrides.iter() {
            let block = match self.symbols.get(&o.block) {
                Some(Symbol::ConstBlock(block)) => Some(self.const_blocks[*block]),
                _ => None,
            };
            let message = match block {
                None => format!(
                    "cannot override `{}.{}`: there is no const block `{}`",
                    o.block, o.name, o.block
                ),
                Some(block) if !block.entries.iter().any(|e| e.name.text == o.name) => format!(
                    "cannot override `{}.{}`: const block `{}` has no constant `{}`",
                    o.block, o.name, o.block, o.name
                ),
                Some(_) => continue,
            };
            self.diags.error(self.ast.name.spans(), message);
        }
    }
}

#[cfg(test)]
mod override_tests {
    use std::str::FromStr;

    use proc_macro2::TokenStream;

    use super::{Override, Overrides};

    const MODEL: &str = "system S { const Param { N = 3; M = Param.N + 1; B = false; }
        boolean[Param.M] a; active [Param.N] thread T(int i) { loc l: do {} goto l; } }";

    fn check(overrides: &Overrides) -> Result<crate::ir::System, Vec<String>> {
        let tokens = TokenStream::from_str(MODEL).expect("tokenizes");
        crate::front_end_with(tokens, overrides)
            .map_err(|d| d.iter().map(|d| d.message.clone()).collect())
    }

    #[test]
    fn an_override_replaces_a_constant_before_anything_depends_on_it() {
        let mut overrides = Overrides::default();
        overrides.push(Override::parse("Param.N = 12").unwrap());
        overrides.push(Override::parse("Param.B=true").unwrap());
        let system = check(&overrides).unwrap();
        assert_eq!(system.threads[crate::ir::ThreadId(0)].instances(), 12);
        assert_eq!(system.globals[crate::ir::GlobalId(0)].ty.len, Some(13));
        let values: Vec<_> = system.consts.iter().map(|c| (c.value, c.is_bool)).collect();
        assert_eq!(values, [(12, false), (13, false), (1, true)]);
        assert_eq!(
            check(&Overrides::default()).unwrap().globals[crate::ir::GlobalId(0)]
                .ty
                .len,
            Some(4)
        );
    }

    #[test]
    fn an_override_of_an_unknown_constant_is_an_error() {
        let mut overrides = Overrides::default();
        overrides.set_int("Param", "K", 1);
        overrides.set_int("Size", "N", 1);
        assert_eq!(
            check(&overrides).unwrap_err(),
            [
                "cannot override `Param.K`: const block `Param` has no constant `K`",
                "cannot override `Size.N`: there is no const block `Size`",
            ]
        );
    }

    #[test]
    fn overrides_parse_block_name_and_value() {
        let parsed = Override::parse(" Param.N=-2_000 ").unwrap();
        assert_eq!(
            (parsed.block.as_str(), parsed.name.as_str()),
            ("Param", "N")
        );
        assert_eq!((parsed.value, parsed.is_bool), (-2000, false));
        assert!(Override::parse("N=3").is_err());
        assert!(Override::parse("Param.N").is_err());
        assert!(Override::parse("Param.N=x")
            .unwrap_err()
            .contains("must be an integer"));
        assert!(Override::parse("Pa ram.N=1").is_err());
        for (text, value) in [("Param.B=true", 1), ("Param.B=false", 0)] {
            let parsed = Override::parse(text).unwrap();
            assert_eq!((parsed.value, parsed.is_bool), (value, true), "{text}");
        }
    }
}
