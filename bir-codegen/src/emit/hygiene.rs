//! The names the generated code introduces beside the system's own.
//!
//! Rule: an expansion of `bir! { system M { ... } }` adds exactly one name to the user's
//! module, `M` (the model type, implementing `bir::Model`). Everything else — the state
//! type, the tables, the transition functions — lives in a module private to the
//! expansion, [`hidden_module`], and is reached through `M` (`<M as bir::Model>::State`).
//! So a user item named like a helper (`MState`) breaks nothing, and two systems of one
//! name in one module are one error (the two `pub use` of `M`, on the second system's
//! name) instead of a cascade of conflicting implementations.

use proc_macro2::{Delimiter, Ident, Span, TokenStream, TokenTree};
use quote::format_ident;

/// The module holding an expansion's items: `__bir_M_` and a hash of the invocation (its
/// tokens and where the system's name stands), so that two expansions in one module get
/// two modules, each with its own `M`, and the same source always gets the same name.
pub(crate) fn hidden_module(model: &Ident, input: &TokenStream) -> Ident {
    let start = model.span().start();
    let mut hash = Fnv1a::default();
    hash.write(format!("{}:{}", start.line, start.column).as_bytes());
    hash_tokens(&mut hash, input);
    format_ident!("__bir_{}_{:08x}", model, hash.0 as u32, span = model.span())
}

/// The state type's name, `MState`, inside the hidden module.
pub(crate) fn state_type(model: &Ident) -> Ident {
    format_ident!("{}State", model, span = model.span())
}

/// The model type's name, the system's, at the system's name.
pub(crate) fn model_type(name: &str, span: Span) -> Ident {
    Ident::new(name, span)
}

/// Feeds the text of every token of `input` to `hash`, with the delimiters of its groups.
/// Walks the groups with an explicit stack: a model with errors is hashed too, before any
/// limit applies, so the input may nest any deep, and recursion (`Display`'s included)
/// could overflow the compiler's stack.
fn hash_tokens(hash: &mut Fnv1a, input: &TokenStream) {
    let mut stack = vec![input.clone().into_iter()];
    while let Some(top) = stack.last_mut() {
        let text = match top.next() {
            Some(TokenTree::Group(group)) => {
                stack.push(group.stream().into_iter());
                match group.delimiter() {
                    Delimiter::Parenthesis => "(".to_string(),
                    Delimiter::Brace => "{".to_string(),
                    Delimiter::Bracket => "[".to_string(),
                    Delimiter::None => "<".to_string(),
                }
            }
            Some(TokenTree::Ident(ident)) => ident.to_string(),
            Some(TokenTree::Punct(punct)) => punct.as_char().to_string(),
            Some(TokenTree::Literal(literal)) => literal.to_string(),
            None => {
                stack.pop();
                ">".to_string()
            }
        };
        hash.write(text.as_bytes());
        // A separator, so that `ab c` and `a bc` differ.
        hash.write(b" ");
    }
}

/// 64-bit FNV-1a: a fixed hash, the same on every machine and in every build.
struct Fnv1a(u64);

impl Default for Fnv1a {
    fn default() -> Self {
        Fnv1a(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv1a {
    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0 ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use super::*;

    #[test]
    fn each_invocation_gets_its_own_module_and_the_same_one_every_time() {
        let source = "system M { }";
        let module = |text: &str| {
            let input = TokenStream::from_str(text).expect("tokenizes");
            let Some(TokenTree::Ident(name)) = input.clone().into_iter().nth(1) else {
                panic!("a name")
            };
            hidden_module(&name, &input).to_string()
        };
        assert_eq!(module(source), module(source));
        assert!(module(source).starts_with("__bir_M_"));
        assert_ne!(module(source), module("system M { int x; }"));
        assert_ne!(module("system M { a b }"), module("system M { ab }"));
        // The same text elsewhere (here: one line down) is another invocation.
        assert_ne!(module(source), module("\nsystem M { }"));
        let mut hash = Fnv1a::default();
        hash.write(b"a");
        assert_eq!(hash.0, 0xaf63_dc4c_8601_ec8c);
    }
}
