//! LTL formulas (LANGUAGE.md, "Properties (version 2)"):
//!
//! ```ebnf
//! formula   = f_equiv ;
//! f_equiv   = f_impl [ "<->" f_impl ] ;
//! f_impl    = f_or [ "->" f_impl ] ;                   (* right-associative *)
//! f_or      = f_and { "||" f_and } ;
//! f_and     = f_until { "&&" f_until } ;
//! f_until   = f_unary [ ("U" | "W" | "R") f_until ] ;  (* right-associative *)
//! f_unary   = ("!" | "[]" | "<>" | "X") f_unary | "(" formula ")" | cmp ;
//! ```
//!
//! Rust's tokenizer delivers `[]` as an empty bracket group, `<>` as `<` `>`, `->` and
//! `<->` as punctuation (with or without inner spaces), and `U W R X` as identifiers. So a
//! formula is first cut into its operators and the runs of tokens between them, and each run
//! is parsed as a BIR expression. A parenthesised group is a formula when it holds a
//! temporal operator (`[] <> X U W R -> <->`), and an ordinary part of an expression
//! otherwise; inside a formula `U W R X` are always operators, `!` is one where an operand
//! starts, and `&&`, `||` join formulas.

use proc_macro2::{Delimiter, Span, TokenStream, TokenTree};
use syn::parse::{ParseStream, Parser as _};

use super::expr::expr;
use super::MAX_EXPR_DEPTH;
use crate::front::ast::{Formula, FormulaOp};

/// One item of a formula: an operator, a parenthesised formula, or a run of tokens that
/// form a state predicate.
enum Item {
    Op(FormulaOp, Span),
    Group(Vec<TokenTree>, Span),
    Predicate(Vec<TokenTree>),
}

/// Parses a formula up to (not including) the `;` that ends the declaration.
pub(crate) fn formula(input: ParseStream) -> syn::Result<Formula> {
    let mut tokens = Vec::new();
    while !input.is_empty() && !input.peek(syn::Token![;]) {
        tokens.push(input.parse::<TokenTree>()?);
    }
    let span = tokens.first().map_or_else(|| input.span(), TokenTree::span);
    if tokens.is_empty() {
        return Err(syn::Error::new(
            input.span(),
            "empty formula: an `ltl` property needs a formula, e.g. `[]<>(x == 1)`",
        ));
    }
    let items = items(&tokens)?;
    let mut parser = FormulaParser {
        items,
        position: 0,
        end: span,
    };
    let formula = parser.equiv(1)?;
    parser.done()?;
    Ok(formula)
}

/// Cuts tokens into operators, formula groups and predicate runs.
fn items(tokens: &[TokenTree]) -> syn::Result<Vec<Item>> {
    let mut items = Vec::new();
    let mut run: Vec<TokenTree> = Vec::new();
    let flush = |run: &mut Vec<TokenTree>, items: &mut Vec<Item>| {
        if !run.is_empty() {
            items.push(Item::Predicate(std::mem::take(run)));
        }
    };
    let mut i = 0;
    while i < tokens.len() {
        let (op, width) = operator(&tokens[i..], run.is_empty());
        if let Some(op) = op {
            flush(&mut run, &mut items);
            items.push(Item::Op(op, tokens[i].span()));
            i += width;
            continue;
        }
        match &tokens[i] {
            // After a `:` (a quantifier's body, or the else-branch of `?:`) a group is part
            // of the state predicate: no temporal operator may stand in it.
            TokenTree::Group(group)
                if group.delimiter() == Delimiter::Parenthesis && ends_with_colon(&run) =>
            {
                if let Some((op, span)) = first_temporal(&group.stream()) {
                    return Err(syn::Error::new(
                        span,
                        format!(
                            "`{}` inside a state predicate: a quantifier's body (or a branch of \
                             `?:`) holds no temporal operator{}",
                            op.text(),
                            word_hint(op)
                        ),
                    ));
                }
                run.push(tokens[i].clone());
            }
            TokenTree::Group(group)
                if group.delimiter() == Delimiter::Parenthesis
                    && (group.stream().is_empty() || is_temporal(&group.stream())) =>
            {
                flush(&mut run, &mut items);
                items.push(Item::Group(
                    group.stream().into_iter().collect(),
                    group.span(),
                ));
            }
            other => run.push(other.clone()),
        }
        i += 1;
    }
    flush(&mut run, &mut items);
    Ok(items)
}

