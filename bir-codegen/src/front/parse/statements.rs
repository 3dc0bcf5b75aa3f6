//! The statements of a high-level body (LANGUAGE.md, "High-level bodies"):
//!
//! ```ebnf
//! stmt     = [ label ] ( simple | block ) ;
//! simple   = action | comm | call | "skip" ";" | jump ;
//! block    = "atomic" { stmt } "end"
//!          | "if" expr "do" { stmt } { "elseif" expr "do" { stmt } } [ "else" "do" { stmt } ] "end"
//!          | "while" expr "do" { stmt } "end"
//!          | "choose" { "when" expr "do" { stmt } } [ "else" "do" { stmt } ] "end"
//!          | "try" { stmt } { "catch" "(" IDENT IDENT ")" { stmt } } "end" ;
//! label    = "loc" IDENT ":" ;
//! ```
//!
//! Recovery: a broken statement is
//! skipped through its `;` or up to the next keyword that starts or ends a statement; a
//! block without its `do` or `end` is reported where the keyword was expected and the
//! statements around it are still parsed; braces around a block's statements, a habit of
//! other languages, are reported and their statements parsed as the block's.

use proc_macro2::{Span, TokenTree};
use syn::parse::ParseStream;
use syn::Token;

use super::docs::docs;
use super::hints::{self, Place};
use super::stmt::{
    action_spans, call, starts_call, starts_call_with_target, starts_jump, unterminated_action,
    unterminated_jump,
};
use super::{expr, recover, Parser};
use crate::front::ast::*;
use crate::front::kw;

/// Keywords that end a list of statements: the next branch of a block, or its end.
const LIST_ENDS: &[&str] = &["end", "elseif", "else", "when", "catch"];

/// Keywords where parsing resumes after a broken statement, when its `;` does not come
/// first: those that start a statement or end a list of them.
const STATEMENT_STARTS: &[&str] = &[
    "end", "elseif", "else", "when", "catch", "loc", "atomic", "if", "while", "choose", "try",
    "skip", "goto", "return",
];

/// Where a broken condition is skipped to: its `do`, or the end of its branch.
const CONDITION_ENDS: &[&str] = &["do", "end", "elseif", "else", "when"];

impl Parser {
    /// The statements of a high-level body, up to the end of its braces. A keyword that
    /// ends a list where no block is open (`end`, `else`, ...) is reported, and skipped
    /// with what belongs to it (a branch's condition and statements).
    pub(super) fn body_statements(&mut self, input: ParseStream) -> Vec<Stmt> {
        let mut statements = Vec::new();
        loop {
            statements.extend(self.statements(input));
            if !self.more(input) {
                return statements;
            }
            let start = input.cursor();
            if let Err(error) = self.stray(input) {
                self.record(error);
                recover::skip_to(input, Some(start), STATEMENT_STARTS);
            }
        }
    }

    /// A keyword that ends a list of statements where no block is open: reported, then
    /// skipped with its branch.
    fn stray(&mut self, input: ParseStream) -> syn::Result<()> {
        // Doc comments before it go with it.
        docs(input)?;
        let word = input
            .cursor()
            .ident()
            .map(|(ident, _)| ident.to_string())
            .unwrap_or_default();
        let message = match word.as_str() {
            "end" => "`end` without a block to close: `end` closes `atomic`, `if`, `while` \
                      and `choose`"
                .to_string(),
            "when" => "`when` outside a `choose`: guarded branches are written \
                       `choose when c do ... end`"
                .to_string(),
            "catch" => "`catch` outside a `try`".to_string(),
            _ => format!("`{word}` outside an `if`: `if c do ... elseif d do ... else do ... end`"),
        };
        let keyword = input.span();
        self.record(syn::Error::new(keyword, message));
        kw::parse(input, &word)?;
        match word.as_str() {
            "when" | "elseif" => {
                self.guarded(input, keyword, "when c do ...")?;
                kw::parse_if(input, "end")?;
            }
            "else" => {
                self.expect_do(input, "after `else`: `else do ... end`")?;
                self.branch(input, "else do ... end")?;
                kw::parse_if(input, "end")?;
            }
            "catch" if input.peek(syn::token::Paren) => {
                input.parse::<proc_macro2::Group>()?;
            }
            _ => {}
        }
        Ok(())
    }

