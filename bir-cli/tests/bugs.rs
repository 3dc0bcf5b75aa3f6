//! The bug-hunting suite (bench/bugs/, `scripts/compare --bugs`) cannot rot: every model, at a
//! small size, still has its seeded bug. Each is checked through `bir check --interpret --json`
//! (the default depth-first search) and must end with exit status 1 and a counterexample of
//! the kind the suite's README names; every model of bench/bugs/ must be in the list.

use std::path::PathBuf;

use serde_json::Value;

mod common;

use common::run_bir;

/// Model, its small-size constants, and the kind of its first finding.
const SUITE: &[(&str, &[&str], &str)] = &[
    ("peterson_ge", &["Param.N=4"], "assertion"),
    ("philosophers", &["Param.N=6"], "deadlock"),
    ("phils_host", &["Param.N=6"], "deadlock"),
    (
        "ring_buffer",
        &["P.CAP=4", "P.PRODUCERS=3", "P.CONSUMERS=3"],
        "assertion",
    ),
    ("abp_reorder", &["P.MAX=3", "P.K=2"], "assertion"),
    ("leader_wrong", &["Param.N=4"], "assertion"),
    (
        "rw_limit",
        &["Param.READERS=6", "Param.LIMIT=5"],
        "assertion",
    ),
    (
        "java_notify",
        &["P.CAP=2", "P.PRODUCERS=3", "P.CONSUMERS=3"],
        "deadlock",
    ),
    ("counter_race", &["Param.N=3", "Param.K=2"], "assertion"),
    ("bakery_tie", &["Param.N=3", "Param.MAXT=3"], "assertion"),
];

fn bugs_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../bench/bugs")
}

#[test]
fn every_bug_model_has_its_bug() {
    for (name, sets, kind) in SUITE {
        let file = bugs_dir().join(format!("{name}.bir"));
        let file = file.to_str().expect("a UTF-8 path");
        let mut args = vec!["check", "--interpret", "--json", "--no-shorten", file];
        for set in *sets {
            args.extend(["--set", set]);
        }
        let (status, stdout, stderr) = run_bir(&args, &[]);
        assert_eq!(
            status, 1,
            "{name}: exit status {status}, expected 1 (a finding)\n{stderr}"
        );
        let report: Value = serde_json::from_str(&stdout).expect("one JSON object");
        let found = report["counterexamples"][0]["kind"]
            .as_str()
            .unwrap_or("none");
        assert_eq!(
            found, *kind,
            "{name}: the first finding is {found}, expected {kind}"
        );
        let verdict = report["verdict"].as_str().unwrap_or("?");
        assert_eq!(verdict, *kind, "{name}: verdict {verdict}, expected {kind}");
    }
}

#[test]
fn every_bug_model_is_in_the_test_and_has_a_twin() {
    let mut models: Vec<String> = std::fs::read_dir(bugs_dir())
        .expect("bench/bugs exists")
        .filter_map(|entry| {
            let name = entry.ok()?.file_name().into_string().ok()?;
            name.strip_suffix(".bir").map(str::to_owned)
        })
        .collect();
    models.sort();
    let mut listed: Vec<String> = SUITE.iter().map(|(name, _, _)| name.to_string()).collect();
    listed.sort();
    assert_eq!(
        models, listed,
        "bench/bugs/*.bir and this test's list differ"
    );
    for name in &models {
        assert!(
            bugs_dir().join(format!("{name}.pml")).exists(),
            "{name}.bir has no Promela twin {name}.pml"
        );
    }
}
