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

/// Words that are keywords only where a declaration or a clause expects them, and may still
/// name variables: version 2's properties (`ltl`, `reachable`, before a name) and the `at`
/// of `catch R e at l1, l2 goto l;`. The parser matches them where they stand; the tests
/// hold its calls and the editors' grammar (`editors/bir.tmLanguage.json`) against this list.
#[cfg(test)]
pub const CONTEXTUAL: &[&str] = &["ltl", "reachable", "at"];

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
    use crate::front::ast::Builtin;

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

    #[test]
    fn every_built_in_is_listed_once() {
        // A new variant makes this match non-exhaustive: list it in `Builtin::ALL` too.
        let position = |builtin: Builtin| match builtin {
            Builtin::LockAvailable => 0,
            Builtin::HasLock => 1,
            Builtin::WasNotified => 2,
            Builtin::Len => 3,
            Builtin::Empty => 4,
            Builtin::Full => 5,
            Builtin::ThreadTerminated => 6,
        };
        for (index, builtin) in Builtin::ALL.into_iter().enumerate() {
            assert_eq!(position(builtin), index);
            assert_eq!(Builtin::named(builtin.name()), Some(builtin));
        }
    }

    /// The words of every `kw::peek`, `kw::parse` and `kw::parse_if` call in the front end's
    /// sources: what the parser treats as a keyword somewhere.
    fn words_the_parser_matches() -> Vec<String> {
        fn walk(dir: &std::path::Path, words: &mut Vec<String>) {
            for entry in std::fs::read_dir(dir).expect("a source folder") {
                let path = entry.expect("an entry").path();
                if path.is_dir() {
                    walk(&path, words);
                } else if path.extension().is_some_and(|e| e == "rs")
                    // This file: the calls in its functions and in this test name no word.
                    && !path.ends_with("front/kw.rs")
                {
                    let text = std::fs::read_to_string(&path).expect("a source file");
                    for call in ["kw::peek(", "kw::parse(", "kw::parse_if("] {
                        for (at, _) in text.match_indices(call) {
                            // The second argument, when it is a literal: `(input, "word")`.
                            let args = &text[at + call.len()..];
                            let args = &args[..args.find(')').unwrap_or(args.len())];
                            let word = args
                                .split_once(", \"")
                                .and_then(|(_, rest)| rest.split_once('"'))
                                .map(|(word, _)| word);
                            if let Some(word) = word {
                                words.push(word.to_string());
                            }
                        }
                    }
                }
            }
        }
        let mut words = Vec::new();
        walk(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/front"),
            &mut words,
        );
        words
    }

    #[test]
    fn every_word_the_parser_matches_is_reserved_or_contextual() {
        let words = words_the_parser_matches();
        assert!(words.len() > 50, "{words:?}");
        for word in &words {
            assert!(
                is_reserved(word) || CONTEXTUAL.contains(&word.as_str()),
                "`{word}` is matched as a keyword but is in neither RESERVED nor CONTEXTUAL"
            );
        }
        for word in CONTEXTUAL {
            assert!(!is_reserved(word), "{word}");
            assert!(words.iter().any(|w| w == word), "`{word}` is never matched");
        }
    }

    /// The words of the alternation `\b(?:a|b|c)\b` that starts `pattern`.
    fn alternation(pattern: &str) -> Vec<String> {
        let inner = pattern
            .strip_prefix("\\b(?:")
            .and_then(|rest| rest.split_once(")\\b"))
            .map(|(words, _)| words)
            .unwrap_or_else(|| panic!("not a list of words: {pattern}"));
        inner.split('|').map(str::to_string).collect()
    }

    #[test]
    fn the_editor_grammar_lists_exactly_the_parsers_keywords_and_built_ins() {
        let editors = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../editors");
        let text = std::fs::read_to_string(editors.join("bir.tmLanguage.json"))
            .expect("editors/bir.tmLanguage.json");
        // The VS Code extension's copy is the same file.
        let copy = std::fs::read_to_string(editors.join("vscode/syntaxes/bir.tmLanguage.json"))
            .expect("the extension's grammar");
        assert_eq!(
            copy, text,
            "editors/vscode/syntaxes/ holds a stale copy of the grammar"
        );
        let grammar: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        assert_eq!(grammar["scopeName"], "source.bir");
        let repository = grammar["repository"].as_object().expect("a repository");
        // Every rule of the repository is used by the top level.
        let included: Vec<&str> = grammar["patterns"]
            .as_array()
            .expect("patterns")
            .iter()
            .filter_map(|p| p["include"].as_str())
            .collect();
        for name in repository.keys() {
            assert!(included.contains(&format!("#{name}").as_str()), "{name}");
        }
        let mut keywords: Vec<String> = Vec::new();
        for (name, rule) in repository {
            if name.starts_with("keywords-") || name == "constants" {
                keywords.extend(alternation(rule["match"].as_str().expect("a match")));
            }
        }
        let count = keywords.len();
        keywords.sort();
        keywords.dedup();
        assert_eq!(keywords.len(), count, "a word in two rules: {keywords:?}");
        let mut expected: Vec<String> = RESERVED
            .iter()
            .chain(CONTEXTUAL)
            .map(|w| w.to_string())
            .collect();
        expected.sort();
        assert_eq!(
            keywords, expected,
            "the grammar's keywords against the parser's"
        );
        // The built-ins, highlighted where `(` follows, as the parser reads them.
        let builtins = &repository["builtins"]["match"];
        let builtins = builtins.as_str().expect("a match");
        assert!(builtins.ends_with("(?=\\s*\\()"), "{builtins}");
        let mut builtins = alternation(builtins);
        builtins.sort();
        let mut expected: Vec<String> = LOCK_ACTIONS
            .iter()
            .map(|(word, _)| *word)
            .chain(Builtin::ALL.iter().map(|b| b.name()))
            .map(str::to_string)
            .collect();
        expected.sort();
        assert_eq!(
            builtins, expected,
            "the grammar's built-ins against the parser's"
        );
        for word in &builtins {
            assert!(
                lock_action(word).is_some() || Builtin::named(word).is_some(),
                "{word}"
            );
        }
    }
}
