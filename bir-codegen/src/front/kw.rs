//! BIR's reserved words, and peeking and parsing them. Rust's tokenizer delivers every
//! keyword (Rust's `do`, `in`, `return`, `const`, `enum` as well as BIR's `loc`, `when`)
//! as an identifier, so keywords are recognised by their text, in this one place.

use proc_macro2::Span;
use syn::ext::IdentExt;
use syn::parse::ParseStream;
use syn::Ident;

use crate::front::ast::LockOp;

/// Words that are never names (LANGUAGE.md, "Reserved words"): version 1's, then
/// [`RESERVED_SINCE_V3`].
pub const RESERVED: &[&str] = &[
    "system",
    "const",
    "typealias",
    "enum",
    "invariant",
    "boolean",
    "int",
    "wrap",
    "byte",
    "active",
    "thread",
    "loc",
    "when",
    "do",
    "goto",
    "return",
    "exit",
    "assert",
    "assume",
    "start",
    "true",
    "false",
    "forall",
    "exists",
    "in",
    // Version 3 (`RESERVED_SINCE_V3`).
    "record",
    "channel",
    "buffer",
    "lock",
    "function",
    "fun",
    "returns",
    "invoke",
    "null",
    "new",
    "throwable",
    "throw",
    "try",
    "catch",
    "atomic",
    "if",
    "elseif",
    "else",
    "while",
    "choose",
    "skip",
    "end",
    "tid",
    "heuristic",
];

/// How many of [`RESERVED`] are version 1's; the rest are [`RESERVED_SINCE_V3`].
const V1_RESERVED: usize = 25;

/// The reserved words that version 3 added (LANGUAGE.md, "Version 3"): a model of version 1
/// or 2 that uses one as a name is told that the word is reserved since version 3.
pub const RESERVED_SINCE_V3: &[&str] = RESERVED.split_at(V1_RESERVED).1;

/// True when `text` is a reserved word.
pub fn is_reserved(text: &str) -> bool {
    RESERVED.contains(&text)
}

/// True when `text` is a word that version 3 reserved.
pub fn is_reserved_since_v3(text: &str) -> bool {
    RESERVED_SINCE_V3.contains(&text)
}

/// The built-ins that are statements of a lock (LANGUAGE.md, "Locks"): each is one only
/// where `(` follows (`lock` is reserved; the others may still name variables).
pub const LOCK_ACTIONS: &[(&str, LockOp)] = &[
    ("lock", LockOp::Lock),
    ("unlock", LockOp::Unlock),
    ("wait", LockOp::Wait),
    ("unwait", LockOp::Unwait),
    ("notify", LockOp::Notify),
    ("notifyAll", LockOp::NotifyAll),
];

/// The lock action named `text`, if any.
pub fn lock_action(text: &str) -> Option<LockOp> {
    LOCK_ACTIONS
        .iter()
        .find(|(word, _)| *word == text)
        .map(|(_, op)| *op)
}

/// True when the next token is the identifier `keyword`.
pub fn peek(input: ParseStream, keyword: &str) -> bool {
    input
        .cursor()
        .ident()
        .is_some_and(|(ident, _)| ident == keyword)
}

/// Parses the identifier `keyword` and returns its span.
pub fn parse(input: ParseStream, keyword: &str) -> syn::Result<Span> {
    if peek(input, keyword) {
        let ident = Ident::parse_any(input)?;
        Ok(ident.span())
    } else {
        Err(input.error(format!("expected `{keyword}`")))
    }
}

/// Parses `keyword` if it is next, returning its span.
pub fn parse_if(input: ParseStream, keyword: &str) -> syn::Result<Option<Span>> {
    if peek(input, keyword) {
        parse(input, keyword).map(Some)
    } else {
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_3_added_its_words_after_version_1s() {
        assert_eq!(RESERVED[V1_RESERVED - 1], "in");
        assert_eq!(RESERVED_SINCE_V3.first(), Some(&"record"));
        assert_eq!(RESERVED_SINCE_V3.last(), Some(&"heuristic"));
        assert_eq!(RESERVED_SINCE_V3.len(), 24);
        // The built-ins of channels and locks are names wherever `(` does not follow.
        for builtin in [
            "unlock",
            "wait",
            "notifyAll",
            "len",
            "empty",
            "full",
            "hasLock",
        ] {
            assert!(!is_reserved(builtin), "{builtin}");
        }
    }
}
