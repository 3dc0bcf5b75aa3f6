//! Expressions: precedence climbing over the binary operators, then unary operators and
//! primaries, with the nesting depth of every node bounded by [`MAX_EXPR_DEPTH`].

use proc_macro2::{Span, TokenTree};
use syn::ext::IdentExt;
use syn::parse::ParseStream;
use syn::{bracketed, parenthesized, Ident, LitInt, Token};

use super::{end_of_group, hints, name, not_yet};
use crate::front::ast::*;
use crate::front::kw;

/// Rule: an expression nests at most this many levels deep. Each operator, parenthesis,
/// index, `? :`, `T[i]@loc` and quantifier is a level, and so is each operator of a chain
/// such as `a + b + c`, which nests to the left. Every later phase (checking, folding, code
/// generation, the interpreter) walks expressions recursively, and rustc compiles the
/// generated code recursively too: the limit keeps pathological input from overflowing the
/// compiler's stack, far above what any model needs. At the limit, the whole front end and
/// code generator of an unoptimised build stay within a test thread's 2 MB of stack (the
/// deepest form, nested quantifiers; `tests/regressions.rs` checks it).
pub const MAX_EXPR_DEPTH: usize = 128;

/// An expression and its height (a leaf has height 1), so that the parser can enforce
/// [`MAX_EXPR_DEPTH`] as the tree grows, left-nested chains included.
type Nested = (Expr, usize);

/// The error of an expression nested deeper than [`MAX_EXPR_DEPTH`], at `span`.
fn too_deep(span: Span) -> syn::Error {
    syn::Error::new(
        span,
        format!(
            "expression nested too deeply: at most {MAX_EXPR_DEPTH} levels (each operator, \
             parenthesis, index and quantifier is one); split it up, e.g. with constants or \
             more transformations"
        ),
    )
}

/// Builds a node at nesting level `depth` (the root of an expression is at level 1) whose
/// children have the given heights; errors at `span` when its leaves nest too deep.
fn node(expr: Expr, depth: usize, children: &[usize], span: Span) -> syn::Result<Nested> {
    let height = 1 + children.iter().copied().max().unwrap_or(0);
    if depth + height - 1 > MAX_EXPR_DEPTH {
        return Err(too_deep(span));
    }
    Ok((expr, height))
}

/// `expr = or [ "?" expr ":" expr ]`: one whole expression.
pub(crate) fn expr(input: ParseStream) -> syn::Result<Expr> {
    nested_expr(input, 1).map(|(expr, _)| expr)
}

/// [`expr`] at nesting level `depth`.
fn nested_expr(input: ParseStream, depth: usize) -> syn::Result<Nested> {
    let cond = binary(input, 1, depth)?;
    if !input.peek(Token![?]) {
        return Ok(cond);
    }
    conditional(input, depth, cond)
}

/// The rest of `cond "?" expr ":" expr` after `cond`, at nesting level `depth`. (A
/// function of its own to keep the frames of the recursion small, see [`primary`].)
fn conditional(
    input: ParseStream,
    depth: usize,
    (cond, cond_height): Nested,
) -> syn::Result<Nested> {
    let question = input.parse::<Token![?]>()?.span;
    let (then, then_height) = nested_expr(input, depth + 1)?;
    if input.peek(Token![:]) && input.peek2(Token![=]) {
        return Err(input.error("expected `:` of the conditional expression"));
    }
    input.parse::<Token![:]>()?;
    let (otherwise, otherwise_height) = nested_expr(input, depth + 1)?;
    node(
        Expr::Cond {
            cond: Box::new(cond),
            then: Box::new(then),
            otherwise: Box::new(otherwise),
        },
        depth,
        &[cond_height, then_height, otherwise_height],
        question,
    )
}

/// Precedence climbing over `or`, `and`, `cmp`, `add` and `mul`; comparisons do not chain.
fn binary(input: ParseStream, min_precedence: u8, depth: usize) -> syn::Result<Nested> {
    let (mut lhs, mut lhs_height) = unary(input, depth)?;
    loop {
        // No valid token after an operand is an operator of another language.
        if let Some(error) = hints::after_operand(input) {
            return Err(error);
        }
        let Some((op, op_span, width)) = peek_binop(input) else {
            break;
        };
        let precedence = op.precedence();
        if precedence < min_precedence {
            break;
        }
        for _ in 0..width {
            input.parse::<TokenTree>()?;
        }
        let (rhs, rhs_height) = binary(input, precedence + 1, depth + 1)?;
        if precedence == BinOp::Eq.precedence() {
            if let Some((next, next_span, _)) = peek_binop(input) {
                if next.precedence() == precedence {
                    return Err(syn::Error::new(
                        next_span,
                        "comparison operators cannot be chained; use `&&` or parentheses",
                    ));
                }
            }
        }
        (lhs, lhs_height) = binary_node(op, op_span, (lhs, lhs_height), (rhs, rhs_height), depth)?;
    }
    Ok((lhs, lhs_height))
}

