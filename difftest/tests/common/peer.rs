//! Running another checker's tools on a model written for it (`rumur.rs`, `spin.rs`).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// A directory of this run's own under the test's temporary directory, so that runs side
/// by side do not share files.
pub fn work_dir(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}-{}", std::process::id()))
}

/// Runs `program` with `args` in `dir`: its stdout, or why it failed. A program of the
/// directory (`./pan`) may exit non-zero: verifiers do when they find an error, and their
/// report says so.
pub fn run(dir: &Path, program: &str, args: &[&str]) -> Result<String, String> {
    // Without a time limit there is always an output.
    Ok(run_within(dir, None, program, args)?.unwrap_or_default())
}

/// [`run`], stopped after `seconds` when given (by coreutils' `timeout`): `Ok(None)` then.
pub fn run_within(
    dir: &Path,
    seconds: Option<u32>,
    program: &str,
    args: &[&str],
) -> Result<Option<String>, String> {
    let mut command = match seconds {
        Some(seconds) => {
            let mut command = Command::new("timeout");
            command.arg(seconds.to_string()).arg(program);
            command
        }
        None => Command::new(program),
    };
    let output = command
        .args(args)
        .current_dir(dir)
        .output()
        .map_err(|e| format!("cannot run {program}: {e}"))?;
    // `timeout` exits with 124 when the time ran out.
    if seconds.is_some() && output.status.code() == Some(124) {
        return Ok(None);
    }
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr);
    if output.status.success() || program.starts_with("./") {
        Ok(Some(stdout))
    } else {
        Err(format!("{program} {args:?} failed:\n{stdout}{stderr}"))
    }
}

/// Checks the models `0..count` on two workers (the C compiler dominates; one model at a
/// time each, in a directory of its own under `work`): `check(i, dir)` gives model `i`'s
/// result, or the text of a disagreement. The file `kept` that a disagreeing model left in
/// its directory is copied into `work` under the model's number, and the message says
/// where. Fails with every disagreement with `tool`, if there is any; otherwise removes
/// `work` and returns the results, in no particular order.
pub fn check_models<T: Send>(
    tool: &str,
    count: u64,
    work: &Path,
    kept: &str,
    check: impl Fn(u64, &Path) -> Result<T, String> + Sync,
) -> Vec<T> {
    let next = AtomicU64::new(0);
    let results = Mutex::new(Vec::new());
    let failures = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for worker in 0..2 {
            let (next, results, failures, check) = (&next, &results, &failures, &check);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= count {
                    break;
                }
                let dir = work.join(format!("w{worker}"));
                match check(i, &dir) {
                    Ok(result) => results.lock().unwrap().push(result),
                    Err(why) => {
                        let copy = work.join(format!("model-{i}-{kept}"));
                        let _ = std::fs::copy(dir.join(kept), &copy);
                        failures
                            .lock()
                            .unwrap()
                            .push(format!("{why}\n(its {kept} is kept in {})", copy.display()));
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(
        failures.is_empty(),
        "{} disagreements with {tool} in {count} models:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    let _ = std::fs::remove_dir_all(work);
    results.into_inner().unwrap()
}