    /// `{ stmt }`, up to a keyword that ends the list or the end of the group.
    fn statements(&mut self, input: ParseStream) -> Vec<Stmt> {
        let mut statements = Vec::new();
        while self.more(input) {
            let fork = input.fork();
            // A broken doc comment is reported when the statement is parsed.
            let _ = docs(&fork);
            if LIST_ENDS.iter().any(|word| kw::peek(&fork, word)) {
                break;
            }
            let start = input.cursor();
            match self.statement(input) {
                Ok(statement) => statements.push(statement),
                Err(error) => {
                    self.record(error);
                    recover::skip_statement(input, start, STATEMENT_STARTS);
                }
            }
        }
        statements
    }

    /// `stmt = [ label ] ( simple | block )`, after its doc comments.
    fn statement(&mut self, input: ParseStream) -> syn::Result<Stmt> {
        let doc = docs(input)?;
        let label = if kw::peek(input, "loc") {
            Some(self.label(input)?)
        } else {
            None
        };
        if kw::peek(input, "when") || (kw::peek(input, "do") && input.peek2(syn::token::Brace)) {
            let error = input.error(
                "a transformation among statements: a body is either locations with \
                 transformations (`loc name: when c do { ... } goto l;`) or statements, not both",
            );
            recover::skip_rest(input);
            return Err(error);
        }
        if label.is_some() && (input.is_empty() || LIST_ENDS.iter().any(|w| kw::peek(input, w))) {
            return Err(input.error(
                "expected a statement after the label: a label names the statement that follows it",
            ));
        }
        let first = input.span();
        let (kind, last) = if kw::peek(input, "atomic") {
            self.atomic(input)?
        } else if kw::peek(input, "if") {
            self.if_block(input)?
        } else if kw::peek(input, "while") {
            self.while_block(input)?
        } else if kw::peek(input, "choose") {
            self.choose(input)?
        } else if kw::peek(input, "try") {
            self.try_block(input)?
        } else if let Some(error) = hints::control_flow(input, Place::Statement) {
            self.foreign_loop(input, error)?
        } else {
            self.simple(input)?
        };
        Ok(Stmt {
            doc,
            label,
            kind,
            spans: Spans { first, last },
        })
    }

    /// `label = "loc" IDENT ":"`.
    fn label(&mut self, input: ParseStream) -> syn::Result<Name> {
        kw::parse(input, "loc")?;
        let name = self.name(input)?;
        if !input.peek(Token![:]) {
            return Err(input.error(format!(
                "expected `:` after the label's name: `loc {}:`",
                name.text
            )));
        }
        input.parse::<Token![:]>()?;
        Ok(name)
    }

    /// `"atomic" { stmt } "end"`.
    fn atomic(&mut self, input: ParseStream) -> syn::Result<(StmtKind, Span)> {
        let keyword = kw::parse(input, "atomic")?;
        let (body, braced) = self.branch(input, "atomic ... end")?;
        let last = self.end(input, "atomic", braced)?.unwrap_or(keyword);
        Ok((StmtKind::Atomic { keyword, body }, last))
    }

