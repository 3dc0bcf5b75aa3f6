//! The `bir` binary end to end: every reference model with its exit status, compile errors,
//! bad arguments, JSON output, constant overrides and limits.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::Value;

mod common;

use common::{model, run_bir};

/// Runs `bir` with `args`; returns (exit status, stdout, stderr). A `bir check` runs with
/// the default engine, the compiled checker, and then once more with `--interpret`: both
/// must give the same exit status and the same report (but for times and memory), unless
/// the result depends on them (a time or memory limit, a state limit on several threads).
fn bir(args: &[&str]) -> (i32, String, String) {
    let compiled = run_bir(args, &[]);
    let timing = |flag: &str| args.contains(&flag);
    let limited = timing("--time-limit")
        || timing("--memory-limit")
        || (timing("--threads") && timing("--max-states"));
    if args.first() == Some(&"check") && !limited {
        let mut interpret = args.to_vec();
        interpret.push("--interpret");
        let interpreted = run_bir(&interpret, &[]);
        // A parallel search's depths depend on the schedule.
        let parallel = timing("--threads");
        assert_eq!(
            (compiled.0, comparable(&compiled.1, parallel)),
            (interpreted.0, comparable(&interpreted.1, parallel)),
            "{args:?}: the compiled checker (left) and the interpreter (right) differ\n{}\n{}",
            compiled.2,
            interpreted.2
        );
    }
    compiled
}

