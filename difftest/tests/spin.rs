//! bir's `ltl` verdicts against SPIN's on random models, without fairness and under weak
//! fairness: each model is written in Promela with its properties (`bir_codegen::export::promela`),
//! and SPIN (`spin -a`, `pan -a` and `pan -a -f`) must find a violation exactly where bir's
//! interpreter does (which the differential tests hold equal to the generated checkers and
//! to the whole product's components). SPIN's fairness is an independent implementation of
//! the definition LANGUAGE.md takes from it, so it checks the semantics, not only the code.
//!
//! Compared are the models whose complete safety search meets no error (the Promela keeps
//! BIR's semantics only where no step faults), and their properties without `X` whose
//! predicates SPIN can read (see `bir_codegen::export::promela`). Models come from three
//! generators in turn: the differential test's, the symmetric families', and the one built
//! so that fairness decides verdicts (`generate_fairness`).
//!
//! `BIR_DIFF_SEED` (default 1) seeds the models and `BIR_DIFF_SPIN` sets how many (default
//! 60; `.ci/run` runs 150). Needs `spin` and `gcc` (Debian packages; `.ci/run` installs
//! them), so it is ignored by default:
//!
//! ```text
//! BIR_DIFF_SPIN=600 cargo test -p bir-difftest --test spin -- --ignored --nocapture
//! ```

#[path = "common/peer.rs"]
mod peer;

use std::path::Path;

use bir::{Checker, FindingKind, Report, Verdict};
use bir_codegen::export::promela::promela;
use bir_codegen::{drive::source::front_end, Overrides};
use bir_difftest::{generate, generate_fairness, generate_symmetric};
use bir_interp::Interpreter;
use peer::{check_models, run, run_within, work_dir};

/// The most states a model may have to be compared (SPIN's build dominates below it).
const MAX_STATES: u64 = 100_000;

/// How long `spin -a` may take to translate a model's formulas.
const SPIN_TRANSLATION_SECONDS: u32 = 10;

fn env_number(name: &str) -> Option<u64> {
    std::env::var(name).ok()?.trim().parse().ok()
}

/// What one model gave.
#[derive(Default)]
struct Tally {
    models: u64,
    verdicts: u64,
    violated: u64,
    decided_by_fairness: u64,
}

/// bir's verdict: `Some(true)` violated, `Some(false)` holds; `None` when a predicate of
/// the property faults (an error of the property, which the Promela cannot meet).
fn bir_verdict(report: &Report) -> Result<Option<bool>, String> {
    match report.verdict() {
        Verdict::Verified => Ok(Some(false)),
        Verdict::Found(FindingKind::Property) => Ok(Some(true)),
        Verdict::Found(FindingKind::Index | FindingKind::Division) => Ok(None),
        _ => Err(format!("bir gives no verdict:\n{report}")),
    }
}

/// SPIN's verdict on property `name` (with `-f` under weak fairness): `Some(true)`
/// violated; `None` when its depth bound cut the search.
fn spin_verdict(dir: &Path, name: &str, weak: bool) -> Result<Option<bool>, String> {
    let mut args = vec!["-a", "-m1000000", "-N", name];
    if weak {
        args.push("-f");
    }
    let report = run(dir, "./pan", &args)?;
    if report.contains("too small") {
        return Ok(None);
    }
    let errors = report
        .lines()
        .find_map(|line| line.split_once("errors: ")?.1.trim().parse::<u64>().ok())
        .ok_or_else(|| format!("no error count in pan's report:\n{report}"))?;
    Ok(Some(errors > 0))
}

