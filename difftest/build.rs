//! Writes the models of one differential test run to `$OUT_DIR/models_even.rs` and
//! `models_odd.rs` (by their number: two test binaries, `differential` and
//! `differential_odd`, which cargo compiles in parallel): `BIR_DIFF_MODELS`
//! random models (default 24), `BIR_DIFF_SYMMETRIC` models with one or two symmetric
//! families (default 6) and `BIR_DIFF_HEAP` models with records (default 4, the first ones
//! `tests/heap.rs` checks by brute force) from the seed `BIR_DIFF_SEED` (default 1), each as a module
//! holding its `bir!` expansion, its source text and its seed, and `run_all`, which hands
//! every model to the test's `Differ`. The generators write run-time faults on purpose, some
//! of them certain (`a[2]` on `boolean[2] a`), which `bir!` warns about: each module allows
//! those `deprecated` warnings.

use std::fmt::Write as _;

include!("src/generate.rs");
include!("src/v3.rs");
include!("src/v3_stmt.rs");
include!("src/v3_steps.rs");
include!("src/symmetric.rs");
include!("src/pools.rs");
include!("src/heap.rs");

/// The defaults keep `cargo test --workspace` quick: every model is compiled in debug mode
/// with each search the test runs monomorphised for it, a few seconds of rustc apiece.
/// `.ci/run` draws a fresh seed each run, and `scripts/difftest` runs thousands in batches.
fn main() {
    println!("cargo:rerun-if-changed=src/generate.rs");
    println!("cargo:rerun-if-changed=src/v3.rs");
    println!("cargo:rerun-if-changed=src/v3_stmt.rs");
    println!("cargo:rerun-if-changed=src/v3_steps.rs");
    println!("cargo:rerun-if-changed=src/symmetric.rs");
    println!("cargo:rerun-if-changed=src/pools.rs");
    println!("cargo:rerun-if-env-changed=BIR_DIFF_POOLS");
    println!("cargo:rerun-if-changed=src/heap.rs");
    println!("cargo:rerun-if-env-changed=BIR_DIFF_HEAP");
    println!("cargo:rerun-if-env-changed=BIR_DIFF_SYMMETRIC");
    println!("cargo:rerun-if-env-changed=BIR_DIFF_SEED");
    println!("cargo:rerun-if-env-changed=BIR_DIFF_MODELS");
    let seed: u64 = env_number("BIR_DIFF_SEED").unwrap_or(1);
    let count: u64 = env_number("BIR_DIFF_MODELS").unwrap_or(24);
    let symmetric: u64 = env_number("BIR_DIFF_SYMMETRIC").unwrap_or(6);
    let pools: u64 = env_number("BIR_DIFF_POOLS").unwrap_or(4);
    let heap: u64 = env_number("BIR_DIFF_HEAP").unwrap_or(4);
    let out_dir = std::env::var("OUT_DIR").unwrap_or_else(|_| ".".into());
    for (part, name) in [(0, "even"), (1, "odd")] {
        let text = part_of_the_run(seed, (count, symmetric, pools, heap), part);
        let path = std::path::Path::new(&out_dir).join(format!("models_{name}.rs"));
        if let Err(error) = std::fs::write(&path, text) {
            panic!("cannot write {}: {error}", path.display());
        }
    }
}

/// The models numbered `part` modulo 2 of the run (random and symmetric alike), with the
/// constants and the `run_all` of their test binary. A model's seed depends on its number
/// only, so the two parts together are the whole run.
fn part_of_the_run(
    seed: u64,
    (count, symmetric, pools, heap): (u64, u64, u64, u64),
    part: u64,
) -> String {
    let mine = |n: u64| (0..n).filter(|i| i % 2 == part);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "/// The seed of this run.\npub const SEED: u64 = {seed};"
    );
    let _ = writeln!(
        out,
        "/// The number of random models of this part of the run (heap models among them).\npub const COUNT: usize = {};",
        mine(count).count() + mine(heap).count()
    );
    let _ = writeln!(
        out,
        "/// The number of symmetric models of this part of the run.\npub const SYMMETRIC: usize = {};",
        mine(symmetric).count()
    );
    let _ = writeln!(
        out,
        "/// The number of models with pools of this part of the run.\npub const POOLS: usize = {};",
        mine(pools).count()
    );
    let mut calls = String::new();
    for i in mine(count) {
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
    for i in mine(symmetric) {
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
    for i in mine(pools) {
        let model_seed = seed.wrapping_mul(1_000_037).wrapping_add(i);
        let source = generate_pools(&format!("P{i}"), model_seed);
        let _ = writeln!(
            out,
            "mod p{i} {{\n    #![allow(deprecated)]\n    bir::bir! {{\n{source}    }}\n    pub const SOURCE: &str = {source:?};\n}}"
        );
        let _ = writeln!(
            calls,
            "    differ.check_symmetric(p{i}::P{i}::checker(), p{i}::SOURCE, {model_seed});"
        );
    }
    for i in mine(heap) {
        let model_seed = seed.wrapping_mul(1_000_081).wrapping_add(i);
        let source = generate_heap(&format!("H{i}"), model_seed);
        let _ = writeln!(
            out,
            "mod h{i} {{\n    #![allow(deprecated)]\n    bir::bir! {{\n{source}    }}\n    pub const SOURCE: &str = {source:?};\n}}"
        );
        let _ = writeln!(
            calls,
            "    differ.check(h{i}::H{i}::checker(), h{i}::SOURCE, {model_seed});"
        );
    }
    let _ = writeln!(
        out,
        "/// Checks every model of this part of the run.\nfn run_all(differ: &mut Differ) {{\n{calls}}}"
    );
    out
}

fn env_number(name: &str) -> Option<u64> {
    std::env::var(name).ok()?.trim().parse().ok()
}
