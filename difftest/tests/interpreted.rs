//! The reductions on random models through the interpreter alone (no compilation, so
//! thousands of models per run), from `BIR_DIFF_SEED` (default 1):
//!
//! - partial-order reduction on `BIR_DIFF_INTERPRETED` models (default 150) of the
//!   differential test's generator, all of them doing thread-local work
//!   ([`generate_local_work`]: about a quarter reduce, so that the test cannot pass
//!   vacuously): depth-first, breadth-first and parallel search with it find the kinds of
//!   finding the full search finds, in no more states;
//! - symmetry reduction on `BIR_DIFF_SYMMETRIC_INTERPRETED` models (default 120) with one
//!   or two symmetric families: depth-first, breadth-first and parallel search with
//!   symmetry, and with symmetry and partial-order reduction, find the kinds of finding the
//!   full search finds, in no more states, and their counterexamples replay without
//!   symmetry; without partial-order reduction, a complete search stores exactly the
//!   brute-force number of orbits.
//! - symmetry reduction of pools on `BIR_DIFF_POOLS_INTERPRETED` models (default 24) of the
//!   pools' generator ([`generate_pools`]): the same checks, and every image of every
//!   reachable state under the group steps as the state does up to orbit
//!   ([`pool_orbits::pool_orbits`]: `start` takes the lowest free instance, so the images
//!   need not be reachable).
//!
//! - compact storage on `BIR_DIFF_COMPACT_INTERPRETED` models (default 500) of the
//!   differential test's generator, about a sixth of them wider than a word (full 32-bit
//!   ints):
//!   depth-first and breadth-first search store exactly the states exact storage stores,
//!   with the same counts, verdicts and first counterexamples, wide states as trees.
//!
//! - `ltl` properties on `BIR_DIFF_LTL_INTERPRETED` models (default 300) of the
//!   differential test's generator, as many symmetric ones and as many whose verdicts
//!   fairness decides ([`generate_fairness`]): every verdict (without
//!   fairness, reduced by partial orders, with compact storage, under weak and strong
//!   fairness; the symmetric models' without fairness under symmetry reduction too) is the
//!   one the whole unreduced product gives, its strongly connected components examined
//!   (`bir::oracle::judge`).
//!
//! The compiled checkers reduce as the interpreter does: `differential.rs` compares the two
//! on every model it compiles (and compact storage against exact storage on each).

#[path = "common/ltl.rs"]
mod ltl;
#[path = "common/pool_orbits.rs"]
#[allow(dead_code)]
mod pool_orbits;
#[path = "common/reduction.rs"]
#[allow(dead_code)]
mod reduction;

use bir::model::PropertyKind;
use bir::oracle::{judge, Judgement};
use bir::{Checker, FindingKind, Model, Report, Storage, Verdict};
use bir_difftest::{
    generate, generate_fairness, generate_local_work, generate_pools, generate_symmetric,
    generate_v3,
};
use bir_interp::Interpreter;
use ltl::{ltl_modes, Configure};
use reduction::{configure, reduction_difference, MAX_STATES};

fn env_number(name: &str) -> Option<u64> {
    std::env::var(name).ok()?.trim().parse().ok()
}

/// A checker of the generated model `source` on the interpreter; `None`, with the
/// rejection among `failures`, when the front end refuses it (a generator bug).
fn interpreted(
    source: &str,
    model_seed: u64,
    failures: &mut Vec<String>,
) -> Option<Checker<Interpreter>> {
    match Interpreter::from_source(source) {
        Ok(interpreter) => Some(Checker::new(interpreter)),
        Err(errors) => {
            let messages: Vec<_> = errors.iter().map(|e| e.message.clone()).collect();
            failures.push(format!(
                "model seed {model_seed}:\n{source}\nrejected: {messages:?}"
            ));
            None
        }
    }
}

