//! Running another checker's tools on a model written for it (`rumur.rs`, `spin.rs`).

use std::path::{Path, PathBuf};
use std::process::Command;

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
