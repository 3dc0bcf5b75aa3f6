//! `stateright-bench FAMILY N [--threads T]`: checks the Stateright 0.31 encoding of a model
//! family (`bir_bench::stateright_models`) with breadth-first search, exploring every state,
//! and prints a summary and the machine-readable line of `scripts/compare`.

use bir_bench::{stateright_models, usage_error, Args, Fairness, Outcome};

const PROGRAM: &str = "stateright-bench";
const USAGE: &str = "stateright-bench (phils|phils_fixed|peterson) N [--threads T]\n  \
    philosophers N = 2..=16, Peterson N = 2..=8; breadth-first search on T threads (default 1)";

fn main() {
    let args = Args::parse(std::env::args().skip(1), false)
        .unwrap_or_else(|message| usage_error(PROGRAM, USAGE, &message));
    let Some(checked) = stateright_models::check_family(args.family, args.n, args.threads) else {
        usage_error(
            PROGRAM,
            USAGE,
            &format!("no {} model of size {} is compiled in", args.family, args.n),
        )
    };
    let verdict = match (checked.error_found, checked.deadlock_found) {
        (true, _) => "property violated",
        (false, true) => "deadlock found",
        (false, false) => "no error and no deadlock",
    };
    println!(
        "Stateright {} N={}: {verdict} (breadth-first search, {} thread(s), all states explored)",
        args.family, args.n, args.threads
    );
    println!(
        "unique states: {}, generated states: {} (transitions + initial), max depth: {}, {:.3} s",
        checked.states,
        checked.transitions + 1,
        checked.max_depth,
        checked.elapsed.as_secs_f64()
    );
    println!(
        "(Stateright keeps one discovery per property: deadlocks/errors = 1 means at least one)"
    );
    let outcome = Outcome {
        family: args.family,
        n: args.n,
        states: checked.states,
        transitions: checked.transitions,
        deadlocks: u64::from(checked.deadlock_found),
        errors: u64::from(checked.error_found),
        elapsed: checked.elapsed,
        tool: "stateright",
        search: "bfs",
        threads: args.threads,
        property: None,
        fairness: Fairness::None,
        verdict: match (checked.error_found, checked.deadlock_found) {
            (true, _) => "error",
            (false, true) => "deadlock",
            (false, false) => "verified",
        },
    };
    println!("{}", outcome.line());
}
