//! bir: a model checker for concurrent systems written in BIR, embedded in Rust.

pub use bir_macros::bir;
pub use bir_runtime::*;
