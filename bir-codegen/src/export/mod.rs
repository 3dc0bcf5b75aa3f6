//! The checked model written in the languages of other model checkers, so that checkers
//! with front ends and searches of their own judge bir's semantics: [`murphi`] for Rumur
//! (`bir murphi`, state and transition counts) and [`promela`] for SPIN (`bir promela`, the
//! `ltl` properties under weak fairness). They read the IR only, as the interpreter does,
//! and decide nothing the other stages need.

pub mod murphi;
pub mod promela;

/// Why a model cannot be written in a peer's language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsupported(pub String);

/// `name` if it is a plain ASCII identifier, else a name made of `fallback`'s id: a
/// variable's or thread's name as both peers' languages accept it.
fn ident(name: &str, fallback: impl FnOnce() -> String) -> String {
    let plain = name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if plain {
        name.to_string()
    } else {
        fallback()
    }
}
