//! The trace layer: counterexamples (`counterexample`), rebuilding them from the transition
//! ids of a path (`rebuild`), the steps between the states of a path (`path`), and the
//! replay codec (`replay`). Over the model, the verdicts and nothing above.

mod counterexample;
pub(crate) mod path;
mod rebuild;
pub(crate) mod replay;

pub use counterexample::{Change, Counterexample, Step};
pub use rebuild::heap_step;
pub(crate) use rebuild::{
    fault_kind, invariant_failure_kind, rebuild, rebuild_lasso, rebuild_predicate_fault,
    rebuild_reached,
};
pub use replay::{replay_steps, replay_string, ReplayError};
