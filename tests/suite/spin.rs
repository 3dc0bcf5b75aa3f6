//! Cross-check with SPIN: the reference families (peers/*.pml encode them exactly) are
//! verified by SPIN's pan, exhaustively and without partial-order reduction, and its state
//! and transition counts (pan's `transitions` minus 1) must equal bir's. Needs `spin` and
//! `gcc` (Debian packages); `.ci/run` installs them and runs these tests with `--ignored`.
//! The reference models as `bir promela` writes them (`models/`, `models/v3/`,
//! `models/beem/`) are counted by SPIN in `difftest/tests/spin.rs`, which has the writer.

use std::path::PathBuf;
use std::process::Command;

use bir::{Checker, Model};

include!("../../models/families.rs");

dining_philosophers!(Phils3, 3);
dining_philosophers!(Phils6, 6);
dining_philosophers_fixed!(Fixed3, 3);
dining_philosophers_fixed!(Fixed6, 6);
peterson_filter!(Peterson3, 3);
peterson_filter!(Peterson4, 4);

/// What pan reports: stored states, transitions (bir's count: pan's minus one), and
/// errors (deadlocks are pan's invalid end states).
#[derive(Debug, PartialEq, Eq)]
struct Counts {
    states: u64,
    transitions: u64,
    findings: u64,
}

/// Generates, compiles and runs pan for `peers/<model>` with `N = n`.
fn pan(model: &str, n: u32, defines: &[&str]) -> Counts {
    let root = crate::repo_root();
    let dir = std::env::temp_dir().join(format!("bir-spin-{model}-{n}-{}", defines.join("")));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let pml: PathBuf = root.join("peers").join(model);
    let mut spin = Command::new("spin");
    spin.current_dir(&dir).arg("-a").arg(format!("-DN={n}"));
    for define in defines {
        spin.arg(format!("-D{define}"));
    }
    run(spin.arg(&pml), "spin -a (install the Debian package spin)");
    run(
        Command::new("gcc").current_dir(&dir).args([
            "-O2",
            "-DSAFETY",
            "-DNOREDUCE",
            "-DMEMLIM=2000",
            "-o",
            "pan",
            "pan.c",
        ]),
        "gcc",
    );
    let output = run(
        Command::new(dir.join("pan"))
            .current_dir(&dir)
            .args(["-c0", "-m1000000", "-w20"]),
        "pan",
    );
    let number_before = |suffix: &str| -> u64 {
        output
            .lines()
            .find_map(|line| line.trim().strip_suffix(suffix)?.trim().parse().ok())
            .unwrap_or_else(|| panic!("no `{suffix}` in pan's output:\n{output}"))
    };
    let findings = output
        .lines()
        .find_map(|line| {
            line.trim()
                .strip_prefix("State-vector")?
                .split("errors:")
                .nth(1)
        })
        .and_then(|errors| errors.trim().parse().ok())
        .unwrap_or_else(|| panic!("no error count in pan's output:\n{output}"));
    let _ = std::fs::remove_dir_all(&dir);
    Counts {
        states: number_before("states, stored"),
        transitions: number_before("transitions (= stored+matched)") - 1,
        findings,
    }
}

fn run(command: &mut Command, what: &str) -> String {
    let output = command
        .output()
        .unwrap_or_else(|error| panic!("cannot run {what}: {error}"));
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{what} failed:\n{text}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    text
}

/// bir's counts of a full search; pan stops at nothing (`-c0`), nor does bir here.
fn bir<M: Model>(checker: Checker<M>) -> Counts {
    let report = checker.keep_going(0).progress(false).run();
    Counts {
        states: report.states(),
        transitions: report.transitions(),
        findings: report.errors() + report.deadlocks(),
    }
}

#[test]
#[ignore = "needs spin and gcc: run by .ci/run"]
fn dining_philosophers_counts_equal_spins() {
    assert_eq!(bir(Phils3::checker()), pan("phils.pml", 3, &[]));
    assert_eq!(bir(Phils6::checker()), pan("phils.pml", 6, &[]));
}

#[test]
#[ignore = "needs spin and gcc: run by .ci/run"]
fn fixed_dining_philosophers_counts_equal_spins() {
    assert_eq!(bir(Fixed3::checker()), pan("phils.pml", 3, &["ASYM"]));
    assert_eq!(bir(Fixed6::checker()), pan("phils.pml", 6, &["ASYM"]));
}

#[test]
#[ignore = "needs spin and gcc: run by .ci/run"]
fn peterson_filter_counts_equal_spins() {
    assert_eq!(bir(Peterson3::checker()), pan("peterson.pml", 3, &[]));
    assert_eq!(bir(Peterson4::checker()), pan("peterson.pml", 4, &[]));
}

mod alternating_bit {
    bir::bir!(file = "../../models/alternating_bit.bir");
}
mod leader_election {
    bir::bir!(file = "../../models/leader_election.bir");
}

#[test]
#[ignore = "needs spin and gcc: run by .ci/run"]
fn version_3_protocols_over_native_channels_count_as_spin() {
    // The files' sizes: MAX = 5, K = 3, and N = 4, K = 2 (pan ignores -DN for the ABP).
    assert_eq!(
        bir(alternating_bit::AlternatingBit::checker()),
        pan("alternating_bit.pml", 0, &["MAX=5", "K=3"])
    );
    assert_eq!(
        bir(leader_election::LeaderElection::checker()),
        pan("leader_election.pml", 4, &["K=2"])
    );
}
