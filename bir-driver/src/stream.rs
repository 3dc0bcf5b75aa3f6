//! The served mode of a search ([`SearchOptions::stream`]): how `bir explore` runs a check
//! on a compiled checker's binary and follows it as it runs.
//!
//! The binary then
//! * prints its progress as one JSON line on stderr ([`Progress::line`]) about every
//!   [`PROGRESS_EVERY`], and once more when the search ends;
//! * stops the search, as [`Watch::cancel`] stops it (the report says cancelled and what it
//!   covered, never verified), when it reads the line [`CANCEL`] or the end of stdin (so a
//!   check whose caller has gone away stops too);
//! * ends with one [`Outcome`] as JSON on stdout: all the caller shows of the result.
//!
//! Other lines on stderr are messages of the check (an error, a note).

use std::io::{BufRead as _, Write as _};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

use bir_runtime::{Checker, Model, Report, Watch};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::json::{verdict_name, JsonReport};
use crate::{exit_status, write_html, SearchOptions, MALFORMED};

/// How often the progress line is printed.
pub const PROGRESS_EVERY: Duration = Duration::from_millis(200);

/// The line on stdin that cancels the search.
pub const CANCEL: &str = "cancel";

/// What a search has done so far: the counts of its [`Watch`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Progress {
    /// States stored.
    pub states: u64,
    /// Transitions executed.
    pub transitions: u64,
    /// The largest depth of a stored state.
    pub max_depth: u32,
}

/// A progress line: `{"progress":{"states":..,"transitions":..,"max_depth":..}}`. The
/// wrapper tells it from any other line on stderr.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ProgressLine {
    progress: Progress,
}

impl Progress {
    /// The line the binary prints (without its newline).
    pub fn line(self) -> String {
        serde_json::to_string(&ProgressLine { progress: self }).unwrap_or_default()
    }

    /// The progress a line holds; `None` for any other line.
    pub fn parse(line: &str) -> Option<Progress> {
        serde_json::from_str::<ProgressLine>(line.trim())
            .ok()
            .map(|line| line.progress)
    }
}

impl From<bir_runtime::Progress> for Progress {
    fn from(progress: bir_runtime::Progress) -> Progress {
        Progress {
            states: progress.states,
            transitions: progress.transitions,
            max_depth: progress.max_depth,
        }
    }
}

/// How a check ended, as `bir explore`'s page shows it: the same for both engines.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Outcome {
    /// The verdict's name, as the JSON report's `verdict`.
    pub verdict: String,
    /// The text report, as `bir check` prints it.
    pub text: String,
    /// The replay string of the first finding, if any.
    pub replay: Option<String>,
    /// The JSON report, as `bir check --json` prints it.
    pub report: Value,
}

impl Outcome {
    /// The outcome of `report`, a check of the model in `file`.
    pub fn new(report: &Report, file: &str) -> Result<Outcome, String> {
        let json = serde_json::to_value(JsonReport::new(report, file))
            .map_err(|error| format!("cannot write the JSON report: {error}"))?;
        Ok(Outcome {
            verdict: verdict_name(report.verdict()).to_string(),
            text: report.to_string(),
            replay: report.first_finding().map(|c| c.replay().to_string()),
            report: json,
        })
    }
}

/// Runs `checker` (whose plan was checked) in served mode; returns the exit status.
pub(crate) fn run<M: Model>(checker: Checker<M>, options: &SearchOptions) -> u8 {
    let watch = Watch::new();
    let checker = checker.progress(false).watch(watch.clone());
    let cancel = watch.clone();
    // Detached: it may block on stdin until the process exits.
    let _ = std::thread::Builder::new()
        .name("bir-cancel".into())
        .spawn(move || {
            let mut line = String::new();
            let mut stdin = std::io::stdin().lock();
            while matches!(stdin.read_line(&mut line), Ok(n) if n > 0) && line.trim() != CANCEL {
                line.clear();
            }
            cancel.cancel();
        });
    let (done, finished) = mpsc::channel::<()>();
    let reporter = std::thread::Builder::new()
        .name("bir-progress".into())
        .spawn(move || {
            while let Err(RecvTimeoutError::Timeout) = finished.recv_timeout(PROGRESS_EVERY) {
                print_progress(&watch);
            }
            print_progress(&watch);
        });
    let report = checker.run();
    drop(done);
    if let Ok(reporter) = reporter {
        let _ = reporter.join();
    }
    let outcome = Outcome::new(&report, &options.file)
        .and_then(|o| serde_json::to_string(&o).map_err(|e| format!("cannot write: {e}")));
    match outcome {
        Ok(line) => {
            // A caller that has gone away is not an error of the check.
            let _ = writeln!(std::io::stdout().lock(), "{line}");
        }
        Err(message) => {
            eprintln!("bir: error: {message}");
            return MALFORMED;
        }
    }
    if let Err(status) = write_html(&report, options) {
        return status;
    }
    exit_status(&report)
}

fn print_progress(watch: &Watch) {
    let line = Progress::from(watch.progress()).line();
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_progress_line_reads_back_and_nothing_else_does() {
        let progress = Progress {
            states: 1_234,
            transitions: 5_678,
            max_depth: 9,
        };
        assert_eq!(
            progress.line(),
            r#"{"progress":{"states":1234,"transitions":5678,"max_depth":9}}"#
        );
        assert_eq!(
            Progress::parse(&format!("{}\n", progress.line())),
            Some(progress)
        );
        for other in [
            "",
            "bir: note: something",
            r#"{"states":1}"#,
            r#"{"progress":{"states":1,"transitions":2}}"#,
            r#"{"progress":{"states":-1,"transitions":2,"max_depth":0}}"#,
            r#"{"progress":{"states":1,"transitions":2,"max_depth":0},"x":1}"#,
        ] {
            assert_eq!(Progress::parse(other), None, "{other}");
        }
    }

    #[test]
    fn the_outcome_holds_what_the_page_shows() {
        let source = include_str!("../../models/two_dining_philosophers.bir");
        let model = bir_interp::Interpreter::from_source(source).unwrap();
        let report = Checker::new(model).bfs().progress(false).run();
        let outcome = Outcome::new(&report, "two.bir").unwrap();
        assert_eq!(outcome.verdict, "deadlock");
        assert_eq!(outcome.replay.as_deref(), Some("bir1:0.4"));
        assert_eq!(outcome.text, report.to_string());
        assert_eq!(outcome.report["file"], "two.bir");
        assert_eq!(outcome.report["verdict"], "deadlock");
        let text = serde_json::to_string(&outcome).unwrap();
        assert_eq!(serde_json::from_str::<Outcome>(&text).unwrap(), outcome);
    }
}
