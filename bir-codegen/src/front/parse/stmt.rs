//! Actions, jumps and calls: the simple statements that low-level blocks and high-level
//! bodies share, and the assignment operator.

use proc_macro2::Delimiter;
use syn::ext::IdentExt;
use syn::parse::ParseStream;
use syn::{bracketed, parenthesized, Ident, Token};

use super::expr::unary;
use super::hints::{self, Place};
use super::{end_of_group, expr, name};
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

/// `jump = "goto" IDENT ";" | "return" [ expr ] ";"` (a value is returned by a function).
pub(super) fn jump(input: ParseStream) -> syn::Result<Jump> {
    let mut jump = unterminated_jump(input)?;
    let semi = input.parse::<Token![;]>()?;
    match &mut jump {
        Jump::Goto { spans, .. } | Jump::Return { spans, .. } => spans.last = semi.span,
    }
    Ok(jump)
}

/// A jump without its `;` (its spans end before it).
pub(super) fn unterminated_jump(input: ParseStream) -> syn::Result<Jump> {
    if let Some(first) = kw::parse_if(input, "return")? {
        let value = if starts_expr(input) {
            Some(expr(input)?)
        } else {
            None
        };
        let last = value.as_ref().map_or(first, |value| value.spans().last);
        return Ok(Jump::Return {
            spans: Spans { first, last },
            value,
            end: false,
        });
    }
    let first = kw::parse(input, "goto")?;
    let target = name(input)?;
    Ok(Jump::Goto {
        spans: Spans {
            first,
            last: target.span,
        },
        target,
    })
}

/// True when the next token can start an expression (not `;`, not a keyword that starts
/// what follows a statement).
fn starts_expr(input: ParseStream) -> bool {
    if let Some((ident, _)) = input.cursor().ident() {
        let text = ident.to_string();
        return !kw::is_reserved(&text)
            || matches!(
                text.as_str(),
                "true" | "false" | "forall" | "exists" | "null"
            );
    }
    input.peek(syn::Lit)
        || input.peek(syn::token::Paren)
        || (input.peek(Token![!]) && !input.peek(Token![!=]))
        || input.peek(Token![-])
}

/// `action = lvalue ":=" expr ";" | "assert" "(" expr ")" ";" | "assume" "(" expr ")" ";"
///         | "start" IDENT "(" [ expr ] ")" ";" | "exit" ";" | comm | lock_action`, in a
/// transformation's braces (`place` [`Place::Action`]).
pub(super) fn action(input: ParseStream, place: Place) -> syn::Result<Action> {
    let mut action = unterminated_action(input, place)?;
    let semi = input.parse::<Token![;]>()?;
    action_spans(&mut action).last = semi.span;
    Ok(action)
}

/// The spans of an action, to extend.
pub(super) fn action_spans(action: &mut Action) -> &mut Spans {
    match action {
        Action::Assign { spans, .. }
        | Action::Assert { spans, .. }
        | Action::Assume { spans, .. }
        | Action::Start { spans, .. }
        | Action::Exit { spans }
        | Action::Throw { spans, .. }
        | Action::Send { spans, .. }
        | Action::Receive { spans, .. }
        | Action::New { spans, .. }
        | Action::Lock { spans, .. } => spans,
    }
}

