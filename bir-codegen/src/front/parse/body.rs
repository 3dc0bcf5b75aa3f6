//! The body of a thread or a function: `body = { local } ( location { location } | stmt
//! { stmt } )`, and the low-level half of it, locations and their transformations. The
//! statements of a high-level body are parsed by `statements`.

use syn::parse::ParseStream;
use syn::Token;

use super::docs::docs;
use super::hints::{self, Place};
use super::items::{starts_type, var_decl};
use super::stmt::{action, call, jump, starts_jump};
use super::{expr, name, recover, Parser};
use crate::front::ast::*;
use crate::front::kw;

/// The keywords a transformation starts with, or the next location: where parsing
/// resumes after a broken transformation.
pub(super) const TRANSFORM_STARTS: &[&str] = &["loc", "when", "do"];

impl Parser {
    /// `body = { local } ( location { location } | stmt { stmt } )`, inside the braces of
    /// a thread or a function. After the locals, `loc name:` followed by a transformation
    /// (`when`, `do`, or its doc comment) starts a low-level body, and so does anything
    /// that can only be a location gone wrong (`loc` without its `:`, an empty location, a
    /// transformation outside a location); anything else is a body of statements. An
    /// empty body is returned empty, for the caller to report.
    pub(super) fn body(&mut self, input: ParseStream) -> Body {
        let locals = self.locals(input);
        let mut body = Body {
            locals,
            ..Body::default()
        };
        if self.stopped || input.is_empty() {
            return body;
        }
        if starts_locations(input) {
            while self.more(input) {
                let start = input.cursor();
                if starts_catch(input) {
                    match catch_clause(input) {
                        Ok(catch) => body.catches.push(catch),
                        Err(error) => {
                            self.record(error);
                            recover::skip_statement(input, start, &["loc", "catch"]);
                        }
                    }
                    continue;
                }
                match self.location(input) {
                    Ok(location) => body.locations.push(location),
                    Err(error) => {
                        self.record(error);
                        recover::skip_to(input, Some(start), &["loc", "catch"]);
                    }
                }
            }
        } else {
            body.statements = self.body_statements(input);
        }
        body
    }

