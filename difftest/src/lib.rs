//! Differential testing of bir: random well-typed BIR models (this library), compiled by
//! `bir!` in the test crate's build (see `build.rs`), and checked both by their generated
//! checkers and by the reference interpreter, which must agree on every count, verdict and
//! counterexample (`tests/differential.rs`).
//!
//! A run compiles `BIR_DIFF_MODELS` models (default 200) from the seed `BIR_DIFF_SEED`
//! (default 1; CI passes a new one per run, and a failure prints it):
//!
//! ```sh
//! BIR_DIFF_SEED=$RANDOM cargo test -p bir-difftest
//! scripts/difftest 10000      # the longer run: 50 batches of 200 models
//! ```

mod generate;

pub use generate::{generate, Rng};
