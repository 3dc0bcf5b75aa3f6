//! The checked model written in the languages of other model checkers, so that checkers
//! with front ends and searches of their own judge bir's semantics: [`murphi`] for Rumur
//! (`bir murphi`, state and transition counts) and [`promela`] for SPIN (`bir promela`, the
//! `ltl` properties under weak fairness). They read the IR only, as the interpreter does,
//! and decide nothing the other stages need.

pub mod murphi;
pub mod promela;

use crate::ir::System;

/// Why a model cannot be written in a peer's language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsupported(pub String);

/// What of `system` the Promela writer does not keep yet: a rendezvous (one transition of
/// two instances) and the outcomes of a `notify` (whose faults only the first reports).
fn beyond_writers(system: &System) -> Result<(), Unsupported> {
    for thread in system.threads.iter() {
        for transform in thread.transforms.iter() {
            if transform.rendezvous.is_some() {
                return Err(Unsupported(format!(
                    "`{}` is a rendezvous, which bir does not write for SPIN yet",
                    transform.text
                )));
            }
            if transform.quiet.is_some() {
                return Err(Unsupported(format!(
                    "`{}` has several outcomes (a `notify`), which bir does not write for \
                     SPIN yet",
                    transform.text
                )));
            }
        }
    }
    Ok(())
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
