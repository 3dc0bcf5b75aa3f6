//! Tokens to [`ast::System`](crate::ast::System): a recursive-descent parser over `syn`'s parse streams, one
//! function per production of the grammar in LANGUAGE.md.
//!
//! The parser keeps going after a syntax error so that every mistake is reported at once:
//! a broken declaration, local, transformation or action is recorded and skipped up to the
//! next point where parsing can safely resume (the next `;`, `loc`, `when` or `do`).

use proc_macro2::{Delimiter, Span, TokenStream, TokenTree};
use syn::ext::IdentExt;
use syn::parse::{ParseStream, Parser as _};
use syn::{bracketed, parenthesized, Ident, Token};

use crate::ast::*;
use crate::kw;

mod docs;
mod expr;
mod formula;

use docs::{docs, inner_docs};
pub(crate) use expr::expr;
use expr::unary;
pub use expr::MAX_EXPR_DEPTH;

/// Parses the body of a `bir!` invocation. On failure returns every syntax error found.
pub fn parse(tokens: TokenStream) -> Result<System, Vec<syn::Error>> {
    if let Some(span) = too_deep_group(&tokens) {
        return Err(vec![group_too_deep(span)]);
    }
    let mut parser = Parser::default();
    let mut parsed = false;
    let result = (|input: ParseStream| {
        let system = parser.system(input);
        parsed = system.is_ok();
        system
    })
    .parse2(tokens);
    match result {
        Ok(system) if parser.errors.is_empty() => Ok(system),
        Ok(_) => Err(parser.errors),
        // The system parsed, but `syn` reports the tokens left in a group abandoned after
        // an error: that error is already recorded, and this one would repeat it.
        Err(_) if parsed && !parser.errors.is_empty() => Err(parser.errors),
        Err(error) => {
            parser.errors.push(error);
            Err(parser.errors)
        }
    }
}

/// Rule: delimiters (`()`, `[]`, `{}`) nest at most this deep. `syn` walks token groups
/// recursively before any BIR rule applies, so deeper input would overflow the compiler's
/// stack; a model needs three levels plus its expressions' parentheses, which
/// [`MAX_EXPR_DEPTH`] bounds well below this.
pub const MAX_GROUP_DEPTH: usize = 256;

/// The error of a group nested deeper than [`MAX_GROUP_DEPTH`], at its opening delimiter.
fn group_too_deep(span: Span) -> syn::Error {
    syn::Error::new(
        span,
        format!(
            "delimiters nested too deeply: `(`, `[` and `{{` nest at most {MAX_GROUP_DEPTH} \
             deep in a model"
        ),
    )
}

/// The opening delimiter of the first group nested deeper than [`MAX_GROUP_DEPTH`], if any.
/// Walks the tokens with an explicit stack, since recursion is what it guards against.
fn too_deep_group(tokens: &TokenStream) -> Option<Span> {
    let mut stack = vec![tokens.clone().into_iter()];
    while let Some(top) = stack.last_mut() {
        match top.next() {
            Some(TokenTree::Group(group)) => {
                // The group's depth is the number of streams open around it.
                if stack.len() > MAX_GROUP_DEPTH {
                    return Some(group.span_open());
                }
                stack.push(group.stream().into_iter());
            }
            Some(_) => {}
            None => {
                stack.pop();
            }
        }
    }
    None
}

/// Parses one expression, for tests and tools.
pub fn parse_expr(tokens: TokenStream) -> syn::Result<Expr> {
    if let Some(span) = too_deep_group(&tokens) {
        return Err(group_too_deep(span));
    }
    (|input: ParseStream| {
        let expr = expr(input)?;
        if !input.is_empty() {
            return Err(input.error("unexpected token after the expression"));
        }
        Ok(expr)
    })
    .parse2(tokens)
}

/// Holds the syntax errors recorded so far.
#[derive(Default)]
struct Parser {
    errors: Vec<syn::Error>,
}