/// Fails with every disagreement found among `count` models, if there is any.
fn assert_agreed(failures: &[String], count: u64) {
    assert!(
        failures.is_empty(),
        "{} disagreements in {count} models:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn partial_order_reduction_keeps_the_verdicts_of_the_full_search() {
    let count = env_number("BIR_DIFF_INTERPRETED").unwrap_or(150);
    // Another stream than the compiled models' (seed * 1_000_003 + i).
    por_keeps_the_verdicts(count, 1_000_033, "random", generate_local_work);
}

/// Version 3's channels (arrays indexed by `index`, one sender or receiver per element or
/// several), locks and rendezvous under partial-order reduction: `BIR_DIFF_V3_INTERPRETED`
/// models (default 150) of the version-3 generator.
#[test]
fn partial_order_reduction_keeps_the_verdicts_of_version_3_models() {
    let count = env_number("BIR_DIFF_V3_INTERPRETED").unwrap_or(150);
    por_keeps_the_verdicts(count, 1_000_039, "version-3", generate_v3);
}

/// Depth-first, breadth-first and parallel search with partial-order reduction find the
/// kinds of finding the full search finds, in no more states, on `count` models of
/// `generate` (seeds `BIR_DIFF_SEED * stream + i`); some must reduce and some have
/// findings, or the test tests nothing.
fn por_keeps_the_verdicts(count: u64, stream: u64, kind: &str, generate: fn(&str, u64) -> String) {
    let seed = env_number("BIR_DIFF_SEED").unwrap_or(1);
    let (mut failures, mut reduced, mut with_findings) = (Vec::new(), 0, 0);
    for i in 0..count {
        let model_seed = seed.wrapping_mul(stream).wrapping_add(i);
        let source = generate(&format!("R{i}"), model_seed);
        let Some(checker) = interpreted(&source, model_seed, &mut failures) else {
            continue;
        };
        let full = configure(checker.clone(), false).run();
        with_findings += usize::from(full.errors() + full.deadlocks() > 0);
        let variants = [
            ("DFS", configure(checker.clone().por(true), false)),
            ("BFS", configure(checker.clone().por(true), true)),
            (
                "parallel",
                configure(checker.clone().por(true), false).threads(2),
            ),
        ];
        for (name, variant) in variants {
            let smaller = variant.run();
            if name == "DFS" && smaller.is_complete() && smaller.states() < full.states() {
                reduced += 1;
            }
            if let Some(difference) = reduction_difference(&full, &smaller) {
                failures.push(format!(
                    "model seed {model_seed} (BIR_DIFF_SEED={seed}):\n{source}\n{name} with \
                     POR against the full search: {difference}\n--- full:\n{full}\n--- \
                     reduced:\n{smaller}"
                ));
            }
        }
    }
    assert_agreed(&failures, count);
    assert!(
        reduced * 10 >= count as usize,
        "{reduced} of {count} reduced"
    );
    assert!(
        with_findings * 10 >= count as usize,
        "{with_findings} of {count} with findings"
    );
    eprintln!(
        "{count} {kind} models (BIR_DIFF_SEED={seed}) through the interpreter: {reduced} \
         reduced by POR, {with_findings} with findings, every verdict kept"
    );
}

#[test]
fn symmetry_keeps_the_verdicts_of_the_full_search() {
    let seed = env_number("BIR_DIFF_SEED").unwrap_or(1);
    let count = env_number("BIR_DIFF_SYMMETRIC_INTERPRETED").unwrap_or(120);
    let mut failures = Vec::new();
    // Models with a group, with a group on both families, reduced, checked against the
    // brute-force orbits (with a group on both families).
    let (mut symmetric, mut both, mut shrank, mut exact, mut exact_both) = (0, 0, 0, 0, 0);
    for i in 0..count {
        let model_seed = seed.wrapping_mul(1_000_037).wrapping_add(i);
        let source = generate_symmetric(&format!("S{i}"), model_seed);
        let Some(checker) = interpreted(&source, model_seed, &mut failures) else {
            continue;
        };
        if checker
            .clone()
            .symmetry(true)
            .plan()
            .is_ok_and(|p| p.symmetry.is_some())
        {
            symmetric += 1;
        }
        let check = reduction::symmetry_differences(&checker);
        shrank += usize::from(check.shrank);
        exact += usize::from(check.exact);
        both += usize::from(check.acting == 2);
        exact_both += usize::from(check.exact && check.acting == 2);
        failures.extend(
            check
                .failures
                .into_iter()
                .map(|d| format!("model seed {model_seed} (BIR_DIFF_SEED={seed}):\n{source}\n{d}")),
        );
    }
    assert_agreed(&failures, count);
    // The generator must produce symmetric models, or the test tests nothing; and most of
    // them must be small enough for the brute-force orbits, two families permuted in a good
    // share (about a third), or the exactness check tests little.
    assert!(
        symmetric * 2 >= count as usize,
        "{symmetric} of {count} have symmetry"
    );
    assert!(
        exact * 2 >= symmetric,
        "{exact} of {symmetric} with a group checked against the orbits"
    );
    assert!(
        count < 100 || exact_both * 5 >= count as usize,
        "{exact_both} of {count} checked against the orbits with two families permuted"
    );
    eprintln!(
        "{count} symmetric random models (BIR_DIFF_SEED={seed}): {symmetric} with a group \
         ({both} on two families), {shrank} reduced, every verdict kept; {exact} ({exact_both} \
         on two families) with counts equal to the brute-force orbits"
    );
}

#[test]
fn symmetry_of_pools_keeps_the_verdicts_and_steps_up_to_orbit() {
    let seed = env_number("BIR_DIFF_SEED").unwrap_or(1);
    let count = env_number("BIR_DIFF_POOLS_INTERPRETED").unwrap_or(24);
    let mut failures = Vec::new();
    // Models whose pool is permuted, reduced, checked against the brute-force orbits.
    let (mut pooled, mut shrank, mut exact, mut fixing) = (0, 0, 0, 0);
    for i in 0..count {
        let model_seed = seed.wrapping_mul(1_000_081).wrapping_add(i);
        let source = generate_pools(&format!("P{i}"), model_seed);
        let Some(checker) = interpreted(&source, model_seed, &mut failures) else {
            continue;
        };
        let pool = checker
            .model()
            .symmetry()
            .and_then(|s| s.families.iter().find(|f| f.thread == "W" && f.acts()));
        let Some(pool) = pool else {
            continue;
        };
        pooled += 1;
        fixing += usize::from(pool.permuted.len() < pool.instances as usize);
        let mut fail = |d: String| {
            failures.push(format!(
                "model seed {model_seed} (BIR_DIFF_SEED={seed}):\n{source}\n{d}"
            ));
        };
        if let Err(e) = pool_orbits::pool_orbits(checker.model(), reduction::ORBIT_LIMIT) {
            fail(e);
        }
        let check = reduction::symmetry_differences(&checker);
        shrank += usize::from(check.shrank);
        exact += usize::from(check.exact);
        check.failures.into_iter().for_each(&mut fail);
    }
    assert_agreed(&failures, count);
    // Pools of 2 or 3 in two models of three: most must be permuted and checked exactly.
    assert!(
        pooled * 2 >= count as usize,
        "{pooled} of {count} permute the pool"
    );
    assert!(
        exact * 2 >= pooled,
        "{exact} of {pooled} checked against the orbits"
    );
    eprintln!(
        "{count} random models with pools (BIR_DIFF_SEED={seed}): {pooled} permute the pool \
         ({fixing} fixing some of its instances), {shrank} reduced, every verdict kept; \
         {exact} with counts equal to the brute-force orbits"
    );
}

/// What a search found: counts, verdict, completeness and the first counterexample's path.
fn found(report: &Report) -> impl PartialEq + std::fmt::Debug {
    (
        (report.states(), report.transitions()),
        (report.errors(), report.deadlocks()),
        format!("{:?}", report.verdict()),
        report.is_complete(),
        report.first_finding().map(|cx| cx.replay().to_string()),
    )
}

#[test]
fn compact_storage_stores_what_exact_storage_stores() {
    let seed = env_number("BIR_DIFF_SEED").unwrap_or(1);
    let count = env_number("BIR_DIFF_COMPACT_INTERPRETED").unwrap_or(500);
    let (mut failures, mut wide) = (Vec::new(), 0);
    for i in 0..count {
        // Another stream than the other tests' models.
        let model_seed = seed.wrapping_mul(1_000_039).wrapping_add(i);
        let source = generate(&format!("C{i}"), model_seed);
        let Some(checker) = interpreted(&source, model_seed, &mut failures) else {
            continue;
        };
        let model = checker.model();
        let is_wide = model.state_word(&model.initial_state()).is_none();
        wide += usize::from(is_wide);
        for bfs in [false, true] {
            let exact = configure(checker.clone().storage(Storage::Exact), bfs).run();
            let compact = configure(checker.clone().storage(Storage::Compact), bfs).run();
            let plan = compact.plan();
            let order = if bfs { "BFS" } else { "DFS" };
            if found(&exact) != found(&compact)
                || plan.storage != Storage::Compact
                || plan.layout.contains("trees") != is_wide
            {
                failures.push(format!(
                    "model seed {model_seed} (BIR_DIFF_SEED={seed}):\n{source}\n{order}, \
                     compact against exact storage ({plan:?}):\n--- exact:\n{exact}\n--- \
                     compact:\n{compact}"
                ));
            }
        }
    }
    assert_agreed(&failures, count);
    // Wide models must be common (about a sixth of the generator's), or the tree goes
    // untested.
    assert!(
        wide * 10 >= count as usize,
        "{wide} of {count} wider than a word"
    );
    eprintln!(
        "{count} random models (BIR_DIFF_SEED={seed}) through the interpreter: compact \
         storage as exact storage, {wide} of them wider than a word (stored as trees)"
    );
}

#[test]
fn ltl_verdicts_are_those_of_the_whole_product() {
    let seed = env_number("BIR_DIFF_SEED").unwrap_or(1);
    let count = env_number("BIR_DIFF_LTL_INTERPRETED").unwrap_or(300);
    let modes = ltl_modes::<Interpreter>();
    let symmetric_modes: [(&str, Configure<Interpreter>); 1] =
        [("with symmetry reduction", |c| c.symmetry(true))];
    let mut failures = Vec::new();
    // Verdicts judged, and of those the violations.
    let (mut judged, mut violated) = ([0; 5], [0; 5]);
    let mut judged_symmetric = 0;
    // Properties violated without fairness but not under weak fairness, and under weak
    // but not under strong fairness.
    let (mut weak_saves, mut strong_saves) = (0, 0);
    for i in 0..3 * count {
        // Other streams than the other tests' models.
        let symmetric = i % 3 == 1;
        let model_seed = seed.wrapping_mul(1_000_081).wrapping_add(i);
        let name = format!("L{i}");
        let source = match i % 3 {
            0 => generate(&name, model_seed),
            1 => generate_symmetric(&name, model_seed),
            _ => generate_fairness(&name, model_seed),
        };
        let Some(checker) = interpreted(&source, model_seed, &mut failures) else {
            continue;
        };
        let modes: &[(&str, Configure<Interpreter>)] =
            if symmetric { &symmetric_modes } else { &modes };
        for property in checker.model().properties().to_vec() {
            if property.kind == PropertyKind::Reachable {
                continue;
            }
            // Each mode's verdict (violated), where the oracle judged it.
            let mut verdicts = [None; 5];
            for (slot, &(mode, on)) in modes.iter().enumerate() {
                let checker = on(configure(checker.clone(), false).ltl(&property.name));
                // Partial-order reduction refuses formulas with `X`.
                let Ok(report) = checker.try_run() else {
                    continue;
                };
                match judge(&report, checker.model(), MAX_STATES as usize) {
                    Judgement::Agrees if symmetric => judged_symmetric += 1,
                    Judgement::Agrees => {
                        judged[slot] += 1;
                        let found = report.verdict() == Verdict::Found(FindingKind::Property);
                        violated[slot] += usize::from(found);
                        verdicts[slot] = Some(found);
                    }
                    Judgement::Disagrees { violated } => failures.push(format!(
                        "model seed {model_seed} (BIR_DIFF_SEED={seed}):\n{source}\nltl {} \
                         {mode}: the whole product says violated {violated}\n{report}",
                        property.name
                    )),
                    Judgement::Unjudged => {}
                }
            }
            // A run that only unfair schedules violate.
            weak_saves += usize::from(verdicts[0] == Some(true) && verdicts[3] == Some(false));
            strong_saves += usize::from(verdicts[3] == Some(true) && verdicts[4] == Some(false));
        }
    }
    assert_agreed(&failures, 3 * count);
    // Each mode must judge violations (about one model in ten) and properties that hold
    // (one in three), or the test tests little.
    for slot in 0..modes.len() {
        assert!(
            violated[slot] * 20 >= count as usize
                && (judged[slot] - violated[slot]) * 10 >= count as usize,
            "{}: {} judged, {} violated, of {count} models",
            modes[slot].0,
            judged[slot],
            violated[slot]
        );
    }
    // Fairness must decide some verdicts, weak and strong alike, or the fair searches go
    // untested on models.
    assert!(
        count < 100 || (weak_saves > 0 && strong_saves > 0),
        "fairness decided {weak_saves} verdicts (weak) and {strong_saves} (strong)"
    );
    eprintln!(
        "{count} random, {count} symmetric and {count} fairness models (BIR_DIFF_SEED={seed}) through the \
         interpreter: ltl verdicts as the whole product gives them, judged (violated) \
         without fairness {} ({}), reduced by partial orders {} ({}), with compact storage \
         {} ({}), under weak fairness {} ({}), under strong fairness {} ({}); with symmetry \
         reduction {judged_symmetric}; violated without fairness but not under weak fairness \
         {weak_saves}, under weak but not under strong fairness {strong_saves}",
        judged[0],
        violated[0],
        judged[1],
        violated[1],
        judged[2],
        violated[2],
        judged[3],
        violated[3],
        judged[4],
        violated[4]
    );
}
