//! Symmetry reduction on random models with one or two symmetric families, through the
//! interpreter alone (no compilation, so many models per run):
//! `BIR_DIFF_SYMMETRIC_INTERPRETED` models (default 240) from `BIR_DIFF_SEED` (default 1).
//! Depth-first, breadth-first and parallel search with symmetry, and with symmetry and
//! partial-order reduction, find the kinds of finding the full search finds, in no more
//! states, and their counterexamples replay without symmetry; without partial-order
//! reduction, a complete search stores exactly the brute-force number of orbits.

#[path = "common/reduction.rs"]
mod reduction;

use bir::Checker;
use bir_difftest::generate_symmetric;
use bir_interp::Interpreter;

fn env_number(name: &str) -> Option<u64> {
    std::env::var(name).ok()?.trim().parse().ok()
}

#[test]
fn symmetry_keeps_the_verdicts_of_the_full_search() {
    let seed = env_number("BIR_DIFF_SEED").unwrap_or(1);
    let count = env_number("BIR_DIFF_SYMMETRIC_INTERPRETED").unwrap_or(240);
    let mut failures = Vec::new();
    // Models with a group, with a group on both families, reduced, checked against the
    // brute-force orbits (with a group on both families).
    let (mut symmetric, mut both, mut shrank, mut exact, mut exact_both) = (0, 0, 0, 0, 0);
    for i in 0..count {
        let model_seed = seed.wrapping_mul(1_000_037).wrapping_add(i);
        let source = generate_symmetric(&format!("S{i}"), model_seed);
        let interpreter = match Interpreter::from_source(&source) {
            Ok(interpreter) => interpreter,
            Err(errors) => {
                let messages: Vec<_> = errors.iter().map(|e| e.message.clone()).collect();
                failures.push(format!(
                    "model seed {model_seed}:\n{source}\nrejected: {messages:?}"
                ));
                continue;
            }
        };
        let checker = Checker::new(interpreter);
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
    assert!(
        failures.is_empty(),
        "{} disagreements in {count} models:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
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
