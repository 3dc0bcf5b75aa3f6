//! Every generated model is well-typed: the front end accepts it.

use std::str::FromStr;

/// Fails with the front end's messages when it rejects `source`.
fn accept(source: &str, seed: u64) {
    let tokens = proc_macro2::TokenStream::from_str(source).expect("tokenizes");
    if let Err(diags) = bir_codegen::front_end(tokens) {
        let messages: Vec<_> = diags.iter().map(|d| d.message.clone()).collect();
        panic!("seed {seed}: {messages:#?}\n{source}");
    }
}

#[test]
fn two_thousand_generated_models_pass_the_front_end() {
    for seed in 0..2_000u64 {
        accept(&bir_difftest::generate("M", seed), seed);
    }
}

/// The symmetric generator's models too, one and two families alike: a model `bir!`
/// rejects would fail the differential test's build rather than report a disagreement.
#[test]
fn two_thousand_symmetric_models_pass_the_front_end() {
    for seed in 0..2_000u64 {
        accept(&bir_difftest::generate_symmetric("S", seed), seed);
    }
}

/// The pool generator's models too, with each of its constructs somewhere.
#[test]
fn two_thousand_models_with_pools_pass_the_front_end() {
    let mut all = String::new();
    for seed in 0..2_000u64 {
        let source = bir_difftest::generate_pools("P", seed);
        accept(&source, seed);
        all.push_str(&source);
    }
    for construct in [
        "thread[1]",
        "thread[3]",
        "channel (tid)",
        "lock(m)",
        "threadTerminated(",
        ":= start W(",
        ":= start S(",
        "exit;",
        "invariant",
        "assert(",
    ] {
        assert!(all.contains(construct), "no model has `{construct}`");
    }
}

/// One seed in four gives a model of version 3 (every one declares a channel, which no
/// model of version 1 can: `channel` is a reserved word), and its constructs all appear.
#[test]
fn a_quarter_of_the_models_are_of_version_3() {
    let models: Vec<String> = (0..2_000u64)
        .map(|seed| bir_difftest::generate("M", seed))
        .filter(|source| source.contains("channel"))
        .collect();
    assert!(
        (400..600).contains(&models.len()),
        "{} of 2,000",
        models.len()
    );
    for construct in [
        " buffer ",
        "!(",
        "?(",
        "lock(",
        "wait(",
        "notify(",
        "notifyAll(",
        "function ",
        "function[",
        " returns ",
        " invoke ",
        "while ",
        "choose",
        "atomic",
        "elseif ",
        "goto ",
        "exit;",
        "len(",
        "hasLock(",
    ] {
        assert!(
            models.iter().any(|m| m.contains(construct)),
            "no model has `{construct}`"
        );
    }
}

/// The heap generator's models too: `build.rs` compiles some of them with `bir!`.
#[test]
fn two_thousand_heap_models_pass_the_front_end() {
    let mut models = Vec::new();
    for seed in 0..2_000u64 {
        let model = bir_difftest::generate_heap("H", seed);
        accept(&model, seed);
        models.push(model);
    }
    // The exceptions: a throwable record, throws, high-level and low-level handlers, calls
    // caught a frame or two up and outside any `try`.
    for construct in [
        "throwable record",
        "throw e;",
        "throw xl;",
        "throw a;",
        "catch (X x)",
        "catch (Y y)",
        "catch X x at",
        "catch Y y at",
        "fz(",
    ] {
        assert!(
            models.iter().any(|m| m.contains(construct)),
            "no heap model has `{construct}`"
        );
    }
    let without = models.iter().filter(|m| !m.contains("throwable")).count();
    assert!(without > 500, "{without} heap models without exceptions");
}
