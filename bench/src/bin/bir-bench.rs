//! `bir-bench FAMILY N [--bfs] [--threads T]`: checks a bir model family at a size compiled
//! into this binary (the macros of `models/families.rs`), exploring every reachable state
//! (past the deadlock of the dining philosophers), and prints the verdict, bir's statistics
//! and the machine-readable line of `scripts/compare`.

use bir::{Checker, Model, Report};
use bir_bench::{usage_error, Args, Family, Outcome};

include!("../../../models/families.rs");

dining_philosophers!(Phils8, 8);
dining_philosophers!(Phils12, 12);
dining_philosophers!(Phils13, 13);
dining_philosophers!(Phils14, 14);
dining_philosophers_fixed!(Fixed8, 8);
dining_philosophers_fixed!(Fixed12, 12);
dining_philosophers_fixed!(Fixed13, 13);
peterson_filter!(Peterson4, 4);
peterson_filter!(Peterson5, 5);
peterson_filter!(Peterson6, 6);

const PROGRAM: &str = "bir-bench";
const USAGE: &str = "bir-bench (phils|phils_fixed|peterson) N [--bfs] [--threads T]\n  \
    sizes compiled in: phils 8 12 13 14, phils_fixed 8 12 13, peterson 4 5 6; \
    depth-first search unless --bfs";

/// Explores everything: continue past findings, counting them (as `pan -c0` and Rumur's
/// `--max-errors` do) without building counterexamples, which would cost a parallel search
/// a sequential one to its first finding (see `Checker::threads`).
fn run<M: Model>(checker: Checker<M>, bfs: bool, threads: usize) -> Report {
    let checker = checker.keep_going(0).progress(false).threads(threads);
    if bfs {
        checker.bfs().run()
    } else {
        checker.dfs().run()
    }
}

fn main() {
    let args = Args::parse(std::env::args().skip(1), true)
        .unwrap_or_else(|message| usage_error(PROGRAM, USAGE, &message));
    let (bfs, threads) = (args.bfs, args.threads);
    let report = match (args.family, args.n) {
        (Family::Phils, 8) => run(Phils8::checker(), bfs, threads),
        (Family::Phils, 12) => run(Phils12::checker(), bfs, threads),
        (Family::Phils, 13) => run(Phils13::checker(), bfs, threads),
        (Family::Phils, 14) => run(Phils14::checker(), bfs, threads),
        (Family::PhilsFixed, 8) => run(Fixed8::checker(), bfs, threads),
        (Family::PhilsFixed, 12) => run(Fixed12::checker(), bfs, threads),
        (Family::PhilsFixed, 13) => run(Fixed13::checker(), bfs, threads),
        (Family::Peterson, 4) => run(Peterson4::checker(), bfs, threads),
        (Family::Peterson, 5) => run(Peterson5::checker(), bfs, threads),
        (Family::Peterson, 6) => run(Peterson6::checker(), bfs, threads),
        (family, n) => usage_error(
            PROGRAM,
            USAGE,
            &format!("no {family} model of size {n} is compiled in"),
        ),
    };
    // The verdict, the first counterexample's length and the statistics; not the
    // counterexample itself (a depth-first one has thousands of steps at these sizes).
    println!(
        "{}: {} ({}{})",
        report.name(),
        report.verdict(),
        report.strategy().describe(),
        if report.is_complete() {
            ", all reachable states explored"
        } else {
            ", incomplete"
        }
    );
    if let Some(first) = report.first_finding() {
        println!(
            "first counterexample: {} after {} steps",
            first.kind(),
            first.len()
        );
    }
    println!("{}", report.stats());
    if !report.is_complete() {
        eprintln!("{PROGRAM}: the search did not explore every state");
        std::process::exit(1);
    }
    let outcome = Outcome {
        family: args.family,
        n: args.n,
        states: report.states(),
        transitions: report.transitions(),
        deadlocks: report.deadlocks(),
        errors: report.errors(),
        elapsed: report.stats().elapsed,
        tool: "bir",
        search: if bfs { "bfs" } else { "dfs" },
        threads: args.threads,
    };
    println!("{}", outcome.line());
}