    /// `"if" expr "do" { stmt } { "elseif" expr "do" { stmt } } [ "else" "do" { stmt } ]
    /// "end"`. `else if` is told to be `elseif`; a branch after the `else` one is
    /// reported and parsed.
    fn if_block(&mut self, input: ParseStream) -> syn::Result<(StmtKind, Span)> {
        let keyword = kw::parse(input, "if")?;
        let mut branches = vec![self.guarded(input, keyword, "if c do ... end")?];
        let mut otherwise: Option<Vec<Stmt>> = None;
        let mut braced = branches[0].1;
        loop {
            self.branch_docs(input)?;
            let late = otherwise.is_some();
            let branch_keyword = if let Some(span) = kw::parse_if(input, "elseif")? {
                span
            } else if kw::peek(input, "else") {
                let fork = input.fork();
                kw::parse(&fork, "else")?;
                if kw::peek(&fork, "if") {
                    let span = kw::parse(input, "else")?;
                    self.record(syn::Error::new(
                        span,
                        "BIR writes `elseif c do`, not `else if c do`",
                    ));
                    kw::parse(input, "if")?
                } else {
                    let span = kw::parse(input, "else")?;
                    if late {
                        self.record(syn::Error::new(
                            span,
                            "an `if` has one `else` branch, the last",
                        ));
                    }
                    self.expect_do(input, "after `else`: `else do ... end`")?;
                    let (body, was_braced) = self.branch(input, "else do ... end")?;
                    braced = was_braced;
                    otherwise = Some(body);
                    continue;
                }
            } else {
                break;
            };
            if late {
                self.record(syn::Error::new(
                    branch_keyword,
                    "the `else` branch is the last of an `if`: an `elseif` comes before it",
                ));
            }
            let branch = self.guarded(input, branch_keyword, "elseif c do ...")?;
            braced = branch.1;
            branches.push(branch);
        }
        let last = self.end(input, "if", braced)?.unwrap_or(keyword);
        let branches = branches.into_iter().map(|(branch, _)| branch).collect();
        Ok((
            StmtKind::If {
                keyword,
                branches,
                otherwise,
            },
            last,
        ))
    }

    /// `"while" expr "do" { stmt } "end"`.
    fn while_block(&mut self, input: ParseStream) -> syn::Result<(StmtKind, Span)> {
        let keyword = kw::parse(input, "while")?;
        let (branch, braced) = self.guarded(input, keyword, "while c do ... end")?;
        let last = self.end(input, "while", braced)?.unwrap_or(keyword);
        Ok((
            StmtKind::While {
                keyword,
                cond: branch.cond,
                body: branch.body,
            },
            last,
        ))
    }

    /// `"choose" { "when" expr "do" { stmt } } [ "else" "do" { stmt } ] "end"`. Statements
    /// without their `when c do` are reported and parsed as a branch.
    fn choose(&mut self, input: ParseStream) -> syn::Result<(StmtKind, Span)> {
        let keyword = kw::parse(input, "choose")?;
        let mut branches = Vec::new();
        let mut otherwise: Option<Vec<Stmt>> = None;
        let mut braced = false;
        while self.more(input) && !kw::peek(input, "end") {
            self.branch_docs(input)?;
            let late = otherwise.is_some();
            if let Some(span) = kw::parse_if(input, "else")? {
                if late {
                    self.record(syn::Error::new(
                        span,
                        "a `choose` has one `else` branch, the last",
                    ));
                }
                self.expect_do(input, "after `else`: `else do ... end`")?;
                let (body, was_braced) = self.branch(input, "else do ... end")?;
                braced = was_braced;
                otherwise = Some(body);
                continue;
            }
            let branch_keyword = if let Some(span) = kw::parse_if(input, "when")? {
                span
            } else if let Some(span) = kw::parse_if(input, "elseif")? {
                self.record(syn::Error::new(
                    span,
                    "`elseif` belongs to an `if`: the branches of a `choose` are `when c do ...`",
                ));
                span
            } else {
                // Statements with no `when` before them, or a stray `catch`.
                self.record(input.error(
                    "expected `when`, `else` or `end`: the branches of a `choose` are \
                     `when c do ...`",
                ));
                if kw::peek(input, "catch") {
                    recover::skip_to(input, Some(input.cursor()), STATEMENT_STARTS);
                } else {
                    self.statements(input);
                }
                continue;
            };
            if late {
                self.record(syn::Error::new(
                    branch_keyword,
                    "the `else` branch is the last of a `choose`: a `when` comes before it",
                ));
            }
            let (branch, was_braced) = self.guarded(input, branch_keyword, "when c do ...")?;
            braced = was_braced;
            branches.push(branch);
        }
        let last = self.end(input, "choose", braced)?.unwrap_or(keyword);
        Ok((
            StmtKind::Choose {
                keyword,
                branches,
                otherwise,
            },
            last,
        ))
    }

