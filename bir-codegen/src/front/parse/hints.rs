//! Habits from other languages, recognised where they break the grammar and answered with
//! how BIR writes the same thing: `=` to compare, `and`/`or`/`not`, `<>`, `+=`, `if` and
//! `while`. Each check runs only where the token can be nothing valid, so that a hint never
//! replaces an accurate error; names such as `and` or `if` stay usable as BIR names.

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

/// The error for a statement or transformation that starts with a control-flow keyword of
/// another language (`if`, `else`, `while`, `for`, `loop`), saying how BIR writes it; at
/// the keyword. Not when the word is followed by what follows a variable in an assignment
/// (`:`, `=`, `[`): `if := 1;` assigns a variable named `if`.
pub(super) fn control_flow(input: ParseStream) -> Option<syn::Error> {
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
    let message = match word.as_str() {
        "if" | "else" => format!(
            "BIR has no `{word}`: guard transformations instead, one per branch: \
             `when c do {{ ... }} goto l1;` and `when !c do {{ ... }} goto l2;`"
        ),
        "while" | "for" | "loop" => format!(
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
