//! The declarations that have a body or a signature: threads, and version 3's channels,
//! locks, functions and `fun`s.

use syn::parse::ParseStream;
use syn::{bracketed, parenthesized, Token};

use super::{end_of_group, expr, name, ty, Parser};
use crate::front::ast::*;
use crate::front::kw;

impl Parser {
    /// `thread = [ "active" [ "[" cexpr "]" ] ] "thread" [ "[" cexpr "]" ] IDENT
    ///            "(" [ param { "," param } ] ")" "{" body "}"`. A broken replication count,
    /// pool size, name or parameter is reported and the body still parsed.
    pub(super) fn thread(&mut self, input: ParseStream, doc: String) -> syn::Result<Thread> {
        let active = match kw::parse_if(input, "active")? {
            Some(keyword) => {
                let count = self.bracketed_expr(input, "the replication count")?;
                Some(Active { keyword, count })
            }
            None => None,
        };
        let keyword = kw::parse(input, "thread")?;
        let pool = if input.peek(syn::token::Bracket) {
            let bracket = input.span();
            let size = self.bracketed_expr(input, "the pool's size")?;
            if active.is_some() && size.is_some() {
                self.record(syn::Error::new(
                    bracket,
                    "a pool `thread[k]` is not active: its instances are created by `start`; \
                     write `active [k] thread` for instances that run from the start",
                ));
            }
            size
        } else {
            None
        };
        let name = self.name(input)?;
        let (params, param_spans) = if input.peek(syn::token::Paren) {
            let content;
            let parens = parenthesized!(content in input);
            let params = params(&content)
                .map_err(|error| self.record(error))
                .unwrap_or_default();
            let spans = Spans {
                first: parens.span.open(),
                last: parens.span.close(),
            };
            (params, spans)
        } else {
            self.record(input.error(format!(
                "expected `(`: a thread declares its parameter in parentheses, `thread {}()`",
                name.text
            )));
            (Vec::new(), name.spans())
        };
        let content;
        syn::braced!(content in input);
        let body = self.body(&content);
        if body.locations.is_empty() && body.statements.is_empty() && self.errors.is_empty() {
            self.record(syn::Error::new(
                name.span,
                format!(
                    "thread `{}` has no locations; a thread needs at least one `loc name: ...`",
                    name.text
                ),
            ));
        }
        Ok(Thread {
            doc,
            active,
            keyword,
            pool,
            name,
            params,
            param_spans,
            body,
        })
    }

    /// `"[" cexpr "]"` if a bracket group is next, else `None`; a broken expression is
    /// reported (and `None` returned) so that the rest of the declaration is still parsed.
    pub(super) fn bracketed_expr(
        &mut self,
        input: ParseStream,
        what: &str,
    ) -> syn::Result<Option<Expr>> {
        if !input.peek(syn::token::Bracket) {
            return Ok(None);
        }
        let content;
        bracketed!(content in input);
        let parsed = expr(&content).and_then(|value| end_of_group(&content, what).map(|()| value));
        Ok(parsed.map_err(|error| self.record(error)).ok())
    }

    /// `chan_decl = "channel" [ "(" type { "," type } ")" ] [ "buffer" cexpr ] IDENT
    /// [ "[" cexpr "]" ] ";"`.
    pub(super) fn channel(&mut self, input: ParseStream, doc: String) -> syn::Result<ChannelDecl> {
        let keyword = kw::parse(input, "channel")?;
        let mut fields = Vec::new();
        if input.peek(syn::token::Paren) {
            let content;
            let parens = parenthesized!(content in input);
            if content.is_empty() {
                return Err(syn::Error::new(
                    parens.span.open(),
                    "a channel without fields is declared without parentheses: `channel c;`",
                ));
            }
            loop {
                fields.push(ty(&content)?);
                if content.is_empty() {
                    break;
                }
                if !content.peek(Token![,]) {
                    return Err(
                        content.error("expected `,` between the field types of the channel")
                    );
                }
                content.parse::<Token![,]>()?;
            }
        }
        let buffer = match kw::parse_if(input, "buffer")? {
            Some(_) => Some(expr(input)?),
            None => None,
        };
        if ["boolean", "byte", "int"]
            .iter()
            .any(|word| kw::peek(input, word))
        {
            return Err(input.error(
                "a channel's field types are written in parentheses before its name: \
                 `channel (T1, T2) buffer k name;`",
            ));
        }
        let name = name(input).map_err(|error| {
            if input.cursor().ident().is_some() {
                error
            } else {
                input.error("expected the channel's name: `channel (T1, T2) buffer k name;`")
            }
        })?;
        if kw::peek(input, "buffer") {
            return Err(input.error(format!(
                "`buffer k` comes before the channel's name: `channel buffer k {};`",
                name.text
            )));
        }
        let len = self.array_len(input, "the number of channels")?;
        if !input.peek(Token![;]) {
            return Err(input.error(format!(
                "expected `;` after the channel's name `{}`",
                name.text
            )));
        }
        let semi = input.parse::<Token![;]>()?;
        Ok(ChannelDecl {
            doc,
            keyword,
            fields,
            buffer,
            name,
            len,
            spans: Spans {
                first: keyword,
                last: semi.span,
            },
        })
    }

