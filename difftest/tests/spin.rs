//! bir's `ltl` verdicts against SPIN's on random models, without fairness and under weak
//! fairness: each model is written in Promela with its properties (`bir_codegen::export::promela`),
//! and SPIN (`spin -a`, `pan -a` and `pan -a -f`) must find a violation exactly where bir's
//! interpreter does (which the differential tests hold equal to the generated checkers and
//! to the whole product's components). SPIN's fairness is an independent implementation of
//! the definition LANGUAGE.md takes from it, so it checks the semantics, not only the code.
//!
//! Compared are the models whose complete safety search meets no error (the Promela keeps
//! BIR's semantics only where no step faults): their states and transitions, which SPIN
//! must count alike (`spin -a -o2 -DCOUNTS`, pan's transitions minus 1), and their properties
//! without `X` whose predicates SPIN can read (see `bir_codegen::export::promela`). Models come from three
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
//!
//! The reference models (those of `models/`, `models/v3/` and `models/beem/` that meet no
//! error, `common/reference.rs`), written so, must count in SPIN exactly what their
//! reference tables say.

#[path = "common/peer.rs"]
mod peer;
#[path = "common/reference.rs"]
mod reference;

use std::path::Path;

use bir::{Checker, FindingKind, Report, Verdict};
use bir_codegen::export::promela::promela;
use bir_codegen::{drive::source::front_end, Overrides};
use bir_difftest::{generate, generate_fairness, generate_symmetric};
use bir_interp::Interpreter;
use peer::{check_models, run, run_within, work_dir};
use reference::{reference_system, MEETING_ERRORS, REFERENCE};

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
    /// Models whose counts were compared.
    counted: u64,
    /// Models whose properties were compared.
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

/// SPIN's states and transitions (pan's minus 1, its initial state) of the Promela model
/// `text`, built in `dir` without the stutter and the properties (`-DCOUNTS`), with the
/// variables no step reads (`-o2`), and without partial-order reduction.
fn spin_counts(dir: &Path, text: &str) -> Result<(u64, u64), String> {
    std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    std::fs::write(dir.join("model.pml"), text).map_err(|e| e.to_string())?;
    // `-o2`: keep the variables no step reads, which SPIN would leave out of its states.
    run(dir, "spin", &["-a", "-o2", "-DCOUNTS", "model.pml"])?;
    run(
        dir,
        "gcc",
        &[
            "-O0",
            "-w",
            "-DSAFETY",
            "-DNOREDUCE",
            "-DMEMLIM=2000",
            "-o",
            "pan",
            "pan.c",
        ],
    )?;
    // Past every error and invalid end state (`-c0`): a deadlock, and an end, is one.
    let report = run(dir, "./pan", &["-c0", "-m1000000", "-w20"])?;
    let number_before = |suffix: &str| -> Result<u64, String> {
        report
            .lines()
            .find_map(|line| line.trim().strip_suffix(suffix)?.trim().parse().ok())
            .ok_or_else(|| format!("no `{suffix}` in pan's report:\n{report}"))
    };
    let states = number_before("states, stored")?;
    let transitions = number_before("transitions (= stored+matched)")?;
    Ok((states, transitions - 1))
}

/// Compares the counts and verdicts of one model; `Ok(None)` when it is not compared.
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
    let bir = (safety.states(), safety.transitions());
    let spin = spin_counts(dir, &text)?;
    if spin != bir {
        return Err(format!(
            "bir counts {} states and {} transitions, SPIN {} states and {} transitions",
            bir.0, bir.1, spin.0, spin.1
        ));
    }
    let mut tally = Tally {
        counted: 1,
        ..Tally::default()
    };
    let names: Vec<&str> = text
        .lines()
        .filter_map(|line| line.strip_prefix("ltl ")?.split_once(' ').map(|(n, _)| n))
        .collect();
    if names.is_empty() {
        return Ok(Some(tally));
    }
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
        return Ok(Some(tally));
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
    tally.models = 1;
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
        total.counted += tally.counted;
        total.models += tally.models;
        total.verdicts += tally.verdicts;
        total.violated += tally.violated;
        total.decided_by_fairness += tally.decided_by_fairness;
    }
    // Verdicts both ways, and some that weak fairness decides, or the test tests little.
    assert!(
        total.counted * 3 >= count
            && total.models * 5 >= count
            && total.violated > 0
            && total.violated < total.verdicts
            && total.decided_by_fairness > 0,
        "{} models counted, {} with properties, {} verdicts, {} violated, {} decided by \
         fairness",
        total.counted,
        total.models,
        total.verdicts,
        total.violated,
        total.decided_by_fairness
    );
    eprintln!(
        "{count} random models (BIR_DIFF_SEED={seed}) against SPIN: {} with equal counts; \
         properties of {} compared, {} verdicts agreed ({} violated; {} properties violated \
         only by unfair runs)",
        total.counted, total.models, total.verdicts, total.violated, total.decided_by_fairness
    );
}

#[test]
#[ignore = "needs spin and gcc (`.ci/run` installs them)"]
fn reference_models_count_alike_in_spin() {
    let work = work_dir("spin-reference");
    for &(name, n, states, transitions) in REFERENCE {
        if MEETING_ERRORS.contains(&name) {
            continue;
        }
        let system = reference_system(name, n);
        let text = promela(&system).unwrap_or_else(|why| panic!("{name}: {why:?}"));
        let counted = spin_counts(&work, &text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(counted, (states, transitions), "{name} N={n:?} in SPIN");
    }
    let _ = std::fs::remove_dir_all(&work);
}
