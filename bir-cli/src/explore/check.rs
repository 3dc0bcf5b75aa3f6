//! A check run from the page: the options it may set (each checked as `bir check` checks
//! its arguments, and turned into the [`SearchOptions`] both engines read), the search on
//! the interpreter (a thread of its own with a [`Watch`]) or on the compiled checker
//! ([`super::child`]), and what the page is shown while it runs and when it ends: the same
//! for both engines.

use std::sync::{Arc, Mutex};
use std::time::Instant;

use bir_driver::stream::{Outcome, Progress};
use bir_driver::SearchOptions;
use bir_interp::Interpreter;
use bir_runtime::{Checker, Watch};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::args;

use super::child::Running;
use super::guard::Refusal;

/// The options of a check, as the page sends them.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckRequest {
    /// `dfs` (default) or `bfs`.
    #[serde(default)]
    pub strategy: Option<String>,
    /// `--max-states`.
    #[serde(default)]
    pub max_states: Option<u64>,
    /// `--max-depth`.
    #[serde(default)]
    pub max_depth: Option<u64>,
    /// `--time-limit`, in seconds.
    #[serde(default)]
    pub time_limit: Option<f64>,
    /// `--memory-limit`, in MiB.
    #[serde(default)]
    pub memory_limit: Option<u64>,
    /// `--ltl NAME`.
    #[serde(default)]
    pub ltl: Option<String>,
    /// `--no-deadlock`.
    #[serde(default)]
    pub no_deadlock: bool,
}

impl CheckRequest {
    /// The search these options describe for the model in `file`, or why they are wrong
    /// (the messages of `bir check`'s arguments).
    pub fn search(&self, file: &str) -> Result<SearchOptions, Refusal> {
        let bad = |message: String| Refusal::new(400, message);
        let bfs = match self.strategy.as_deref() {
            None | Some("dfs") => false,
            Some("bfs") => true,
            Some(other) => return Err(bad(format!("strategy `{other}`: expected `dfs` or `bfs`"))),
        };
        // Each number goes through the parser of its command-line argument, so that the
        // page's limits are refused with the same messages.
        let max_states = self.max_states.map(|n| args::max_states(&n.to_string()));
        let max_depth = self.max_depth.map(|n| args::whole_number(&n.to_string()));
        let time_limit = self.time_limit.map(|s| args::seconds(&s.to_string()));
        let memory_limit = self
            .memory_limit
            .map(|m| args::memory_limit(&m.to_string()));
        Ok(SearchOptions {
            file: file.to_string(),
            bfs,
            max_states: max_states.transpose().map_err(bad)?,
            max_depth: max_depth.transpose().map_err(bad)?,
            time_limit: time_limit.transpose().map_err(bad)?,
            memory_limit: memory_limit.transpose().map_err(bad)?,
            no_deadlock: self.no_deadlock,
            ltl: self.ltl.clone().filter(|name| !name.is_empty()),
            ..SearchOptions::default()
        })
    }
}

/// The interpreter's checker of `model` for `search`, configured as `bir check` configures
/// it, or why its plan is refused. Both engines' searches are checked this way before they
/// start: the plan depends only on the model's description, which they share.
pub fn checker(
    model: Interpreter,
    search: &SearchOptions,
) -> Result<Checker<Interpreter>, Refusal> {
    let checker = bir_driver::configure(model, search).progress(false);
    checker
        .plan()
        .map_err(|error| Refusal::new(400, error.to_string()))?;
    Ok(checker)
}

/// Where a finished check's result goes.
pub type Slot = Arc<Mutex<Option<Finished>>>;

/// What a finished check left.
pub struct Finished {
    /// How long it ran.
    pub seconds: f64,
    /// Its outcome and HTML report, or why there are none.
    pub result: Result<Done, String>,
}

/// The result of a check that ran to its report.
pub struct Done {
    /// What the page shows.
    pub outcome: Outcome,
    /// The report as an HTML page.
    pub html: String,
}

/// How a running check is followed and stopped.
enum Control {
    /// On the interpreter, in this process.
    Interpreter(Watch),
    /// On the compiled checker, a child process.
    Compiled(Running),
}

/// The check that runs or ran last.
pub struct CheckRun {
    /// The engine it runs on, as the page names it.
    engine: String,
    control: Control,
    started: Instant,
    /// Set when the search ends.
    result: Slot,
}

impl CheckRun {
    /// Starts `checker` (of the model in `file`) on a thread of its own; `engine` names the
    /// interpreter and why it runs.
    pub fn interpreter(
        checker: Checker<Interpreter>,
        file: &str,
        engine: String,
    ) -> Result<CheckRun, Refusal> {
        let watch = Watch::new();
        let checker = checker.watch(watch.clone());
        let result: Slot = Arc::new(Mutex::new(None));
        let slot = Arc::clone(&result);
        let started = Instant::now();
        let file = file.to_string();
        std::thread::Builder::new()
            .name("bir-explore-check".into())
            .stack_size(64 << 20)
            .spawn(move || {
                let report = checker.run();
                let result = Outcome::new(&report, &file).map(|outcome| Done {
                    outcome,
                    html: bir_driver::html::render(&report, &file),
                });
                let finished = Finished {
                    seconds: started.elapsed().as_secs_f64(),
                    result,
                };
                if let Ok(mut slot) = slot.lock() {
                    *slot = Some(finished);
                }
            })
            .map_err(|e| Refusal::new(503, format!("cannot start the check: {e}")))?;
        Ok(CheckRun {
            engine,
            control: Control::Interpreter(watch),
            started,
            result,
        })
    }

