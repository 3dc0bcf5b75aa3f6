//! Tokens to [`ast::System`](crate::front::ast::System): a recursive-descent parser over
//! `syn`'s parse streams, one function per production of the grammar in LANGUAGE.md.
//!
//! The parser keeps going after a syntax error so that every mistake is reported at once.
//! Each level that holds a list resumes at its next element (`recover`): a broken
//! declaration is skipped through its `;` or braces, or up to the next declaration; a
//! broken location up to the next `loc`; a broken guard or transformation up to the next
//! `do`, `when` or `loc`; a broken statement (a constant, a local, an action, a jump, a
//! statement of a high-level body), with the expressions in it, through its `;`; a block
//! (`if`, `while`, ...) that lacks its `do` or its `end` is reported and its statements still
//! parsed. A broken thread, function or location header is reported and its body still
//! parsed. Mistakes that are habits from other languages are told apart (`hints`). At most
//! [`MAX_SYNTAX_ERRORS`] are reported.
//!
//! The modules: declarations here and in `decls` (threads, channels, locks, functions),
//! bodies in `body` (locals, then locations and transformations, or statements, which
//! `statements` parses), actions and jumps in `stmt`, types and variables in `items`,
//! expressions in `expr`, LTL formulas in `formula`, doc comments in `docs`.

use proc_macro2::{Span, TokenStream, TokenTree};
use syn::ext::IdentExt;
use syn::parse::{ParseStream, Parser as _};
use syn::{Ident, Token};

use crate::front::ast::*;
use crate::front::kw;

mod body;
mod decls;
mod docs;
mod expr;
mod formula;
mod hints;
mod items;
mod records;
mod recover;
mod statements;
mod stmt;

use docs::{docs, inner_docs};
pub(crate) use expr::expr;
pub use expr::MAX_EXPR_DEPTH;
use items::{enum_decl, starts_type, ty, var_decl};

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
    /// thread | chan_decl | lock_decl | function | fun | record | heuristic`; `ltl` and
    /// `reachable` are keywords only where a declaration starts with one followed by a name.
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
        } else if kw::peek(input, "channel") {
            self.channel(input, doc).map(Decl::Channel)
        } else if kw::peek(input, "lock") {
            self.lock(input, doc).map(Decl::Lock)
        } else if kw::peek(input, "function") {
            self.function(input, doc).map(Decl::Function)
        } else if kw::peek(input, "fun") {
            self.fun(input, doc).map(Decl::Fun)
        } else if kw::peek(input, "record") || kw::peek(input, "throwable") {
            self.record_decl(input, doc).map(Decl::Record)
        } else if kw::peek(input, "heuristic") {
            let keyword = kw::parse(input, "heuristic")?;
            let name = self.name(input)?;
            input.parse::<Token![:]>()?;
            let expr = expr(input)?;
            input.parse::<Token![;]>()?;
            Ok(Decl::Heuristic(Invariant {
                doc,
                keyword,
                name,
                expr,
            }))
        } else if starts_type(input) {
            // `if`, `while`, ... parse as a type name; say what they are only if the
            // declaration fails.
            let habit = hints::control_flow(input, hints::Place::Declaration);
            var_decl(input, doc)
                .map(Decl::Global)
                .map_err(|error| habit.unwrap_or(error))
        } else {
            Err(
                hints::control_flow(input, hints::Place::Declaration).unwrap_or_else(|| {
                    input.error(
                        "expected a declaration: `const`, `typealias`, `enum`, a variable, \
                     `channel`, `lock`, `record`, `invariant`, `ltl`, `reachable`, `heuristic`, \
                     `active`, `thread`, `function` or `fun`",
                    )
                }),
            )
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
}

/// The error of a construct of version 3 that this parser does not take yet (records, pools,
/// exceptions, heuristics), at `span`: `what` names it.
pub(super) fn not_yet(span: Span, what: &str) -> syn::Error {
    syn::Error::new(
        span,
        format!("{what} is version 3 of BIR, which bir does not parse yet"),
    )
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
        } else if kw::is_reserved_since_v3(&text) {
            "a reserved word since version 3 of BIR"
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