    /// `lock_decl = "lock" IDENT [ "[" cexpr "]" ] ";"`.
    pub(super) fn lock(&mut self, input: ParseStream, doc: String) -> syn::Result<LockDecl> {
        let keyword = kw::parse(input, "lock")?;
        if input.peek(syn::token::Paren) {
            return Err(input.error(
                "expected the lock's name: `lock m;` declares a lock (`lock(m);` is an action, \
                 in a thread or a function)",
            ));
        }
        let name = self.name(input)?;
        let len = self.array_len(input, "the number of locks")?;
        if !input.peek(Token![;]) {
            return Err(input.error(format!(
                "expected `;` after the lock's name `{}`",
                name.text
            )));
        }
        input.parse::<Token![;]>()?;
        Ok(LockDecl {
            doc,
            keyword,
            name,
            len,
        })
    }

    /// `[ "[" cexpr "]" ]` after the name of a channel or lock: an array of them.
    fn array_len(&mut self, input: ParseStream, what: &str) -> syn::Result<Option<Expr>> {
        if !input.peek(syn::token::Bracket) {
            return Ok(None);
        }
        let content;
        bracketed!(content in input);
        let len = expr(&content)?;
        end_of_group(&content, what)?;
        Ok(Some(len))
    }

    /// `function = "function" [ "[" cexpr "]" ] IDENT "(" [ param { "," param } ] ")"
    /// [ "returns" type ] "{" body "}"`. A broken bound, name or parameter list is reported
    /// and the body still parsed.
    pub(super) fn function(&mut self, input: ParseStream, doc: String) -> syn::Result<Function> {
        let keyword = kw::parse(input, "function")?;
        let bound = self.bracketed_expr(input, "the bound on the function's frames")?;
        let name = self.name(input)?;
        let (params, param_spans) = self.params(input, "function", &name)?;
        let returns = match kw::parse_if(input, "returns")? {
            Some(_) => Some(ty(input)?),
            None => None,
        };
        if !input.peek(syn::token::Brace) {
            let message = if input.peek(Token![=]) || input.peek(Token![:]) {
                "expected `{`: a `function` has a body in braces (a `fun` is one expression: \
                 `fun f(..) returns T = e;`)"
            } else {
                "expected `returns` or `{` and the function's body"
            };
            return Err(input.error(message));
        }
        let content;
        syn::braced!(content in input);
        let body = self.body(&content);
        if body.locations.is_empty() && body.statements.is_empty() && self.errors.is_empty() {
            self.record(syn::Error::new(
                name.span,
                format!(
                    "function `{}` has no body; a function needs at least one statement or \
                     `loc name: ...`",
                    name.text
                ),
            ));
        }
        Ok(Function {
            doc,
            keyword,
            bound,
            name,
            params,
            param_spans,
            returns,
            body,
        })
    }

    /// `fun = "fun" IDENT "(" [ param { "," param } ] ")" "returns" type "=" expr ";"`.
    pub(super) fn fun(&mut self, input: ParseStream, doc: String) -> syn::Result<Fun> {
        let keyword = kw::parse(input, "fun")?;
        let name = self.name(input)?;
        let (params, _) = self.params(input, "fun", &name)?;
        if !kw::peek(input, "returns") {
            return Err(input.error(format!(
                "expected `returns` and the result type: `fun {}(..) returns T = e;`",
                name.text
            )));
        }
        kw::parse(input, "returns")?;
        let returns = ty(input)?;
        if input.peek(Token![:]) && input.peek2(Token![=]) {
            return Err(input.error("a `fun` is defined with `=`, not `:=`"));
        }
        if input.peek(syn::token::Brace) {
            return Err(input.error(
                "a `fun` is one expression, `fun f(..) returns T = e;` (a `function` has a body \
                 in braces)",
            ));
        }
        if !input.peek(Token![=]) || input.peek(Token![==]) {
            return Err(input.error("expected `=` and the result: `= e;`"));
        }
        input.parse::<Token![=]>()?;
        let expr = expr(input)?;
        input.parse::<Token![;]>()?;
        Ok(Fun {
            doc,
            keyword,
            name,
            params,
            returns,
            expr,
        })
    }

    /// The parameters of a `function` or `fun`: `"(" [ param { "," param } ] ")"`, and the
    /// parentheses. A broken parameter is reported and the rest of the list skipped.
    fn params(
        &mut self,
        input: ParseStream,
        what: &str,
        name: &Name,
    ) -> syn::Result<(Vec<Param>, Spans)> {
        if !input.peek(syn::token::Paren) {
            return Err(input.error(format!(
                "expected `(`: a {what} declares its parameters in parentheses, `{what} {}()`",
                name.text
            )));
        }
        let content;
        let parens = parenthesized!(content in input);
        let spans = Spans {
            first: parens.span.open(),
            last: parens.span.close(),
        };
        let params = params(&content)
            .map_err(|error| self.record(error))
            .unwrap_or_default();
        Ok((params, spans))
    }
}

/// The inside of a function's parentheses: `[ param { "," param } ]`, `param = type IDENT`.
fn params(content: ParseStream) -> syn::Result<Vec<Param>> {
    let mut params = Vec::new();
    while !content.is_empty() {
        let ty = ty(content)?;
        let name = name(content)?;
        params.push(Param { ty, name });
        if content.is_empty() {
            break;
        }
        if !content.peek(Token![,]) {
            return Err(content.error("expected `,` between the parameters"));
        }
        content.parse::<Token![,]>()?;
        if content.is_empty() {
            return Err(content.error("expected a parameter after `,`"));
        }
    }
    Ok(params)
}