/// An action without its `;` (its spans end before it), in a transformation's braces or
/// (`place` [`Place::Statement`]) as a statement of a high-level body, whose caller has
/// taken the calls and the other statements first.
pub(super) fn unterminated_action(input: ParseStream, place: Place) -> syn::Result<Action> {
    if kw::peek(input, "assert") || kw::peek(input, "assume") {
        let is_assert = kw::peek(input, "assert");
        let first = Ident::parse_any(input)?.span();
        if !input.peek(syn::token::Paren) {
            return Err(input.error("expected `(`: the condition is written in parentheses"));
        }
        let content;
        let parens = parenthesized!(content in input);
        let expr = expr(&content)?;
        end_of_group(&content, "the condition")?;
        let spans = Spans {
            first,
            last: parens.span.close(),
        };
        return Ok(if is_assert {
            Action::Assert { expr, spans }
        } else {
            Action::Assume { expr, spans }
        });
    }
    if kw::peek(input, "start") {
        return start(input, None);
    }
    if let Some(first) = kw::parse_if(input, "exit")? {
        return Ok(Action::Exit {
            spans: Spans::one(first),
        });
    }
    if let Some(first) = kw::parse_if(input, "throw")? {
        if input.is_empty() || input.peek(Token![;]) {
            return Err(input.error("expected the exception after `throw`: `throw e;`"));
        }
        let value = expr(input)?;
        return Ok(Action::Throw {
            spans: Spans {
                first,
                last: value.spans().last,
            },
            value,
        });
    }
    if let Some(op) = lock_action(input) {
        return lock_op(input, op);
    }
    if kw::peek(input, "lock") {
        let message = "expected `(`: a lock action names its lock in parentheses, `lock(m);`";
        let fork = input.fork();
        kw::parse(&fork, "lock")?;
        return Err(fork.error(message));
    }
    if input.cursor().ident().is_none() {
        return Err(input.error(
            "expected an action: `x := e;`, `assert (e);`, `assume (e);`, `start T(..);`, \
             `exit;`, a send `c!(..);`, a receive `c?(..);`, a lock action, or a jump",
        ));
    }
    if let Some(error) = hints::control_flow(input, place) {
        return Err(error);
    }
    if let Some(error) = reserved_target(input) {
        return Err(error);
    }
    if place == Place::Action {
        if let Some(error) = statement_in_block(input) {
            return Err(error);
        }
    }
    if let Some(send) = comm(input) {
        return self::comm_action(input, send);
    }
    if let Some(error) = misplaced_call(input, place) {
        return Err(error);
    }
    let (target, _) = unary(input, 1)?;
    assign_op(input)?;
    if kw::peek(input, "start") {
        return start(input, Some(target));
    }
    if kw::peek(input, "new") {
        kw::parse(input, "new")?;
        let record = name(input)?;
        return Ok(Action::New {
            spans: target.spans().to(record.spans()),
            target,
            record,
        });
    }
    let value = expr(input)?;
    Ok(Action::Assign {
        spans: target.spans().to(value.spans()),
        target,
        value,
    })
}

/// `[target :=] start T(args)` from `start` on; the target, parsed before, stands first in
/// the spans.
fn start(input: ParseStream, target: Option<Expr>) -> syn::Result<Action> {
    let keyword = kw::parse(input, "start")?;
    let thread = name(input)?;
    let content;
    let parens = parenthesized!(content in input);
    let args = content.parse_terminated(expr, Token![,])?;
    let first = target
        .as_ref()
        .map_or(keyword, |target| target.spans().first);
    Ok(Action::Start {
        target: target.map(Box::new),
        thread,
        args: args.into_iter().collect(),
        spans: Spans {
            first,
            last: parens.span.close(),
        },
    })
}

/// The error of an assignment to a variable named by a word that version 3 reserved
/// (`skip := true;` in a model of version 1), which says so.
fn reserved_target(input: ParseStream) -> Option<syn::Error> {
    let (ident, rest) = input.cursor().ident()?;
    if !kw::is_reserved_since_v3(&ident.to_string()) {
        return None;
    }
    let assigned = rest.group(Delimiter::Bracket).is_some()
        || rest
            .punct()
            .is_some_and(|(punct, _)| matches!(punct.as_char(), ':' | '='));
    assigned.then(|| name(&input.fork()).expect_err("a reserved word"))
}

/// The error of a statement of a high-level body written in a transformation's braces
/// (`skip;`, `atomic`, `choose`), at its keyword.
fn statement_in_block(input: ParseStream) -> Option<syn::Error> {
    let (ident, _) = input.cursor().ident()?;
    let word = ident.to_string();
    let message = match word.as_str() {
        "skip" => "`skip` is a statement of high-level bodies; in a transformation, an empty \
                   block `{ }` does nothing"
            .to_string(),
        "atomic" | "choose" | "end" | "elseif" => {
            format!("`{word}` belongs to high-level bodies, not to a transformation's block")
        }
        _ => return None,
    };
    Some(syn::Error::new(ident.span(), message))
}