/// `lhs op rhs` at nesting level `depth`. (A function of its own to keep the frames of the
/// recursion small, see [`primary`].)
fn binary_node(
    op: BinOp,
    op_span: Span,
    lhs: Nested,
    rhs: Nested,
    depth: usize,
) -> syn::Result<Nested> {
    node(
        Expr::Binary {
            op,
            op_span,
            lhs: Box::new(lhs.0),
            rhs: Box::new(rhs.0),
        },
        depth,
        &[lhs.1, rhs.1],
        op_span,
    )
}

/// The binary operator at the cursor, its span and how many punctuation tokens it spans.
fn peek_binop(input: ParseStream) -> Option<(BinOp, Span, usize)> {
    let two = [
        (BinOp::Or, input.peek(Token![||])),
        (BinOp::And, input.peek(Token![&&])),
        (BinOp::Eq, input.peek(Token![==])),
        (BinOp::Ne, input.peek(Token![!=])),
        (BinOp::Le, input.peek(Token![<=])),
        (BinOp::Ge, input.peek(Token![>=])),
    ];
    let span = input.span();
    if let Some((op, _)) = two.iter().find(|(_, found)| *found) {
        return Some((*op, span, 2));
    }
    let one = [
        (BinOp::Lt, input.peek(Token![<])),
        (BinOp::Gt, input.peek(Token![>])),
        (BinOp::Add, input.peek(Token![+])),
        (BinOp::Sub, input.peek(Token![-])),
        (BinOp::Mul, input.peek(Token![*])),
        (BinOp::Div, input.peek(Token![/])),
        (BinOp::Rem, input.peek(Token![%])),
    ];
    one.iter()
        .find(|(_, found)| *found)
        .map(|(op, _)| (*op, span, 1))
}

/// `unary = ("!" | "-") unary | primary`, at nesting level `depth`.
pub(super) fn unary(input: ParseStream, depth: usize) -> syn::Result<Nested> {
    // Every recursion of the expression parser passes through here: stop before the
    // parser itself nests too deep (`((((...` or `!!!!...`).
    if depth > MAX_EXPR_DEPTH {
        return Err(too_deep(input.span()));
    }
    let op = if input.peek(Token![!]) && !input.peek(Token![!=]) {
        Some(UnOp::Not)
    } else if input.peek(Token![-]) {
        Some(UnOp::Neg)
    } else {
        None
    };
    match op {
        Some(op) => {
            let span = input.parse::<TokenTree>()?.span();
            let (expr, height) = unary(input, depth + 1)?;
            node(
                Expr::Unary {
                    op,
                    span,
                    expr: Box::new(expr),
                },
                depth,
                &[height],
                span,
            )
        }
        None => primary(input, depth),
    }
}

/// `primary = INT | "true" | "false" | IDENT | IDENT "." IDENT | IDENT "[" expr "]"
///          | IDENT [ "[" expr "]" ] "@" [ IDENT "." ] IDENT | IDENT "(" [ expr { "," expr } ] ")"
///          | ("forall" | "exists") IDENT "in" cexpr ".." cexpr ":" "(" expr ")" | "(" expr ")"`,
/// at nesting level `depth`.
///
/// Each form that nests is parsed by a function of its own: unoptimised builds give every
/// local of a function its own stack slot, and the recursion passes through here.
fn primary(input: ParseStream, depth: usize) -> syn::Result<Nested> {
    if input.peek(syn::token::Paren) {
        let inner = parenthesized(input, depth)?;
        return fields(input, depth, inner);
    }
    if let Some(span) = kw::parse_if(input, "true")? {
        return Ok((Expr::Bool { value: true, span }, 1));
    }
    if let Some(span) = kw::parse_if(input, "false")? {
        return Ok((Expr::Bool { value: false, span }, 1));
    }
    if kw::peek(input, "forall") || kw::peek(input, "exists") {
        return quantifier(input, depth);
    }
    if input.peek(syn::Lit) {
        return Ok((int_literal(input)?, 1));
    }
    if input.cursor().ident().is_none() {
        return Err(input.error("expected an expression"));
    }
    if let Some((ident, _)) = input.cursor().ident() {
        let text = ident.to_string();
        if text == "null" {
            let span = ident.span();
            kw::parse(input, "null")?;
            return fields(input, depth, (Expr::Null { span }, 1));
        }
        if text == "new" {
            return Err(syn::Error::new(
                ident.span(),
                "`new R` is a statement of its own, `x := new R;`: it cannot stand inside \
                 an expression",
            ));
        }
        if text == "new" {
            return Err(not_yet(ident.span(), "`new` (records and the heap)"));
        }
        if kw::is_reserved_since_v3(&text) && !starts_block(&text) {
            return Err(input.error(format!(
                "expected an expression, found `{text}`, a reserved word since version 3 of \
                 BIR (it cannot be used as a name)"
            )));
        }
        if kw::is_reserved(&text) {
            return Err(input.error(format!("expected an expression, found keyword `{text}`")));
        }
    }
    if let Some(error) = hints::not_word(input) {
        return Err(error);
    }
    let named = named(input, depth)?;
    fields(input, depth, named)
}

