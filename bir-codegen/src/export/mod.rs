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

/// Refuses a model with records (and so with exceptions, whose objects are records): the
/// peers' writers do not encode records and the heap (the garbage collector and the
/// canonical renumbering after each step) yet. `tool` is the command, for the message.
fn refuse_records(system: &crate::ir::System, tool: &str) -> Result<(), Unsupported> {
    match system.hidden.records.iter().next() {
        None => Ok(()),
        Some(record) => Err(Unsupported(format!(
            "`{}` declares `record {}`: `{tool}` does not write records and the heap (nor \
             exceptions, whose objects are records) yet",
            system.name, record.name
        ))),
    }
}

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
