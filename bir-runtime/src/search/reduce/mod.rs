//! The reductions: partial-order reduction's ample sets and visit orders (`ample`), the
//! canonical form of a state under the model's symmetry (`canonical`) and the quotient
//! model whose successors are canonical (`quotient`), and the shortening of counterexamples
//! by a breadth-first search to the same findings (`shorten`).

pub(crate) mod ample;
pub(crate) mod canonical;
pub(crate) mod quotient;
pub(crate) mod shorten;
