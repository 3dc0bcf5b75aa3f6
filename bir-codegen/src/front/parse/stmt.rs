//! Statements: actions, jumps and the assignment operator.

use syn::ext::IdentExt;
use syn::parse::ParseStream;
use syn::{parenthesized, Ident, Token};

use super::expr::unary;
use super::{end_of_group, expr, hints, name};
use crate::front::ast::*;
use crate::front::kw;

/// `:=`, which Rust tokenizes as `:` `=`.
pub(super) fn assign_op(input: ParseStream) -> syn::Result<()> {
    if input.peek(Token![=]) && !input.peek(Token![==]) {
        return Err(input.error("BIR assigns with `:=`, not `=`"));
    }
    if !(input.peek(Token![:]) && input.peek2(Token![=])) {
        return Err(hints::assignment(input).unwrap_or_else(|| input.error("expected `:=`")));
    }
    input.parse::<Token![:]>()?;
    input.parse::<Token![=]>()?;
    Ok(())
}

/// True when the next token starts a jump.
pub(super) fn starts_jump(input: ParseStream) -> bool {
    kw::peek(input, "goto") || kw::peek(input, "return")
}

/// `jump = ( "goto" IDENT | "return" ) ";"`.
pub(super) fn jump(input: ParseStream) -> syn::Result<Jump> {
    if let Some(first) = kw::parse_if(input, "return")? {
        let semi = input.parse::<Token![;]>()?;
        return Ok(Jump::Return {
            spans: Spans {
                first,
                last: semi.span,
            },
            value: None,
        });
    }
    let first = kw::parse(input, "goto")?;
    let target = name(input)?;
    let semi = input.parse::<Token![;]>()?;
    Ok(Jump::Goto {
        spans: Spans {
            first,
            last: semi.span,
        },
        target,
    })
}

/// `action = lvalue ":=" expr ";" | "assert" "(" expr ")" ";" | "assume" "(" expr ")" ";"
///         | "start" IDENT "(" [ expr ] ")" ";" | "exit" ";"`.
pub(super) fn action(input: ParseStream) -> syn::Result<Action> {
    if kw::peek(input, "assert") || kw::peek(input, "assume") {
        let is_assert = kw::peek(input, "assert");
        let first = Ident::parse_any(input)?.span();
        if !input.peek(syn::token::Paren) {
            return Err(input.error("expected `(`: the condition is written in parentheses"));
        }
        let content;
        parenthesized!(content in input);
        let expr = expr(&content)?;
        end_of_group(&content, "the condition")?;
        let semi = input.parse::<Token![;]>()?;
        let spans = Spans {
            first,
            last: semi.span,
        };
        return Ok(if is_assert {
            Action::Assert { expr, spans }
        } else {
            Action::Assume { expr, spans }
        });
    }
    if let Some(first) = kw::parse_if(input, "start")? {
        let thread = name(input)?;
        let content;
        parenthesized!(content in input);
        let args = content.parse_terminated(expr, Token![,])?;
        let semi = input.parse::<Token![;]>()?;
        return Ok(Action::Start {
            thread,
            args: args.into_iter().collect(),
            spans: Spans {
                first,
                last: semi.span,
            },
        });
    }
    if let Some(first) = kw::parse_if(input, "exit")? {
        let semi = input.parse::<Token![;]>()?;
        return Ok(Action::Exit {
            spans: Spans {
                first,
                last: semi.span,
            },
        });
    }
    if input.cursor().ident().is_none() {
        return Err(input.error(
            "expected an action: `x := e;`, `assert (e);`, `assume (e);`, `start T(..);`, \
             `exit;`, or a jump",
        ));
    }
    if let Some(error) = hints::control_flow(input) {
        return Err(error);
    }
    let (target, _) = unary(input, 1)?;
    assign_op(input)?;
    let value = expr(input)?;
    let semi = input.parse::<Token![;]>()?;
    Ok(Action::Assign {
        spans: target.spans().to(Spans::one(semi.span)),
        target,
        value,
    })
}