    /// Starts the compiled checker `binary` on `search`; the HTML report is written to a
    /// file under `scratch` while it runs. `Err` says why it could not start.
    pub fn compiled(
        binary: &std::path::Path,
        scratch: &std::path::Path,
        search: SearchOptions,
    ) -> Result<CheckRun, String> {
        let result: Slot = Arc::new(Mutex::new(None));
        let started = Instant::now();
        let running = Running::start(binary, scratch, search, Arc::clone(&result), started)?;
        Ok(CheckRun {
            engine: "compiled".to_string(),
            control: Control::Compiled(running),
            started,
            result,
        })
    }

    /// True while the search runs.
    pub fn running(&self) -> bool {
        self.result.lock().map(|r| r.is_none()).unwrap_or(false)
    }

    /// Asks the search to stop; false if it had ended.
    pub fn cancel(&self) -> bool {
        let running = self.running();
        if running {
            match &self.control {
                Control::Interpreter(watch) => watch.cancel(),
                Control::Compiled(child) => child.cancel(),
            }
        }
        running
    }

    /// The HTML report, once the search has ended with one.
    pub fn html(&self) -> Option<String> {
        let slot = self.result.lock().ok()?;
        let done = slot.as_ref()?.result.as_ref().ok()?;
        Some(done.html.clone())
    }

    /// What the page shows: the engine, running or not, the progress, and the result (or
    /// the error that left none).
    pub fn view(&self) -> Value {
        let (progress, cancelled) = match &self.control {
            Control::Interpreter(watch) => (Progress::from(watch.progress()), watch.is_cancelled()),
            Control::Compiled(child) => (child.progress(), child.is_cancelled()),
        };
        let guard = self.result.lock();
        let finished = guard.as_ref().ok().and_then(|r| r.as_ref());
        let (result, error) = match finished.map(|f| &f.result) {
            Some(Ok(done)) => (Some(&done.outcome), None),
            Some(Err(message)) => (None, Some(message)),
            None => (None, None),
        };
        // The watch lags the search by up to a sync interval: a finished check shows the
        // report's own counts.
        let progress = result.map_or(progress, |outcome| final_counts(&outcome.report));
        json!({
            "check_engine": self.engine,
            "running": finished.is_none(),
            "cancelled": cancelled,
            "seconds": finished.map_or(self.started.elapsed().as_secs_f64(), |f| f.seconds),
            "progress": progress,
            "result": result,
            "error": error,
        })
    }
}

