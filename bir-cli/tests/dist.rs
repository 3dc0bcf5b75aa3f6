//! `bir check --workers/--processes`: the distributed search (`bir-dist`) from the command
//! line, on both engines, over loopback; the counts are the sequential search's.

mod common;

use std::net::TcpListener;
use std::process::Stdio;

use common::{bir_command, model, run_bir};

/// The sequential counts line of Peterson's filter N=3.
const PETERSON_3: &str = "states: 288, transitions: 651, errors: 0, deadlocks: 0";

#[test]
fn worker_threads_of_the_interpreter_find_the_sequential_counts_level_by_level() {
    let file = model("peterson_filter.bir");
    let (status, out, err) = run_bir(
        &[
            "check",
            &file,
            "--interpret",
            "--workers",
            "2",
            "--keep-going",
            "1",
        ],
        &[],
    );
    assert_eq!(status, 0, "{out}{err}");
    assert!(out.contains(PETERSON_3), "{out}");
    assert!(
        out.contains("states per level: 1 3 6 10 18 24 26 27 27 32 42 36 18 12 6"),
        "{out}"
    );
    assert!(out.contains("2 workers sent"), "{out}");
    // A deadlock is found and its trace printed, as by the breadth-first search.
    let phils = model("dining_philosophers.bir");
    let (status, out, err) = run_bir(
        &[
            "check",
            &phils,
            "--interpret",
            "--workers",
            "2",
            "--set",
            "Param.N=3",
        ],
        &[],
    );
    assert_eq!(status, 1, "{out}{err}");
    assert!(out.contains("deadlock"), "{out}");
}

#[test]
fn two_processes_of_the_interpreter_agree_with_the_sequential_search() {
    two_processes_agree("peterson_filter.bir", PETERSON_3, &["--interpret"]);
}

#[test]
fn version_3_models_split_across_workers_and_processes_keep_their_counts() {
    // models/v3/README.md: the alternating bit protocol over buffered channels, and the
    // philosophers whose forks are rendezvous (a pairing is one transition, wherever its
    // sender's state is owned).
    let abp = "states: 10,634, transitions: 35,838, errors: 0, deadlocks: 0";
    two_processes_agree("v3/big_abp.bir", abp, &["--interpret"]);
    let file = model("v3/big_rdv_phils.bir");
    let (status, out, err) = run_bir(
        &[
            "check",
            &file,
            "--interpret",
            "--workers",
            "2",
            "--keep-going",
            "1",
        ],
        &[],
    );
    assert_eq!(status, 1, "{out}{err}");
    assert!(
        out.contains("states: 19,682, transitions: 118,089, errors: 0, deadlocks: 1"),
        "{out}"
    );
}

#[test]
#[ignore = "builds timely into the tests' cache of compiled checkers (about 40 s); .ci/run runs it"]
fn two_processes_of_the_compiled_checker_agree_with_the_sequential_search() {
    // The compiled checker is built once, before the processes race to build it.
    let file = model("peterson_filter.bir");
    let (status, out, err) = run_bir(&["check", &file, "--workers", "1"], &[]);
    assert_eq!(status, 0, "{out}{err}");
    two_processes_agree("peterson_filter.bir", PETERSON_3, &[]);
}

/// Runs `models/<name>` on two processes over loopback (two free ports in a hostfile),
/// with `more` arguments; both print the sequential `counts` and exit 0.
fn two_processes_agree(name: &str, counts: &str, more: &[&str]) {
    let mut args = vec!["--keep-going", "1"];
    args.extend(more);
    for (code, out) in two_processes(name, &args) {
        assert_eq!(code, Some(0), "{out}");
        assert!(out.contains(counts), "{out}");
        assert!(out.contains("2 workers sent"), "{out}");
    }
}

/// Runs `models/<name>` on two processes over loopback (two free ports in a hostfile),
/// with `more` arguments: each one's exit status and output (stdout, then stderr).
fn two_processes(name: &str, more: &[&str]) -> Vec<(Option<i32>, String)> {
    let ports: Vec<u16> = (0..2)
        .map(|_| {
            TcpListener::bind("127.0.0.1:0")
                .and_then(|l| l.local_addr())
                .map(|a| a.port())
                .expect("a free port")
        })
        .collect();
    let dir = tempdir();
    let hostfile = dir.join(format!("hosts-{}.txt", ports[0]));
    let lines: Vec<String> = ports.iter().map(|p| format!("127.0.0.1:{p}\n")).collect();
    std::fs::write(&hostfile, lines.concat()).expect("the hostfile");
    let file = model(name);
    let hostfile = hostfile.display().to_string();
    let args = |process: &'static str| {
        let mut command = bir_command();
        command
            .args(["check", &file, "--processes", "2"])
            .args(["--process", process, "--hostfile", &hostfile])
            .args(more)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        command
    };
    let second = args("1").spawn().expect("process 1 starts");
    let first = args("0").output().expect("process 0 runs");
    let second = second.wait_with_output().expect("process 1 runs");
    [first, second]
        .into_iter()
        .map(|output| {
            let out = String::from_utf8_lossy(&output.stdout);
            let err = String::from_utf8_lossy(&output.stderr);
            (output.status.code(), format!("{out}{err}"))
        })
        .collect()
}

#[test]
fn a_swarm_over_two_processes_finds_the_deadlock_and_both_print_it() {
    let runs = two_processes(
        "dining_philosophers.bir",
        &["--interpret", "--swarm", "4", "--set", "Param.N=8"],
    );
    let mut replays = Vec::new();
    for (code, out) in &runs {
        assert_eq!(*code, Some(1), "{out}");
        assert!(
            out.contains("deadlock found (swarm search, 4 searches, 2 workers"),
            "{out}"
        );
        assert!(out.contains("2 workers ran the swarm's searches"), "{out}");
        assert!(out.contains("swarm search #3:"), "{out}");
        let mine: Vec<&str> = out
            .lines()
            .filter(|l| l.trim_start().starts_with("replay:"))
            .collect();
        replays.push(mine);
    }
    // Both processes print the same counterexamples.
    assert!(!replays[0].is_empty());
    assert_eq!(replays[0], replays[1]);
}

#[test]
fn a_process_index_outside_the_processes_is_refused() {
    let file = model("peterson_filter.bir");
    let (status, _, err) = run_bir(
        &[
            "check",
            &file,
            "--interpret",
            "--processes",
            "2",
            "--process",
            "2",
        ],
        &[],
    );
    assert_eq!(status, 2, "{err}");
    assert!(
        err.contains("--process 2 is not among --processes 2"),
        "{err}"
    );
}

/// A fresh directory under the tests' temporary directory.
fn tempdir() -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("dist-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    dir
}
