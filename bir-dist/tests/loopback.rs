//! The distributed search on loopback: 1, 2 and 4 processes (this test binary run again as
//! each process, on free ports) give exactly the counts of the sequential search, level by
//! level; counterexamples have the breadth-first length and replay; limits and a killed
//! process make every process say incomplete and exit non-zero.

use std::io::Read;
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use bir::{Checker, Model, Verdict};

include!("../../models/families.rs");

dining_philosophers!(Phils5, 5);
dining_philosophers!(Phils10, 10);
dining_philosophers_fixed!(PhilsFixed5, 5);
peterson_filter!(Peterson3, 3);
peterson_filter!(Peterson5, 5);
peterson_filter!(Peterson6, 6);

#[path = "../../tests/common/other_search.rs"]
mod other_search;

mod fixed {
    bir::bir!(file = "../../models/two_dining_philosophers.bir");
    bir::bir!(file = "../../models/bounded_buffer.bir");
    bir::bir!(file = "../../models/readers_writers.bir");
    bir::bir!(file = "../../models/sum_to_n.bir");
}

/// The environment variables that make this binary one process of a search.
const CHILD: &str = "BIR_DIST_CHILD";
const ARGS: &str = "BIR_DIST_ARGS";
const KEEP: &str = "BIR_DIST_KEEP";
const MAX_STATES: &str = "BIR_DIST_MAX_STATES";
const SWARM: &str = "BIR_DIST_SWARM";
const SLOW: &str = "BIR_DIST_SLOW";

/// What one process printed about the search, as a line of its output.
fn result_line<M: Model + Clone + Send + 'static>(model: M, run: Run) -> (String, i32) {
    let mut checker = Checker::new(model);
    if let Some(keep) = run.keep {
        checker = checker.keep_going(keep);
    }
    if let Some(max) = run.max_states {
        checker = checker.max_states(max);
    }
    if run.slow {
        // A heuristic that takes a millisecond a state and tells the states apart not at
        // all: the searches it orders crawl.
        checker = checker.best_first(bir::Heuristic::custom(|_| {
            std::thread::sleep(Duration::from_millis(1));
            0
        }));
    }
    if let Some(searches) = run.swarm {
        checker = checker.swarm(searches).progress(false);
    }
    let args = run.args;
    match bir_dist::check_from_args(checker, args.into_iter()) {
        Ok(outcome) => {
            let report = &outcome.report;
            let levels: Vec<String> = outcome
                .levels
                .iter()
                .map(|l| format!("{}/{}", l.states, l.transitions))
                .collect();
            let first = report.first_finding();
            let searches: Vec<String> = report
                .swarm_searches()
                .iter()
                .map(|s| s.states.to_string())
                .collect();
            let line = format!(
                "RESULT {:?} states={} transitions={} errors={} deadlocks={} levels={} \
                 searches={} replay={} length={}",
                report.verdict(),
                report.states(),
                report.transitions(),
                report.errors(),
                report.deadlocks(),
                levels.join(","),
                searches.join("/"),
                first.map_or("-", |f| f.replay()),
                first.map_or(0, |f| f.len()),
            );
            let code = match report.verdict() {
                Verdict::Verified => 0,
                Verdict::Incomplete { .. } => 2,
                _ => 1,
            };
            (line, code)
        }
        Err(error) => (format!("RESULT incomplete: {error}"), 2),
    }
}

/// How one process runs.
#[derive(Default)]
struct Run {
    /// Timely's arguments.
    args: Vec<String>,
    keep: Option<usize>,
    max_states: Option<u64>,
    /// A swarm of this many searches.
    swarm: Option<usize>,
    /// The swarm's user heuristic crawls.
    slow: bool,
}

fn run_named(name: &str, args: Run) -> (String, i32) {
    match name {
        "phils5" => result_line(Phils5, args),
        "phils10" => result_line(Phils10, args),
        "phils_fixed5" => result_line(PhilsFixed5, args),
        "peterson3" => result_line(Peterson3, args),
        "peterson5" => result_line(Peterson5, args),
        "peterson6" => result_line(Peterson6, args),
        "two_dining_philosophers" => result_line(fixed::TwoDiningPhilosophers, args),
        "bounded_buffer" => result_line(fixed::BoundedBuffer, args),
        "readers_writers" => result_line(fixed::ReadersWriters, args),
        "sum_to_n" => result_line(fixed::SumToN, args),
        other => (format!("RESULT no model {other}"), 3),
    }
}

