//! The memory limit bounds the process's real memory (its peak resident set) within 10%,
//! under every frontier and for states on the heap too. One test in its own binary, which
//! runs each scenario in a process of its own (all at once), so that nothing else runs in
//! the process while it measures.

mod common;

use bir_runtime::{Checker, IncompleteReason, Model, Verdict};
use common::{info, Narrow, Wide};

const LIMIT: usize = 96 << 20;

/// The process's peak resident set so far (`VmHWM`), when the system says.
fn peak() -> Option<usize> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kib: usize = status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kib * 1024)
}

fn check<M: Model>(name: &str, checker: Checker<M>) {
    let report = checker
        .memory_limit(LIMIT)
        .keep_going(0)
        .progress(false)
        .run();
    assert_eq!(
        report.verdict(),
        Verdict::Incomplete {
            reason: IncompleteReason::MemoryLimit
        },
        "{name}: {report}"
    );
    assert!(report.states() > 100_000, "{name}: {report}");
    if let Some(peak) = peak() {
        eprintln!(
            "{name}: {} states, peak {:.1} MiB of a {:.0} MiB limit",
            report.states(),
            peak as f64 / f64::from(1 << 20),
            LIMIT as f64 / f64::from(1 << 20)
        );
        assert!(
            peak <= LIMIT + LIMIT / 10,
            "{name}: peak resident memory {peak} bytes, limit {LIMIT}"
        );
        // The report's figure is the kernel's too (read a moment earlier).
        let reported = report.stats().peak_memory;
        assert!(reported.is_some_and(|reported| reported <= LIMIT + LIMIT / 10));
    }
}

/// The scenarios, each run in a process of its own (this test binary, started again), so
/// that each one's peak is its own: freed heap memory is not always returned to the system.
const SCENARIOS: [&str; 6] = [
    "words, depth-first",
    "words, breadth-first",
    "words, 2 threads",
    "heap states, depth-first",
    "heap states, breadth-first",
    "heap states, 2 threads",
];

fn scenario(name: &str) {
    let narrow = || Checker::new(Narrow(info("Narrow")));
    let wide = || Checker::new(Wide(info("Wide")));
    match name {
        "words, depth-first" => check(name, narrow()),
        "words, breadth-first" => check(name, narrow().bfs()),
        "words, 2 threads" => check(name, narrow().threads(2)),
        "heap states, depth-first" => check(name, wide()),
        "heap states, breadth-first" => check(name, wide().bfs()),
        "heap states, 2 threads" => check(name, wide().threads(2)),
        other => panic!("unknown scenario {other}"),
    }
}

#[test]
fn the_peak_resident_memory_stays_within_the_limit() {
    if let Ok(name) = std::env::var("BIR_MEMORY_SCENARIO") {
        scenario(&name);
        return;
    }
    let Ok(program) = std::env::current_exe() else {
        panic!("cannot find the test binary to run the scenarios in processes of their own");
    };
    // Each scenario in a process of its own, all at once: each measures its own peak.
    let children: Vec<_> = SCENARIOS
        .iter()
        .map(|name| {
            let child = std::process::Command::new(&program)
                .args(["--exact", "the_peak_resident_memory_stays_within_the_limit"])
                .args(["--nocapture", "--test-threads", "1"])
                .env("BIR_MEMORY_SCENARIO", name)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn();
            match child {
                Ok(child) => (name, child),
                Err(error) => panic!("cannot run scenario {name}: {error}"),
            }
        })
        .collect();
    for (name, child) in children {
        let output = match child.wait_with_output() {
            Ok(output) => output,
            Err(error) => panic!("scenario {name} did not finish: {error}"),
        };
        let stderr = String::from_utf8_lossy(&output.stderr);
        eprint!(
            "{}",
            stderr
                .lines()
                .filter(|l| l.contains("peak"))
                .collect::<Vec<_>>()
                .join("\n")
                + "\n"
        );
        assert!(output.status.success(), "scenario {name} failed:\n{stderr}");
    }
}