    /// The locals at the start of a body: `{ type IDENT [ ":=" init ] ";" }`, up to the
    /// first token that cannot start one (`loc`, `when`, `do`, a statement).
    fn locals(&mut self, body: ParseStream) -> Vec<VarDecl> {
        let mut locals = Vec::new();
        while !self.stopped {
            let fork = body.fork();
            // A broken doc comment is reported when the local is parsed.
            let _ = docs(&fork);
            if fork.is_empty() || !starts_local(&fork) {
                break;
            }
            let start = body.cursor();
            let habit = hints::control_flow(&fork, Place::Local);
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
            hints::control_flow(input, Place::Transform).unwrap_or_else(|| {
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
            if fork.is_empty() || kw::peek(&fork, "loc") || kw::peek(&fork, "catch") {
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

    /// `transform = [ "when" expr ] "do" "{" { action } [ jump ] "}" ( [ jump ] | "invoke"
    /// [ lvalue ":=" ] IDENT "(" [ expr { "," expr } ] ")" "goto" IDENT ";" )`. A broken
    /// guard is reported and skipped up to the transformation's `do` (`Ok(None)` when there
    /// is none: nothing is left of it to parse).
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
            } else if kw::peek(input, "invoke") {
                "`invoke` follows a transformation's braces: `do { ... } invoke f(..) goto l;`"
            } else {
                return Err(
                    hints::control_flow(input, Place::Transform).unwrap_or_else(|| {
                        input.error(
                            "expected a transformation: `when guard do { ... }` or `do { ... }`",
                        )
                    }),
                );
            };
            return Err(input.error(message));
        }
        let do_keyword = kw::parse(input, "do")?;
        let body;
        let braces = syn::braced!(body in input);
        let (actions, inner_jump) = self.block(&body);
        let start = input.cursor();
        let invoke = if kw::peek(input, "invoke") {
            match invoke(input) {
                Ok(call) => Some(call),
                Err(error) => {
                    self.record(error);
                    recover::skip_statement(input, start, TRANSFORM_STARTS);
                    None
                }
            }
        } else {
            None
        };
        let outer_jump = if invoke.is_some() && !kw::peek(input, "goto") {
            self.record(input.error(
                "expected `goto` after the call: the caller continues at a location when the \
                 function returns, `invoke f(..) goto l;`",
            ));
            recover::skip_statement(input, start, TRANSFORM_STARTS);
            None
        } else if starts_jump(input) {
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
        let last = match (&outer_jump, &invoke) {
            (Some(jump), _) => jump.spans().last,
            (None, Some(call)) => call.spans.last,
            (None, None) => braces.span.close(),
        };
        Ok(Some(Transform {
            doc,
            spans: Spans { first, last },
            guard,
            do_keyword,
            actions,
            inner_jump,
            outer_jump,
            invoke,
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
            match action(body, Place::Action) {
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

/// True when the next tokens (after doc comments) are a `catch` clause.
fn starts_catch(input: ParseStream) -> bool {
    let fork = input.fork();
    let _ = docs(&fork);
    kw::peek(&fork, "catch")
}

/// `catch = "catch" IDENT IDENT "at" IDENT { "," IDENT } "goto" IDENT ";"`: the record
/// type, the variable, the covered locations and the handler, among a body's locations.
fn catch_clause(input: ParseStream) -> syn::Result<Catch> {
    docs(input)?;
    let keyword = kw::parse(input, "catch")?;
    let example = "`catch R x at l1, l2 goto h;`";
    if input.peek(syn::token::Paren) {
        return Err(input.error(format!(
            "a `catch` among locations is written without parentheses: {example}"
        )));
    }
    let record = name(input)?;
    let var = name(input)?;
    if kw::parse_if(input, "at")?.is_none() {
        return Err(input.error(format!(
            "expected `at` and the locations the `catch` covers: {example}"
        )));
    }
    let mut covered = vec![name(input)?];
    while input.peek(Token![,]) {
        input.parse::<Token![,]>()?;
        covered.push(name(input)?);
    }
    if kw::parse_if(input, "goto")?.is_none() {
        return Err(input.error(format!(
            "expected `goto` and the handler's location: {example}"
        )));
    }
    let handler = name(input)?;
    let semi = input.parse::<Token![;]>()?;
    Ok(Catch {
        keyword,
        record,
        var,
        covered,
        handler,
        spans: Spans {
            first: keyword,
            last: semi.span,
        },
    })
}

/// `"invoke" [ lvalue ":=" ] IDENT "(" [ expr { "," expr } ] ")"` after a transformation's
/// braces (the `goto` that follows is its outer jump).
fn invoke(input: ParseStream) -> syn::Result<Call> {
    kw::parse(input, "invoke")?;
    let named = input
        .cursor()
        .ident()
        .is_some_and(|(ident, _)| !kw::is_reserved(&ident.to_string()));
    if !named {
        return Err(input.error("expected the function to call: `invoke f(..) goto l;`"));
    }
    call(input)
}

/// True when the next tokens start a local: a built-in type (or `tid`), or a name followed
/// by a name (`Level l`) or by a bracketed length and a name (`Level[3] ls`). Statements
/// start otherwise: `x := e`, `a[i] := e`, `c!(..)`, `f(..)`, a keyword.
fn starts_local(input: ParseStream) -> bool {
    let Some((ident, rest)) = input.cursor().ident() else {
        return false;
    };
    let text = ident.to_string();
    if matches!(text.as_str(), "boolean" | "byte" | "int" | "tid") {
        return true;
    }
    if !starts_type(input) {
        return false;
    }
    let rest = match rest.group(proc_macro2::Delimiter::Bracket) {
        Some((_, _, after)) => after,
        None => rest,
    };
    rest.ident().is_some()
}

/// True when a body (after its locals) is made of locations: `loc name:` followed by a
/// transformation (or by nothing or the next location: an empty location), a broken
/// location header, or a transformation outside a location.
fn starts_locations(input: ParseStream) -> bool {
    let fork = input.fork();
    let _ = docs(&fork);
    if kw::peek(&fork, "when") || kw::peek(&fork, "do") {
        return true;
    }
    if !kw::parse_if(&fork, "loc").is_ok_and(|keyword| keyword.is_some()) {
        return false;
    }
    if fork.cursor().ident().is_none() || fork.parse::<proc_macro2::TokenTree>().is_err() {
        return true;
    }
    if !fork.peek(Token![:]) || fork.peek(Token![::]) || fork.parse::<Token![:]>().is_err() {
        return true;
    }
    // After `loc name:`, a transformation, or nothing (an empty location, which the checker
    // reports), or the next location.
    fork.is_empty()
        || fork.peek(Token![#])
        || TRANSFORM_STARTS.iter().any(|word| kw::peek(&fork, word))
}
