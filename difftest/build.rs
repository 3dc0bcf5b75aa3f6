//! Writes the models of one differential test run to `$OUT_DIR/models.rs`: `BIR_DIFF_MODELS`
//! random models (default 50) and `BIR_DIFF_SYMMETRIC` models with a symmetric family
//! (default 10) from the seed `BIR_DIFF_SEED` (default 1), each as a module
//! holding its `bir!` expansion, its source text and its seed, and `run_all`, which hands
//! every model to the test's `Differ`. The generators write run-time faults on purpose, some
//! of them certain (`a[2]` on `boolean[2] a`), which `bir!` warns about: each module allows
//! those `deprecated` warnings.

use std::fmt::Write as _;

include!("src/generate.rs");
include!("src/symmetric.rs");

/// The defaults keep `cargo test --workspace` quick: every model is compiled in debug mode
/// with each search the test runs monomorphised for it, a few seconds of rustc apiece.
/// `.ci/run` draws a fresh seed each run, and `scripts/difftest` runs thousands in batches.
fn main() {
    println!("cargo:rerun-if-changed=src/generate.rs");
    println!("cargo:rerun-if-changed=src/symmetric.rs");
    println!("cargo:rerun-if-env-changed=BIR_DIFF_SYMMETRIC");
    println!("cargo:rerun-if-env-changed=BIR_DIFF_SEED");
    println!("cargo:rerun-if-env-changed=BIR_DIFF_MODELS");
    let seed: u64 = env_number("BIR_DIFF_SEED").unwrap_or(1);
    let count: u64 = env_number("BIR_DIFF_MODELS").unwrap_or(50);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "/// The seed of this run.\npub const SEED: u64 = {seed};"
    );
    let _ = writeln!(
        out,
        "/// The number of models of this run.\npub const COUNT: usize = {count};"
    );
    let mut calls = String::new();
    for i in 0..count {
        let model_seed = seed.wrapping_mul(1_000_003).wrapping_add(i);
        let source = generate(&format!("M{i}"), model_seed);
        let _ = writeln!(
            out,
            "mod m{i} {{\n    #![allow(deprecated)]\n    bir::bir! {{\n{source}    }}\n    pub const SOURCE: &str = {source:?};\n}}"
        );
        let _ = writeln!(
            calls,
            "    differ.check(m{i}::M{i}::checker(), m{i}::SOURCE, {model_seed});"
        );
    }
    let symmetric: u64 = env_number("BIR_DIFF_SYMMETRIC").unwrap_or(10);
    let _ = writeln!(
        out,
        "/// The number of symmetric models of this run.\npub const SYMMETRIC: usize = {symmetric};"
    );
    for i in 0..symmetric {
        let model_seed = seed.wrapping_mul(1_000_033).wrapping_add(i);
        let source = generate_symmetric(&format!("S{i}"), model_seed);
        let _ = writeln!(
            out,
            "mod s{i} {{\n    #![allow(deprecated)]\n    bir::bir! {{\n{source}    }}\n    pub const SOURCE: &str = {source:?};\n}}"
        );
        let _ = writeln!(
            calls,
            "    differ.check_symmetric(s{i}::S{i}::checker(), s{i}::SOURCE, {model_seed});"
        );
    }
    let _ = writeln!(
        out,
        "/// Checks every model of the run.\nfn run_all(differ: &mut Differ) {{\n{calls}}}"
    );
    let path = std::path::Path::new(&std::env::var("OUT_DIR").unwrap_or_else(|_| ".".into()))
        .join("models.rs");
    if let Err(error) = std::fs::write(&path, out) {
        panic!("cannot write {}: {error}", path.display());
    }
}

fn env_number(name: &str) -> Option<u64> {
    std::env::var(name).ok()?.trim().parse().ok()
}
