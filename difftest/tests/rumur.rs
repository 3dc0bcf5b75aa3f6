//! bir against Rumur, a checker with a front end and a search of its own, on random models:
//! each model is written in Murphi (`bir_codegen::export::murphi`, what `bir murphi` prints) and
//! checked by Rumur (`--deadlock-detection off`) twice:
//!
//! - counting past errors (`Errors::CountPast`, `bir murphi --past-errors`: a step that
//!   faults changes nothing, a state that violates an invariant enables no rule): Rumur
//!   must meet no error and count exactly bir's states and, as rules fired, bir's
//!   transitions, on every model, errors or not;
//! - stopping at errors (`Errors::Stop`, `bir murphi`): Rumur must meet an error exactly
//!   when bir's complete search does (it stops at its first, so its counts are not
//!   compared then).
//!
//! Rumur computes with 32-bit values (`--value-type int32_t`; its 64-bit type cannot hold
//! its own "undefined"), where BIR's intermediates have 64 bits: a model on which Rumur
//! overflows an intermediate is counted apart, not compared.
//!
//! `BIR_DIFF_SEED` (default 1) seeds the models and `BIR_DIFF_RUMUR` sets how many (default
//! 60; `.ci/run` runs 300): half from the differential test's generator, half from the
//! generator of symmetric families. Needs `rumur` and `cc` (Debian packages; `.ci/run`
//! installs them), so it is ignored by default:
//!
//! ```text
//! BIR_DIFF_RUMUR=1000 cargo test -p bir-difftest --test rumur -- --ignored --nocapture
//! ```
//!
//! The reference models (`models/` at several sizes, `models/v3/`, `models/beem/`) must
//! count in Rumur exactly what their reference tables say, as they do in bir, both ways.

#[path = "common/peer.rs"]
mod peer;
#[path = "common/reference.rs"]
mod reference;

use std::path::Path;

use bir::{Checker, Report};
use bir_codegen::export::murphi::{murphi, Errors};
use bir_codegen::ir::System;
use bir_codegen::{drive::source::front_end, Overrides};
use bir_difftest::{generate, generate_symmetric};
use bir_interp::Interpreter;
use peer::{check_models, run, work_dir};
use reference::{reference_system, MEETING_ERRORS, REFERENCE};

/// The most states a model may have to be compared (Rumur's build dominates below it).
const MAX_STATES: u64 = 200_000;

fn env_number(name: &str) -> Option<u64> {
    std::env::var(name).ok()?.trim().parse().ok()
}

/// What Rumur reported.
#[derive(Debug, PartialEq, Eq)]
struct RumurCounts {
    states: u64,
    rules_fired: u64,
    /// The error it stopped at, if any.
    error: Option<String>,
}

/// How one model compared, when it agreed.
enum Outcome {
    /// Counts equal, no error on either side.
    Equal,
    /// Counts equal past the errors that both met.
    EqualPastErrors,
    /// Not compared: too large for bir's limit, or Rumur overflowed 32 bits.
    Skipped,
}

/// Rumur's verdict and counts on the Murphi model `text`, built in `dir`.
fn rumur(dir: &Path, text: &str) -> Result<RumurCounts, String> {
    std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    std::fs::write(dir.join("model.m"), text).map_err(|e| e.to_string())?;
    run(
        dir,
        "rumur",
        &[
            "--deadlock-detection",
            "off",
            "--value-type",
            "int32_t",
            "--threads",
            "1",
            "model.m",
            "-o",
            "model.c",
        ],
    )?;
    run(
        dir,
        "cc",
        &[
            "-O0",
            "-std=c11",
            "-mcx16",
            "-w",
            "model.c",
            "-lpthread",
            "-o",
            "model",
        ],
    )?;
    let report = run(dir, "./model", &[])?;
    let counts = report
        .lines()
        .find_map(|line| {
            let (states, rest) = line.trim().split_once(" states, ")?;
            let (rules, _) = rest.split_once(" rules fired")?;
            Some((states.parse().ok()?, rules.parse().ok()?))
        })
        .ok_or_else(|| format!("no counts in Rumur's report:\n{report}"))?;
    let error = (!report.contains("No error found.")).then(|| {
        report
            .lines()
            .find(|line| line.contains("model.m:") || line.contains("failed"))
            .unwrap_or("an error")
            .trim()
            .to_string()
    });
    Ok(RumurCounts {
        states: counts.0,
        rules_fired: counts.1,
        error,
    })
}

/// bir's complete search of `system` (the interpreter's, which the differential test holds
/// equal to the generated checker's) continuing past errors; `None` past [`MAX_STATES`].
fn bir_counts(system: &System) -> Option<Report> {
    let report = Checker::new(Interpreter::new(system))
        .keep_going(1)
        .max_states(MAX_STATES)
        .progress(false)
        .run();
    report.is_complete().then_some(report)
}

