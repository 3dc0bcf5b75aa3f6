//! A check on the compiled checker: its binary run in the driver's served mode
//! ([`bir_driver::stream`]). A thread reads its progress lines from stderr and keeps the
//! latest; a cancel is the line `cancel` on its stdin, and only a binary that has not ended
//! [`KILL_AFTER`] later is killed; at the end its stdout holds the [`Outcome`] and the
//! HTML report is in a file of the cache, read and removed.

use std::io::{BufReader, Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use bir_driver::stream::{Outcome, Progress, CANCEL};
use bir_driver::SearchOptions;

use super::check::{Done, Finished, Slot};

/// How long a cancelled binary has to end before it is killed (shorter in the unit tests,
/// which wait it out for a binary that ignores the cancel).
#[cfg(not(test))]
pub const KILL_AFTER: Duration = Duration::from_secs(5);
#[cfg(test)]
pub const KILL_AFTER: Duration = Duration::from_millis(500);

/// How often the binary is asked whether it has ended.
const POLL: Duration = Duration::from_millis(20);

/// The most lines of messages (not progress) kept from the binary's stderr.
const MESSAGES: usize = 20;

/// The handle of a running binary: its stdin, its latest progress, when it was cancelled.
pub struct Running {
    stdin: Mutex<Option<ChildStdin>>,
    progress: Arc<Mutex<Progress>>,
    cancelled: Arc<Mutex<Option<Instant>>>,
}

impl Running {
    /// Starts `binary` in served mode with `options` (which say `stream`); its result goes
    /// to `slot`, with the time since `started`.
    pub fn start(
        binary: &Path,
        scratch: &Path,
        mut options: SearchOptions,
        slot: Slot,
        started: Instant,
    ) -> Result<Running, String> {
        std::fs::create_dir_all(scratch)
            .map_err(|error| format!("cannot create `{}`: {error}", scratch.display()))?;
        let html = scratch.join(report_name());
        options.stream = true;
        options.html = Some(html.clone());
        let argument = crate::cache::argument(&options).map_err(|e| e.0)?;
        let mut child = Command::new(binary)
            .arg(argument)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|error| format!("cannot run `{}`: {error}", binary.display()))?;
        let stdin = child.stdin.take();
        let progress = Arc::new(Mutex::new(Progress::default()));
        let cancelled = Arc::new(Mutex::new(None));
        // A reader that cannot be started drops its pipe: the binary's writes then fail, and
        // the check ends without a result (stdout) or without progress (stderr).
        let stdout = child.stdout.take().and_then(|mut out| {
            let reader = std::thread::Builder::new().name("bir-explore-stdout".into());
            let spawned = reader.spawn(move || {
                let mut text = String::new();
                let _ = out.read_to_string(&mut text);
                text
            });
            spawned.ok()
        });
        let stderr = child.stderr.take().and_then(|err| {
            let progress = Arc::clone(&progress);
            let reader = std::thread::Builder::new().name("bir-explore-stderr".into());
            let spawned = reader.spawn(move || read_stderr(BufReader::new(err), &progress));
            spawned.ok()
        });
        let watched = Arc::clone(&cancelled);
        std::thread::Builder::new()
            .name("bir-explore-child".into())
            .spawn(move || {
                let status = wait(&mut child, &watched);
                let result = collect(status, stdout, stderr, &html);
                let _ = std::fs::remove_file(&html);
                let finished = Finished {
                    seconds: started.elapsed().as_secs_f64(),
                    result,
                };
                if let Ok(mut slot) = slot.lock() {
                    *slot = Some(finished);
                }
            })
            .map_err(|error| format!("cannot follow the compiled checker: {error}"))?;
        Ok(Running {
            stdin: Mutex::new(stdin),
            progress,
            cancelled,
        })
    }

    /// The latest progress the binary printed.
    pub fn progress(&self) -> Progress {
        self.progress.lock().map(|p| *p).unwrap_or_default()
    }

    /// True once [`cancel`](Self::cancel) was called.
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.lock().is_ok_and(|c| c.is_some())
    }

    /// Asks the binary to stop: the line `cancel`, then its stdin closed.
    pub fn cancel(&self) {
        if let Ok(mut cancelled) = self.cancelled.lock() {
            cancelled.get_or_insert_with(Instant::now);
        }
        if let Ok(mut stdin) = self.stdin.lock() {
            if let Some(mut pipe) = stdin.take() {
                // A binary that has just ended no longer reads: nothing to stop.
                let _ = writeln!(pipe, "{CANCEL}");
            }
        }
    }
}

/// A fresh file name for the HTML report of a check.
fn report_name() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    format!("report-{}-{n}.html", std::process::id())
}

