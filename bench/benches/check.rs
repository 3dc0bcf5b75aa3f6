//! Criterion benchmarks of the search: each model family at two sizes, depth-first and
//! breadth-first, every reachable state explored (past the deadlock of the dining
//! philosophers). Throughput is in states, so criterion reports states per second.
//!
//! `cargo bench -p bir-bench --bench check` (a few minutes); `cargo bench -p bir-bench --bench check -- peterson` for
//! one family. The whole-process comparison with SPIN, Rumur and Stateright is
//! `scripts/compare`.

use std::time::Duration;

use bir::{Checker, Model};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

include!("../../models/families.rs");

dining_philosophers!(Phils8, 8);
dining_philosophers!(Phils10, 10);
dining_philosophers_fixed!(Fixed8, 8);
dining_philosophers_fixed!(Fixed10, 10);
peterson_filter!(Peterson4, 4);
peterson_filter!(Peterson5, 5);

/// One group `family/N` with a `dfs` and a `bfs` function.
fn bench_model<M: Model + Clone>(c: &mut Criterion, family: &str, n: u32, checker: Checker<M>) {
    let checker = checker.keep_going(1).progress(false);
    // The throughput comes from a run, not from a table: states per iteration.
    let probe = checker.clone().run();
    assert!(probe.is_complete(), "{probe}");
    let mut group = c.benchmark_group(format!("{family}/{n}"));
    group.throughput(Throughput::Elements(probe.states()));
    for (name, strategy) in [("dfs", checker.clone().dfs()), ("bfs", checker.bfs())] {
        group.bench_function(BenchmarkId::from_parameter(name), |b| {
            b.iter(|| {
                let report = strategy.run();
                assert_eq!(report.states(), probe.states());
                report
            })
        });
    }
    group.finish();
}

fn philosophers(c: &mut Criterion) {
    bench_model(c, "dining_philosophers", 8, Phils8::checker());
    bench_model(c, "dining_philosophers", 10, Phils10::checker());
}

fn philosophers_fixed(c: &mut Criterion) {
    bench_model(c, "dining_philosophers_fixed", 8, Fixed8::checker());
    bench_model(c, "dining_philosophers_fixed", 10, Fixed10::checker());
}

fn peterson(c: &mut Criterion) {
    bench_model(c, "peterson_filter", 4, Peterson4::checker());
    bench_model(c, "peterson_filter", 5, Peterson5::checker());
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3))
}

criterion_group! {
    name = benches;
    config = config();
    targets = philosophers, philosophers_fixed, peterson
}
criterion_main!(benches);
