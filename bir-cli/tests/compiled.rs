//! The compiled engine and its cache, `bir replay`, and `--json` for malformed models.

use std::path::{Path, PathBuf};

use serde_json::Value;

mod common;

use common::{model, run_bir, TEST_CACHE};

fn bir(args: &[&str]) -> (i32, String, String) {
    run_bir(args, &[])
}

/// A fresh folder of this test (emptied if it exists).
fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bir-compiled-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// A JSON report without what differs from run to run (and, for a parallel search, the
/// largest depth, which depends on the schedule).
fn comparable(report: &str) -> Value {
    let mut json: Value = serde_json::from_str(report).expect("one JSON object");
    let parallel = json["plan"]["threads"].as_u64().is_some_and(|n| n > 1);
    if let Some(object) = json.as_object_mut() {
        for field in ["seconds", "seen_set_bytes", "peak_memory_bytes"] {
            object.remove(field);
        }
        if parallel {
            object.remove("max_depth");
        }
    }
    json
}

/// A one-thread model whose only transition fails: unique to this file, so that its
/// compiled checker is built by these tests alone.
fn counter(name: &str) -> String {
    format!(
        "system {name} {{\n  const Param {{ LIMIT = 3; }}\n  int (0, 7) x;\n  \
         active thread T() {{\n    loc l: when x < 7 do {{ x := x + 1; assert (x <= Param.LIMIT); }} goto l;\n  \
         }}\n}}\n"
    )
}

/// A cache folder `cache` (not made) in this test's fresh folder, and beside it the file of
/// the model [`counter`]`(name)`.
fn cache_and_counter(test: &str, cache: &str, name: &str) -> (PathBuf, String) {
    let cache = temp_dir(test).join(cache);
    let file = cache.with_file_name("counter.bir");
    std::fs::write(&file, counter(name)).expect("model");
    (cache, file.display().to_string())
}

#[test]
fn both_engines_report_the_same_on_every_reference_model() {
    let mut seen = 0;
    for entry in
        std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("../models")).expect("models/")
    {
        let path = entry.expect("entry").path();
        if path.extension().is_none_or(|e| e != "bir") {
            continue;
        }
        let path = path.display().to_string();
        for extra in [
            &[][..],
            &["--bfs"],
            &["--no-shorten", "--keep-going", "3"],
            &["--por", "--no-deadlock"],
            &["--threads", "2", "--full-trace"],
        ] {
            let mut args = vec!["check", &path, "--json"];
            args.extend_from_slice(extra);
            let (status, compiled, err) = bir(&args);
            assert!(!err.contains("bir: note:"), "{path}: {err}");
            args.push("--interpret");
            let (interpreted_status, interpreted, _) = bir(&args);
            assert_eq!(status, interpreted_status, "{args:?}");
            assert_eq!(comparable(&compiled), comparable(&interpreted), "{args:?}");
        }
        seen += 1;
    }
    // Every `.bir` of models/ (`tests/cli.rs` lists them).
    assert_eq!(seen, 14);
}

#[test]
fn a_second_check_runs_the_cached_checker_without_cargo() {
    let (cache, file) = cache_and_counter("cache-hit", "my cache", "CacheHit");
    let cache_arg = cache.display().to_string();
    share_the_runtime(&cache);
    let args = ["check", &file, "--cache", &cache_arg, "--json"];
    // A fresh cache: the model is compiled, in the directory given.
    let (status, first, err) = bir(&args);
    assert_eq!(status, 1, "{first}{err}");
    assert!(err.contains("bir: compiling the model"), "{err}");
    assert!(!err.contains("bir: note:"), "{err}");
    let crates: Vec<PathBuf> = std::fs::read_dir(cache.join("models"))
        .expect("the crates are in the --cache directory")
        .map(|e| e.expect("entry").path())
        .collect();
    assert_eq!(crates.len(), 1, "{crates:?}");
    let marker = crates[0].join("built");
    let built_at = std::fs::metadata(&marker).and_then(|m| m.modified());
    let builds = std::fs::read_to_string(cache.join("builds.log")).expect("the build log");
    assert_eq!(builds.lines().count(), 1, "{builds}");
    // The second check does not run cargo (a cargo that does not exist would make it fall
    // back on the interpreter, with a note): it runs the binary the first one built.
    let (status, second, err) = run_bir(&args, &[("CARGO", "/nonexistent/cargo")]);
    assert_eq!(status, 1, "{second}{err}");
    assert_eq!(err, "", "no compiling, no note");
    assert_eq!(comparable(&first), comparable(&second));
    assert_eq!(
        std::fs::metadata(&marker).and_then(|m| m.modified()).ok(),
        built_at.ok()
    );
    let builds = std::fs::read_to_string(cache.join("builds.log")).expect("the build log");
    assert_eq!(builds.lines().count(), 1, "{builds}");
    // (Another `--set` is another checker: `tests/cli.rs` checks phils N=3 against the
    // interpreter, after phils N=5 was compiled.)
    let _ = std::fs::remove_dir_all(cache.parent().expect("the temp dir"));
}