impl Parser {
    /// `system = "system" IDENT "{" { decl } "}"`, preceded by doc comments.
    fn system(&mut self, input: ParseStream) -> syn::Result<System> {
        let mut doc = inner_docs(input)?;
        doc.push_str(&docs(input)?);
        if input.is_empty() {
            return Err(syn::Error::new(
                Span::call_site(),
                "expected a BIR system: `system Name { ... }`",
            ));
        }
        kw::parse(input, "system")
            .map_err(|_| input.error("expected a BIR system: `system Name { ... }`"))?;
        let name = self.system_name(input)?;
        let content;
        syn::braced!(content in input);
        let mut decls = Vec::new();
        while !content.is_empty() {
            match self.decl(&content) {
                Ok(decl) => decls.push(decl),
                Err(error) => {
                    self.errors.push(error);
                    skip_declaration(&content);
                }
            }
        }
        if !input.is_empty() {
            return Err(input.error("unexpected tokens after the system: `bir!` takes one system"));
        }
        Ok(System { doc, name, decls })
    }

    /// The system's name becomes a Rust type name, so it must be a Rust identifier too.
    fn system_name(&mut self, input: ParseStream) -> syn::Result<Name> {
        let name = name(input)?;
        if syn::parse_str::<Ident>(&name.text).is_err() {
            self.errors.push(syn::Error::new(
                name.span,
                format!(
                    "`{}` is a Rust keyword; the system's name becomes a Rust type name",
                    name.text
                ),
            ));
        }
        Ok(name)
    }

    /// `decl = const_decl | alias_decl | enum_decl | global | invariant | ltl | reachable |
    /// thread`; `ltl` and `reachable` are keywords only where a declaration starts with one
    /// followed by a name.
    fn decl(&mut self, input: ParseStream) -> syn::Result<Decl> {
        let doc = docs(input)?;
        if kw::peek(input, "const") {
            self.const_block(input, doc).map(Decl::Const)
        } else if kw::peek(input, "typealias") {
            kw::parse(input, "typealias")?;
            let name = name(input)?;
            let ty = ty(input)?;
            input.parse::<Token![;]>()?;
            Ok(Decl::Alias(Alias { doc, name, ty }))
        } else if kw::peek(input, "enum") {
            enum_decl(input, doc).map(Decl::Enum)
        } else if kw::peek(input, "invariant") {
            let keyword = kw::parse(input, "invariant")?;
            let name = name(input)?;
            input.parse::<Token![:]>()?;
            let expr = expr(input)?;
            input.parse::<Token![;]>()?;
            Ok(Decl::Invariant(Invariant {
                doc,
                keyword,
                name,
                expr,
            }))
        } else if kw::peek(input, "ltl") && input.peek2(syn::Ident) {
            let keyword = kw::parse(input, "ltl")?;
            let name = name(input)?;
            input.parse::<Token![:]>()?;
            let formula = formula::formula(input)?;
            input.parse::<Token![;]>()?;
            Ok(Decl::Ltl(Ltl {
                doc,
                keyword,
                name,
                formula,
            }))
        } else if kw::peek(input, "reachable") && input.peek2(syn::Ident) {
            let keyword = kw::parse(input, "reachable")?;
            let name = name(input)?;
            input.parse::<Token![:]>()?;
            let expr = expr(input)?;
            input.parse::<Token![;]>()?;
            Ok(Decl::Reachable(Invariant {
                doc,
                keyword,
                name,
                expr,
            }))
        } else if kw::peek(input, "active") || kw::peek(input, "thread") {
            self.thread(input, doc).map(Decl::Thread)
        } else if starts_type(input) {
            var_decl(input, doc).map(Decl::Global)
        } else {
            Err(input.error(
                "expected a declaration: `const`, `typealias`, `enum`, a variable, \
                 `invariant`, `ltl`, `reachable`, `active` or `thread`",
            ))
        }
    }

    /// `const_decl = "const" IDENT "{" { IDENT "=" cexpr ";" } "}"`.
    fn const_block(&mut self, input: ParseStream, doc: String) -> syn::Result<ConstBlock> {
        kw::parse(input, "const")?;
        let name = name(input)?;
        let content;
        syn::braced!(content in input);
        let mut entries = Vec::new();
        while !content.is_empty() {
            let entry = (|| {
                let name = self::name(&content)?;
                if content.peek(Token![:]) && content.peek2(Token![=]) {
                    return Err(content.error("a constant is defined with `=`, not `:=`"));
                }
                content.parse::<Token![=]>()?;
                let value = expr(&content)?;
                content.parse::<Token![;]>()?;
                Ok(ConstEntry { name, value })
            })();
            match entry {
                Ok(entry) => entries.push(entry),
                Err(error) => {
                    self.errors.push(error);
                    skip_past_semicolon(&content);
                }
            }
        }
        Ok(ConstBlock { doc, name, entries })
    }

