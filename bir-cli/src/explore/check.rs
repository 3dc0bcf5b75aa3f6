//! A check run from the page: the options it may set (each checked as `bir check` checks
//! its arguments), the search on a thread of its own with a [`Watch`] for its progress and
//! its cancellation, and what the page is shown when it ends.

use std::sync::{Arc, Mutex};
use std::time::Instant;

use bir_interp::Interpreter;
use bir_runtime::{Checker, Report, Watch};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::args;
use crate::json::{verdict_name, JsonReport};

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
    /// The checker these options describe, or why they are wrong (the messages of `bir
    /// check`'s arguments, and of the runtime's plan).
    pub fn checker(&self, model: Interpreter) -> Result<Checker<Interpreter>, Refusal> {
        let bad = |message: String| Refusal::new(400, message);
        let mut checker = Checker::new(model)
            .progress(false)
            .deadlock_detection(!self.no_deadlock);
        match self.strategy.as_deref() {
            None | Some("dfs") => {}
            Some("bfs") => checker = checker.bfs(),
            Some(other) => return Err(bad(format!("strategy `{other}`: expected `dfs` or `bfs`"))),
        }
        if let Some(n) = self.max_states {
            checker = checker.max_states(args::max_states(&n.to_string()).map_err(bad)?);
        }
        if let Some(n) = self.max_depth {
            checker = checker.max_depth(args::whole_number::<u32>(&n.to_string()).map_err(bad)?);
        }
        if let Some(seconds) = self.time_limit {
            checker = checker.time_limit(args::seconds(&seconds.to_string()).map_err(bad)?);
        }
        if let Some(mib) = self.memory_limit {
            checker = checker.memory_limit(args::memory_limit(&mib.to_string()).map_err(bad)?);
        }
        if let Some(name) = self.ltl.as_deref().filter(|n| !n.is_empty()) {
            checker = checker.ltl(name);
        }
        checker.plan().map_err(|error| bad(error.to_string()))?;
        Ok(checker)
    }
}

/// The check that runs or ran last.
pub struct CheckRun {
    watch: Watch,
    started: Instant,
    /// Set when the search ends.
    result: Arc<Mutex<Option<Finished>>>,
}

/// What a finished check left.
pub struct Finished {
    /// How long it ran.
    pub seconds: f64,
    /// The report.
    pub report: Report,
}

impl CheckRun {
    /// Starts `checker` on a thread of its own.
    pub fn start(checker: Checker<Interpreter>) -> Result<CheckRun, Refusal> {
        let watch = Watch::new();
        let checker = checker.watch(watch.clone());
        let result = Arc::new(Mutex::new(None));
        let slot = Arc::clone(&result);
        let started = Instant::now();
        std::thread::Builder::new()
            .name("bir-explore-check".into())
            .stack_size(64 << 20)
            .spawn(move || {
                let report = checker.run();
                let finished = Finished {
                    seconds: started.elapsed().as_secs_f64(),
                    report,
                };
                if let Ok(mut slot) = slot.lock() {
                    *slot = Some(finished);
                }
            })
            .map_err(|e| Refusal::new(503, format!("cannot start the check: {e}")))?;
        Ok(CheckRun {
            watch,
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
            self.watch.cancel();
        }
        running
    }

    /// The report, once the search has ended.
    pub fn report(&self) -> Option<Report> {
        self.result
            .lock()
            .ok()
            .and_then(|r| r.as_ref().map(|f| f.report.clone()))
    }

    /// What the page shows: running or not, the progress, and the result.
    pub fn view(&self, file: &str) -> Value {
        let progress = self.watch.progress();
        let guard = self.result.lock();
        let finished = guard.as_ref().ok().and_then(|r| r.as_ref());
        let result = finished.map(|f| {
            let report = &f.report;
            json!({
                "verdict": verdict_name(report.verdict()),
                "text": report.to_string(),
                "replay": report.first_finding().map(|c| c.replay().to_string()),
                "report": JsonReport::new(report, file),
            })
        });
        json!({
            "running": finished.is_none(),
            "cancelled": self.watch.is_cancelled(),
            "seconds": finished.map_or(self.started.elapsed().as_secs_f64(), |f| f.seconds),
            "progress": {
                "states": progress.states,
                "transitions": progress.transitions,
                "max_depth": progress.max_depth,
            },
            "result": result,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model() -> Interpreter {
        Interpreter::from_source(include_str!("../../../models/two_dining_philosophers.bir"))
            .unwrap()
    }

    #[test]
    fn options_are_checked_as_the_command_line_checks_them() {
        let request = |json: Value| serde_json::from_value::<CheckRequest>(json);
        for (json, expected) in [
            (json!({"strategy": "bfs", "max_states": 0}), "at least 1"),
            (json!({"strategy": "random"}), "expected `dfs` or `bfs`"),
            (json!({"time_limit": -1.0}), "positive number of seconds"),
            (json!({"memory_limit": 0}), "at least 1 MiB"),
            (json!({"max_depth": 5_000_000_000u64}), "whole number"),
            (json!({"ltl": "Nope"}), "Nope"),
        ] {
            let error = request(json.clone()).unwrap().checker(model()).unwrap_err();
            assert_eq!(error.status, 400);
            assert!(
                error.message.contains(expected),
                "{json}: {}",
                error.message
            );
        }
        assert!(request(json!({"bogus": 1})).is_err());
        assert!(request(json!({"max_states": -1})).is_err());
    }

    #[test]
    fn a_check_runs_to_its_report() {
        let request = CheckRequest {
            strategy: Some("bfs".into()),
            ..CheckRequest::default()
        };
        let run = CheckRun::start(request.checker(model()).unwrap()).unwrap();
        while run.running() {
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        let view = run.view("two.bir");
        assert_eq!(view["running"], false);
        assert_eq!(view["result"]["verdict"], "deadlock");
        assert_eq!(view["result"]["replay"], "bir1:0.4");
        assert!(!run.cancel());
    }
}