/// The error of `name(..)` where an action was expected and it is not one: a call in a
/// transformation's braces (calls are `invoke`d after them), or a built-in value used as a
/// statement.
fn misplaced_call(input: ParseStream, place: Place) -> Option<syn::Error> {
    let (ident, rest) = input.cursor().ident()?;
    rest.group(Delimiter::Parenthesis)?;
    let word = ident.to_string();
    let message = if Builtin::named(&word).is_some() || word == "threadTerminated" {
        format!("`{word}(..)` is a value, not a statement: use it in an expression")
    } else if place == Place::Action {
        format!(
            "a function is called after the block of a transformation, with `invoke`: \
             `do {{ ... }} invoke {word}(..) goto l;`"
        )
    } else {
        return None;
    };
    Some(syn::Error::new(ident.span(), message))
}

/// The lock action at the cursor: `lock`, `unlock`, `wait`, `unwait`, `notify` or
/// `notifyAll` followed by `(` (without it, all but `lock` are names).
pub(super) fn lock_action(input: ParseStream) -> Option<LockOp> {
    let (ident, rest) = input.cursor().ident()?;
    rest.group(Delimiter::Parenthesis)?;
    kw::lock_action(&ident.to_string())
}

/// `("lock" | "unlock" | "wait" | "unwait" | "notify" | "notifyAll") "(" expr ")" ";"`.
fn lock_op(input: ParseStream, op: LockOp) -> syn::Result<Action> {
    let first = Ident::parse_any(input)?.span();
    let content;
    let parens = parenthesized!(content in input);
    if content.is_empty() {
        return Err(content.error(format!(
            "expected the lock: `{}(m);` names the lock it acts on",
            op.text()
        )));
    }
    let operand = expr(&content)?;
    end_of_group(&content, "the lock")?;
    Ok(Action::Lock {
        op,
        operand,
        spans: Spans {
            first,
            last: parens.span.close(),
        },
    })
}

/// A send (`true`) or a receive (`false`) at the cursor: a name, an optional bracketed
/// index, then `!` (not `!=`) or `?`. Rust's tokenizer gives `c!(..)` as the name, `!` and
/// the group, as `c ! (..)` (it is no macro call here).
pub(super) fn comm(input: ParseStream) -> Option<bool> {
    let (ident, rest) = input.cursor().ident()?;
    if kw::is_reserved(&ident.to_string()) {
        return None;
    }
    let rest = match rest.group(Delimiter::Bracket) {
        Some((_, _, after)) => after,
        None => rest,
    };
    let (punct, after) = rest.punct()?;
    match punct.as_char() {
        '?' => Some(false),
        '!' => {
            let joined_eq = punct.spacing() == proc_macro2::Spacing::Joint
                && after.punct().is_some_and(|(next, _)| next.as_char() == '=');
            (!joined_eq).then_some(true)
        }
        _ => None,
    }
}

/// `comm = chan "!" [ "(" expr { "," expr } ")" ] ";" | chan "?" [ "(" target { ","
/// target } ")" ] ";"`, `chan = IDENT [ "[" expr "]" ]`, `target = lvalue | "_"`.
fn comm_action(input: ParseStream, send: bool) -> syn::Result<Action> {
    let channel = channel_ref(input)?;
    let (op, what, mut last) = if send {
        ("!", "values sent", input.parse::<Token![!]>()?.span)
    } else {
        ("?", "receive targets", input.parse::<Token![?]>()?.span)
    };
    let mut values = Vec::new();
    let mut targets = Vec::new();
    if input.peek(syn::token::Paren) {
        let content;
        let parens = parenthesized!(content in input);
        last = parens.span.close();
        if content.is_empty() {
            return Err(syn::Error::new(
                parens.span.open(),
                format!(
                    "empty parentheses: a message without fields is written `{}{op};`",
                    channel.name.text
                ),
            ));
        }
        loop {
            if send {
                values.push(expr(&content)?);
            } else if content.peek(Token![_]) {
                content.parse::<Token![_]>()?;
                targets.push(None);
            } else {
                // Any expression, so that the checker can say why one is not assignable.
                targets.push(Some(expr(&content)?));
            }
            if content.is_empty() {
                break;
            }
            if !content.peek(Token![,]) {
                return Err(content.error(format!("expected `,` between the {what}")));
            }
            content.parse::<Token![,]>()?;
            if content.is_empty() {
                return Err(content.error(format!("expected one of the {what} after `,`")));
            }
        }
    } else if !input.peek(Token![;]) {
        return Err(input.error(format!(
            "expected `(` or `;` after `{}{op}`: the {what} are written in parentheses, \
             `{}{op}({});`",
            channel.name.text,
            channel.name.text,
            if send { "e1, e2" } else { "x, y" }
        )));
    }
    let spans = channel.spans.to(Spans::one(last));
    Ok(if send {
        Action::Send {
            channel,
            values,
            spans,
        }
    } else {
        Action::Receive {
            channel,
            targets,
            spans,
        }
    })
}