    /// `thread = [ "active" [ "[" cexpr "]" ] ] "thread" IDENT "(" [ type IDENT ] ")"
    ///            "{" { type IDENT [ ":=" init ] ";" } location { location } "}"`.
    fn thread(&mut self, input: ParseStream, doc: String) -> syn::Result<Thread> {
        let active = match kw::parse_if(input, "active")? {
            Some(keyword) => {
                let count = if input.peek(syn::token::Bracket) {
                    let content;
                    bracketed!(content in input);
                    let count = expr(&content)?;
                    end_of_group(&content, "the replication count")?;
                    Some(count)
                } else {
                    None
                };
                Some(Active { keyword, count })
            }
            None => None,
        };
        let keyword = kw::parse(input, "thread")?;
        let name = name(input)?;
        let params;
        let parens = parenthesized!(params in input);
        let param = if params.is_empty() {
            None
        } else {
            let ty = ty(&params)?;
            let name = self::name(&params)?;
            if params.peek(Token![,]) {
                return Err(params.error("a thread takes at most one parameter"));
            }
            end_of_group(&params, "the parameter")?;
            Some(Param { ty, name })
        };
        let param_spans = Spans {
            first: parens.span.open(),
            last: parens.span.close(),
        };
        let body;
        syn::braced!(body in input);
        let mut locals = Vec::new();
        loop {
            let fork = body.fork();
            docs(&fork)?;
            if fork.is_empty() || kw::peek(&fork, "loc") {
                break;
            }
            let doc = docs(&body)?;
            match var_decl(&body, doc) {
                Ok(local) => locals.push(local),
                Err(error) => {
                    self.errors.push(error);
                    skip_past_semicolon(&body);
                }
            }
        }
        let mut locations = Vec::new();
        while !body.is_empty() {
            match self.location(&body) {
                Ok(location) => locations.push(location),
                Err(error) => {
                    self.errors.push(error);
                    skip_to_any(&body, &["loc"]);
                }
            }
        }
        if locations.is_empty() && self.errors.is_empty() {
            self.errors.push(syn::Error::new(
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
            name,
            param,
            param_spans,
            locals,
            locations,
        })
    }

    /// `location = "loc" IDENT ":" transform { transform }` (an empty location is reported
    /// by the checker, on its name).
    fn location(&mut self, input: ParseStream) -> syn::Result<Location> {
        let doc = docs(input)?;
        let keyword = kw::parse(input, "loc")
            .map_err(|_| input.error("expected a location: `loc name: when ... do { ... }`"))?;
        let name = name(input)?;
        input.parse::<Token![:]>()?;
        let mut transforms = Vec::new();
        loop {
            let fork = input.fork();
            docs(&fork)?;
            if fork.is_empty() || kw::peek(&fork, "loc") {
                break;
            }
            match self.transform(input) {
                Ok(transform) => transforms.push(transform),
                Err(error) => {
                    self.errors.push(error);
                    skip_to_any(input, &["loc", "when", "do"]);
                }
            }
        }
        Ok(Location {
            doc,
            keyword,
            name,
            transforms,
        })
    }

    /// `transform = [ "when" expr ] "do" "{" { action } [ jump ] "}" [ jump ]`.
    fn transform(&mut self, input: ParseStream) -> syn::Result<Transform> {
        let doc = docs(input)?;
        let when = kw::parse_if(input, "when")?;
        let guard = match when {
            Some(_) => Some(expr(input)?),
            None => None,
        };
        if !kw::peek(input, "do") {
            let message = if when.is_some() {
                "expected `do` after the guard"
            } else if starts_jump(input) {
                "a second jump: a transformation has exactly one, inside its braces or after them"
            } else {
                "expected a transformation: `when guard do { ... }` or `do { ... }`"
            };
            return Err(input.error(message));
        }
        let do_keyword = kw::parse(input, "do")?;
        let body;
        let braces = syn::braced!(body in input);
        let mut actions = Vec::new();
        let mut inner_jump = None;
        while !body.is_empty() {
            if starts_jump(&body) {
                inner_jump = Some(jump(&body)?);
                if !body.is_empty() {
                    return Err(body.error("the jump must be the last statement of the block"));
                }
                break;
            }
            match action(&body) {
                Ok(action) => actions.push(action),
                Err(error) => {
                    self.errors.push(error);
                    skip_past_semicolon(&body);
                }
            }
        }
        let outer_jump = if starts_jump(input) {
            Some(jump(input)?)
        } else {
            None
        };
        let first = when.unwrap_or(do_keyword);
        let last = match &outer_jump {
            Some(jump) => jump.spans().last,
            None => braces.span.close(),
        };
        Ok(Transform {
            doc,
            spans: Spans { first, last },
            guard,
            do_keyword,
            actions,
            inner_jump,
            outer_jump,
        })
    }
}

/// `enum_decl = "enum" IDENT "{" IDENT { "," IDENT } [","] "}"`.
fn enum_decl(input: ParseStream, doc: String) -> syn::Result<EnumDecl> {
    kw::parse(input, "enum")?;
    let name = name(input)?;
    let content;
    let braces = syn::braced!(content in input);
    let mut variants = Vec::new();
    while !content.is_empty() {
        variants.push(self::name(&content)?);
        if content.is_empty() {
            break;
        }
        content.parse::<Token![,]>()?;
    }
    if variants.is_empty() {
        return Err(syn::Error::new(
            braces.span.open(),
            format!("enum `{}` needs at least one value", name.text),
        ));
    }
    Ok(EnumDecl {
        doc,
        name,
        variants,
    })
}

/// `type IDENT [ ":=" init ] ";"`: a global or a local.
fn var_decl(input: ParseStream, doc: String) -> syn::Result<VarDecl> {
    let ty = ty(input)?;
    let name = name(input)?;
    let init = if input.peek(Token![;]) {
        None
    } else {
        if !input.peek(Token![:]) && !input.peek(Token![=]) {
            return Err(syn::Error::new(
                name.span,
                format!(
                    "expected `;` after `{}`, or `:=` and an initial value",
                    name.text
                ),
            ));
        }
        assign_op(input)?;
        Some(init(input)?)
    };
    input.parse::<Token![;]>()?;
    Ok(VarDecl {
        doc,
        ty,
        name,
        init,
    })
}

/// `init = cexpr | "{" cexpr { "," cexpr } "}"`.
fn init(input: ParseStream) -> syn::Result<Init> {
    if input.peek(syn::token::Brace) {
        let content;
        let braces = syn::braced!(content in input);
        let items = content.parse_terminated(expr, Token![,])?;
        if items.is_empty() {
            return Err(syn::Error::new(
                braces.span.open(),
                "an array initialiser needs one value per element",
            ));
        }
        Ok(Init::List {
            spans: Spans {
                first: braces.span.open(),
                last: braces.span.close(),
            },
            items: items.into_iter().collect(),
        })
    } else {
        Ok(Init::Scalar(expr(input)?))
    }
}

/// `type = base [ "[" cexpr "]" ]`.
fn ty(input: ParseStream) -> syn::Result<Type> {
    let base = base_type(input)?;
    let first = match &base {
        BaseType::Boolean(span) | BaseType::Byte(span) | BaseType::Int { span, .. } => *span,
        BaseType::Named(name) => name.span,
    };
    let mut last = match &base {
        BaseType::Int {
            range: Some(range), ..
        } => range.spans.last,
        _ => first,
    };
    let len = if input.peek(syn::token::Bracket) {
        let content;
        let brackets = bracketed!(content in input);
        let len = expr(&content)?;
        end_of_group(&content, "the array length")?;
        last = brackets.span.close();
        if input.peek(syn::token::Bracket) {
            return Err(input.error("an array's elements are scalars: BIR has no arrays of arrays"));
        }
        Some(len)
    } else {
        None
    };
    Ok(Type {
        base,
        len,
        spans: Spans { first, last },
    })
}

/// `base = "boolean" | "byte" | "int" [ ["wrap"] "(" cexpr "," cexpr ")" ] | IDENT`.
fn base_type(input: ParseStream) -> syn::Result<BaseType> {
    if let Some(span) = kw::parse_if(input, "boolean")? {
        return Ok(BaseType::Boolean(span));
    }
    if let Some(span) = kw::parse_if(input, "byte")? {
        return Ok(BaseType::Byte(span));
    }
    if let Some(span) = kw::parse_if(input, "int")? {
        let wrap = kw::parse_if(input, "wrap")?;
        if wrap.is_none() && !input.peek(syn::token::Paren) {
            return Ok(BaseType::Int { span, range: None });
        }
        let content;
        let parens = parenthesized!(content in input);
        let lo = expr(&content)?;
        content.parse::<Token![,]>()?;
        let hi = expr(&content)?;
        end_of_group(&content, "the range `(lo, hi)`")?;
        let range = IntRange {
            wrap: wrap.is_some(),
            lo,
            hi,
            spans: Spans {
                first: parens.span.open(),
                last: parens.span.close(),
            },
        };
        return Ok(BaseType::Int {
            span,
            range: Some(Box::new(range)),
        });
    }
    if input.cursor().ident().is_some() && !kw::peek(input, "wrap") {
        return name(input).map(BaseType::Named);
    }
    Err(input.error(
        "expected a type: `boolean`, `byte`, `int`, `int (lo, hi)`, or a typealias or enum name",
    ))
}

/// True when the next tokens can start a type.
fn starts_type(input: ParseStream) -> bool {
    match input.cursor().ident() {
        Some((ident, _)) => {
            let text = ident.to_string();
            matches!(text.as_str(), "boolean" | "byte" | "int") || !kw::is_reserved(&text)
        }
        None => false,
    }
}

/// An identifier that is not a reserved word.
pub(super) fn name(input: ParseStream) -> syn::Result<Name> {
    if input.cursor().ident().is_none() {
        return Err(input.error("expected a name"));
    }
    let ident = Ident::parse_any(input)?;
    let text = ident.to_string();
    if text.starts_with("r#") {
        return Err(syn::Error::new(
            ident.span(),
            "raw identifiers are not BIR names; write the name without `r#`",
        ));
    }
    if kw::is_reserved(&text) {
        let what = if matches!(text.as_str(), "boolean" | "int" | "byte") {
            "a built-in type"
        } else {
            "a reserved word"
        };
        return Err(syn::Error::new(
            ident.span(),
            format!("`{text}` is {what} and cannot be used as a name"),
        ));
    }
    Ok(Name {
        text,
        span: ident.span(),
    })
}

/// `:=`, which Rust tokenizes as `:` `=`.
fn assign_op(input: ParseStream) -> syn::Result<()> {
    if input.peek(Token![=]) && !input.peek(Token![==]) {
        return Err(input.error("BIR assigns with `:=`, not `=`"));
    }
    if !(input.peek(Token![:]) && input.peek2(Token![=])) {
        return Err(input.error("expected `:=`"));
    }
    input.parse::<Token![:]>()?;
    input.parse::<Token![=]>()?;
    Ok(())
}

/// True when the next token starts a jump.
fn starts_jump(input: ParseStream) -> bool {
    kw::peek(input, "goto") || kw::peek(input, "return")
}

/// `jump = ( "goto" IDENT | "return" ) ";"`.
fn jump(input: ParseStream) -> syn::Result<Jump> {
    if let Some(first) = kw::parse_if(input, "return")? {
        let semi = input.parse::<Token![;]>()?;
        return Ok(Jump::Return {
            spans: Spans {
                first,
                last: semi.span,
            },
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
fn action(input: ParseStream) -> syn::Result<Action> {
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

/// Errors unless the group being parsed is finished.
pub(super) fn end_of_group(content: ParseStream, what: &str) -> syn::Result<()> {
    if content.is_empty() {
        Ok(())
    } else {
        Err(content.error(format!("unexpected token after {what}")))
    }
}

/// Recovery: skips token trees up to and including the next `;`.
fn skip_past_semicolon(input: ParseStream) {
    while let Ok(tree) = input.parse::<TokenTree>() {
        if matches!(&tree, TokenTree::Punct(p) if p.as_char() == ';') {
            break;
        }
    }
}

/// Recovery inside a system: skips up to the end of the broken declaration (a `;`, or the
/// brace group that closes a thread, const block or enum).
fn skip_declaration(input: ParseStream) {
    while let Ok(tree) = input.parse::<TokenTree>() {
        match &tree {
            TokenTree::Punct(p) if p.as_char() == ';' => break,
            TokenTree::Group(g) if g.delimiter() == Delimiter::Brace => break,
            _ => {}
        }
    }
}

/// Recovery: skips token trees until one of `keywords` is next (or the input ends); always
/// consumes at least one token so that parsing makes progress.
fn skip_to_any(input: ParseStream, keywords: &[&str]) {
    let mut first = true;
    while !input.is_empty() {
        if !first && keywords.iter().any(|keyword| kw::peek(input, keyword)) {
            break;
        }
        first = false;
        if input.parse::<TokenTree>().is_err() {
            break;
        }
    }
}

#[cfg(test)]
mod tests;