#[test]
fn a_time_limit_shorter_than_the_build_checks_with_the_interpreter() {
    // A fresh cache has no build to estimate from: its first build is taken for 45 s.
    let (cache, file) = cache_and_counter("time-limit", "cache", "TimeLimited");
    let cache_arg = cache.display().to_string();
    let args = [
        "check",
        &file,
        "--cache",
        &cache_arg,
        "--time-limit",
        "5",
        "--json",
    ];
    let (status, out, err) = bir(&args);
    assert!(
        err.starts_with(
            "bir: note: compiling the model would take ~45 s, more than the time limit of 5 s; \
             checking with the interpreter"
        ),
        "{err}"
    );
    assert!(!cache.exists(), "nothing was written to the cache");
    let (interpreted_status, interpreted, _) = bir(&[&args[..], &["--interpret"]].concat());
    assert_eq!(
        (status, comparable(&out)),
        (interpreted_status, comparable(&interpreted))
    );
    let _ = std::fs::remove_dir_all(cache.parent().expect("the temp dir"));
}

/// Makes the fresh cache `dir` share the target directory of the tests' cache, so that the
/// runtime is not compiled once more for it (where symbolic links exist).
fn share_the_runtime(dir: &Path) {
    let shared = Path::new(TEST_CACHE).join("target");
    let _ = std::fs::create_dir_all(&shared);
    let _ = std::fs::create_dir_all(dir);
    #[cfg(unix)]
    let _ = std::os::unix::fs::symlink(&shared, dir.join("target"));
}