/// The formula operator the tokens start with, and how many tokens it takes. `!` is one
/// only where an operand starts (`x == !y` keeps it for the expression).
fn operator(tokens: &[TokenTree], operand_starts: bool) -> (Option<FormulaOp>, usize) {
    let punct = |i: usize| match tokens.get(i) {
        Some(TokenTree::Punct(p)) => Some(p.as_char()),
        _ => None,
    };
    match &tokens[0] {
        TokenTree::Group(group)
            if group.delimiter() == Delimiter::Bracket && group.stream().is_empty() =>
        {
            (Some(FormulaOp::Always), 1)
        }
        TokenTree::Ident(ident) => match ident.to_string().as_str() {
            "U" => (Some(FormulaOp::Until), 1),
            "W" => (Some(FormulaOp::WeakUntil), 1),
            "R" => (Some(FormulaOp::Release), 1),
            "X" => (Some(FormulaOp::Next), 1),
            _ => (None, 1),
        },
        TokenTree::Punct(_) => match (punct(0), punct(1), punct(2)) {
            (Some('<'), Some('-'), Some('>')) => (Some(FormulaOp::Equiv), 3),
            (Some('<'), Some('>'), _) => (Some(FormulaOp::Eventually), 2),
            (Some('-'), Some('>'), _) => (Some(FormulaOp::Implies), 2),
            (Some('&'), Some('&'), _) => (Some(FormulaOp::And), 2),
            (Some('|'), Some('|'), _) => (Some(FormulaOp::Or), 2),
            (Some('!'), next, _) if operand_starts && next != Some('=') => {
                (Some(FormulaOp::Not), 1)
            }
            _ => (None, 1),
        },
        _ => (None, 1),
    }
}

/// True when a group's tokens hold a temporal operator (or `->`, `<->`), at any depth.
fn is_temporal(stream: &TokenStream) -> bool {
    first_temporal(stream).is_some()
}

/// The first temporal operator (or `->`, `<->`) of a group's tokens, at any depth, and
/// where it stands.
fn first_temporal(stream: &TokenStream) -> Option<(FormulaOp, Span)> {
    let tokens: Vec<TokenTree> = stream.clone().into_iter().collect();
    (0..tokens.len()).find_map(|i| {
        let (op, _) = operator(&tokens[i..], false);
        match op {
            Some(op) if !matches!(op, FormulaOp::And | FormulaOp::Or | FormulaOp::Not) => {
                Some((op, tokens[i].span()))
            }
            _ => match &tokens[i] {
                TokenTree::Group(group) => first_temporal(&group.stream()),
                _ => None,
            },
        }
    })
}

/// True when the tokens end with a `:`, after which a group belongs to the predicate.
fn ends_with_colon(run: &[TokenTree]) -> bool {
    matches!(run.last(), Some(TokenTree::Punct(p)) if p.as_char() == ':')
}

/// For an operator written as a word (`U W R X`): that a variable or thread of that name
/// cannot be meant, since inside a formula the word is always the operator.
fn word_hint(op: FormulaOp) -> String {
    if !op.is_word() {
        return String::new();
    }
    let meaning = match op {
        FormulaOp::Until => "until",
        FormulaOp::WeakUntil => "weak until",
        FormulaOp::Release => "release",
        _ => "next",
    };
    format!(
        " (inside a formula `{}` is always the `{meaning}` operator: a variable or thread \
         named `{}` cannot be referred to there; rename it)",
        op.text(),
        op.text()
    )
}

/// A recursive-descent parser over the items of one formula (or parenthesised group).
struct FormulaParser {
    items: Vec<Item>,
    position: usize,
    /// Where the formula ends, for errors about a missing operand at the end.
    end: Span,
}

impl FormulaParser {
    fn peek_op(&self) -> Option<(FormulaOp, Span)> {
        match self.items.get(self.position) {
            Some(&Item::Op(op, span)) => Some((op, span)),
            _ => None,
        }
    }

    fn done(&self) -> syn::Result<()> {
        match self.items.get(self.position) {
            None => Ok(()),
            Some(Item::Op(op, span)) => Err(syn::Error::new(
                *span,
                format!("unexpected `{}` in the formula", op.text()),
            )),
            Some(Item::Group(_, span)) => Err(syn::Error::new(
                *span,
                "a formula is missing an operator before this group",
            )),
            Some(Item::Predicate(tokens)) => Err(syn::Error::new(
                tokens[0].span(),
                "a formula is missing an operator before this predicate",
            )),
        }
    }

