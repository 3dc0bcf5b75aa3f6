//! Top-level names, enums, constants and typealiases.

use std::collections::HashMap;

use super::expr::Scope;
use super::{Checker, Kind, Lazy, Symbol};
use crate::ast::{self, Decl, Name};
use crate::ir;

impl<'a> Checker<'a> {
    /// Rule: const blocks, enums, typealiases, globals and threads share one namespace, and
    /// no name is declared twice in it (`boolean x; int x;` is an error on the second `x`).
    pub(super) fn collect_names(&mut self) {
        let ast = self.ast;
        for decl in &ast.decls {
            let (name, symbol) = match decl {
                Decl::Const(block) => {
                    self.const_blocks.push(block);
                    (&block.name, Symbol::ConstBlock(self.const_blocks.len() - 1))
                }
                Decl::Alias(alias) => {
                    self.aliases.push(alias);
                    self.alias_types.push(Lazy::Pending);
                    (&alias.name, Symbol::Alias(self.aliases.len() - 1))
                }
                Decl::Enum(decl) => {
                    self.enum_decls.push(decl);
                    (&decl.name, Symbol::Enum(self.enum_decls.len() - 1))
                }
                Decl::Global(var) => {
                    self.global_decls.push(var);
                    (&var.name, Symbol::Global(self.global_decls.len() - 1))
                }
                Decl::Thread(thread) => {
                    self.thread_decls.push(thread);
                    (&thread.name, Symbol::Thread(self.thread_decls.len() - 1))
                }
                Decl::Invariant(_) => continue,
            };
            if let Some(previous) = self.symbols.get(&name.text) {
                self.diags.error(
                    name.spans(),
                    format!(
                        "duplicate name `{}`: already declared as {}",
                        name.text,
                        previous.describe()
                    ),
                );
            } else {
                self.symbols.insert(name.text.clone(), symbol);
            }
        }
    }

    /// Rule: an enum's values are distinct (`enum E { A, A }` is an error on the second `A`).
    pub(super) fn check_enums(&mut self) {
        for decl in self.enum_decls.clone() {
            let mut seen = HashMap::new();
            let mut variants = Vec::new();
            for variant in &decl.variants {
                if seen.insert(variant.text.clone(), ()).is_some() {
                    self.diags.error(
                        variant.spans(),
                        format!(
                            "duplicate value `{}` in enum `{}`",
                            variant.text, decl.name.text
                        ),
                    );
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
        for (block_id, block) in self.const_blocks.clone().into_iter().enumerate() {
            let mut seen = HashMap::new();
            for (entry_id, entry) in block.entries.iter().enumerate() {
                if seen.insert(entry.name.text.clone(), ()).is_some() {
                    self.diags.error(
                        entry.name.spans(),
                        format!(
                            "duplicate constant `{}` in const block `{}`",
                            entry.name.text, block.name.text
                        ),
                    );
                    continue;
                }
                self.const_value(block_id, entry_id, &entry.name);
            }
        }
    }

    /// The value of constant `entry` of `block`, evaluating it on first use. `reference`
    /// is where it is used, for the cycle error.
    pub(super) fn const_value(
        &mut self,
        block: usize,
        entry: usize,
        reference: &Name,
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
                    reference.spans(),
                    format!(
                        "cyclic constant: `{}.{}` depends on itself",
                        decl.name.text, decl.entries[entry].name.text
                    ),
                );
                self.consts.insert((block, entry), Lazy::Done(None));
                None
            }
            Lazy::Pending => {
                self.consts.insert((block, entry), Lazy::InProgress);
                let decl: &'a ast::ConstBlock = self.const_blocks[block];
                let expr = &decl.entries[entry].value;
                let value = self.constant(expr, &Scope::constant("a constant's value"));
                let value = match value {
                    Some((_, Kind::Enum(_))) => {
                        self.diags.error(
                            expr.spans(),
                            "a constant is an int or a boolean, not an enum value",
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
    pub(super) fn const_member(&mut self, block: usize, member: &Name) -> Option<(i64, Kind)> {
        let decl = self.const_blocks[block];
        match decl
            .entries
            .iter()
            .position(|entry| entry.name.text == member.text)
        {
            Some(entry) => self.const_value(block, entry, member),
            None => {
                self.diags.error(
                    member.spans(),
                    format!(
                        "unknown constant `{}` in const block `{}`",
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
                self.alias_types[alias] = Lazy::InProgress;
                let decl: &'a ast::Alias = self.aliases[alias];
                let scalar = match &decl.ty.len {
                    Some(len) => {
                        self.diags.error(
                            len.spans(),
                            "a typealias names a scalar type; declare arrays as `Alias[n] name`",
                        );
                        None
                    }
                    None => self.scalar_type(&decl.ty.base),
                };
                if !matches!(self.alias_types[alias], Lazy::Done(None)) {
                    self.alias_types[alias] = Lazy::Done(scalar);
                }
                scalar
            }
        }
    }
}