/// Compares one model; a disagreement (or a tool's failure) is an error.
fn compare(source: &str, dir: &Path) -> Result<Outcome, String> {
    let system = front_end(source, &Overrides::default())
        .map_err(|errors| format!("rejected: {errors:?}"))?;
    let Some(report) = bir_counts(&system) else {
        return Ok(Outcome::Skipped);
    };
    let bir = (report.states(), report.transitions());
    let Ok(encoded) = murphi(&system, Errors::CountPast) else {
        return Ok(Outcome::Skipped);
    };
    let counted = rumur(dir, &encoded)?;
    match &counted.error {
        Some(error) if error.contains("overflow") => return Ok(Outcome::Skipped),
        Some(error) => return Err(format!("counting past errors, Rumur meets one: {error}")),
        None if (counted.states, counted.rules_fired) != bir => {
            return Err(format!(
                "bir counts {} states and {} transitions, Rumur (past errors) {} states and \
                 {} rules fired:\n{report}",
                bir.0, bir.1, counted.states, counted.rules_fired
            ))
        }
        None => {}
    }
    let Ok(encoded) = murphi(&system, Errors::Stop) else {
        return Ok(Outcome::Skipped);
    };
    let stopped = rumur(dir, &encoded)?;
    let bir_erred = report.errors() > 0;
    match (&stopped.error, bir_erred) {
        (Some(error), false) if error.contains("overflow") => Ok(Outcome::Skipped),
        (Some(error), false) => Err(format!(
            "Rumur meets an error, bir none ({} states, {} transitions): {error}",
            bir.0, bir.1
        )),
        (None, true) => Err(format!(
            "bir meets an error, Rumur none ({} states, {} rules fired):\n{report}",
            stopped.states, stopped.rules_fired
        )),
        (Some(_), true) => Ok(Outcome::EqualPastErrors),
        (None, false) if (stopped.states, stopped.rules_fired) == bir => Ok(Outcome::Equal),
        (None, false) => Err(format!(
            "bir counts {} states and {} transitions, Rumur {} states and {} rules fired",
            bir.0, bir.1, stopped.states, stopped.rules_fired
        )),
    }
}

#[test]
#[ignore = "needs rumur and a C compiler (`.ci/run` installs them)"]
fn reference_models_count_alike_in_rumur() {
    let work = work_dir("rumur-reference");
    for &(name, n, states, transitions) in REFERENCE {
        let system = reference_system(name, n);
        let encoded = murphi(&system, Errors::CountPast).expect("the encoding keeps it");
        let counted = rumur(&work, &encoded).unwrap_or_else(|e| panic!("{name}: {e}"));
        let expected = RumurCounts {
            states,
            rules_fired: transitions,
            error: None,
        };
        assert_eq!(counted, expected, "{name} N={n:?} in Rumur, past errors");
        let encoded = murphi(&system, Errors::Stop).expect("the encoding keeps it");
        let stopped = rumur(&work, &encoded).unwrap_or_else(|e| panic!("{name}: {e}"));
        if MEETING_ERRORS.contains(&name) {
            assert!(stopped.error.is_some(), "{stopped:?}");
        } else {
            assert_eq!(stopped, expected, "{name} N={n:?} in Rumur");
        }
    }
}

#[test]
#[ignore = "needs rumur and a C compiler (`.ci/run` installs them)"]
fn counts_agree_with_rumur() {
    let seed = env_number("BIR_DIFF_SEED").unwrap_or(1);
    let count = env_number("BIR_DIFF_RUMUR").unwrap_or(60);
    let outcomes = check_models("Rumur", count, &work_dir("rumur"), "model.m", |i, dir| {
        // Another stream than the other tests' (seed * 1_000_0xx + i).
        let model_seed = seed.wrapping_mul(1_000_081).wrapping_add(i);
        let source = if i % 2 == 0 {
            generate(&format!("R{i}"), model_seed)
        } else {
            generate_symmetric(&format!("S{i}"), model_seed)
        };
        compare(&source, dir).map_err(|why| {
            format!("model seed {model_seed} (BIR_DIFF_SEED={seed}):\n{source}\n{why}")
        })
    });
    let mut tally = [0u64; 3];
    for outcome in outcomes {
        let slot = match outcome {
            Outcome::Equal => 0,
            Outcome::EqualPastErrors => 1,
            Outcome::Skipped => 2,
        };
        tally[slot] += 1;
    }
    let [equal, past_errors, skipped] = tally;
    // Most models must be compared, many of them with errors, or the test tests little.
    assert!(
        (equal + past_errors) * 4 >= count * 3 && equal * 10 >= count && past_errors * 10 >= count,
        "{equal} and {past_errors} of {count} compared"
    );
    eprintln!(
        "{count} random models (BIR_DIFF_SEED={seed}) against Rumur: {equal} with equal \
         counts and no error, {past_errors} with equal counts past the errors both met, \
         {skipped} not compared (over {MAX_STATES} states, or a 32-bit overflow of Rumur's)"
    );
}
