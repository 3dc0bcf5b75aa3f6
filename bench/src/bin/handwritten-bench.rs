//! `handwritten-bench FAMILY N [--ltl NAME]`: the depth-first search of a model family, or its
//! LTL check without fairness, written by hand (`bir_bench::handwritten`): the reference search under bir's
//! generated checker in `scripts/compare`. Prints a summary and the machine-readable line
//! of `scripts/compare`.

use bir_bench::{handwritten, usage_error, Args, Fairness, Family, Outcome};

const PROGRAM: &str = "handwritten-bench";
const USAGE: &str = "handwritten-bench (phils|phils_fixed|peterson) N [--ltl NAME]\n  \
    sizes compiled in: phils 8 12, phils_fixed 8 12, peterson 4 5 6 (depth-first search);\n  \
    --ltl One: peterson 4 5; --ltl Someone: phils_fixed 8 10 (nested search, no fairness)";

fn main() {
    let args = Args::parse(std::env::args().skip(1), true)
        .unwrap_or_else(|message| usage_error(PROGRAM, USAGE, &message));
    if args.bfs || args.compact.is_some() || args.symmetry || args.threads != 1 {
        usage_error(PROGRAM, USAGE, "the hand-written search runs on one thread");
    }
    if args.fairness != Fairness::None {
        usage_error(
            PROGRAM,
            USAGE,
            "the hand-written search checks LTL without fairness only",
        );
    }
    let counts = match &args.ltl {
        None => handwritten::check_family(args.family, args.n),
        Some(name) => {
            let property = match args.family {
                Family::Peterson => "One",
                _ => "Someone",
            };
            if name != property {
                usage_error(
                    PROGRAM,
                    USAGE,
                    &format!("the hand-written {} has no property {name}", args.family),
                );
            }
            handwritten::check_family_ltl(args.family, args.n)
        }
    };
    let Some(counts) = counts else {
        usage_error(
            PROGRAM,
            USAGE,
            &format!("no hand-written {} model of size {}", args.family, args.n),
        )
    };
    println!(
        "hand-written {} N={}: {} states, {} transitions, {} deadlocks, {} errors, {:.3} s",
        args.family,
        args.n,
        counts.states,
        counts.transitions,
        counts.deadlocks,
        counts.errors,
        counts.elapsed.as_secs_f64()
    );
    let ltl = args.ltl.is_some();
    let verdict = match (ltl, counts.errors, counts.deadlocks) {
        (true, 0, _) => "holds",
        (true, _, _) => "violated",
        (false, 0, 0) => "verified",
        (false, 0, _) => "deadlock",
        (false, _, _) => "error",
    };
    let outcome = Outcome {
        family: args.family,
        n: args.n,
        states: counts.states,
        transitions: counts.transitions,
        deadlocks: counts.deadlocks,
        errors: if ltl { 0 } else { counts.errors },
        elapsed: counts.elapsed,
        tool: "hand-written",
        search: if ltl { "ndfs" } else { "dfs" },
        threads: 1,
        property: args.ltl.clone(),
        fairness: Fairness::None,
        verdict,
    };
    println!("{}", outcome.line());
}