/// The fields `.f.g` read after `primary` (version 3's records), each one level up; a
/// field followed by `[i]` is an element of an array field (`x.f[i]`, `a[j].f[i].g`).
fn fields(input: ParseStream, depth: usize, primary: Nested) -> syn::Result<Nested> {
    let (mut expr, mut height) = primary;
    loop {
        if input.peek(syn::token::Bracket) {
            let (base, field) = match expr {
                Expr::Member { scope, member } => (Expr::Name(scope), member),
                Expr::Field { base, field } => (*base, field),
                other => {
                    expr = other;
                    break;
                }
            };
            let first = base.spans().first;
            let content;
            let brackets = bracketed!(content in input);
            let (index, index_height) = nested_expr(&content, depth + 1)?;
            end_of_group(&content, "the index")?;
            let spans = Spans {
                first,
                last: brackets.span.close(),
            };
            (expr, height) = node(
                Expr::FieldIndex {
                    base: Box::new(base),
                    field,
                    index: Box::new(index),
                    spans,
                },
                depth,
                &[height, index_height],
                first,
            )?;
            continue;
        }
        if !(input.peek(Token![.]) && !input.peek(Token![..]) && input.peek2(syn::Ident)) {
            break;
        }
        let span = input.parse::<Token![.]>()?.span;
        let field = name(input)?;
        (expr, height) = node(
            Expr::Field {
                base: Box::new(expr),
                field,
            },
            depth,
            &[height],
            span,
        )?;
    }
    Ok((expr, height))
}

/// `"(" expr ")"`, at nesting level `depth`.
fn parenthesized(input: ParseStream, depth: usize) -> syn::Result<Nested> {
    let content;
    let parens = parenthesized!(content in input);
    let (expr, height) = nested_expr(&content, depth + 1)?;
    end_of_group(&content, "the parenthesised expression")?;
    node(
        Expr::Paren {
            expr: Box::new(expr),
            spans: Spans {
                first: parens.span.open(),
                last: parens.span.close(),
            },
        },
        depth,
        &[height],
        parens.span.open(),
    )
}

/// The version-3 keywords that start or end statements: met where an expression was
/// expected, they say "found keyword" (`if x > do`), not that they cannot be names.
fn starts_block(word: &str) -> bool {
    matches!(
        word,
        "atomic"
            | "if"
            | "elseif"
            | "else"
            | "while"
            | "choose"
            | "skip"
            | "end"
            | "try"
            | "catch"
            | "invoke"
            | "returns"
            | "throw"
    )
}

/// `IDENT | IDENT "." IDENT | IDENT "[" expr "]" | IDENT [ "[" expr "]" ] "@" [ IDENT "." ]
/// IDENT | IDENT "(" [ expr { "," expr } ] ")"`, at nesting level `depth`. A name followed by
/// `(` is a built-in (`len`, `empty`, `full`, `lockAvailable`, `hasLock`, `wasNotified`) or
/// a call of a `fun`.
fn named(input: ParseStream, depth: usize) -> syn::Result<Nested> {
    let first = name(input)?;
    if input.peek(syn::token::Paren) {
        return applied(input, depth, first);
    }
    if input.peek(Token![.]) && !input.peek(Token![..]) {
        input.parse::<Token![.]>()?;
        let member = name(input)?;
        return Ok((
            Expr::Member {
                scope: first,
                member,
            },
            1,
        ));
    }
    let mut index = None;
    let mut last = first.span;
    if input.peek(syn::token::Bracket) {
        let content;
        let brackets = bracketed!(content in input);
        index = Some(nested_expr(&content, depth + 1)?);
        end_of_group(&content, "the index")?;
        last = brackets.span.close();
    }
    let index_height = index.as_ref().map_or(0, |(_, height)| *height);
    let index = index.map(|(expr, _)| Box::new(expr));
    if input.peek(Token![@]) {
        input.parse::<Token![@]>()?;
        let mut location = name(input)?;
        let mut function = None;
        if input.peek(Token![.]) && !input.peek(Token![..]) {
            input.parse::<Token![.]>()?;
            function = Some(std::mem::replace(&mut location, name(input)?));
        }
        let span = first.span;
        return node(
            Expr::At {
                thread: first,
                index,
                function,
                location,
            },
            depth,
            &[index_height],
            span,
        );
    }
    let span = first.span;
    Ok(match index {
        Some(index) => node(
            Expr::Index {
                spans: Spans { first: span, last },
                array: first,
                index,
            },
            depth,
            &[index_height],
            span,
        )?,
        None => (Expr::Name(first), 1),
    })
}

