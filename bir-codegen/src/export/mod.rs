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

/// The refusal of a model with records (and so with exceptions, whose objects are
/// records): `peer` has no heap, and an encoding of one (arrays of objects and a canonical
/// renumbering after every step) would not be the peer's own reading of the model, which
/// is what a cross-check needs.
fn refuse_heap(system: &crate::ir::System, peer: &str) -> Result<(), Unsupported> {
    match system.hidden.records.iter().next() {
        Some(record) => Err(Unsupported(format!(
            "`{}` declares `record {}`: {peer} has no heap, so bir does not write models with \
             records and the heap (nor exceptions, whose objects are records) for it; their \
             counts are checked against brute force instead (difftest)",
            system.name, record.name
        ))),
        None => Ok(()),
    }
}

/// Refuses a model with threads created at run time (a pool `thread[k]`, a `tid`, or a
/// `start` whose `tid` is kept): neither writer encodes the freeing of a pool's instances
/// and the nulling of the tids that named them, so their counts would not be bir's.
pub fn refuse_pools(system: &crate::ir::System) -> Result<(), Unsupported> {
    if let Some(pool) = system.threads.iter().find(|thread| thread.is_pool()) {
        return Err(Unsupported(format!(
            "the pool `thread[{}] {}`: threads created at run time (pools and `tid`s) are \
             not written for other checkers yet",
            pool.instances(),
            pool.name
        )));
    }
    let kept = system.threads.iter().any(|thread| {
        thread.transforms.iter().any(|t| {
            t.actions.iter().any(|a| {
                matches!(
                    a,
                    crate::ir::Action::Start {
                        result: Some(_),
                        ..
                    }
                )
            })
        })
    });
    if kept || !system.tid_slots().is_empty() {
        return Err(Unsupported(
            "a `tid`: threads created at run time (pools and `tid`s) are not written for \
             other checkers yet"
                .into(),
        ));
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
