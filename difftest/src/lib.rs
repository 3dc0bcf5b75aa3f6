//! Differential testing of bir: random well-typed BIR models (this library), compiled by
//! `bir!` in the test crate's build (see `build.rs`), and checked both by their generated
//! checkers and by the reference interpreter, which must agree on every count, verdict and
//! counterexample (`tests/differential.rs` and `tests/differential_odd.rs`, halves of one run).
//!
//! A run compiles `BIR_DIFF_MODELS` models (default 24; `.ci/run` sets 200) from the seed
//! `BIR_DIFF_SEED` (default 1; CI passes a new one per run, and a failure prints it):
//!
//! ```sh
//! BIR_DIFF_SEED=$RANDOM cargo test -p bir-difftest
//! scripts/difftest 10000      # the longer run: 50 batches of 200 models
//! ```
//!
//! One seed in four gives a model of version 3 ([`generate_v3`], `v3.rs`, `v3_stmt.rs`, `v3_steps.rs`:
//! buffered and rendezvous channels, locks with `wait`/`notify`, functions and a bounded
//! recursion, high-level bodies), chosen from the seed alone, so that the other seeds give
//! the version-1 models they gave before; [`generate_local_work`] writes version 1 only.
//!
//! Symmetry reduction has its own generator ([`generate_symmetric`]: a family of mostly
//! interchangeable instances, and in two models of five a second one, each family's locals
//! holding the other's ids): `BIR_DIFF_SYMMETRIC` of those models (default 6; `.ci/run`
//! sets 40) are compiled too, and the interpreter alone checks
//! `BIR_DIFF_SYMMETRIC_INTERPRETED` more (default 120; `.ci/run` sets 240) per run, and
//! `BIR_DIFF_INTERPRETED` random models (default 150, `.ci/run` 300, all doing thread-local
//! work: [`generate_local_work`]) with
//! partial-order reduction (`tests/interpreted.rs`).
//!
//! Pools of threads created at run time have a generator of their own ([`generate_pools`]):
//! `BIR_DIFF_POOLS` of its models (default 4) are compiled and compared as the symmetric
//! ones are (every search, partial-order reduction, and symmetry reduction of the pool and
//! of the clients' family beside it against the brute-force orbits), from a stream of seeds
//! of their own, so that the other generators' models stay as they were;
//! `tests/interpreted.rs` checks `BIR_DIFF_POOLS_INTERPRETED` more through the interpreter
//! alone (default 24), each image of each reachable state under the group stepping as the
//! state does up to orbit.
//!
//! Records and the heap have their own generator ([`generate_heap`], `heap.rs`: one or two
//! record types with small bounds, threads that allocate, link, unlink and drop references,
//! sometimes over a channel of references, sometimes through array fields of references):
//! `BIR_DIFF_HEAP` of those models (default 4) are
//! compiled into the run too, and `tests/heap.rs` checks the canonical heap on
//! `BIR_DIFF_HEAP_INTERPRETED` of them (default 300) through the interpreter alone, against
//! a brute-force count of the classes of raw (allocation-order) states under renaming of
//! the objects.
//!
//! Models carry `ltl` properties and `reachable` checks, compared like the rest; every
//! `ltl` verdict is also held against the whole product's strongly connected components
//! (`bir::oracle::ltl_violated`). Through the interpreter alone, `BIR_DIFF_LTL_INTERPRETED`
//! models of each kind (default 300; `.ci/run` sets 2,000) are judged so: random ones,
//! symmetric ones, and models whose liveness verdicts fairness decides
//! ([`generate_fairness`]).
//!
//! Against Rumur (`tests/rumur.rs`, ignored unless Rumur is installed; `BIR_DIFF_RUMUR`
//! models, default 60, `.ci/run` 300): each random model is written in Murphi
//! (`bir_codegen::export::murphi`) and Rumur must count bir's states and transitions on every one
//! (each fault decided before it happens), and meet an error exactly where bir does when
//! it stops at errors. Against SPIN
//! (`tests/spin.rs`, ignored unless SPIN is installed; `BIR_DIFF_SPIN` models, default 60,
//! `.ci/run` 150): the models whose search meets no error are written in Promela
//! (`bir_codegen::export::promela`) with their `ltl` properties: SPIN must count their states
//! and transitions alike, and share their verdicts, without fairness and under weak
//! fairness.

/// The generators, in one module as the build script includes the first four files.
mod generate {
    include!("generate.rs");
    include!("v3.rs");
    include!("v3_stmt.rs");
    include!("v3_steps.rs");
    include!("symmetric.rs");
    include!("fairness.rs");
    include!("pools.rs");
    include!("heap.rs");
}

pub use generate::{
    generate, generate_fairness, generate_heap, generate_local_work, generate_pools,
    generate_symmetric, generate_v3, Rng,
};
