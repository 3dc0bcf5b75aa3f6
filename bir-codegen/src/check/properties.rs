//! LTL properties and reachability checks (LANGUAGE.md, "Properties (version 2)") and
//! heuristics (version 3): their names share one namespace with the invariants; their
//! predicates are boolean expressions over globals, constants, `T@loc` and quantifiers, as
//! an invariant's are, and a heuristic's value an int expression over the same; a formula
//! is translated here into the Büchi automaton of its negation (`crate::ltl`).

use std::collections::HashMap;

use super::expr::Scope;
use super::{line_of, Checker, Kind};
use crate::front::ast::{self, Formula, FormulaOp};
use crate::ir;
use crate::ltl;

/// The predicates of a formula so far, with their text (one proposition per text).
#[derive(Default)]
struct Atoms {
    exprs: Vec<ir::Expr>,
    texts: Vec<String>,
}

impl<'a> Checker<'a> {
    /// Rule: invariants, `ltl` properties, `reachable` checks and heuristics have distinct
    /// names; every predicate is boolean and reads no local, and so is a heuristic's value,
    /// an int; a formula's automaton stays within
    /// [`ltl::MAX_STATES`]. (Inside a formula `U W R X` are always operators: the parser
    /// says so where one stands for a variable.)
    pub(super) fn check_properties(&mut self) {
        let ast = self.ast;
        // The first invariant of each name (a later one is reported by `check_invariants`).
        let mut names: HashMap<String, ast::Spans> = HashMap::new();
        for decl in &ast.decls {
            if let ast::Decl::Invariant(invariant) = decl {
                names
                    .entry(invariant.name.text.clone())
                    .or_insert(invariant.name.spans());
            }
        }
        for decl in &ast.decls {
            let (name, keyword) = match decl {
                ast::Decl::Ltl(ltl) => (&ltl.name, ltl.keyword),
                ast::Decl::Reachable(check) | ast::Decl::Heuristic(check) => {
                    (&check.name, check.keyword)
                }
                _ => continue,
            };
            if let Some(&first) = names.get(&name.text) {
                self.diags.duplicate(
                    name.spans(),
                    format!(
                        "duplicate property `{}`: invariants, `ltl` properties, \
                         `reachable` checks and heuristics share one namespace",
                        name.text
                    ),
                    &name.text,
                    first,
                );
            } else {
                names.insert(name.text.clone(), name.spans());
            }
            let property = match decl {
                ast::Decl::Ltl(ltl) => self.ltl(ltl),
                ast::Decl::Reachable(check) => {
                    let atom = self.predicate(&check.expr, "a `reachable` check");
                    Some(ir::Property {
                        name: name.text.clone(),
                        text: check.expr.to_string(),
                        line: line_of(keyword),
                        atoms: vec![atom],
                        atom_texts: vec![check.expr.to_string()],
                        automaton: None,
                        formula: None,
                        next_free: true,
                    })
                }
                ast::Decl::Heuristic(heuristic) => {
                    let value = self.expr_of(
                        &heuristic.expr,
                        &mut Scope::heuristic(),
                        Kind::Int,
                        "a heuristic",
                    );
                    self.heuristics.push(ir::Heuristic {
                        name: name.text.clone(),
                        text: heuristic.expr.to_string(),
                        line: line_of(keyword),
                        value,
                    });
                    None
                }
                _ => None,
            };
            self.properties.extend(property);
        }
    }

    /// A state predicate of a property.
    fn predicate(&mut self, expr: &ast::Expr, context: &str) -> ir::Expr {
        self.expr_of(expr, &mut Scope::property(), Kind::Bool, context)
    }

    /// An `ltl` property: its predicates checked, its formula translated.
    fn ltl(&mut self, ltl: &ast::Ltl) -> Option<ir::Property> {
        let mut atoms = Atoms::default();
        let formula = self.formula(&ltl.formula, &mut atoms);
        let next_free = !formula.has_next();
        let automaton = match ltl::violations(&formula) {
            Ok(automaton) => Some(automaton),
            Err(ltl::TranslateError::TooLarge) => {
                self.diags.error(
                    ltl.name.spans(),
                    format!(
                        "the formula of `{}` is too large to translate: its automaton would \
                         pass {} states; split it into several properties",
                        ltl.name.text,
                        ltl::MAX_STATES
                    ),
                );
                None
            }
        };
        Some(ir::Property {
            name: ltl.name.text.clone(),
            text: ltl.formula.to_string(),
            line: line_of(ltl.keyword),
            atoms: atoms.exprs,
            atom_texts: atoms.texts,
            automaton,
            formula: Some(formula),
            next_free,
        })
    }

    /// The formula over proposition numbers, its predicates appended to `atoms` (a
    /// predicate written twice is one proposition).
    fn formula(&mut self, formula: &Formula, atoms: &mut Atoms) -> ltl::Formula {
        match formula {
            Formula::Atom(expr) => {
                let text = expr.to_string();
                let number = match atoms.texts.iter().position(|t| *t == text) {
                    Some(number) => number,
                    None => {
                        let atom = self.predicate(expr, "an LTL formula");
                        atoms.exprs.push(atom);
                        atoms.texts.push(text);
                        atoms.exprs.len() - 1
                    }
                };
                ltl::Formula::Atom(number as u32)
            }
            Formula::Unary { op, operand, .. } => {
                let operand = Box::new(self.formula(operand, atoms));
                match op {
                    FormulaOp::Always => ltl::Formula::Always(operand),
                    FormulaOp::Eventually => ltl::Formula::Eventually(operand),
                    FormulaOp::Next => ltl::Formula::Next(operand),
                    _ => ltl::Formula::Not(operand),
                }
            }
            Formula::Binary {
                op, left, right, ..
            } => {
                let left = Box::new(self.formula(left, atoms));
                let right = Box::new(self.formula(right, atoms));
                match op {
                    FormulaOp::And => ltl::Formula::And(left, right),
                    FormulaOp::Or => ltl::Formula::Or(left, right),
                    FormulaOp::Implies => ltl::Formula::Implies(left, right),
                    FormulaOp::Equiv => ltl::Formula::Equiv(left, right),
                    FormulaOp::Until => ltl::Formula::Until(left, right),
                    FormulaOp::WeakUntil => ltl::Formula::WeakUntil(left, right),
                    _ => ltl::Formula::Release(left, right),
                }
            }
        }
    }
}