/// Not a test: one process of a search, when run so by the tests below.
#[test]
fn child() {
    let Ok(name) = std::env::var(CHILD) else {
        return;
    };
    let args = std::env::var(ARGS).unwrap_or_default();
    let run = Run {
        args: args.split_whitespace().map(str::to_string).collect(),
        keep: std::env::var(KEEP).ok().and_then(|k| k.parse().ok()),
        max_states: std::env::var(MAX_STATES).ok().and_then(|k| k.parse().ok()),
        swarm: std::env::var(SWARM).ok().and_then(|k| k.parse().ok()),
        slow: std::env::var(SLOW).is_ok(),
    };
    let (line, code) = run_named(&name, run);
    println!("{line}");
    std::process::exit(code);
}

/// Free ports on loopback, in a hostfile of their own.
fn hostfile(processes: usize) -> PathBuf {
    static FILES: AtomicUsize = AtomicUsize::new(0);
    let listeners: Vec<TcpListener> = (0..processes)
        .map(|_| TcpListener::bind("127.0.0.1:0").expect("a free port"))
        .collect();
    let hosts: String = listeners
        .iter()
        .map(|l| format!("{}\n", l.local_addr().expect("an address")))
        .collect();
    let path = std::env::temp_dir().join(format!(
        "bir-dist-{}-{}.hosts",
        std::process::id(),
        FILES.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::write(&path, hosts).expect("the hostfile is written");
    path
}

/// Starts `processes` processes of a search of `model`, with these extra environment
/// variables.
fn spawn(model: &str, processes: usize, env: &[(&str, String)]) -> Vec<Child> {
    let hosts = hostfile(processes);
    (0..processes)
        .map(|index| {
            let mut command = Command::new(std::env::current_exe().expect("this test binary"));
            command
                .args(["--exact", "child", "--nocapture", "--test-threads=1"])
                .env(CHILD, model)
                .env(
                    ARGS,
                    format!("-n {processes} -p {index} -h {}", hosts.display()),
                )
                .stdout(Stdio::piped())
                .stderr(Stdio::null());
            for (key, value) in env {
                command.env(key, value);
            }
            command.spawn().expect("a process starts")
        })
        .collect()
}

/// Waits (at most two minutes) for each process: its exit code (`None` if killed) and its
/// result line.
fn finish(children: Vec<Child>) -> Vec<(Option<i32>, String)> {
    let deadline = Instant::now() + Duration::from_secs(120);
    children
        .into_iter()
        .map(|mut child| {
            let status = loop {
                if let Some(status) = child.try_wait().expect("the process is there") {
                    break status;
                }
                if Instant::now() > deadline {
                    let _ = child.kill();
                    break child.wait().expect("the killed process ends");
                }
                std::thread::sleep(Duration::from_millis(20));
            };
            let mut out = String::new();
            if let Some(mut stdout) = child.stdout.take() {
                let _ = stdout.read_to_string(&mut out);
            }
            let line = out
                .lines()
                .find_map(|l| l.find("RESULT").map(|at| &l[at..]))
                .map_or_else(|| format!("RESULT none in {out:?}"), str::to_string);
            (status.code(), line)
        })
        .collect()
}

/// A result line without its replay string: which of several shortest paths a search
/// keeps depends on how the states are spread over the workers.
fn without_replay(line: &str) -> String {
    line.split_whitespace()
        .filter(|word| !word.starts_with("replay="))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The result lines of each model on 1 (in this process), 2 and 4 processes must be equal
/// but for the replay string; returns the single-process lines. Every group of processes
/// starts at once: timely's connection set-up sleeps a second in each process that finds
/// no peer yet, which the groups then spend together instead of one after another.
fn same_on_1_2_4(models: &[&str], keep: &str) -> Vec<String> {
    let run = || Run {
        keep: keep.parse().ok(),
        ..Run::default()
    };
    let groups: Vec<(usize, usize, Vec<Child>)> = (0..models.len())
        .flat_map(|index| {
            [2, 4].map(|processes| {
                let children = spawn(models[index], processes, &[(KEEP, keep.to_string())]);
                (index, processes, children)
            })
        })
        .collect();
    let ones: Vec<String> = models
        .iter()
        .map(|model| run_named(model, run()).0)
        .collect();
    for (index, processes, children) in groups {
        let (model, one) = (models[index], &ones[index]);
        for (code, line) in finish(children) {
            assert!(code.is_some(), "{model} on {processes} processes: killed");
            assert_eq!(
                without_replay(&line),
                without_replay(one),
                "{model} on {processes} processes"
            );
        }
    }
    ones
}

/// The counts of the sequential breadth-first search, as in a result line.
fn sequential<M: Model>(model: M) -> String {
    let report = Checker::new(model)
        .bfs()
        .keep_going(1)
        .progress(false)
        .run();
    format!(
        "states={} transitions={} errors={} deadlocks={}",
        report.states(),
        report.transitions(),
        report.errors(),
        report.deadlocks()
    )
}

#[test]
fn every_reference_model_has_the_sequential_counts_on_1_2_and_4_processes() {
    let cases = [
        (
            "two_dining_philosophers",
            sequential(fixed::TwoDiningPhilosophers),
        ),
        ("bounded_buffer", sequential(fixed::BoundedBuffer)),
        ("readers_writers", sequential(fixed::ReadersWriters)),
        ("sum_to_n", sequential(fixed::SumToN)),
        ("phils5", sequential(Phils5)),
        ("phils_fixed5", sequential(PhilsFixed5)),
        ("peterson3", sequential(Peterson3)),
    ];
    let models: Vec<&str> = cases.iter().map(|(model, _)| *model).collect();
    let lines = same_on_1_2_4(&models, "1");
    for ((model, counts), line) in cases.iter().zip(lines) {
        assert!(line.contains(counts), "{model}: {line}, expected {counts}");
    }
}

#[test]
fn phils_10_and_peterson_5_have_the_reference_counts_level_by_level() {
    let lines = same_on_1_2_4(&["phils10", "peterson5"], "1");
    assert!(lines[0].contains("states=154450 transitions=1116130 errors=0 deadlocks=1"));
    assert!(lines[1].starts_with("RESULT Verified states=88560 transitions=286985"));
}

#[test]
fn counterexamples_have_the_breadth_first_length_and_replay() {
    let bfs = Checker::new(fixed::TwoDiningPhilosophers).bfs().run();
    let length = bfs.assert_deadlock().len();
    for processes in [2, 4] {
        for (code, line) in finish(spawn("two_dining_philosophers", processes, &[])) {
            assert_eq!(code, Some(1), "{line}");
            assert!(line.starts_with("RESULT Found(Deadlock)"), "{line}");
            assert!(line.ends_with(&format!("length={length}")), "{line}");
            let replay = line
                .split_whitespace()
                .find_map(|w| w.strip_prefix("replay="))
                .expect("a replay string");
            let again = Checker::new(fixed::TwoDiningPhilosophers).replay(replay);
            assert_eq!(again.map(|c| c.len()), Ok(length));
        }
    }
    let bfs = Checker::new(fixed::SumToN).bfs().run();
    for (_, line) in finish(spawn("sum_to_n", 2, &[])) {
        assert!(line.starts_with("RESULT Found(Assertion)"), "{line}");
        let length = bfs.assert_assertion_failure().len();
        assert!(line.ends_with(&format!("length={length}")), "{line}");
    }
}

#[test]
fn a_state_limit_makes_every_process_incomplete() {
    for (code, line) in finish(spawn("peterson5", 2, &[(MAX_STATES, "1000".to_string())])) {
        assert_eq!(code, Some(2), "{line}");
        assert!(
            line.starts_with("RESULT Incomplete { reason: StateLimit }"),
            "{line}"
        );
    }
}

#[test]
fn a_killed_process_makes_every_other_incomplete() {
    for processes in [2, 4] {
        let mut children = spawn("peterson6", processes, &[(KEEP, "1".to_string())]);
        std::thread::sleep(Duration::from_millis(1500));
        let _ = children[1].kill();
        for (index, (code, line)) in finish(children).into_iter().enumerate() {
            if index == 1 {
                assert_eq!(code, None, "the killed process");
                continue;
            }
            assert_eq!(code, Some(2), "process {index}: {line}");
            assert!(
                line.starts_with("RESULT incomplete"),
                "process {index}: {line}"
            );
        }
    }
}

#[test]
fn a_swarm_over_processes_finds_the_bug_and_every_process_reports_it_alike() {
    let children = spawn("phils10", 2, &[(SWARM, "4".to_string())]);
    let results = finish(children);
    let (_, first) = &results[0];
    for (code, line) in &results {
        assert_eq!(*code, Some(1), "{line}");
        assert!(line.starts_with("RESULT Found(Deadlock)"), "{line}");
        assert_eq!(line, first, "every process writes the same report");
    }
    let replay = first
        .split_whitespace()
        .find_map(|w| w.strip_prefix("replay="))
        .expect("a replay string");
    let again = Checker::new(Phils10).replay(replay);
    assert!(
        again.is_ok_and(|c| c.kind() == bir::FindingKind::Deadlock),
        "{first}"
    );
    let searches = first
        .split_whitespace()
        .find_map(|w| w.strip_prefix("searches="))
        .unwrap_or("");
    assert_eq!(searches.split('/').count(), 4, "{first}");
}

#[test]
fn the_first_finding_of_a_swarm_stops_the_searches_of_every_process() {
    // Three searches on two processes: process 0 runs #0 (depth-first by the crawling
    // heuristic, which still goes straight down to the deadlock) and #2 (random); process 1
    // runs #1, best-first by the crawling heuristic, which without the stop would take
    // minutes to reach depth 10; the finding in process 0 stops it.
    let started = Instant::now();
    let env = [(SWARM, "3".to_string()), (SLOW, "1".to_string())];
    for (code, line) in finish(spawn("phils10", 2, &env)) {
        assert_eq!(code, Some(1), "{line}");
        assert!(line.starts_with("RESULT Found(Deadlock)"), "{line}");
        let searches: Vec<u64> = line
            .split_whitespace()
            .find_map(|w| w.strip_prefix("searches="))
            .unwrap_or("")
            .split('/')
            .filter_map(|n| n.parse().ok())
            .collect();
        assert_eq!(searches.len(), 3, "{line}");
        let ms = started.elapsed().as_millis() as u64;
        assert!(
            searches[1] <= ms + 1,
            "search #1 stopped: {line} after {ms} ms"
        );
    }
    assert!(started.elapsed() < Duration::from_secs(60));
}

/// The outcome of `checker` on two worker threads of this process, without its timings.
fn in_process<M: Model + Clone + Send + 'static>(checker: Checker<M>) -> String {
    let config = bir_dist::Config::from_args(["-w", "2"].map(String::from).into_iter())
        .expect("two threads");
    let outcome =
        bir_dist::check(checker.keep_going(1).progress(false), config).expect("the search runs");
    let report = &outcome.report;
    format!(
        "{:?} states={} transitions={} errors={} deadlocks={} replays={:?}\n{}",
        report.verdict(),
        report.states(),
        report.transitions(),
        report.errors(),
        report.deadlocks(),
        report
            .findings()
            .iter()
            .map(|f| f.replay())
            .collect::<Vec<_>>(),
        outcome.summary()
    )
}

#[test]
fn a_swarm_on_worker_threads_finds_the_bug() {
    let swarm = in_process(Checker::new(Phils5).swarm(2));
    assert!(swarm.starts_with("Found(Deadlock)"), "{swarm}");
    assert!(
        swarm.contains("2 workers ran the swarm's searches"),
        "{swarm}"
    );
}

/// Generated models run the distributed search on the copy compiled once for every model
/// (behind a vtable) in debug builds, and on the copy specialised to them in release
/// builds, as hand-written models always do: both give the same outcome, counts, levels,
/// counterexamples and what the workers sent.
#[test]
fn both_copies_of_the_search_give_the_same_outcome() {
    use other_search::OtherSearch;
    let sum = in_process(Checker::new(fixed::SumToN));
    assert_eq!(sum, in_process(Checker::new(OtherSearch(fixed::SumToN))));
    assert!(sum.starts_with("Found(Assertion)"), "{sum}");
    let phils = in_process(Checker::new(Phils5));
    assert_eq!(phils, in_process(Checker::new(OtherSearch(Phils5))));
    assert!(phils.contains("deadlocks="), "{phils}");
}