/// `chan = IDENT [ "[" expr "]" ]`.
fn channel_ref(input: ParseStream) -> syn::Result<ChannelRef> {
    let name = name(input)?;
    let mut spans = name.spans();
    let index = if input.peek(syn::token::Bracket) {
        let content;
        let brackets = bracketed!(content in input);
        let index = expr(&content)?;
        end_of_group(&content, "the index")?;
        spans.last = brackets.span.close();
        Some(Box::new(index))
    } else {
        None
    };
    Ok(ChannelRef { name, index, spans })
}

/// True when the next tokens are `IDENT (`, where `IDENT` can name a function: a call
/// without a target (not a lock action, a built-in or a keyword).
pub(super) fn starts_call(input: ParseStream) -> bool {
    let Some((ident, rest)) = input.cursor().ident() else {
        return false;
    };
    let word = ident.to_string();
    rest.group(Delimiter::Parenthesis).is_some()
        && !kw::is_reserved(&word)
        && kw::lock_action(&word).is_none()
        && Builtin::named(&word).is_none()
        && word != "threadTerminated"
}

/// True when the next tokens are an assignment whose right side is exactly a call,
/// `lvalue := f(args)` with nothing but `;` (or no punctuation) after the parentheses:
/// a call of a function with a target. (`x := f(a) + 1;` assigns an expression, in which
/// `f` must be a `fun`.)
pub(super) fn starts_call_with_target(input: ParseStream) -> bool {
    let fork = input.fork();
    if unary(&fork, 1).is_err() || !(fork.peek(Token![:]) && fork.peek2(Token![=])) {
        return false;
    }
    if assign_op(&fork).is_err() || !starts_call(&fork) {
        return false;
    }
    let Some((_, rest)) = fork.cursor().ident() else {
        return false;
    };
    let Some((_, _, after)) = rest.group(Delimiter::Parenthesis) else {
        return false;
    };
    match after.punct() {
        Some((punct, _)) => punct.as_char() == ';',
        None => true,
    }
}

/// `call = [ lvalue ":=" ] IDENT "(" [ expr { "," expr } ] ")"` (without its `;`): a call
/// of a `function`, as a statement or after `invoke`.
pub(super) fn call(input: ParseStream) -> syn::Result<Call> {
    let target = if input.cursor().ident().is_some() && input.peek2(syn::token::Paren) {
        None
    } else {
        let (target, _) = unary(input, 1)?;
        assign_op(input)?;
        Some(target)
    };
    let function = name(input)?;
    if !input.peek(syn::token::Paren) {
        return Err(input.error(format!(
            "expected `(`: the arguments of `{}` are written in parentheses",
            function.text
        )));
    }
    let content;
    let parens = parenthesized!(content in input);
    let mut args = Vec::new();
    while !content.is_empty() {
        args.push(expr(&content)?);
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
    let first = target
        .as_ref()
        .map_or(function.span, |target| target.spans().first);
    Ok(Call {
        target,
        function,
        args,
        spans: Spans {
            first,
            last: parens.span.close(),
        },
    })
}
