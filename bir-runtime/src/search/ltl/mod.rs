//! LTL checks: the product of a model with its property's Büchi automaton (`product`, a
//! model of its own, so the searches below run on the one core), the nested depth-first
//! search for accepting cycles (`ndfs`), the search for fair accepting cycles (`fair`), and
//! the check of a replayed lasso (`lasso`).

pub(crate) mod fair;
pub(crate) mod lasso;
pub(crate) mod ndfs;
pub(crate) mod product;