/// The counts of a JSON report, as progress.
fn final_counts(report: &Value) -> Progress {
    let count = |field: &str| report[field].as_u64().unwrap_or(0);
    Progress {
        states: count("states"),
        transitions: count("transitions"),
        max_depth: u32::try_from(count("max_depth")).unwrap_or(u32::MAX),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    fn model() -> Interpreter {
        Interpreter::from_source(include_str!("../../../models/two_dining_philosophers.bir"))
            .unwrap()
    }

    fn request(json: Value) -> CheckRequest {
        serde_json::from_value(json).unwrap()
    }

    #[test]
    fn options_are_checked_as_the_command_line_checks_them() {
        for (json, expected) in [
            (json!({"strategy": "bfs", "max_states": 0}), "at least 1"),
            (json!({"strategy": "random"}), "expected `dfs` or `bfs`"),
            (json!({"time_limit": -1.0}), "positive number of seconds"),
            (json!({"memory_limit": 0}), "at least 1 MiB"),
            (json!({"max_depth": 5_000_000_000u64}), "whole number"),
            (json!({"ltl": "Nope"}), "Nope"),
        ] {
            let error = request(json.clone())
                .search("two.bir")
                .and_then(|search| checker(model(), &search))
                .map(|_| ())
                .unwrap_err();
            assert_eq!(error.status, 400);
            assert!(
                error.message.contains(expected),
                "{json}: {}",
                error.message
            );
        }
        assert!(serde_json::from_value::<CheckRequest>(json!({"bogus": 1})).is_err());
        assert!(serde_json::from_value::<CheckRequest>(json!({"max_states": -1})).is_err());
    }

    #[test]
    fn the_page_s_options_are_the_search_options_of_bir_check() {
        let search = request(json!({
            "strategy": "bfs", "max_states": 1000, "max_depth": 7, "time_limit": 1.5,
            "memory_limit": 64, "ltl": "", "no_deadlock": true,
        }))
        .search("two.bir")
        .unwrap();
        assert_eq!(
            search,
            SearchOptions {
                file: "two.bir".into(),
                bfs: true,
                max_states: Some(1000),
                max_depth: Some(7),
                time_limit: Some(std::time::Duration::from_millis(1500)),
                memory_limit: Some(64 << 20),
                no_deadlock: true,
                ..SearchOptions::default()
            }
        );
    }

    #[test]
    fn an_interpreter_check_runs_to_its_view() {
        let search = request(json!({"strategy": "bfs"}))
            .search("two.bir")
            .unwrap();
        let engine = "interpreter (--interpret)".to_string();
        let run =
            CheckRun::interpreter(checker(model(), &search).unwrap(), "two.bir", engine).unwrap();
        while run.running() {
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        let view = run.view();
        assert_eq!(view["check_engine"], "interpreter (--interpret)");
        assert_eq!(view["running"], false);
        assert_eq!(view["result"]["verdict"], "deadlock");
        assert_eq!(view["result"]["replay"], "bir1:0.4");
        assert_eq!(view["result"]["report"]["file"], "two.bir");
        for count in ["states", "transitions", "max_depth"] {
            assert_eq!(view["progress"][count], view["result"]["report"][count]);
        }
        assert_eq!(view["error"], Value::Null);
        assert!(run.html().unwrap().contains("data-verdict=\"deadlock\""));
        assert!(!run.cancel());
    }

    /// A fresh folder of this test.
    #[cfg(unix)]
    pub(crate) fn temp_dir(test: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("bir-explore-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// An executable shell script `name` in `dir` with this body. A child process writes
    /// it: had this process held it open for writing, a process that another test's thread
    /// forked at that moment would hold it too until it execs, and running the script then
    /// fails with "Text file busy" (ETXTBSY).
    #[cfg(unix)]
    pub(crate) fn script(dir: &std::path::Path, name: &str, body: &str) -> std::path::PathBuf {
        use std::io::Write as _;
        use std::process::{Command, Stdio};
        let path = dir.join(name);
        let mut writer = Command::new("sh")
            .args(["-c", "cat > \"$1\" && chmod 755 \"$1\"", "sh"])
            .arg(&path)
            .stdin(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = writer.stdin.take().unwrap();
        stdin
            .write_all(format!("#!/bin/sh\n{body}\n").as_bytes())
            .unwrap();
        drop(stdin);
        assert!(writer.wait().unwrap().success());
        path
    }

    /// A stand-in for a compiled checker in served mode: a progress line on stderr, the
    /// outcome of the interpreter's own check on stdout, and the HTML report where the
    /// options say. The page is shown the same for both engines.
    #[cfg(unix)]
    #[test]
    fn a_compiled_check_is_shown_as_an_interpreter_check_is() {
        let dir = temp_dir("compiled-view");
        let search = request(json!({"strategy": "bfs"}))
            .search("two.bir")
            .unwrap();
        let report = checker(model(), &search).unwrap().run();
        let outcome = Outcome::new(&report, "two.bir").unwrap();
        std::fs::write(
            dir.join("outcome.json"),
            serde_json::to_string(&outcome).unwrap(),
        )
        .unwrap();
        let progress = r#"{"progress":{"states":10,"transitions":14,"max_depth":2}}"#;
        let binary = script(
            &dir,
            "checker",
            &format!(
                "html=$(printf '%s' \"$1\" | sed 's/.*\"html\":\"\\([^\"]*\\)\".*/\\1/')\n\
                 echo '{progress}' >&2\n\
                 echo '<p data-verdict=\"deadlock\">' > \"$html\"\n\
                 cat '{}'",
                dir.join("outcome.json").display()
            ),
        );
        let scratch = dir.join("scratch");
        let run = CheckRun::compiled(&binary, &scratch, search).unwrap();
        while run.running() {
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        let view = run.view();
        assert_eq!(view["error"], Value::Null, "{view}");
        assert_eq!(view["check_engine"], "compiled");
        assert_eq!(view["result"], serde_json::to_value(&outcome).unwrap());
        // The report's counts once it has ended, whatever the last progress line said.
        assert_eq!(view["progress"]["states"], 7);
        assert_eq!(view["progress"]["max_depth"], 3);
        assert_eq!(run.html().unwrap().trim(), "<p data-verdict=\"deadlock\">");
        let left = std::fs::read_dir(&scratch).unwrap().count();
        assert_eq!(left, 0, "the HTML report's file is removed");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A binary that ends without a result is an error the page shows, not a result.
    #[cfg(unix)]
    #[test]
    fn a_compiled_check_without_a_result_is_an_error() {
        let dir = temp_dir("no-result");
        let binary = script(
            &dir,
            "checker",
            "echo 'bir: error: out of luck' >&2; exit 2",
        );
        let search = CheckRequest::default().search("two.bir").unwrap();
        let run = CheckRun::compiled(&binary, &dir.join("scratch"), search).unwrap();
        while run.running() {
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        let view = run.view();
        assert_eq!(view["result"], Value::Null);
        let error = view["error"].as_str().unwrap();
        assert!(error.contains("without a result"), "{error}");
        assert!(error.contains("bir: error: out of luck"), "{error}");
        assert!(run.html().is_none());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
