//! Habits from other languages, recognised where they break the grammar and answered with
//! how BIR writes the same thing: `=` to compare, `and`/`or`/`not`, `<>`, `+=`, `for`,
//! and `if` or `while` where only locations and transformations fit. Each check runs only
//! where the token can be nothing valid, so that a hint never replaces an accurate error;
//! names such as `and` or `for` stay usable as BIR names.

use syn::parse::ParseStream;
use syn::Token;

/// The error for a token that cannot follow a complete operand, when it is an operator of
/// another language: `=`, `=>`, `and`, `or`, `&`, `|`, `<>`. `None` for any other token.
pub(super) fn after_operand(input: ParseStream) -> Option<syn::Error> {
    let (width, message) = if input.peek(Token![=>]) {
        (2, "`=>` is not a BIR operator: did you mean `>=`?")
    } else if input.peek(Token![=]) && !input.peek(Token![==]) {
        (
            1,
            "`=` does not compare in BIR: did you mean `==`? (`:=` assigns, in an action: \
             `x := e;`)",
        )
    } else if input.peek(Token![<]) && input.peek2(Token![>]) {
        (
            2,
            "`<>` is not a BIR operator: write `!=` for \"not equal\"",
        )
    } else if (input.peek(Token![&]) && !input.peek(Token![&&])) || word(input, "and") {
        (1, "BIR writes \"and\" as `&&`")
    } else if (input.peek(Token![|]) && !input.peek(Token![||])) || word(input, "or") {
        (1, "BIR writes \"or\" as `||`")
    } else {
        return None;
    };
    Some(spanned(input, width, message))
}

/// The error for `not` written before an operand (`not x`), at `not`. A name followed by
/// an operand is never valid, so `not` may still name a variable.
pub(super) fn not_word(input: ParseStream) -> Option<syn::Error> {
    if !word(input, "not") {
        return None;
    }
    let fork = input.fork();
    let span = fork.parse::<proc_macro2::TokenTree>().ok()?.span();
    let operand = fork.cursor().ident().is_some()
        || fork.peek(syn::Lit)
        || fork.peek(syn::token::Paren)
        || fork.peek(Token![!]);
    operand.then(|| syn::Error::new(span, "BIR writes \"not\" as `!`: `!x`"))
}

/// The error for an assignment operator of another language where `:=` was expected
/// (`==`, `+=`, `++`, ...), at the operator. `None` for any other token.
pub(super) fn assignment(input: ParseStream) -> Option<syn::Error> {
    let compound = [
        (input.peek(Token![+=]), "+"),
        (input.peek(Token![-=]), "-"),
        (input.peek(Token![*=]), "*"),
        (input.peek(Token![/=]), "/"),
        (input.peek(Token![%=]), "%"),
    ];
    let message = if input.peek(Token![==]) {
        "`==` compares; BIR assigns with `:=`: `x := e;`".to_string()
    } else if let Some((_, op)) = compound.iter().find(|(found, _)| *found) {
        format!("BIR has no `{op}=`: write `x := x {op} e;`")
    } else if input.peek(Token![+]) && input.peek2(Token![+]) {
        "BIR has no `++`: write `x := x + 1;`".to_string()
    } else if input.peek(Token![-]) && input.peek2(Token![-]) {
        "BIR has no `--`: write `x := x - 1;`".to_string()
    } else {
        return None;
    };
    // Every one of these operators is two punctuation tokens.
    Some(spanned(input, 2, message))
}

/// Where [`control_flow`] met the word: the message says what BIR writes there.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Place {
    /// Where a declaration starts.
    Declaration,
    /// Among a body's locals, where a local or the body starts.
    Local,
    /// Where a transformation (or location) starts.
    Transform,
    /// In a transformation's braces, where an action starts.
    Action,
    /// In a high-level body, where a statement starts.
    Statement,
}

/// The error for a statement or transformation that starts with a control-flow keyword of
/// another language (`for`, `loop`), or with one of BIR's high-level statements (`if`,
/// `else`, `while`) where only a low-level one fits, saying how BIR writes it there; at the
/// keyword. Not when the word is followed by what follows a variable in an assignment (`:`,
/// `=`, `[`): `for := 1;` assigns a variable named `for` (and `if := 1;` is told that `if`
/// is reserved).
pub(super) fn control_flow(input: ParseStream, place: Place) -> Option<syn::Error> {
    let (ident, rest) = input.cursor().ident()?;
    if let Some((punct, _)) = rest.punct() {
        if matches!(punct.as_char(), ':' | '=') {
            return None;
        }
    }
    if rest.group(proc_macro2::Delimiter::Bracket).is_some() {
        return None;
    }
    let word = ident.to_string();
    let message = match (word.as_str(), place) {
        (_, Place::Statement) if word == "for" || word == "loop" => {
            format!("BIR has no `{word}`: loop with `while c do ... end`")
        }
        // In a body of statements, `if`, `else` and `while` are parsed as such.
        (_, Place::Statement) => return None,
        ("if" | "else", Place::Declaration) | ("while", Place::Declaration) => {
            format!("`{word}` is a statement: it stands in the body of a thread or a function")
        }
        ("if" | "else", _) => format!(
            "`{word}` is a statement of high-level bodies (`if c do ... end`), not part of \
             a transformation: guard transformations instead, one per branch: \
             `when c do {{ ... }} goto l1;` and `when !c do {{ ... }} goto l2;`"
        ),
        ("while", _) => format!(
            "`{word}` is a statement of high-level bodies (`while c do ... end`), not part \
             of a transformation: loop through a location, with a transformation that jumps \
             back to it: `loc top: when c do {{ ... }} goto top; when !c do {{ }} goto done;`"
        ),
        ("for" | "loop", _) => format!(
            "BIR has no `{word}`: loop through a location, with a transformation that jumps \
             back to it: `loc top: when c do {{ ... }} goto top; when !c do {{ }} goto done;`"
        ),
        _ => return None,
    };
    Some(syn::Error::new(ident.span(), message))
}

/// True when the next token is the identifier `text`.
fn word(input: ParseStream, text: &str) -> bool {
    input
        .cursor()
        .ident()
        .is_some_and(|(ident, _)| ident == text)
}

/// An error spanning the next `width` tokens (an operator of several punctuation tokens is
/// underlined whole).
fn spanned(input: ParseStream, width: usize, message: impl std::fmt::Display) -> syn::Error {
    let fork = input.fork();
    let tokens: proc_macro2::TokenStream = (0..width)
        .map_while(|_| fork.parse::<proc_macro2::TokenTree>().ok())
        .collect();
    syn::Error::new_spanned(tokens, message)
}