    fn too_deep(&self, depth: usize, span: Span) -> syn::Result<()> {
        if depth > MAX_EXPR_DEPTH {
            return Err(syn::Error::new(
                span,
                format!("formula nested too deeply: at most {MAX_EXPR_DEPTH} levels"),
            ));
        }
        Ok(())
    }

    fn binary(op: FormulaOp, span: Span, left: Formula, right: Formula) -> Formula {
        Formula::Binary {
            op,
            span,
            left: Box::new(left),
            right: Box::new(right),
        }
    }

    /// `f_equiv = f_impl [ "<->" f_impl ]`.
    fn equiv(&mut self, depth: usize) -> syn::Result<Formula> {
        let left = self.implies(depth)?;
        match self.peek_op() {
            Some((FormulaOp::Equiv, span)) => {
                self.position += 1;
                let right = self.implies(depth + 1)?;
                Ok(Self::binary(FormulaOp::Equiv, span, left, right))
            }
            _ => Ok(left),
        }
    }

    /// `f_impl = f_or [ "->" f_impl ]`.
    fn implies(&mut self, depth: usize) -> syn::Result<Formula> {
        let left = self.or(depth)?;
        match self.peek_op() {
            Some((FormulaOp::Implies, span)) => {
                self.too_deep(depth, span)?;
                self.position += 1;
                let right = self.implies(depth + 1)?;
                Ok(Self::binary(FormulaOp::Implies, span, left, right))
            }
            _ => Ok(left),
        }
    }

    /// `f_or = f_and { "||" f_and }`.
    fn or(&mut self, depth: usize) -> syn::Result<Formula> {
        let mut left = self.and(depth)?;
        let mut level = depth;
        while let Some((FormulaOp::Or, span)) = self.peek_op() {
            level += 1;
            self.too_deep(level, span)?;
            self.position += 1;
            let right = self.and(depth + 1)?;
            left = Self::binary(FormulaOp::Or, span, left, right);
        }
        Ok(left)
    }

    /// `f_and = f_until { "&&" f_until }`.
    fn and(&mut self, depth: usize) -> syn::Result<Formula> {
        let mut left = self.until(depth)?;
        let mut level = depth;
        while let Some((FormulaOp::And, span)) = self.peek_op() {
            level += 1;
            self.too_deep(level, span)?;
            self.position += 1;
            let right = self.until(depth + 1)?;
            left = Self::binary(FormulaOp::And, span, left, right);
        }
        Ok(left)
    }

    /// `f_until = f_unary [ ("U" | "W" | "R") f_until ]`.
    fn until(&mut self, depth: usize) -> syn::Result<Formula> {
        let left = self.unary(depth)?;
        match self.peek_op() {
            Some((op @ (FormulaOp::Until | FormulaOp::WeakUntil | FormulaOp::Release), span)) => {
                self.too_deep(depth, span)?;
                self.position += 1;
                let right = self.until(depth + 1)?;
                Ok(Self::binary(op, span, left, right))
            }
            _ => Ok(left),
        }
    }

