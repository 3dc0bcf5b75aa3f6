//! Tokens to [`ast::System`](crate::front::ast::System): a recursive-descent parser over
//! `syn`'s parse streams, one function per production of the grammar in LANGUAGE.md.
//!
//! The parser keeps going after a syntax error so that every mistake is reported at once.
//! Each level that holds a list resumes at its next element (`recover`): a broken
//! declaration is skipped through its `;` or braces, or up to the next declaration; a
//! broken location up to the next `loc`; a broken guard or transformation up to the next
//! `do`, `when` or `loc`; a broken statement (a constant, a local, an action, a jump), with
//! the expressions in it, through its `;`. A broken thread or location header is reported
//! and its body still parsed. Mistakes that are habits from other languages are told apart
//! (`hints`). At most [`MAX_SYNTAX_ERRORS`] are reported.

use proc_macro2::{Span, TokenStream, TokenTree};
use syn::ext::IdentExt;
use syn::parse::{ParseStream, Parser as _};
use syn::{bracketed, parenthesized, Ident, Token};

use crate::front::ast::*;
use crate::front::kw;

mod docs;
mod expr;
mod formula;
mod hints;
mod items;
mod recover;
mod stmt;

use docs::{docs, inner_docs};
pub(crate) use expr::expr;
pub use expr::MAX_EXPR_DEPTH;
use items::{enum_decl, starts_type, ty, var_decl};
use stmt::{action, jump, starts_jump};

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

/// Rule: the parser reports at most this many syntax errors; at the next one it stops with
/// a note saying so. A mistake that confuses recovery can cause a cascade of errors that
/// are not the user's, and past a screenful the first ones, which are real, scroll away.
pub const MAX_SYNTAX_ERRORS: usize = 10;

/// Holds the syntax errors recorded so far.
#[derive(Default)]
struct Parser {
    errors: Vec<syn::Error>,
    /// Set when the errors reached [`MAX_SYNTAX_ERRORS`] and one more came: every loop
    /// stops, leaving the rest of the input unparsed.
    stopped: bool,
}

/// The keywords a transformation starts with, or the next location: where parsing
/// resumes after a broken transformation.
const TRANSFORM_STARTS: &[&str] = &["loc", "when", "do"];

impl Parser {
    /// Records a syntax error, or, past [`MAX_SYNTAX_ERRORS`], the note that stops parsing.
    fn record(&mut self, error: syn::Error) {
        if self.stopped {
            return;
        }
        if self.errors.len() < MAX_SYNTAX_ERRORS {
            self.errors.push(error);
            return;
        }
        self.stopped = true;
        self.errors.push(syn::Error::new(
            error.span(),
            format!(
                "more syntax errors from here on: bir reports the first {MAX_SYNTAX_ERRORS}; \
                 fix them and compile again"
            ),
        ));
    }

    /// True while `input` has tokens left and parsing has not stopped.
    fn more(&self, input: ParseStream) -> bool {
        !self.stopped && !input.is_empty()
    }

