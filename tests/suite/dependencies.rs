//! The `bir` package, whose targets are the library and the examples, builds with nothing but
//! the checker's own crates: a user's first `cargo run --example` compiles no test, benchmark
//! or command-line framework (those live in `bir-tests`, `bir-bench` and `bir-cli`).

use std::process::Command;

/// Crates that only the tests, benchmarks, the CLI or the comparison need.
const HEAVY: &[&str] = &[
    "criterion",
    "trybuild",
    "insta",
    "clap",
    "serde_json",
    "stateright",
    "tiny_http",
    // The distributed search, behind `bir`'s feature `dist`.
    "timely",
    "bir-dist",
];

#[test]
fn the_examples_build_without_test_bench_or_cli_crates() {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .current_dir(crate::repo_root())
        .args(["tree", "--offline", "-p", "bir", "-e", "normal,build,dev"])
        .args(["--prefix", "none", "--format", "{p}"])
        .output()
        .expect("cargo runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "cargo tree failed: {stderr}");
    let tree = String::from_utf8_lossy(&output.stdout);
    let names: Vec<&str> = tree
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .collect();
    assert!(names.contains(&"bir-runtime"), "unexpected tree:\n{tree}");
    for heavy in HEAVY {
        assert!(
            !names.contains(heavy),
            "`bir` (its library and examples) depends on {heavy}:\n{tree}"
        );
    }
}