    /// `"try" { stmt } { "catch" "(" IDENT IDENT ")" { stmt } } "end"`. A broken
    /// `catch (R x)` is reported and its handler's statements still parsed.
    fn try_block(&mut self, input: ParseStream) -> syn::Result<(StmtKind, Span)> {
        let keyword = kw::parse(input, "try")?;
        let (body, mut braced) = self.branch(input, "try ... catch (R x) ... end")?;
        let mut handlers = Vec::new();
        let mut catches = false;
        while let Some(catch) = kw::parse_if(input, "catch")? {
            catches = true;
            let header = catch_header(input);
            let (handler, was_braced) = self.branch(input, "catch (R x) ... end")?;
            braced = was_braced;
            match header {
                Ok((record, var)) => handlers.push(Handler {
                    keyword: catch,
                    record,
                    var,
                    body: handler,
                }),
                Err(error) => self.record(error),
            }
        }
        if !catches && !self.stopped {
            self.record(syn::Error::new(
                keyword,
                "a `try` without a `catch`: write its handlers, `try ... catch (R x) ... end`",
            ));
        }
        let last = self.end(input, "try", braced)?.unwrap_or(keyword);
        Ok((
            StmtKind::Try {
                keyword,
                body,
                handlers,
            },
            last,
        ))
    }

    /// A condition, its `do` and its statements, after the branch's keyword: a branch of
    /// an `if`, `while` or `choose`, and whether its statements were braced. A broken
    /// condition is reported and skipped up to its `do`.
    fn guarded(
        &mut self,
        input: ParseStream,
        keyword: Span,
        example: &str,
    ) -> syn::Result<(Branch, bool)> {
        let cond = match expr(input) {
            Ok(cond) => cond,
            Err(error) => {
                self.record(error);
                recover::skip_to(input, None, CONDITION_ENDS);
                Expr::Bool {
                    value: true,
                    span: keyword,
                }
            }
        };
        self.expect_do(input, &format!("after the condition: `{example}`"))?;
        let (body, braced) = self.branch(input, example)?;
        Ok((
            Branch {
                keyword,
                cond,
                body,
            },
            braced,
        ))
    }

