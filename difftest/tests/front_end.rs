//! Every generated model is well-typed: the front end accepts it.

use std::str::FromStr;

#[test]
fn two_thousand_generated_models_pass_the_front_end() {
    for seed in 0..2_000u64 {
        let source = bir_difftest::generate("M", seed);
        let tokens = proc_macro2::TokenStream::from_str(&source).expect("tokenizes");
        if let Err(diags) = bir_codegen::front_end(tokens) {
            let messages: Vec<_> = diags.iter().map(|d| d.message.clone()).collect();
            panic!("seed {seed}: {messages:#?}\n{source}");
        }
    }
}
