//! The integration tests, in one binary: the reference families at many sizes, one model
//! per verdict kind, counterexample traces, the bit layout seen through generated code,
//! and the compile-fail suite.

#[macro_use]
#[path = "../common/search.rs"]
mod search;

mod allocation;
mod compact;
mod dependencies;
mod families;
mod files;
mod heap;
mod layers;
mod layout;
mod ltl;
mod por;
mod spin;
mod spin_ltl;
mod symmetry;
mod traces;
mod ui;
mod v3;
mod verbatim;
mod verdicts;

/// The repository's root (this package is its `tests/` directory): where `peers/`,
/// `models/` and the workspace's `Cargo.toml` are.
fn repo_root() -> &'static std::path::Path {
    std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}
