//! The atoms of an invariant, for vacuity: its atomic boolean sub-formulas (comparisons,
//! boolean variables, `T@loc`, in the bodies of quantifiers too), each checked again on its
//! own as two predicates: "holds for some value of the enclosing quantifiers" and "fails
//! for some". A search that finds one of them false in every reachable state shows the
//! atom constant: the invariant holds vacuously there (`Proc[0]@cs` is never true).
//!
//! An atom the invariant forces (a conjunct of the top level, under `forall`s, through
//! negations) is left out: the invariant holding already says it is constant.

use super::expr::Scope;
use super::{Checker, Kind};
use crate::front::ast::{self, BinOp, Quantifier, UnOp};
use crate::ir;

/// An atom found, with the quantifiers around it (innermost last).
struct Found<'e> {
    atom: &'e ast::Expr,
    quantifiers: Vec<&'e ast::Expr>,
}

/// Collects the atoms of `expr`, a boolean in a position where the invariant forces its
/// value (`forced`, the value forced being `positive`) or not.
fn collect<'e>(
    expr: &'e ast::Expr,
    positive: bool,
    forced: bool,
    quantifiers: &mut Vec<&'e ast::Expr>,
    out: &mut Vec<Found<'e>>,
) {
    match expr {
        ast::Expr::Bool { .. } | ast::Expr::Member { .. } => {}
        ast::Expr::Paren { expr, .. } => collect(expr, positive, forced, quantifiers, out),
        ast::Expr::Unary {
            op: UnOp::Not,
            expr,
            ..
        } => collect(expr, !positive, forced, quantifiers, out),
        ast::Expr::Binary {
            op: op @ (BinOp::And | BinOp::Or),
            lhs,
            rhs,
            ..
        } => {
            // `a && b` forces both when it is forced true; `a || b` when forced false.
            let keeps = forced && ((*op == BinOp::And) == positive);
            collect(lhs, positive, keeps, quantifiers, out);
            collect(rhs, positive, keeps, quantifiers, out);
        }
        ast::Expr::Quant { kind, body, .. } => {
            let keeps = forced && ((*kind == Quantifier::Forall) == positive);
            quantifiers.push(expr);
            collect(body, positive, keeps, quantifiers, out);
            quantifiers.pop();
        }
        ast::Expr::Cond {
            cond,
            then,
            otherwise,
        } => {
            collect(cond, true, false, quantifiers, out);
            collect(then, positive, false, quantifiers, out);
            collect(otherwise, positive, false, quantifiers, out);
        }
        atom if !forced => out.push(Found {
            atom,
            quantifiers: quantifiers.clone(),
        }),
        _ => {}
    }
}

/// `exists v in lo .. hi : (body)` for each of `quantifiers`, innermost first.
fn for_some(body: ast::Expr, quantifiers: &[&ast::Expr]) -> ast::Expr {
    quantifiers.iter().rev().fold(body, |body, q| match q {
        ast::Expr::Quant {
            keyword,
            var,
            lo,
            hi,
            spans,
            ..
        } => ast::Expr::Quant {
            kind: Quantifier::Exists,
            keyword: *keyword,
            var: var.clone(),
            lo: lo.clone(),
            hi: hi.clone(),
            body: Box::new(body),
            spans: *spans,
        },
        _ => body,
    })
}

impl Checker<'_> {
    /// The atoms of the invariant `expr` (already checked without error).
    pub(super) fn invariant_atoms(&mut self, expr: &ast::Expr) -> Vec<ir::InvariantAtom> {
        let mut found = Vec::new();
        collect(expr, true, true, &mut Vec::new(), &mut found);
        let mut atoms = Vec::new();
        for Found { atom, quantifiers } in found {
            let spans = atom.spans();
            let negated = ast::Expr::Unary {
                op: UnOp::Not,
                span: spans.first,
                expr: Box::new(ast::Expr::Paren {
                    expr: Box::new(atom.clone()),
                    spans,
                }),
            };
            let holds = for_some(atom.clone(), &quantifiers);
            let fails = for_some(negated, &quantifiers);
            let context = "an invariant";
            let holds = self.expr_of(&holds, &mut Scope::runtime(None), Kind::Bool, context);
            let fails = self.expr_of(&fails, &mut Scope::runtime(None), Kind::Bool, context);
            if holds.constant().is_some() {
                continue;
            }
            atoms.push(ir::InvariantAtom {
                text: atom.to_string(),
                holds,
                fails,
            });
        }
        atoms
    }
}
