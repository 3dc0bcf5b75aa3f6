//! Criterion benchmarks of what `bir!` costs at compile time: the whole expansion (parse,
//! check, layout, code generation) of each reference model, of dining philosophers with
//! 12 and 100 philosophers (100 thread instances, 400 transitions), and of Peterson's
//! filter for 12 threads, and of Peterson's filter with LTL properties (formulas of 4 to 11
//! operators, each translated to the Büchi automaton of its negation). The expansion of a
//! 100-thread model must stay well under 100 ms, and a 10-operator formula's share of it
//! well under 50 ms.
//!
//! `cargo bench -p bir-bench --bench expand`. This is the library, optimised; the proc-macro runs the
//! same code, built with the dev profile's optimisation level unless the user's
//! `Cargo.toml` sets `[profile.dev.package.bir-codegen] opt-level = 3`.

use std::str::FromStr;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use proc_macro2::TokenStream;

const MODELS: &[(&str, &str)] = &[
    (
        "two_dining_philosophers",
        include_str!("../../models/two_dining_philosophers.bir"),
    ),
    (
        "bounded_buffer",
        include_str!("../../models/bounded_buffer.bir"),
    ),
    (
        "readers_writers",
        include_str!("../../models/readers_writers.bir"),
    ),
    ("sum_to_n", include_str!("../../models/sum_to_n.bir")),
    (
        "dining_philosophers",
        include_str!("../../models/dining_philosophers.bir"),
    ),
    (
        "dining_philosophers_fixed",
        include_str!("../../models/dining_philosophers_fixed.bir"),
    ),
    (
        "peterson_filter",
        include_str!("../../models/peterson_filter.bir"),
    ),
];

/// A reference model with its `Param.N` set to `n`.
fn sized(source: &str, n: u32) -> String {
    source
        .replace("N = 5;", &format!("N = {n};"))
        .replace("N = 3;", &format!("N = {n};"))
}

fn expand(c: &mut Criterion) {
    let mut inputs: Vec<(String, String)> = MODELS
        .iter()
        .map(|(name, source)| (name.to_string(), source.to_string()))
        .collect();
    inputs.push(("dining_philosophers N=12".into(), sized(MODELS[4].1, 12)));
    inputs.push(("dining_philosophers N=100".into(), sized(MODELS[4].1, 100)));
    inputs.push(("peterson_filter N=12".into(), sized(MODELS[6].1, 12)));
    // The properties of the LTL table, and one formula of 11 operators.
    let with_properties = |properties: &str| {
        let model = MODELS[6].1;
        let end = model.rfind('}').unwrap_or(model.len());
        format!("{}{properties}\n}}\n", &model[..end])
    };
    inputs.push((
        "peterson_filter with 3 LTL properties".into(),
        with_properties(
            "ltl Waiting: [](P[0]@waiting -> <>P[0]@critical);
             ltl Idle: [](!P[0]@critical -> <>P[0]@critical);
             ltl One: []<>(incs == 1);",
        ),
    ));
    inputs.push((
        "peterson_filter with an 11-operator formula".into(),
        with_properties(
            "ltl Big: [](P[0]@waiting -> (P[0]@waiting U (P[0]@critical || \
             <>[](incs == 0) || X P[1]@announce)) && <>P[1]@idle);",
        ),
    ));
    let mut group = c.benchmark_group("expand");
    group
        .measurement_time(Duration::from_secs(2))
        .sample_size(20);
    for (name, source) in inputs {
        let tokens = TokenStream::from_str(&source).expect("tokenizes");
        let output = bir_codegen::expand(tokens.clone());
        assert!(
            !output.to_string().contains("compile_error"),
            "{name} has errors"
        );
        group.throughput(Throughput::Bytes(source.len() as u64));
        group.bench_function(name, |b| b.iter(|| bir_codegen::expand(tokens.clone())));
    }
    group.finish();
}

criterion_group!(benches, expand);
criterion_main!(benches);
