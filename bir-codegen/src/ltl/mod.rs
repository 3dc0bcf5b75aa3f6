//! Linear temporal logic, from formula to Büchi automaton (LANGUAGE.md, "Properties
//! (version 2)"), independent of BIR: formulas are over atomic propositions numbered from
//! 0, which the checker binds to BIR predicates.
//!
//! A property `φ` is checked by searching the model for a run that the automaton of `¬φ`
//! accepts. The pipeline: [`Formula`] (as written, with `[] <> W -> <->` sugar) →
//! [`nnf::Nnf`] (negation normal form over `X U R`, then rewritten smaller by the rules of
//! SPIN and Somenzi–Bloem) → [`tableau`] (the GPVW tableau: a generalized Büchi automaton
//! with one acceptance set per `U`) → [`buchi`] (degeneralized, pruned of states that reach
//! no accepting cycle, bisimilar states merged) → [`Automaton`]: states with an accepting
//! flag and edges guarded by which propositions must be true and which false.

pub mod buchi;
pub mod nnf;
pub mod tableau;

#[cfg(test)]
mod tests;

pub use buchi::{Automaton, Edge};

/// An LTL formula over numbered atomic propositions, as written.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Formula {
    /// `true`.
    True,
    /// `false`.
    False,
    /// Atomic proposition number `n`.
    Atom(u32),
    /// `!f`.
    Not(Box<Formula>),
    /// `f && g`.
    And(Box<Formula>, Box<Formula>),
    /// `f || g`.
    Or(Box<Formula>, Box<Formula>),
    /// `f -> g`.
    Implies(Box<Formula>, Box<Formula>),
    /// `f <-> g`.
    Equiv(Box<Formula>, Box<Formula>),
    /// `X f`: `f` holds in the next state.
    Next(Box<Formula>),
    /// `[] f`: `f` holds from here on.
    Always(Box<Formula>),
    /// `<> f`: `f` holds some time from here on.
    Eventually(Box<Formula>),
    /// `f U g`: `g` comes, and `f` holds until then.
    Until(Box<Formula>, Box<Formula>),
    /// `f W g`: `f U g || [] f`.
    WeakUntil(Box<Formula>, Box<Formula>),
    /// `f R g`: `!(!f U !g)`; `g` holds up to and including the first `f`, or forever.
    Release(Box<Formula>, Box<Formula>),
}

/// Most states an automaton may have during translation; a formula that needs more is
/// refused (a compile error), so that translation stays fast on any input.
pub const MAX_STATES: usize = 4096;

/// Why a formula could not be translated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TranslateError {
    /// The tableau or its degeneralization passed [`MAX_STATES`].
    TooLarge,
}

impl Formula {
    /// `!self`.
    pub fn negated(self) -> Formula {
        Formula::Not(Box::new(self))
    }

    /// Operators and propositions in the formula.
    pub fn size(&self) -> usize {
        use Formula::*;
        match self {
            True | False | Atom(_) => 1,
            Not(f) | Next(f) | Always(f) | Eventually(f) => 1 + f.size(),
            And(f, g)
            | Or(f, g)
            | Implies(f, g)
            | Equiv(f, g)
            | Until(f, g)
            | WeakUntil(f, g)
            | Release(f, g) => 1 + f.size() + g.size(),
        }
    }

    /// True when the formula uses `X` (partial-order reduction preserves only `X`-free
    /// properties).
    pub fn has_next(&self) -> bool {
        use Formula::*;
        match self {
            True | False | Atom(_) => false,
            Next(_) => true,
            Not(f) | Always(f) | Eventually(f) => f.has_next(),
            And(f, g)
            | Or(f, g)
            | Implies(f, g)
            | Equiv(f, g)
            | Until(f, g)
            | WeakUntil(f, g)
            | Release(f, g) => f.has_next() || g.has_next(),
        }
    }
}

/// The automaton accepting exactly the runs that violate `property`: the translation of
/// its negation.
pub fn violations(property: &Formula) -> Result<Automaton, TranslateError> {
    translate(&property.clone().negated())
}

/// The automaton accepting exactly the runs that satisfy `formula`.
pub fn translate(formula: &Formula) -> Result<Automaton, TranslateError> {
    let nnf = nnf::Nnf::from_formula(formula).simplified();
    let gba = tableau::Gba::from_nnf(&nnf)?;
    buchi::Automaton::from_gba(&gba)
}