/// Compares the verdicts of one model; `Ok(None)` when it is not compared.
fn compare(source: &str, dir: &Path) -> Result<Option<Tally>, String> {
    let system = front_end(source, &Overrides::default())
        .map_err(|errors| format!("rejected: {errors:?}"))?;
    let checker = Checker::new(Interpreter::new(&system)).progress(false);
    let safety = checker.clone().keep_going(1).max_states(MAX_STATES).run();
    if !safety.is_complete() || safety.errors() > 0 {
        return Ok(None);
    }
    let Ok(text) = promela(&system) else {
        return Ok(None);
    };
    let names: Vec<&str> = text
        .lines()
        .filter_map(|line| line.strip_prefix("ltl ")?.split_once(' ').map(|(n, _)| n))
        .collect();
    if names.is_empty() {
        return Ok(None);
    }
    std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    std::fs::write(dir.join("model.pml"), &text).map_err(|e| e.to_string())?;
    // SPIN's translation of a formula is exponential in it, and a few random ones take it
    // minutes and gigabytes: such a model is left out.
    if run_within(
        dir,
        Some(SPIN_TRANSLATION_SECONDS),
        "spin",
        &["-a", "model.pml"],
    )?
    .is_none()
    {
        return Ok(None);
    }
    run(
        dir,
        "gcc",
        // Weak fairness keeps a counter per process: room for dozens of them.
        &[
            "-O0",
            "-w",
            "-DNOREDUCE",
            "-DNFAIR=16",
            "-o",
            "pan",
            "pan.c",
        ],
    )?;
    let mut tally = Tally {
        models: 1,
        ..Tally::default()
    };
    let mut differences = Vec::new();
    for name in names {
        let mut violated = [false; 2];
        for (weak, slot) in [(false, 0), (true, 1)] {
            let mut ltl = checker.clone().ltl(name);
            if weak {
                ltl = ltl.weak_fairness();
            }
            let report = ltl.run();
            let Some(bir) = bir_verdict(&report)? else {
                continue;
            };
            let Some(spin) = spin_verdict(dir, name, weak)? else {
                continue;
            };
            violated[slot] = bir;
            tally.verdicts += 1;
            tally.violated += u64::from(bir);
            if bir != spin {
                let fairness = if weak { "weak fairness" } else { "no fairness" };
                differences.push(format!(
                    "{name}, {fairness}: bir says {}, SPIN {}",
                    if bir { "violated" } else { "holds" },
                    if spin { "violated" } else { "holds" },
                ));
            }
        }
        tally.decided_by_fairness += u64::from(violated == [true, false]);
    }
    if differences.is_empty() {
        Ok(Some(tally))
    } else {
        Err(differences.join("\n"))
    }
}

#[test]
#[ignore = "needs spin and gcc (`.ci/run` installs them)"]
fn ltl_verdicts_agree_with_spin_on_random_models() {
    let seed = env_number("BIR_DIFF_SEED").unwrap_or(1);
    let count = env_number("BIR_DIFF_SPIN").unwrap_or(60);
    let tallies = check_models("SPIN", count, &work_dir("spin"), "model.pml", |i, dir| {
        // Another stream than the other tests' (seed * 1_000_0xx + i).
        let model_seed = seed.wrapping_mul(1_000_099).wrapping_add(i);
        let source = match i % 3 {
            0 => generate(&format!("R{i}"), model_seed),
            1 => generate_symmetric(&format!("S{i}"), model_seed),
            _ => generate_fairness(&format!("F{i}"), model_seed),
        };
        compare(&source, dir).map_err(|why| {
            format!("model seed {model_seed} (BIR_DIFF_SEED={seed}):\n{source}\n{why}")
        })
    });
    let mut total = Tally::default();
    for tally in tallies.into_iter().flatten() {
        total.models += tally.models;
        total.verdicts += tally.verdicts;
        total.violated += tally.violated;
        total.decided_by_fairness += tally.decided_by_fairness;
    }
    // Verdicts both ways, and some that weak fairness decides, or the test tests little.
    assert!(
        total.models * 5 >= count
            && total.violated > 0
            && total.violated < total.verdicts
            && total.decided_by_fairness > 0,
        "{} models, {} verdicts, {} violated, {} decided by fairness",
        total.models,
        total.verdicts,
        total.violated,
        total.decided_by_fairness
    );
    eprintln!(
        "{count} random models (BIR_DIFF_SEED={seed}) against SPIN: {} compared, {} \
         verdicts agreed ({} violated; {} properties violated only by unfair runs)",
        total.models, total.verdicts, total.violated, total.decided_by_fairness
    );
}
