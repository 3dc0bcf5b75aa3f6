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