/// `name "(" ... ")"` in an expression, at nesting level `depth`: a built-in of one operand
/// (a channel or a lock), or a call of a `fun` (each argument one level down).
fn applied(input: ParseStream, depth: usize, name: Name) -> syn::Result<Nested> {
    let content;
    let parens = parenthesized!(content in input);
    let spans = Spans {
        first: name.span,
        last: parens.span.close(),
    };
    if let Some(builtin) = Builtin::named(&name.text) {
        if content.is_empty() {
            return Err(content.error(format!(
                "expected the operand of `{}`: `{}(c)`",
                name.text, name.text
            )));
        }
        let (operand, height) = nested_expr(&content, depth + 1)?;
        if content.peek(Token![,]) {
            return Err(content.error(format!("`{}` takes one operand", name.text)));
        }
        end_of_group(&content, "the operand")?;
        let span = name.span;
        return node(
            Expr::Builtin {
                builtin,
                name,
                operand: Box::new(operand),
                spans,
            },
            depth,
            &[height],
            span,
        );
    }
    let mut args = Vec::new();
    let mut heights = Vec::new();
    while !content.is_empty() {
        let (arg, height) = nested_expr(&content, depth + 1)?;
        args.push(arg);
        heights.push(height);
        if content.is_empty() {
            break;
        }
        if !content.peek(Token![,]) {
            return Err(content.error("expected `,` between the arguments"));
        }
        content.parse::<Token![,]>()?;
        if content.is_empty() {
            return Err(content.error("expected an argument after `,`"));
        }
    }
    let span = name.span;
    node(
        Expr::Call {
            function: name,
            args,
            spans,
        },
        depth,
        &heights,
        span,
    )
}

/// A decimal integer literal without suffix, at most 2147483648.
fn int_literal(input: ParseStream) -> syn::Result<Expr> {
    let lit: syn::Lit = input.parse()?;
    let lit = match lit {
        syn::Lit::Int(lit) => lit,
        other => {
            return Err(syn::Error::new(
                other.span(),
                "expected an expression; BIR has integer and boolean values only",
            ))
        }
    };
    check_decimal(&lit)?;
    let value: u64 = lit.base10_parse()?;
    if value > 2_147_483_648 {
        return Err(syn::Error::new(
            lit.span(),
            "integer literal too large: BIR ints are 32-bit (at most 2147483648, to write -2147483648)",
        ));
    }
    Ok(Expr::Int {
        value: value as i64,
        span: lit.span(),
    })
}

/// Integer literals are decimal digits with optional `_` separators and no suffix.
fn check_decimal(lit: &LitInt) -> syn::Result<()> {
    if !lit.suffix().is_empty() {
        return Err(syn::Error::new(
            lit.span(),
            format!(
                "integer literals take no suffix; write `{}`",
                lit.base10_digits()
            ),
        ));
    }
    let text = lit.to_string();
    if !text.chars().all(|c| c.is_ascii_digit() || c == '_') {
        return Err(syn::Error::new(
            lit.span(),
            "integer literals are decimal in BIR",
        ));
    }
    Ok(())
}

/// `("forall" | "exists") IDENT "in" cexpr ".." cexpr ":" "(" expr ")"`, at nesting level
/// `depth`.
fn quantifier(input: ParseStream, depth: usize) -> syn::Result<Nested> {
    let kind = if kw::peek(input, "forall") {
        Quantifier::Forall
    } else {
        Quantifier::Exists
    };
    let keyword = Ident::parse_any(input)?.span();
    let var = name(input)?;
    kw::parse(input, "in")?;
    let (lo, lo_height) = binary(input, 1, depth + 1)?;
    if input.peek(Token![..=]) {
        return Err(input.error("a quantifier's range is half-open: write `lo .. hi`"));
    }
    input.parse::<Token![..]>()?;
    let (hi, hi_height) = binary(input, 1, depth + 1)?;
    input.parse::<Token![:]>()?;
    if !input.peek(syn::token::Paren) {
        return Err(input.error("expected `(`: the quantifier's body is written in parentheses"));
    }
    let content;
    let parens = parenthesized!(content in input);
    let (body, body_height) = nested_expr(&content, depth + 1)?;
    end_of_group(&content, "the quantifier's body")?;
    node(
        Expr::Quant {
            kind,
            keyword,
            var,
            lo: Box::new(lo),
            hi: Box::new(hi),
            body: Box::new(body),
            spans: Spans {
                first: keyword,
                last: parens.span.close(),
            },
        },
        depth,
        &[lo_height, hi_height, body_height],
        keyword,
    )
}