/// A report without what differs from run to run: times, rates and memory, and with
/// `parallel` the largest depth.
fn comparable(report: &str, parallel: bool) -> String {
    if let Ok(mut json) = serde_json::from_str::<Value>(report) {
        if let Some(object) = json.as_object_mut() {
            for field in [
                "seconds",
                "seen_set_bytes",
                "peak_memory_bytes",
                "max_depth",
            ] {
                if field != "max_depth" || parallel {
                    object.remove(field);
                }
            }
        }
        return json.to_string();
    }
    report
        .lines()
        .map(|line| {
            let stats = line.starts_with("states: ") || line.starts_with("walks: ");
            let end = if parallel { ", max depth: " } else { " s, " };
            match line.find(end).filter(|_| stats) {
                // `..., max depth: 6, 0.000 s, 22,231 states/s, seen set: ...`
                Some(end) if parallel => &line[..end],
                Some(end) => line[..end].rsplit_once(", ").map_or(line, |(keep, _)| keep),
                None => line,
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn models() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../models")
}

/// A file in a fresh temporary folder of this test.
fn temp_file(test: &str, name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("bir-cli-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("temp file");
    path.display().to_string()
}

/// Removes a file made by [`temp_file`] and its folder.
fn remove_temp_file(path: &str) {
    if let Some(dir) = Path::new(path).parent() {
        let _ = std::fs::remove_dir_all(dir);
    }
}

#[test]
fn every_reference_model_gets_its_exit_status() {
    let mut seen = 0;
    for entry in std::fs::read_dir(models()).expect("models/") {
        let path = entry.expect("entry").path();
        if path.extension().is_none_or(|e| e != "bir") {
            continue;
        }
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let expected = if name.contains("philosophers") && !name.ends_with("fixed")
            || name == "sum_to_n"
            || name == "full_buffer_escapes"
        {
            1
        } else {
            0
        };
        let (status, stdout, stderr) = bir(&["check", &path.display().to_string()]);
        assert_eq!(status, expected, "{name}:\n{stdout}\n{stderr}");
        let verdict = if expected == 0 {
            ": verified: "
        } else {
            " found (depth-first search)"
        };
        assert!(
            stdout.lines().next().unwrap_or("").contains(verdict),
            "{stdout}"
        );
        assert!(stdout.contains("\nstates: "), "{stdout}");
        seen += 1;
    }
    // The seven reference models, `peterson_local.bir`, `toggle_bits.bir`, the two
    // version-3 protocols, `alternating_bit.bir` and `leader_election.bir`, the pool of
    // `thread_pool.bir`, and the two buffers that throw, `full_buffer_caught.bir` and
    // `full_buffer_escapes.bir`.
    assert_eq!(seen, 14);
}

#[test]
fn the_text_report_is_the_runtimes() {
    let (status, stdout, _) = bir(&["check", &model("two_dining_philosophers.bir"), "--bfs"]);
    assert_eq!(status, 1);
    assert!(
        stdout.starts_with(
            "TwoDiningPhilosophers: deadlock found (breadth-first search)\n\n\
             1. deadlock after 2 steps: no transition is enabled: Philosopher1 blocked at loc1, \
             Philosopher2 blocked at loc1\n"
        ),
        "{stdout}"
    );
    assert!(stdout.contains("  replay: bir1:0.4\n"), "{stdout}");
}

#[test]
fn a_malformed_model_shows_every_error_with_its_place_and_carets() {
    let path = temp_file(
        "malformed",
        "bad.bir",
        "system S {\n  boolean x;\n  int x;\n  active thread T() {\n    loc l: do { y := 1; } goto l;\n  }\n}\n",
    );
    let (status, stdout, stderr) = bir(&["check", &path]);
    assert_eq!(status, 2);
    assert_eq!(stdout, "");
    assert!(
        stderr.contains(&format!(
            " --> {path}:3:7\n  |\n3 |   int x;\n  |       ^\n"
        )),
        "{stderr}"
    );
    assert!(stderr.contains(&format!(" --> {path}:5:17\n")), "{stderr}");
    assert!(
        stderr.contains("5 |     loc l: do { y := 1; } goto l;\n  |                 ^\n"),
        "{stderr}"
    );
    assert_eq!(stderr.matches("error: ").count(), 3, "{stderr}");
    assert!(
        stderr.ends_with("error: aborting due to 2 previous errors\n"),
        "{stderr}"
    );
    remove_temp_file(&path);
}

/// A fault that every evaluation of a construct meets (here `a[2]` on `boolean[2] a`, `x / 0`)
/// is a run-time error (LANGUAGE.md has no compile-time check for it): a warning on stderr
/// with its place when the model is compiled, then a finding where the search reaches it,
/// nothing where it never does.
#[test]
fn faults_that_every_evaluation_meets_are_warnings_and_findings_not_compile_errors() {
    let reached = temp_file(
        "certain-faults",
        "reached.bir",
        "system S {\n  boolean[2] a;\n  active thread T() {\n    loc l: do { a[2] := true; } goto l;\n  }\n}\n",
    );
    let (status, stdout, stderr) = bir(&["check", &reached]);
    assert_eq!(status, 1, "{stdout}\n{stderr}");
    assert!(
        stderr.starts_with(&format!(
            "bir: warning: index 2 out of bounds in `a[2]`: `a` has 2 elements, so every \
             execution of this step that gets here is an index error\n --> {reached}:4:19\n  \
             |\n4 |     loc l: do {{ a[2] := true; }} goto l;\n  |                   ^\n\n"
        )),
        "{stderr}"
    );
    assert_eq!(stderr.matches("warning").count(), 1, "{stderr}");
    // The interpreter's check prints the same warning.
    let (_, _, interpreted) = run_bir(&["check", &reached, "--interpret"], &[]);
    let warning = |stderr: &str| stderr.split("\n\n").next().unwrap_or_default().to_string();
    assert_eq!(warning(&interpreted), warning(&stderr));
    assert!(
        stdout.starts_with("S: index error found (depth-first search)\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("index 2 out of bounds in `a[2]`: `a` has 2 elements (line 4)"),
        "{stdout}"
    );
    remove_temp_file(&reached);
    let unreached = temp_file(
        "certain-faults-unreached",
        "unreached.bir",
        "system S {\n  boolean[2] a;\n  int (0, 3) x;\n  active thread T() {\n    \
         loc l: when x == 0 do { x := 1; } return;\n           \
         when x > 1 do { a[2] := true; x := x / 0; x := 5; } goto l;\n  }\n}\n",
    );
    let (status, stdout, stderr) = bir(&["check", &unreached]);
    assert_eq!(status, 0, "{stdout}\n{stderr}");
    assert!(stdout.starts_with("S: verified: "), "{stdout}");
    // The step's first fault is certain; it never gets to the others.
    assert!(
        stderr.starts_with("bir: warning: index 2 out of bounds in `a[2]`"),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!(" --> {unreached}:6:30\n")),
        "{stderr}"
    );
    assert_eq!(stderr.matches("warning").count(), 1, "{stderr}");
    remove_temp_file(&unreached);
}

#[test]
fn a_model_that_does_not_tokenize_is_malformed_too() {
    let path = temp_file("untokenized", "open.bir", "system S {\n  boolean x;\n");
    let (status, _, stderr) = bir(&["check", &path]);
    assert_eq!(status, 2);
    assert!(
        stderr.contains(&format!(
            "error: unclosed delimiter `{{`\n --> {path}:1:10\n"
        )),
        "{stderr}"
    );
    remove_temp_file(&path);
}

#[test]
fn bad_arguments_are_one_line_on_stderr_and_status_2() {
    let philosophers = model("dining_philosophers.bir");
    let p = philosophers.as_str();
    for args in [
        &[][..],
        &["frobnicate"][..],
        &["check"][..],
        &["check", p, "--max-states"][..],
        &["check", p, "--max-states", "many"][..],
        &["check", p, "--time-limit", "-1"][..],
        &["check", p, "--set", "N=3"][..],
        &["check", p, "--unknown"][..],
        &["check", p, "--json=yes"][..],
        &["check", "no/such/model.bir"][..],
        // Numbers out of range: errors, not a clamp, a panic or an abort.
        &["check", p, "--threads", "0"][..],
        &["check", p, "--threads", "257"][..],
        &["check", p, "--threads", "1000000000"][..],
        &["check", p, "--threads", "18446744073709551615"][..],
        &["check", p, "--bitstate", "9"][..],
        &["check", p, "--bitstate", "41"][..],
        &["check", p, "--bitstate", "4294967296"][..],
        &["check", p, "--bitstate", "20", "--bitstate-hashes", "0"][..],
        &["check", p, "--bitstate", "20", "--bitstate-hashes", "9"][..],
        &["check", p, "--bitstate-hashes", "2"][..],
        &["check", p, "--bitstate", "20", "--hash-compaction"][..],
        &["check", p, "--memory-limit", "0"][..],
        &["check", p, "--memory-limit", "18446744073709551615"][..],
        &["check", p, "--max-states", "0"][..],
        &["check", p, "--time-limit", "0"][..],
        &["check", p, "--time-limit", "1e300"][..],
    ] {
        let (status, stdout, stderr) = bir(args);
        assert_eq!(status, 2, "{args:?}: {stderr}");
        assert_eq!(stdout, "", "{args:?}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with("bir: error: "), "{stderr}");
    }
    // The message names the valid range.
    let (_, _, stderr) = bir(&["check", p, "--threads", "0"]);
    assert!(
        stderr.contains(
            "invalid value '0' for '--threads <N>': the search runs with 1 to 256 threads"
        ),
        "{stderr}"
    );
    let (_, _, stderr) = bir(&["check", p, "--bitstate", "41"]);
    assert!(stderr.contains("LOG2 is 10 to 40, not 41"), "{stderr}");
    // An override of a constant the model does not declare is a compile error.
    let (status, _, stderr) = bir(&["check", p, "--set", "Param.M=3"]);
    assert_eq!(status, 2);
    assert!(stderr.contains("`Param.M`"), "{stderr}");
}

#[test]
fn the_bounds_of_the_ranges_are_accepted() {
    let fixed = model("dining_philosophers_fixed.bir");
    let (status, out, err) = bir(&["check", &fixed, "--threads", "256", "--json"]);
    assert_eq!(status, 0, "{out}{err}");
    let json: Value = serde_json::from_str(&out).expect("one JSON object");
    assert_eq!(json["states"], 261);
    for (log2, hashes) in [("10", "1"), ("24", "8")] {
        let args = [
            "check",
            &fixed,
            "--bitstate",
            log2,
            "--bitstate-hashes",
            hashes,
        ];
        let (status, out, err) = bir(&args);
        assert_eq!(status, 3, "{args:?}: {out}{err}");
        assert!(out.contains("bitstate"), "{out}");
    }
}

/// The block of `text` that starts with the line `start` and ends before the line "```".
fn block_after(text: &str, start: &str) -> String {
    let begin = text
        .find(&format!("\n{start}\n"))
        .unwrap_or_else(|| panic!("no block starting with {start:?}"))
        + 1;
    let end = begin + text[begin..].find("\n```").expect("the end of the block");
    text[begin..=end].to_string()
}

#[test]
fn the_usage_in_the_readme_and_the_docs_is_the_help() {
    let (status, top, _) = bir(&["--help"]);
    assert_eq!(status, 0);
    let (status, check, _) = bir(&["check", "--help"]);
    assert_eq!(status, 0);
    let expected = format!("```text\n$ bir --help\n{top}\n$ bir check --help\n{check}");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let chapter =
        std::fs::read_to_string(root.join("../docs/guide/cli.md")).expect("docs/guide/cli.md");
    assert_eq!(
        block_after(&chapter, "```text\n$ bir --help"),
        expected,
        "docs/guide/cli.md: paste the output of `bir --help` and `bir check --help`"
    );
    let main = std::fs::read_to_string(root.join("src/main.rs")).expect("main.rs");
    let docs: String = main
        .lines()
        .filter_map(|line| line.strip_prefix("//!"))
        .map(|line| format!("{}\n", line.strip_prefix(' ').unwrap_or(line)))
        .collect();
    assert_eq!(
        block_after(&docs, "```text\n$ bir --help"),
        expected,
        "the module docs of bir-cli/src/main.rs: paste the output of `bir --help` and `bir check --help`"
    );
    assert!(
        check.contains("Usage: bir check [OPTIONS] <MODEL.bir>"),
        "{check}"
    );
    assert!(top.contains("Exit status:") && check.contains("Exit status:"));
}

#[test]
fn version() {
    for flag in ["--version", "-V"] {
        let (status, stdout, _) = bir(&[flag]);
        assert_eq!(status, 0);
        assert_eq!(stdout, format!("bir {}\n", env!("CARGO_PKG_VERSION")));
    }
}

/// Runs `bir check PATH`; returns the exit status, stderr and how long it took.
fn check_timed(path: &str) -> (i32, String, Duration) {
    let start = Instant::now();
    let (status, stdout, stderr) = bir(&["check", path]);
    assert_eq!(stdout, "");
    (status, stderr, start.elapsed())
}

#[test]
fn a_model_file_over_16_mib_is_refused_at_once() {
    // A sparse 50 MB file: refused by its size, without reading it.
    let path = temp_file("large", "large.bir", "");
    std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .and_then(|file| file.set_len(50_000_000))
        .expect("a sparse file");
    let (status, stderr, took) = check_timed(&path);
    assert_eq!(status, 2, "{stderr}");
    assert_eq!(
        stderr,
        format!(
            "bir: error: `{path}` is larger than 16 MiB, the most model text `bir check` reads\n"
        )
    );
    assert!(took < Duration::from_secs(1), "took {took:?}");
    remove_temp_file(&path);
}

#[test]
fn an_endless_model_file_is_refused_after_16_mib() {
    let zero = "/dev/zero";
    if !Path::new(zero).exists() {
        return;
    }
    // /dev/zero has no size: it is read up to the cap and one byte more.
    let (status, stderr, took) = check_timed(zero);
    assert_eq!(status, 2, "{stderr}");
    assert!(stderr.contains("is larger than 16 MiB"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(took < Duration::from_secs(3), "took {took:?}");
}

#[test]
fn a_model_of_exactly_16_mib_is_read() {
    // The cap is inclusive: 16 MiB of text (a model padded with spaces) is checked, and one
    // byte more is refused.
    let source = std::fs::read_to_string(models().join("two_dining_philosophers.bir")).unwrap();
    let cap = 16 << 20;
    let padded = format!("{source}{}", " ".repeat(cap - source.len()));
    let path = temp_file("exact", "exact.bir", &padded);
    let (status, stdout, stderr) = bir(&["check", &path]);
    assert_eq!(status, 1, "{stderr}");
    assert!(stdout.contains("deadlock found"), "{stdout}");
    std::fs::write(&path, format!("{padded} ")).unwrap();
    let (status, stderr, _) = check_timed(&path);
    assert_eq!(status, 2, "{stderr}");
    assert!(stderr.contains("is larger than 16 MiB"), "{stderr}");
    remove_temp_file(&path);
}

#[test]
fn a_model_that_is_not_utf8_is_refused() {
    let path = temp_file("binary", "binary.bir", "");
    std::fs::write(&path, b"system S {\xff}").unwrap();
    let (status, stderr, _) = check_timed(&path);
    assert_eq!(status, 2);
    assert_eq!(
        stderr,
        format!("bir: error: `{path}` is not UTF-8 text (invalid byte at offset 10)\n")
    );
    remove_temp_file(&path);
}

#[test]
fn json_output_parses_back() {
    let (status, stdout, _) = bir(&["check", &model("sum_to_n.bir"), "--bfs", "--json"]);
    assert_eq!(status, 1);
    let json: Value = serde_json::from_str(&stdout).expect("one JSON object");
    assert_eq!(json["model"], "SumToN");
    assert_eq!(json["strategy"], "breadth-first");
    assert_eq!(json["verdict"], "assertion");
    assert_eq!(json["complete"], false);
    assert_eq!(json["incomplete_reason"], Value::Null);
    for field in ["states", "transitions", "errors", "deadlocks", "max_depth"] {
        assert!(json[field].is_u64(), "{field}");
    }
    assert!(json["seconds"].is_f64());
    let found = &json["counterexamples"][0];
    assert_eq!(found["kind"], "assertion");
    assert!(found["message"].as_str().unwrap().contains("x != Param.N"));
    let steps = found["steps"].as_array().expect("steps");
    assert_eq!(steps.len(), 4);
    let last = &steps[3];
    assert_eq!(
        (&last["thread"], &last["from"], &last["to"]),
        (&"Thread0".into(), &"loc0".into(), &"return".into())
    );
    assert_eq!(last["fails"], true);
    assert_eq!(last["line"], 14);
    assert_eq!(last["changes"], Value::Array(Vec::new()));
    let change = &steps[0]["changes"][0];
    assert!(
        change["variable"].is_string() && change["old"].is_i64(),
        "{change}"
    );
    assert_eq!(found["final_state"]["x"], 2);
    assert_eq!(found["final_state"]["Thread0"], "loc0");
    let replay = found["replay"].as_str().unwrap();
    assert!(replay.starts_with("bir1:"), "{replay}");

    let (status, stdout, _) = bir(&["check", &model("peterson_filter.bir"), "--json"]);
    assert_eq!(status, 0);
    let json: Value = serde_json::from_str(&stdout).expect("one JSON object");
    assert_eq!(
        (&json["verdict"], &json["complete"]),
        (&"verified".into(), &true.into())
    );
    assert_eq!(
        (&json["states"], &json["transitions"]),
        (&288.into(), &651.into())
    );
    assert_eq!(json["counterexamples"], Value::Array(Vec::new()));
}

#[test]
fn set_checks_a_family_at_another_size() {
    let (status, stdout, _) = bir(&[
        "check",
        &model("dining_philosophers.bir"),
        "--set",
        "Param.N=3",
        "--keep-going",
        "1",
        "--json",
    ]);
    assert_eq!(status, 1);
    let json: Value = serde_json::from_str(&stdout).expect("one JSON object");
    assert_eq!(
        (&json["states"], &json["transitions"]),
        (&35.into(), &75.into())
    );
    assert_eq!(
        (&json["deadlocks"], &json["complete"]),
        (&1.into(), &true.into())
    );
}

#[test]
fn a_limit_gives_status_3() {
    let (status, stdout, _) = bir(&[
        "check",
        &model("dining_philosophers_fixed.bir"),
        "--max-states",
        "10",
    ]);
    assert_eq!(status, 3);
    assert!(
        stdout.contains("(depth-first search; state limit reached); not verified"),
        "{stdout}"
    );
    let (status, stdout, _) = bir(&[
        "check",
        &model("dining_philosophers_fixed.bir"),
        "--max-depth=3",
        "--json",
    ]);
    assert_eq!(status, 3);
    let json: Value = serde_json::from_str(&stdout).expect("one JSON object");
    assert_eq!(
        (&json["verdict"], &json["incomplete_reason"]),
        (&"incomplete".into(), &"depth_limit".into())
    );
    // Without deadlock detection the philosophers' deadlock is no finding.
    let (status, _, _) = bir(&["check", &model("dining_philosophers.bir"), "--no-deadlock"]);
    assert_eq!(status, 0);
}

/// A model whose states take 66 bits (two 32-bit integers and a counter): too wide for a
/// word, so that hash compaction stores fingerprints. Four states, no deadlock.
const WIDE: &str = "system Wide {
  int[2] big;
  int (0, 3) n;
  active thread T() {
    loc l:
      when n < 3 do { n := n + 1; big[0] := big[0] - 1000; big[1] := big[1] + 1000; } goto l;
      when n == 3 do { n := 0; big[0] := 0; big[1] := 0; } goto l;
  }
}
";

#[test]
fn threads_hash_compaction_and_bitstate_keep_the_counts_and_say_what_they_covered() {
    let fixed = model("dining_philosophers_fixed.bir");
    let (code, out, _) = bir(&["check", &fixed, "--threads", "2"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("states: 261, transitions: 876"), "{out}");
    // The philosophers' states fit in a word, which the interpreter stores as the
    // generated code does: hash compaction would save nothing, and the search verifies.
    let (code, out, _) = bir(&["check", &fixed, "--hash-compaction"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("hash compaction asked for, but every state fits in a 64-bit word"),
        "{out}"
    );
    // Wider states: hash compaction stores fingerprints, so the search may have missed a
    // state and does not say verified.
    let wide = temp_file("compaction", "wide.bir", WIDE);
    let (code, out, _) = bir(&["check", &wide, "--hash-compaction"]);
    remove_temp_file(&wide);
    assert_eq!(code, 3, "{out}");
    assert!(
        out.contains(
            "found in 4 states (depth-first search, hash compaction; probability that a \
             state was missed"
        ),
        "{out}"
    );
    let (code, out, _) = bir(&["check", &fixed, "--bitstate", "20", "--json"]);
    assert_eq!(code, 3, "bitstate never verifies: {out}");
    let report: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(report["incomplete_reason"], "bitstate");
    assert_eq!(report["states"], 261);
}

#[test]
fn the_plan_says_what_ran_and_impossible_plans_are_refused() {
    let fixed = model("dining_philosophers_fixed.bir");
    // Breadth-first search with hash compaction runs, and cannot say verified: the help,
    // the text and the JSON agree.
    let wide = temp_file("plan", "wide.bir", WIDE);
    let (code, out, _) = bir(&["check", &wide, "--bfs", "--hash-compaction", "--json"]);
    assert_eq!(code, 3, "{out}");
    let json: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(json["plan"]["strategy"], "breadth-first");
    assert_eq!(json["plan"]["storage"], "hash-compaction");
    assert_eq!(json["plan"]["can_verify"], false);
    assert_eq!(json["incomplete_reason"], "hash_compaction");
    assert_eq!(json["states"], 4);
    let (_, text, _) = bir(&["check", &wide, "--bfs", "--hash-compaction"]);
    remove_temp_file(&wide);
    assert!(
        text.contains(
            "(breadth-first search, hash compaction; probability that a state was missed"
        ),
        "{text}"
    );
    assert!(text.contains("not verified"), "{text}");
    let (_, help, _) = bir(&["check", "--help"]);
    assert!(help.contains("never \"verified\""), "{help}");
    // Several threads are reported as what they are.
    let (_, out, _) = bir(&["check", &fixed, "--threads", "2", "--json"]);
    let json: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(
        (&json["strategy"], &json["plan"]["threads"]),
        (&"parallel".into(), &2.into())
    );
    // Refused before anything runs, with status 2.
    for (args, message) in [
        (
            &["--bfs", "--threads", "2"][..],
            "breadth-first search on several threads",
        ),
        (
            &["--bitstate", "40", "--memory-limit", "1024"][..],
            "does not fit the memory limit",
        ),
    ] {
        let mut all = vec!["check", &fixed];
        all.extend_from_slice(args);
        let (code, _, err) = bir(&all);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(message), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}

#[test]
fn a_parallel_search_stores_at_most_the_state_limit() {
    let (code, out, _) = bir(&[
        "check",
        &model("dining_philosophers_fixed.bir"),
        "--threads",
        "2",
        "--max-states",
        "100",
        "--json",
    ]);
    assert_eq!(code, 3, "{out}");
    let json: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(json["incomplete_reason"], "state_limit");
    assert!(json["states"].as_u64().is_some_and(|s| s <= 100), "{out}");
}

#[test]
fn the_memory_limit_bounds_the_interpreter_peak_memory() {
    // Peterson's filter for 6 processes: 1.8 million states, which the interpreter holds
    // in about 36 MiB (words of 51 bits, as the generated code). With a limit of 20 MiB the
    // search stops, incomplete, and the process never held more than the limit (within
    // 10%).
    let (code, out, err) = bir(&[
        "check",
        &model("peterson_filter.bir"),
        "--set",
        "Param.N=6",
        "--memory-limit",
        "20",
        "--json",
    ]);
    assert_eq!(code, 3, "{out}{err}");
    let json: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(json["incomplete_reason"], "memory_limit");
    let peak = json["peak_memory_bytes"].as_u64();
    if let Some(peak) = peak {
        assert!(peak <= 22 << 20, "peak {peak} bytes for a 20 MiB limit");
    }
    assert!(json["states"].as_u64().is_some_and(|s| s > 1_000), "{out}");
    // The report names the storage that would hold more in the same memory.
    let notes = json["notes"].as_array().expect("notes");
    assert!(
        notes
            .iter()
            .any(|n| n.as_str().is_some_and(|n| n.contains("--compact"))),
        "{out}"
    );
}

#[test]
fn ltl_and_reachability_checks_have_their_exit_statuses_and_json() {
    let text = std::fs::read_to_string(model("peterson_filter.bir")).expect("model");
    let end = text.rfind('}').expect("a system");
    let source = format!(
        "{}  ltl Served: [](!P[0]@critical -> <>P[0]@critical);\n  \
         reachable Both: P[0]@critical && P[1]@critical;\n  \
         reachable One: P[1]@critical;\n}}\n",
        &text[..end]
    );
    let file = temp_file("properties", "pf.bir", &source);
    let run = |args: &[&str]| {
        let mut all = vec!["check", &file, "--set", "Param.N=2", "--json"];
        all.extend_from_slice(args);
        let (code, out, err) = bir(&all);
        let json: Value = serde_json::from_str(&out).unwrap_or_else(|_| panic!("{out}{err}"));
        (code, json)
    };
    let (code, json) = run(&["--ltl", "Served"]);
    assert_eq!((code, &json["verdict"]), (1, &"property".into()));
    assert_eq!(json["strategy"], "nested-depth-first");
    let lasso = &json["counterexamples"][0];
    assert!(lasso["cycle_start"].as_u64().is_some(), "{lasso}");
    assert!(lasso["replay"].as_str().is_some_and(|r| r.contains('@')));
    let (code, json) = run(&["--ltl", "Served", "--weak-fairness"]);
    assert_eq!((code, &json["verdict"]), (0, &"verified".into()));
    assert_eq!(json["plan"]["fairness"], "weak");
    let (code, json) = run(&["--reachable", "One"]);
    assert_eq!((code, &json["verdict"]), (0, &"reached".into()));
    assert_eq!(json["counterexamples"][0]["kind"], "witness");
    // Mutual exclusion: both in the critical section is unreachable, a failure of the check.
    let (code, json) = run(&["--reachable", "Both"]);
    assert_eq!((code, &json["verdict"]), (1, &"unreachable".into()));
    let (code, _, err) = bir(&["check", &file, "--ltl", "Nope"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("no `ltl` property named `Nope` (it declares Served)"),
        "{err}"
    );
    let (code, _, err) = bir(&["check", &file, "--weak-fairness"]);
    assert_eq!(code, 2, "{err}");
    remove_temp_file(&file);
}

#[test]
fn depth_first_traces_are_shortened_and_long_ones_elided_unless_asked() {
    let path = model("dining_philosophers.bir");
    let (status, stdout, _) = bir(&["check", &path]);
    assert_eq!(status, 1);
    assert!(
        stdout.contains("1. deadlock after 5 steps (shortened from 81): "),
        "{stdout}"
    );
    assert!(
        stdout.contains("note: counterexamples shortened by a breadth-first search"),
        "{stdout}"
    );
    let (_, own, _) = bir(&["check", &path, "--no-shorten"]);
    assert!(own.contains("1. deadlock after 81 steps: "), "{own}");
    assert!(
        own.contains(
            "  ... 51 steps not shown (#11 to #61); print the report with {:#} \
                      (`--full-trace`) for all of them\n"
        ),
        "{own}"
    );
    assert!(!own.contains("  #30 "), "{own}");
    let (_, full, _) = bir(&["check", &path, "--no-shorten", "--full-trace"]);
    assert!(
        full.contains("  #30 ") && !full.contains("not shown"),
        "{full}"
    );
    // The replay string and the JSON always hold every step.
    let (_, json, _) = bir(&["check", &path, "--no-shorten", "--json"]);
    let json: Value = serde_json::from_str(&json).expect("JSON");
    let found = &json["counterexamples"][0];
    assert_eq!(found["steps"].as_array().map(Vec::len), Some(81));
    assert_eq!(found["shortened_from"], Value::Null);
    let (_, json, _) = bir(&["check", &path, "--json"]);
    let json: Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!(json["counterexamples"][0]["shortened_from"], 81);
    assert_eq!(
        json["counterexamples"][0]["steps"].as_array().map(Vec::len),
        Some(5)
    );
}

#[test]
fn symmetry_names_its_group_in_the_report_and_the_json() {
    let peterson = model("peterson_filter.bir");
    let (status, stdout, _) = bir(&["check", &peterson, "--symmetry"]);
    assert_eq!(status, 0, "{stdout}");
    assert!(
        stdout.contains(
            "in all 151 reachable states (depth-first search, symmetry reduction \
                         (all 2 permutations of P[1], P[2] (P[0] fixed)))"
        ),
        "{stdout}"
    );
    let (status, stdout, _) = bir(&["check", &model("toggle_bits.bir"), "--symmetry", "--json"]);
    assert_eq!(status, 0, "{stdout}");
    let json: Value = serde_json::from_str(&stdout).expect("JSON");
    assert_eq!(json["states"], 6);
    assert_eq!(
        json["plan"]["symmetry"],
        "all 120 permutations of T[0], T[1], T[2], T[3], T[4]"
    );
    assert_eq!(json["plan"]["por"], false);
}

/// The HTML report of the protocol's counterexample (the transcript of
/// `docs/guide/cli.md`, which `tests/guide.rs` checks) draws the chart that the guide
/// shows, `docs/alternating_bit_msc.svg`.
#[test]
fn the_protocol_chart_of_the_guide_is_the_html_reports() {
    let html = std::env::temp_dir().join(format!("bir-guide-abp-{}.html", std::process::id()));
    let html_arg = html.display().to_string();
    let file = model("alternating_bit.bir");
    let args = [
        "check",
        file.as_str(),
        "--set",
        "P.CHECK_BIT=false",
        "--set",
        "P.MAX=2",
        "--set",
        "P.K=2",
        "--bfs",
        "--html",
        html_arg.as_str(),
    ];
    let (status, report, _) = bir(&args);
    assert_eq!(status, 1, "{report}");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let page = std::fs::read_to_string(&html).expect("the HTML report");
    let _ = std::fs::remove_file(&html);
    let chart = &page[page.find("<svg").expect("a chart")..];
    let chart = &chart[..chart.find("</svg>").expect("the chart's end") + "</svg>".len()];
    let svg = std::fs::read_to_string(root.join("../docs/alternating_bit_msc.svg"))
        .expect("docs/alternating_bit_msc.svg");
    assert_eq!(
        svg.trim_end(),
        chart,
        "docs/alternating_bit_msc.svg: the report's chart"
    );
    assert!(chart.contains("msc-message"), "the chart draws messages");
}

/// `bir check --json` with `args`, parsed; the exit status beside it. Runs both engines
/// (see [`bir`]).
fn check_json(args: &[&str]) -> (i32, Value) {
    let mut all = vec!["check"];
    all.extend_from_slice(args);
    all.push("--json");
    let (code, out, err) = bir(&all);
    let json = serde_json::from_str(&out).unwrap_or_else(|_| panic!("{args:?}: {out}{err}"));
    (code, json)
}

#[test]
fn heuristic_searches_have_the_counts_of_depth_first_search_on_every_reference_model() {
    let counts = |json: &Value| {
        ["states", "transitions", "errors", "deadlocks"].map(|field| json[field].clone())
    };
    let mut seen = 0;
    for entry in std::fs::read_dir(models()).expect("models/") {
        let path = entry.expect("entry").path();
        if path.extension().is_none_or(|e| e != "bir") {
            continue;
        }
        let file = path.display().to_string();
        let all = ["--keep-going", "0"];
        let (dfs_code, dfs) = check_json(&[&file, all[0], all[1]]);
        for (search, heuristic, strategy) in [
            ("--best-first", "coverage", "best-first"),
            ("--best-first", "blocked", "best-first"),
            ("--order-by", "switching", "ordered-depth-first"),
            ("--order-by", "random=3", "ordered-depth-first"),
        ] {
            let (code, json) = check_json(&[&file, all[0], all[1], search, heuristic]);
            let what = format!("{file} {search} {heuristic}");
            assert_eq!(code, dfs_code, "{what}");
            assert_eq!(counts(&json), counts(&dfs), "{what}");
            assert_eq!(json["complete"], dfs["complete"], "{what}");
            if dfs_code == 0 {
                assert_eq!(json["verdict"], "verified", "{what}");
            }
            assert_eq!(json["strategy"], strategy);
            assert_eq!(json["plan"]["strategy"], strategy);
            assert!(json["plan"]["heuristic"].is_string(), "{what}");
        }
        seen += 1;
    }
    assert_eq!(seen, 14);
}

/// Peterson's filter for 3 threads with the guard to the critical section weakened (it
/// lets a thread in when it is not the victim, whoever is above it): two threads meet
/// there.
fn peterson_with_a_wrong_guard() -> String {
    let text = std::fs::read_to_string(model("peterson_filter.bir")).expect("model");
    let broken = text.replacen(
        "when level[index] == Param.N - 1\n           && ((forall k in 0 .. Param.N : \
         (k == index || level[k] < level[index]))\n               || victim[level[index]] \
         != index)",
        "when level[index] == Param.N - 1",
        1,
    );
    assert_ne!(broken, text, "the guard to weaken");
    temp_file("heuristics", "peterson_wrong_guard.bir", &broken)
}

#[test]
fn every_heuristic_and_the_swarm_find_the_seeded_bugs_with_real_paths() {
    let peterson = peterson_with_a_wrong_guard();
    let philosophers = model("dining_philosophers.bir");
    let replays = |file: &str, json: &Value| {
        let found = &json["counterexamples"][0];
        let replay = found["replay"].as_str().expect("a replay string");
        let (code, out, err) = run_bir(&["replay", file, replay, "--json"], &[]);
        assert_eq!(code, 0, "{replay}: {out}{err}");
        let again: Value = serde_json::from_str(&out).expect("JSON");
        assert_eq!(again["replay"], found["replay"]);
        assert_eq!(again["kind"], found["kind"]);
    };
    let bugs = [
        (&peterson, "assertion", "threads=P[2]"),
        (&philosophers, "deadlock", "threads=Philosopher"),
    ];
    for (file, kind, threads) in bugs {
        for search in ["--best-first", "--order-by"] {
            for heuristic in ["coverage", "switching", threads, "blocked", "random=5"] {
                let (code, json) = check_json(&[file, search, heuristic]);
                assert_eq!(
                    (code, &json["verdict"]),
                    (1, &kind.into()),
                    "{search} {heuristic}"
                );
                replays(file, &json);
            }
        }
        // A swarm's order depends on its threads' timing: one engine, checked by replay.
        let (code, out, err) = run_bir(&["check", file, "--swarm", "4", "--json"], &[]);
        let json: Value = serde_json::from_str(&out).unwrap_or_else(|_| panic!("{out}{err}"));
        assert_eq!((code, &json["verdict"]), (1, &kind.into()));
        assert_eq!(
            (&json["strategy"], &json["plan"]["swarm"]),
            (&"swarm".into(), &4.into())
        );
        assert_eq!(json["swarm_searches"].as_array().map(Vec::len), Some(4));
        replays(file, &json);
    }
    remove_temp_file(&peterson);
}

#[test]
fn a_swarm_never_says_verified_and_names_what_each_search_covered() {
    let file = model("peterson_filter.bir");
    let (code, out, _) = run_bir(&["check", &file, "--swarm", "2", "--threads", "2"], &[]);
    assert_eq!(code, 3, "{out}");
    assert!(
        out.contains("(swarm search, 2 searches, 2 threads, bitstate hashing"),
        "{out}"
    );
    assert!(out.contains("not verified"), "{out}");
    assert!(
        out.contains("swarm search #1: best-first search by random"),
        "{out}"
    );
    // `--threads 1` is a choice too: the swarm's searches take turns on one thread (a plan
    // names its threads when there are more than one).
    let (code, out, _) = run_bir(&["check", &file, "--swarm", "2", "--threads", "1"], &[]);
    assert_eq!(code, 3, "{out}");
    assert!(
        out.contains("(swarm search, 2 searches, bitstate hashing"),
        "{out}"
    );
}

#[test]
fn an_unknown_heuristic_is_a_clear_error_listing_the_choices() {
    let file = model("peterson_filter.bir");
    let (code, _, err) = run_bir(&["check", &file, "--best-first", "Closest"], &[]);
    assert_eq!(code, 2);
    assert!(
        err.contains("no heuristic named `Closest`: the built-in ones are coverage, switching"),
        "{err}"
    );
    let (code, _, err) = run_bir(&["check", &file, "--order-by", "threads=Q"], &[]);
    assert_eq!(code, 2);
    assert!(err.contains("no thread or instance named `Q`"), "{err}");
    assert!(err.contains("P[0], P[1], P[2]"), "{err}");
    let (code, _, err) = run_bir(&["check", &file, "--best-first", "random=x"], &[]);
    assert_eq!(code, 2);
    assert!(err.contains("seed"), "{err}");
    let text = run_bir(&["check", &file, "--best-first", "switching"], &[]).1;
    assert!(
        text.contains(
            "verified: no error and no deadlock in all 288 reachable states (best-first \
             search by thread switching)"
        ),
        "{text}"
    );
}