    /// A name where a declaration needs one. A reserved word or raw identifier is reported
    /// and kept, so that the rest of the declaration is still parsed; anything else than
    /// an identifier fails.
    fn name(&mut self, input: ParseStream) -> syn::Result<Name> {
        let ident = input.cursor().ident().map(|(ident, _)| ident);
        match name(input) {
            Ok(name) => Ok(name),
            Err(error) => {
                let ident = ident.ok_or_else(|| error.clone())?;
                self.record(error);
                Ok(Name {
                    text: ident.to_string(),
                    span: ident.span(),
                })
            }
        }
    }

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
        while self.more(&content) {
            let start = content.cursor();
            match self.decl(&content) {
                Ok(decl) => decls.push(decl),
                Err(error) => {
                    self.record(error);
                    recover::skip_declaration(&content, start);
                }
            }
        }
        if !self.stopped && !input.is_empty() {
            return Err(input.error("unexpected tokens after the system: `bir!` takes one system"));
        }
        Ok(System { doc, name, decls })
    }

    /// The system's name becomes a Rust type name, so it must be a Rust identifier too.
    fn system_name(&mut self, input: ParseStream) -> syn::Result<Name> {
        let name = name(input)?;
        if syn::parse_str::<Ident>(&name.text).is_err() {
            self.record(syn::Error::new(
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
            let name = self.name(input)?;
            let ty = ty(input)?;
            input.parse::<Token![;]>()?;
            Ok(Decl::Alias(Alias { doc, name, ty }))
        } else if kw::peek(input, "enum") {
            enum_decl(input, doc).map(Decl::Enum)
        } else if kw::peek(input, "invariant") {
            let keyword = kw::parse(input, "invariant")?;
            let name = self.name(input)?;
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
            let name = self.name(input)?;
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
            let name = self.name(input)?;
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
            // `if`, `while`, ... parse as a type name; say what they are only if the
            // declaration fails.
            let habit = hints::control_flow(input);
            var_decl(input, doc)
                .map(Decl::Global)
                .map_err(|error| habit.unwrap_or(error))
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
        let name = self.name(input)?;
        let content;
        syn::braced!(content in input);
        let mut entries = Vec::new();
        while self.more(&content) {
            let start = content.cursor();
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
                    self.record(error);
                    recover::skip_statement(&content, start, &[]);
                }
            }
        }
        Ok(ConstBlock { doc, name, entries })
    }

    /// `thread = [ "active" [ "[" cexpr "]" ] ] "thread" IDENT "(" [ type IDENT ] ")"
    ///            "{" { type IDENT [ ":=" init ] ";" } location { location } "}"`.
    /// A broken replication count, name or parameter is reported and the body still parsed.
    fn thread(&mut self, input: ParseStream, doc: String) -> syn::Result<Thread> {
        let active = match kw::parse_if(input, "active")? {
            Some(keyword) => {
                let count = if input.peek(syn::token::Bracket) {
                    let content;
                    bracketed!(content in input);
                    let count = expr(&content).and_then(|count| {
                        end_of_group(&content, "the replication count").map(|()| count)
                    });
                    count.map_err(|error| self.record(error)).ok()
                } else {
                    None
                };
                Some(Active { keyword, count })
            }
            None => None,
        };
        let keyword = kw::parse(input, "thread")?;
        let name = self.name(input)?;
        let (param, param_spans) = if input.peek(syn::token::Paren) {
            let params;
            let parens = parenthesized!(params in input);
            let param = param(&params)
                .map_err(|error| self.record(error))
                .ok()
                .flatten();
            let spans = Spans {
                first: parens.span.open(),
                last: parens.span.close(),
            };
            (param, spans)
        } else {
            self.record(input.error(format!(
                "expected `(`: a thread declares its parameter in parentheses, `thread {}()`",
                name.text
            )));
            (None, name.spans())
        };
        let body;
        syn::braced!(body in input);
        let locals = self.locals(&body);
        let mut locations = Vec::new();
        while self.more(&body) {
            let start = body.cursor();
            match self.location(&body) {
                Ok(location) => locations.push(location),
                Err(error) => {
                    self.record(error);
                    recover::skip_to(&body, Some(start), &["loc"]);
                }
            }
        }
        if locations.is_empty() && self.errors.is_empty() {
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
            name,
            param,
            param_spans,
            body: Body {
                locals,
                locations,
                statements: Vec::new(),
            },
        })
    }

    /// The locals at the start of a thread's body: `{ type IDENT [ ":=" init ] ";" }`, up
    /// to the first location (or transformation, reported as outside a location).
    fn locals(&mut self, body: ParseStream) -> Vec<VarDecl> {
        let mut locals = Vec::new();
        while !self.stopped {
            let fork = body.fork();
            // A broken doc comment is reported when the local is parsed.
            let _ = docs(&fork);
            if fork.is_empty() || TRANSFORM_STARTS.iter().any(|word| kw::peek(&fork, word)) {
                break;
            }
            let start = body.cursor();
            let habit = hints::control_flow(&fork);
            match docs(body).and_then(|doc| var_decl(body, doc)) {
                Ok(local) => locals.push(local),
                Err(error) => {
                    self.record(habit.unwrap_or(error));
                    recover::skip_statement(body, start, &["loc"]);
                }
            }
        }
        locals
    }

    /// `location = "loc" IDENT ":" transform { transform }` (an empty location is reported
    /// by the checker, on its name). A broken name or colon is reported and the
    /// transformations still parsed.
    fn location(&mut self, input: ParseStream) -> syn::Result<Location> {
        let doc = docs(input)?;
        let keyword = kw::parse(input, "loc").map_err(|_| {
            hints::control_flow(input).unwrap_or_else(|| {
                input.error("expected a location: `loc name: when ... do { ... }`")
            })
        })?;
        let header = self.name(input).and_then(|name| {
            if !input.peek(Token![:]) {
                let message = format!(
                    "expected `:` after the location's name: `loc {}:`",
                    name.text
                );
                return Err(input.error(message));
            }
            input.parse::<Token![:]>()?;
            Ok(name)
        });
        let name = match header {
            Ok(name) => name,
            Err(error) => {
                let name = Name {
                    text: String::new(),
                    span: error.span(),
                };
                self.record(error);
                recover::skip_to(input, None, TRANSFORM_STARTS);
                name
            }
        };
        let mut transforms = Vec::new();
        while !self.stopped {
            let fork = input.fork();
            // A broken doc comment is reported when the transformation is parsed.
            let _ = docs(&fork);
            if fork.is_empty() || kw::peek(&fork, "loc") {
                break;
            }
            let start = input.cursor();
            match self.transform(input) {
                Ok(Some(transform)) => transforms.push(transform),
                Ok(None) => {}
                Err(error) => {
                    self.record(error);
                    recover::skip_to(input, Some(start), TRANSFORM_STARTS);
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

    /// `transform = [ "when" expr ] "do" "{" { action } [ jump ] "}" [ jump ]`. A broken
    /// guard is reported and skipped up to the transformation's `do` (`Ok(None)` when
    /// there is none: nothing is left of it to parse).
    fn transform(&mut self, input: ParseStream) -> syn::Result<Option<Transform>> {
        let doc = docs(input)?;
        let when = kw::parse_if(input, "when")?;
        let guard = match when.map(|_| expr(input)) {
            None => None,
            Some(Ok(guard)) => Some(guard),
            Some(Err(error)) => {
                self.record(error);
                recover::skip_to(input, None, TRANSFORM_STARTS);
                if !kw::peek(input, "do") {
                    return Ok(None);
                }
                None
            }
        };
        if !kw::peek(input, "do") {
            let message = if when.is_some() {
                "expected `do` after the guard"
            } else if starts_jump(input) {
                "a second jump: a transformation has exactly one, inside its braces or after them"
            } else {
                return Err(hints::control_flow(input).unwrap_or_else(|| {
                    input
                        .error("expected a transformation: `when guard do { ... }` or `do { ... }`")
                }));
            };
            return Err(input.error(message));
        }
        let do_keyword = kw::parse(input, "do")?;
        let body;
        let braces = syn::braced!(body in input);
        let (actions, inner_jump) = self.block(&body);
        let outer_jump = if starts_jump(input) {
            let start = input.cursor();
            jump(input)
                .map_err(|error| {
                    self.record(error);
                    recover::skip_statement(input, start, TRANSFORM_STARTS);
                })
                .ok()
        } else {
            None
        };
        let first = when.unwrap_or(do_keyword);
        let last = match &outer_jump {
            Some(jump) => jump.spans().last,
            None => braces.span.close(),
        };
        Ok(Some(Transform {
            doc,
            spans: Spans { first, last },
            guard,
            do_keyword,
            actions,
            inner_jump,
            outer_jump,
            invoke: None,
        }))
    }

    /// The statements in a transformation's braces: `{ action } [ jump ]`. A broken action
    /// or jump is reported and skipped up to its `;` (or the next jump).
    fn block(&mut self, body: ParseStream) -> (Vec<Action>, Option<Jump>) {
        let mut actions = Vec::new();
        while self.more(body) {
            let start = body.cursor();
            if starts_jump(body) {
                match jump(body) {
                    Ok(jump) if body.is_empty() => return (actions, Some(jump)),
                    Ok(jump) => {
                        self.record(body.error("the jump must be the last statement of the block"));
                        recover::skip_rest(body);
                        return (actions, Some(jump));
                    }
                    Err(error) => {
                        self.record(error);
                        recover::skip_statement(body, start, &["goto", "return"]);
                    }
                }
                continue;
            }
            match action(body) {
                Ok(action) => actions.push(action),
                Err(error) => {
                    self.record(error);
                    recover::skip_statement(body, start, &["goto", "return"]);
                }
            }
        }
        (actions, None)
    }
}

/// The inside of a thread's parentheses: `[ type IDENT ]`.
fn param(params: ParseStream) -> syn::Result<Option<Param>> {
    if params.is_empty() {
        return Ok(None);
    }
    let ty = ty(params)?;
    let name = name(params)?;
    if params.peek(Token![,]) {
        return Err(params.error("a thread takes at most one parameter"));
    }
    end_of_group(params, "the parameter")?;
    Ok(Some(Param { ty, name }))
}

/// Errors unless the group being parsed is finished.
pub(super) fn end_of_group(content: ParseStream, what: &str) -> syn::Result<()> {
    if content.is_empty() {
        Ok(())
    } else {
        Err(content.error(format!("unexpected token after {what}")))
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

#[cfg(test)]
mod tests;