    /// Doc comments before a branch's keyword (or a block's `end`), where none stands:
    /// reported and skipped.
    fn branch_docs(&mut self, input: ParseStream) -> syn::Result<()> {
        if input.peek(Token![#]) {
            let span = input.span();
            docs(input)?;
            self.record(syn::Error::new(
                span,
                "a doc comment stands before a statement, not before a branch or an `end`",
            ));
        }
        Ok(())
    }

    /// The `do` of a branch. Missing, it is reported (unless braces stand there, which
    /// [`Parser::branch`] reports) and the branch's statements are parsed all the same.
    fn expect_do(&mut self, input: ParseStream, example: &str) -> syn::Result<()> {
        if kw::parse_if(input, "do")?.is_none() && !input.peek(syn::token::Brace) {
            self.record(input.error(format!("expected `do` {example}")));
        }
        Ok(())
    }

    /// The statements of a branch or an `atomic` block, up to the keyword that ends them,
    /// and whether they were written in braces: a habit of other languages, reported, whose
    /// content is parsed as the statements (the block then needs no `end`).
    fn branch(&mut self, input: ParseStream, example: &str) -> syn::Result<(Vec<Stmt>, bool)> {
        if !input.peek(syn::token::Brace) {
            return Ok((self.statements(input), false));
        }
        let content;
        let braces = syn::braced!(content in input);
        self.record(syn::Error::new(
            braces.span.open(),
            format!("BIR does not put statements in braces: write `{example}`"),
        ));
        Ok((self.body_statements(&content), true))
    }

    /// The `end` of a block, and its span. Missing, it is reported where it was expected
    /// (`None`), unless the block's statements were braced.
    fn end(&mut self, input: ParseStream, block: &str, braced: bool) -> syn::Result<Option<Span>> {
        if let Some(span) = kw::parse_if(input, "end")? {
            return Ok(Some(span));
        }
        if !braced {
            self.record(input.error(format!("expected `end` to close the `{block}`")));
        }
        Ok(None)
    }
}

/// `"(" IDENT IDENT ")"` after a handler's `catch`: the record type and the variable.
fn catch_header(input: ParseStream) -> syn::Result<(Name, Name)> {
    let example = "expected `(R x)` after `catch`: the exception's record type and a name \
                   for it, `catch (Full e)`";
    if !input.peek(syn::token::Paren) {
        let error = input.error(example);
        // `catch Bad b` without its parentheses: the two names go with the header.
        let fork = input.fork();
        if super::name(&fork).and_then(|_| super::name(&fork)).is_ok() {
            super::name(input)?;
            super::name(input)?;
        }
        return Err(error);
    }
    let content;
    let parens = syn::parenthesized!(content in input);
    let header = (|| {
        let record = super::name(&content)?;
        let var = super::name(&content)?;
        if !content.is_empty() {
            return Err(content.error("expected `)`: `catch (R x)` names a type and a variable"));
        }
        Ok((record, var))
    })();
    header.map_err(|_| syn::Error::new(parens.span.join(), example))
}

impl Parser {
    /// `simple = action | comm | call | "skip" ";" | jump`, and the statement's last token.
    fn simple(&mut self, input: ParseStream) -> syn::Result<(StmtKind, Span)> {
        if starts_jump(input) {
            let mut jump = unterminated_jump(input)?;
            if let Some(semi) = self.semicolon(input)? {
                match &mut jump {
                    Jump::Goto { spans, .. } | Jump::Return { spans, .. } => spans.last = semi,
                }
            }
            let last = jump.spans().last;
            return Ok((StmtKind::Jump(jump), last));
        }
        if let Some(skip) = kw::parse_if(input, "skip")? {
            let last = self.semicolon(input)?.unwrap_or(skip);
            return Ok((StmtKind::Skip, last));
        }
        if starts_call(input) || starts_call_with_target(input) {
            let call = call(input)?;
            let last = self.semicolon(input)?.unwrap_or(call.spans.last);
            return Ok((StmtKind::Call(call), last));
        }
        let mut action = unterminated_action(input, Place::Statement)?;
        if let Some(semi) = self.semicolon(input)? {
            action_spans(&mut action).last = semi;
        }
        let last = action.spans().last;
        Ok((StmtKind::Action(action), last))
    }

    /// The `;` that ends a simple statement, and its span. Missing where the next token
    /// can start a statement (a name, a keyword, a doc comment, or the end of the body),
    /// it is reported and parsing goes on from that token (`None`); otherwise it is an
    /// error, and the statement is skipped.
    fn semicolon(&mut self, input: ParseStream) -> syn::Result<Option<Span>> {
        if input.peek(Token![;]) {
            return Ok(Some(input.parse::<Token![;]>()?.span));
        }
        let error = input.error("expected `;`");
        if input.is_empty() || input.cursor().ident().is_some() || input.peek(Token![#]) {
            self.record(error);
            return Ok(None);
        }
        Err(error)
    }

    /// A loop of another language (`for ...`, `loop ...`): reported, then skipped with its
    /// body (up to `do` and through its `end`, or through its braces).
    fn foreign_loop(
        &mut self,
        input: ParseStream,
        error: syn::Error,
    ) -> syn::Result<(StmtKind, Span)> {
        let keyword = error.span();
        self.record(error);
        input.parse::<TokenTree>()?;
        while !input.is_empty()
            && !kw::peek(input, "do")
            && !input.peek(syn::token::Brace)
            && !input.peek(Token![;])
            && !LIST_ENDS.iter().any(|word| kw::peek(input, word))
        {
            input.parse::<TokenTree>()?;
        }
        if kw::parse_if(input, "do")?.is_some() {
            self.statements(input);
            kw::parse_if(input, "end")?;
        } else if input.peek(syn::token::Brace) {
            let content;
            syn::braced!(content in input);
            self.body_statements(&content);
        } else {
            input.parse::<Option<Token![;]>>()?;
        }
        Ok((StmtKind::Skip, keyword))
    }
}