    /// `f_unary = ("!" | "[]" | "<>" | "X") f_unary | "(" formula ")" | cmp`.
    fn unary(&mut self, depth: usize) -> syn::Result<Formula> {
        let position = self.position;
        self.position += 1;
        match self.items.get(position) {
            None => {
                let after = match position.checked_sub(1).and_then(|p| self.items.get(p)) {
                    Some(Item::Op(op, span)) => Some((*op, *span)),
                    _ => None,
                };
                Err(match after {
                    Some((op, span)) => syn::Error::new(
                        span,
                        format!("`{}` is missing its operand{}", op.text(), word_hint(op)),
                    ),
                    None => syn::Error::new(self.end, "the formula is missing an operand"),
                })
            }
            Some(&Item::Op(
                op @ (FormulaOp::Not | FormulaOp::Always | FormulaOp::Eventually | FormulaOp::Next),
                span,
            )) => {
                self.too_deep(depth, span)?;
                let operand = self.unary(depth + 1)?;
                Ok(Formula::Unary {
                    op,
                    span,
                    operand: Box::new(operand),
                })
            }
            Some(&Item::Op(op, span)) => Err(syn::Error::new(
                span,
                format!(
                    "`{}` is missing its left operand{}",
                    op.text(),
                    word_hint(op)
                ),
            )),
            Some(Item::Group(tokens, span)) => {
                let span = *span;
                self.too_deep(depth, span)?;
                if tokens.is_empty() {
                    return Err(syn::Error::new(span, "empty formula in parentheses"));
                }
                let mut inner = FormulaParser {
                    items: items(tokens)?,
                    position: 0,
                    end: span,
                };
                let formula = inner.equiv(depth + 1)?;
                inner.done()?;
                Ok(formula)
            }
            Some(Item::Predicate(tokens)) => {
                let stream: TokenStream = tokens.iter().cloned().collect();
                let parsed = (|input: ParseStream| {
                    let parsed = expr(input)?;
                    if !input.is_empty() {
                        return Err(input.error(
                            "unexpected token in a state predicate (an LTL formula joins \
                             predicates with `&& || ! -> <->` and the temporal operators \
                             `[] <> X U W R`)",
                        ));
                    }
                    Ok(parsed)
                })
                .parse2(stream)?;
                Ok(Formula::Atom(parsed))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::quote;

    fn parse(tokens: TokenStream) -> syn::Result<Formula> {
        formula.parse2(tokens)
    }

    fn text(tokens: TokenStream) -> String {
        match parse(tokens) {
            Ok(formula) => formula.to_string(),
            Err(error) => format!("error: {error}"),
        }
    }

    #[test]
    fn operators_bind_as_the_grammar_says() {
        assert_eq!(text(quote!([]<>(incs == 1))), "[]<>(incs == 1)");
        assert_eq!(text(quote!([] <> p)), "[]<>p");
        assert_eq!(text(quote!(< > p)), "<>p");
        assert_eq!(
            text(quote!([](P[0]@waiting -> <>P[0]@critical))),
            "[](P[0]@waiting -> <>P[0]@critical)"
        );
        assert_eq!(text(quote!(a -> b -> c)), "(a -> (b -> c))");
        assert_eq!(text(quote!(a - > b)), "(a -> b)");
        assert_eq!(text(quote!(a <-> b)), "(a <-> b)");
        assert_eq!(text(quote!(a < - > b)), "(a <-> b)");
        assert_eq!(text(quote!(a U b U c)), "(a U (b U c))");
        assert_eq!(text(quote!(a && b U c || d)), "((a && (b U c)) || d)");
        assert_eq!(text(quote!(!a W X b)), "(!a W X b)");
        assert_eq!(
            text(quote!(x == !y && !(z == 1))),
            "((x == !y) && !(z == 1))"
        );
    }

    #[test]
    fn parenthesised_expressions_stay_expressions() {
        // No temporal operator inside: an ordinary BIR expression.
        assert_eq!(
            text(quote!([]<>((P[0]@critical ? 1 : 0) + (P[1]@critical ? 1 : 0) == 1))),
            "[]<>((P[0]@critical ? 1 : 0) + (P[1]@critical ? 1 : 0) == 1)"
        );
        assert_eq!(
            text(quote!([](x + 1 > y -> <>(x == y)))),
            "[]((x + 1 > y) -> <>(x == y))"
        );
        assert_eq!(
            text(quote!([]<>(exists i in 0 .. Param.N : (Philosopher[i]@putRight)))),
            "[]<>(exists i in 0 .. Param.N : (Philosopher[i]@putRight))"
        );
    }

    #[test]
    fn malformed_formulas_say_what_is_missing() {
        for (tokens, message) in [
            (quote!([]), "`[]` is missing its operand"),
            (quote!(p U), "`U` is missing its operand"),
            (quote!(U p), "`U` is missing its left operand"),
            (quote!(p q), "unexpected token in a state predicate"),
            (quote!(p (q U r)), "missing an operator before this group"),
            (quote!(()), "empty formula in parentheses"),
            (quote!(p && &&q), "`&&` is missing its left operand"),
            (
                quote!(exists i in 0 .. 2 : (U[i]@m0)),
                "`U` inside a state predicate: a quantifier's body",
            ),
            (
                quote!(forall i in 0 .. 2 : (p -> <>q)),
                "`->` inside a state predicate",
            ),
        ] {
            let error = text(tokens.clone());
            assert!(error.contains(message), "{tokens}: {error}");
        }
        assert!(text(quote!()).contains("empty formula"));
    }
}
