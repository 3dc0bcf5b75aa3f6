//! Recovery after a syntax error: skipping to the next point where parsing can safely
//! resume, at the level the error was found. Every skip consumes at least one token when
//! the broken construct consumed none, so that parsing always makes progress, and no more
//! than the broken construct when it consumed some, so that the next one is not lost.

use proc_macro2::{Delimiter, TokenTree};
use syn::buffer::Cursor;
use syn::parse::ParseStream;
use syn::Token;

use crate::front::kw;

/// Keywords that start a declaration of a system and stand nowhere inside one (a doc
/// comment's `#` starts one too). Not the built-in types, which start globals but also
/// stand in typealiases.
const DECLARATION_STARTS: &[&str] = &[
    "const",
    "typealias",
    "enum",
    "invariant",
    "active",
    "thread",
    "channel",
    "lock",
    "function",
    "fun",
    "record",
    "throwable",
    "heuristic",
];

/// Inside a system: skips the rest of a declaration whose parse failed after starting at
/// `start`. A declaration ends with a `;` or a brace group (a thread, a const block, an
/// enum; an array initialiser is followed by its `;`): when the failed parse already
/// consumed a brace group, only a `;` right after it is left to skip. Otherwise tokens are
/// skipped through the next `;` or brace group, or up to the next keyword that starts a
/// declaration.
pub(super) fn skip_declaration(input: ParseStream, start: Cursor) {
    if consumed_brace_group(start, input.cursor()) {
        let _ = input.parse::<Option<Token![;]>>();
        return;
    }
    let mut progress = input.cursor() != start;
    while !input.is_empty() {
        if progress && starts_declaration(input) {
            return;
        }
        progress = true;
        match input.parse::<TokenTree>() {
            Ok(TokenTree::Punct(p)) if p.as_char() == ';' => return,
            Ok(TokenTree::Group(g)) if g.delimiter() == Delimiter::Brace => {
                let _ = input.parse::<Option<Token![;]>>();
                return;
            }
            Ok(_) => {}
            Err(_) => return,
        }
    }
}

/// Skips the rest of a statement (an action, a jump, a local, a constant, a statement of a
/// high-level body) whose parse failed after starting at `start`: through its `;`, or
/// through a brace group (`if c { ... }`, with any `else { ... }` after it), or up to one
/// of `stops` (the keywords that start what follows statements: `loc` after locals, a jump
/// after actions, a block's keywords among high-level statements).
pub(super) fn skip_statement(input: ParseStream, start: Cursor, stops: &[&str]) {
    let mut progress = input.cursor() != start;
    while !input.is_empty() {
        if progress && stops.iter().any(|stop| kw::peek(input, stop)) {
            return;
        }
        progress = true;
        match input.parse::<TokenTree>() {
            Ok(TokenTree::Punct(p)) if p.as_char() == ';' => return,
            Ok(TokenTree::Group(g))
                if g.delimiter() == Delimiter::Brace && !kw::peek(input, "else") =>
            {
                return
            }
            Ok(_) => {}
            Err(_) => return,
        }
    }
}

/// Skips tokens up to the next of `stops` (or the end of the group). When `start` is given
/// and nothing was consumed since, skips at least one token first.
pub(super) fn skip_to(input: ParseStream, start: Option<Cursor>, stops: &[&str]) {
    let mut progress = start.is_none_or(|start| input.cursor() != start);
    while !input.is_empty() {
        if progress && stops.iter().any(|stop| kw::peek(input, stop)) {
            return;
        }
        progress = true;
        if input.parse::<TokenTree>().is_err() {
            return;
        }
    }
}

/// Skips everything left in the group.
pub(super) fn skip_rest(input: ParseStream) {
    while !input.is_empty() {
        if input.parse::<TokenTree>().is_err() {
            return;
        }
    }
}

/// True when the next token starts a declaration.
fn starts_declaration(input: ParseStream) -> bool {
    input.peek(Token![#])
        || DECLARATION_STARTS.iter().any(|word| kw::peek(input, word))
        || ((kw::peek(input, "ltl") || kw::peek(input, "reachable")) && input.peek2(syn::Ident))
}

/// True when the token trees from `start` up to `end` (in one group) include a brace group.
fn consumed_brace_group(start: Cursor, end: Cursor) -> bool {
    let mut cursor = start;
    while cursor < end {
        match cursor.token_tree() {
            Some((TokenTree::Group(g), _)) if g.delimiter() == Delimiter::Brace => return true,
            Some((_, next)) => cursor = next,
            None => return false,
        }
    }
    false
}