#[test]
fn without_cargo_the_interpreter_checks_with_a_note() {
    let cache = temp_dir("no-cargo");
    let (status, out, err) = run_bir(
        &[
            "check",
            &model("two_dining_philosophers.bir"),
            "--cache",
            &cache.display().to_string(),
        ],
        &[("CARGO", "/nonexistent/cargo")],
    );
    assert_eq!(status, 1, "{out}{err}");
    assert!(
        out.starts_with("TwoDiningPhilosophers: deadlock found"),
        "{out}"
    );
    assert!(
        err.contains("bir: note: cannot run cargo (`/nonexistent/cargo`)")
            && err.contains("; checking with the interpreter"),
        "{err}"
    );
    // A build that fails: the same, with where cargo's output went.
    let failing = if Path::new("/bin/false").exists() {
        "/bin/false"
    } else {
        return;
    };
    let (status, out, err) = run_bir(
        &[
            "check",
            &model("two_dining_philosophers.bir"),
            "--cache",
            &cache.display().to_string(),
        ],
        &[("CARGO", failing)],
    );
    assert_eq!(status, 1, "{out}{err}");
    assert!(
        out.starts_with("TwoDiningPhilosophers: deadlock found"),
        "{out}"
    );
    assert!(
        err.contains("bir: note: compiling the model failed")
            && err.contains("build.log")
            && err.contains("; checking with the interpreter"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(cache);
}

#[test]
fn the_report_has_the_process_peak_memory() {
    let path = model("peterson_filter.bir");
    for engine in [&[][..], &["--interpret"]] {
        let mut args = vec!["check", &path, "--set", "Param.N=4"];
        args.extend_from_slice(engine);
        let (status, text, err) = bir(&args);
        assert_eq!(status, 0, "{text}{err}");
        args.push("--json");
        let (_, out, _) = bir(&args);
        let json: Value = serde_json::from_str(&out).expect("JSON");
        let seen = json["seen_set_bytes"].as_u64().expect("seen set");
        // Where the system says (Linux: VmHWM), the whole process's peak, more than the
        // seen set alone.
        if let Some(peak) = json["peak_memory_bytes"].as_u64() {
            assert!(peak > seen, "{engine:?}: peak {peak}, seen set {seen}");
            assert!(text.contains(", peak memory: "), "{text}");
        }
    }
}

#[test]
fn replay_prints_the_counterexample_of_a_string() {
    let path = model("dining_philosophers.bir");
    let (status, out, _) = bir(&["check", &path, "--json", "--set", "Param.N=3"]);
    assert_eq!(status, 1);
    let report: Value = serde_json::from_str(&out).expect("JSON");
    let found = &report["counterexamples"][0];
    let replay = found["replay"].as_str().expect("a replay string");
    let (status, text, err) = bir(&["replay", &path, replay, "--set", "Param.N=3"]);
    assert_eq!(status, 0, "{err}");
    assert!(
        text.starts_with("DiningPhilosophers: deadlock replayed\n\ndeadlock after "),
        "{text}"
    );
    assert!(text.contains("  final state: ") && text.contains(&format!("  replay: {replay}\n")));
    let (status, json, _) = bir(&["replay", &path, replay, "--set", "Param.N=3", "--json"]);
    assert_eq!(status, 0);
    let json: Value = serde_json::from_str(&json).expect("JSON");
    for field in ["kind", "message", "steps", "final_state", "replay"] {
        assert_eq!(json[field], found[field], "{field}");
    }
    // Bad strings: what is wrong, status 2.
    for (bad, expected) in [
        ("nonsense", "malformed replay string `nonsense`"),
        ("bir1:99", "step 1: transition 99 is not enabled"),
        ("bir1:0", "in a state without finding"),
    ] {
        let (status, out, err) = bir(&["replay", &path, bad, "--set", "Param.N=3"]);
        assert_eq!(status, 2, "{bad}: {out}{err}");
        assert_eq!(out, "");
        assert!(err.starts_with("bir: error: `"), "{err}");
        assert!(err.contains(expected), "{bad}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    // Without the --set the string was printed with, it does not replay.
    let (status, _, _) = bir(&["replay", &path, replay]);
    assert_eq!(status, 2);
}

#[test]
fn replay_rebuilds_a_lasso_with_its_property() {
    let text = std::fs::read_to_string(model("peterson_filter.bir")).expect("model");
    let end = text.rfind('}').expect("a system");
    let source = format!(
        "{}  ltl Served: [](!P[0]@critical -> <>P[0]@critical);\n}}\n",
        &text[..end]
    );
    let dir = temp_dir("lasso");
    let file = dir.join("pf.bir").display().to_string();
    std::fs::write(&file, source).expect("model");
    let (status, out, _) = bir(&[
        "check",
        &file,
        "--set",
        "Param.N=2",
        "--ltl",
        "Served",
        "--json",
    ]);
    assert_eq!(status, 1, "{out}");
    let report: Value = serde_json::from_str(&out).expect("JSON");
    let lasso = report["counterexamples"][0]["replay"]
        .as_str()
        .expect("a lasso")
        .to_string();
    let (status, text, err) = bir(&[
        "replay",
        &file,
        &lasso,
        "--set",
        "Param.N=2",
        "--ltl",
        "Served",
    ]);
    assert_eq!(status, 0, "{err}");
    assert!(text.contains("part 2, the cycle"), "{text}");
    let (status, _, err) = bir(&["replay", &file, &lasso, "--set", "Param.N=2"]);
    assert_eq!(status, 2);
    assert!(err.contains("lasso"), "{err}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn json_reports_malformed_models_as_error_objects() {
    let dir = temp_dir("json-errors");
    let file = dir.join("bad.bir");
    std::fs::write(
        &file,
        "system S {\n  boolean x;\n  int x;\n  active thread T() {\n    loc l: do { y := 1; } goto l;\n  }\n}\n",
    )
    .expect("model");
    let file = file.display().to_string();
    for engine in [&[][..], &["--interpret"]] {
        let mut args = vec!["check", &file, "--json"];
        args.extend_from_slice(engine);
        let (status, out, err) = bir(&args);
        assert_eq!(status, 2);
        assert!(
            err.contains("error: aborting due to 2 previous errors"),
            "{err}"
        );
        let json: Value = serde_json::from_str(&out).expect("one JSON object");
        assert_eq!(
            (&json["file"], &json["verdict"]),
            (&file.as_str().into(), &"malformed".into())
        );
        let errors = json["errors"].as_array().expect("errors");
        assert_eq!(errors.len(), 2);
        let duplicate = &errors[0];
        assert!(duplicate["message"]
            .as_str()
            .is_some_and(|m| m.contains('x')));
        assert_eq!(
            (&duplicate["line"], &duplicate["column"]),
            (&3.into(), &7.into())
        );
        assert_eq!(
            duplicate["span"],
            serde_json::json!({"start": {"line": 3, "column": 7}, "end": {"line": 3, "column": 8}})
        );
        let note = &duplicate["notes"][0];
        assert_eq!((&note["line"], &note["column"]), (&2.into(), &11.into()));
        assert!(duplicate["rendered"]
            .as_str()
            .is_some_and(|r| r.contains(&format!("--> {file}:3:7"))));
        assert_eq!(
            (&errors[1]["line"], &errors[1]["column"]),
            (&5.into(), &17.into())
        );
    }
    // A file that cannot be read, an undeclared constant: errors without a place.
    for args in [
        &["check", "no/such/model.bir", "--json"][..],
        &[
            "check",
            &model("dining_philosophers.bir"),
            "--set",
            "Param.M=3",
            "--json",
        ],
        &["replay", "no/such/model.bir", "bir1:0", "--json"],
    ] {
        let (status, out, err) = bir(args);
        assert_eq!(status, 2, "{args:?}");
        assert!(!err.is_empty());
        let json: Value = serde_json::from_str(&out).expect("one JSON object");
        assert_eq!(json["verdict"], "malformed");
        assert!(json["errors"][0]["message"].is_string(), "{json}");
    }
    let _ = std::fs::remove_dir_all(dir);
}