/// Keeps the latest progress line of `err` in `progress`; returns the last other lines.
fn read_stderr(err: impl std::io::BufRead, progress: &Mutex<Progress>) -> Vec<String> {
    let mut messages = Vec::new();
    for line in err.lines() {
        let Ok(line) = line else { break };
        match bir_driver::stream::Progress::parse(&line) {
            Some(latest) => {
                if let Ok(mut slot) = progress.lock() {
                    *slot = latest;
                }
            }
            None if line.trim().is_empty() => {}
            None => {
                if messages.len() == MESSAGES {
                    messages.remove(0);
                }
                messages.push(line);
            }
        }
    }
    messages
}

/// Waits for `child` to end; kills it [`KILL_AFTER`] after a cancel. `Err` says why it
/// gave no result of its own.
fn wait(child: &mut Child, cancelled: &Mutex<Option<Instant>>) -> Result<ExitStatus, String> {
    let mut killed = false;
    loop {
        match child.try_wait() {
            Ok(Some(status)) if killed => {
                return Err(format!(
                    "the compiled checker did not stop within {} s of the cancel and was \
                     killed ({status})",
                    KILL_AFTER.as_secs_f64()
                ))
            }
            Ok(Some(status)) => return Ok(status),
            Ok(None) => {}
            Err(error) => return Err(format!("cannot wait for the compiled checker: {error}")),
        }
        let overdue = cancelled
            .lock()
            .is_ok_and(|c| c.is_some_and(|at| at.elapsed() > KILL_AFTER));
        if overdue && !killed {
            let _ = child.kill();
            killed = true;
        }
        std::thread::sleep(POLL);
    }
}

/// The result of a binary that ended with `status`: its outcome and HTML report, or why
/// there is none.
fn collect(
    status: Result<ExitStatus, String>,
    stdout: Option<JoinHandle<String>>,
    stderr: Option<JoinHandle<Vec<String>>>,
    html: &PathBuf,
) -> Result<Done, String> {
    let out = stdout.and_then(|t| t.join().ok()).unwrap_or_default();
    let messages = stderr.and_then(|t| t.join().ok()).unwrap_or_default();
    let status = status?;
    let outcome = out
        .lines()
        .rev()
        .find_map(|line| serde_json::from_str::<Outcome>(line).ok());
    let Some(outcome) = outcome else {
        let said = messages.last().map_or(String::new(), |m| format!(": {m}"));
        return Err(format!(
            "the compiled checker ended without a result ({status}){said}"
        ));
    };
    let html = std::fs::read_to_string(html).map_err(|error| {
        format!(
            "the compiled checker wrote no HTML report to `{}`: {error}",
            html.display()
        )
    })?;
    Ok(Done { outcome, html })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_lines_are_kept_and_other_lines_are_messages() {
        let first = Progress {
            states: 10,
            transitions: 20,
            max_depth: 3,
        };
        let latest = Progress {
            states: 11,
            transitions: 25,
            max_depth: 4,
        };
        let text = format!("{}\nbir: note: hello\n\n{}\n", first.line(), latest.line());
        let progress = Mutex::new(Progress::default());
        let messages = read_stderr(text.as_bytes(), &progress);
        assert_eq!(*progress.lock().unwrap(), latest);
        assert_eq!(messages, ["bir: note: hello"]);
    }

    /// Waits for the check in `slot` to end; returns its result.
    #[cfg(unix)]
    fn finish(slot: &Slot) -> Result<Done, String> {
        loop {
            if let Some(finished) = slot.lock().unwrap().take() {
                return finished.result;
            }
            std::thread::sleep(POLL);
        }
    }

    /// The cancel is the line `cancel` on stdin; a binary that ignores it is killed.
    #[cfg(unix)]
    #[test]
    fn a_cancel_is_a_line_on_stdin_and_a_deaf_binary_is_killed() {
        use crate::explore::check::tests::{script, temp_dir};
        let dir = temp_dir("cancel");
        let options = SearchOptions::default();
        // Ends when it reads `cancel`: with no result, which says the line arrived.
        let listens = script(&dir, "listens", "read line; echo \"got $line\" >&2");
        let slot: Slot = Arc::new(Mutex::new(None));
        let running = Running::start(
            &listens,
            &dir,
            options.clone(),
            Arc::clone(&slot),
            Instant::now(),
        )
        .unwrap();
        std::thread::sleep(Duration::from_millis(100));
        assert!(slot.lock().unwrap().is_none(), "it waits for the line");
        running.cancel();
        assert!(running.is_cancelled());
        let error = finish(&slot).err().unwrap();
        assert!(error.contains("got cancel"), "{error}");
        // Ignores stdin: killed after KILL_AFTER.
        let deaf = script(&dir, "deaf", "exec sleep 60");
        let running =
            Running::start(&deaf, &dir, options, Arc::clone(&slot), Instant::now()).unwrap();
        let cancelled = Instant::now();
        running.cancel();
        let error = finish(&slot).err().unwrap();
        assert!(error.contains("was killed"), "{error}");
        assert!(cancelled.elapsed() >= KILL_AFTER);
        assert!(cancelled.elapsed() < KILL_AFTER + Duration::from_secs(10));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
