//! `bir-bench FAMILY N [--bfs] [--threads T]`: checks a bir model family at a size compiled
//! into this binary (the macros of `models/families.rs`), exploring every reachable state
//! (past the deadlock of the dining philosophers), and prints the verdict, bir's statistics
//! and the machine-readable line of `scripts/compare`.
//!
//! `bir-bench FAMILY N --ltl NAME [--weak-fairness | --strong-fairness]` checks an LTL
//! property instead, on the same family compiled with its properties (`peterson` 4 and 5:
//! `One`, `[]<>(incs == 1)`; `phils_fixed` 8 and 10: `Someone`, `[]<>(exists i in
//! 0 .. Param.N : (Philosopher[i]@putSecond))`; both hold, with and without fairness). Its
//! counts are those of the product with the property's automaton.
//!
//! `--symmetry` reduces a safety check by the symmetry `bir!` found (`peterson`: the
//! permutations of `P[1]` to `P[N-1]`; `peterson 7` is compiled in for it); the search
//! field of the output line is then `dfs-symmetry` (or `bfs-symmetry`).
//!
//! `peterson_local` (`models/peterson_local.bir`) is compiled in at N = 4 (52-bit states) and
//! N = 5 (75 bits: two words), for compact storage of states wider than a word.

use bir::{Checker, FindingKind, Model, Report, Storage, Verdict};
use bir_bench::{usage_error, Args, Fairness, Family, Outcome};

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
peterson_filter!(Peterson7, 7);
peterson_local!(PetersonLocal4, 4);
peterson_local!(PetersonLocal5, 5);

// The LTL benchmarks: separate systems, so that the safety ones stay exactly as they were.
peterson_filter!(PetersonLtl4, 4,
    ltl One: []<>(incs == 1);
);
peterson_filter!(PetersonLtl5, 5,
    ltl One: []<>(incs == 1);
);
dining_philosophers_fixed!(FixedLtl8, 8,
    ltl Someone: []<>(exists i in 0 .. Param.N : (Philosopher[i]@putSecond));
);
dining_philosophers_fixed!(FixedLtl10, 10,
    ltl Someone: []<>(exists i in 0 .. Param.N : (Philosopher[i]@putSecond));
);

const PROGRAM: &str = "bir-bench";
const USAGE: &str = "bir-bench (phils|phils_fixed|peterson|peterson_local) N [--bfs] \
    [--exact | --compact] [--threads T] [--symmetry]\n       \
    bir-bench (phils_fixed|peterson) N --ltl NAME [--weak-fairness | --strong-fairness]\n  \
    sizes compiled in: phils 8 12 13 14, phils_fixed 8 12 13, peterson 4 5 6 7, \
    peterson_local 4 5 (states of 75 bits); \
    depth-first search unless --bfs;\n  \
    with LTL properties: peterson 4 5 (One: []<>(incs == 1)), phils_fixed 8 10 \
    (Someone: []<>(exists i in 0 .. Param.N : (Philosopher[i]@putSecond)))";

/// Explores everything: continue past findings, counting them (as `pan -c0` and Rumur's
/// `--max-errors` do) without building counterexamples, which would cost a parallel search
/// a sequential one to its first finding (see `Checker::threads`).
fn run<M: Model>(checker: Checker<M>, args: &Args) -> Report {
    let (bfs, threads) = (args.bfs, args.threads);
    let checker = checker
        .keep_going(0)
        .progress(false)
        .threads(threads)
        .symmetry(args.symmetry);
    let checker = with_storage(checker, args.compact);
    if bfs {
        checker.bfs().run()
    } else {
        checker.dfs().run()
    }
}

/// `checker` with the storage `--compact` (true) or `--exact` (false) asks for, if any.
fn with_storage<M: Model>(checker: Checker<M>, compact: Option<bool>) -> Checker<M> {
    match compact {
        Some(true) => checker.storage(Storage::Compact),
        Some(false) => checker.storage(Storage::Exact),
        None => checker,
    }
}

/// Checks LTL property `name` under `fairness`: nested depth-first search, or the search for
/// fair cycles, with the storage `compact` asks for. A property the model does not declare is
/// a usage error.
fn run_ltl<M: Model>(
    checker: Checker<M>,
    name: &str,
    fairness: Fairness,
    compact: Option<bool>,
) -> Report {
    let checker = checker.ltl(name).progress(false);
    let checker = with_storage(checker, compact);
    let checker = match fairness {
        Fairness::None => checker,
        Fairness::Weak => checker.weak_fairness(),
        Fairness::Strong => checker.strong_fairness(),
    };
    checker
        .try_run()
        .unwrap_or_else(|error| usage_error(PROGRAM, USAGE, &error.to_string()))
}

fn main() {
    let args = Args::parse(std::env::args().skip(1), true)
        .unwrap_or_else(|message| usage_error(PROGRAM, USAGE, &message));
    let (bfs, fairness, compact) = (args.bfs, args.fairness, args.compact);
    let unknown = || -> ! {
        usage_error(
            PROGRAM,
            USAGE,
            &format!(
                "no {} model of size {}{} is compiled in",
                args.family,
                args.n,
                if args.ltl.is_some() {
                    " with LTL properties"
                } else {
                    ""
                }
            ),
        )
    };
    let report = match &args.ltl {
        None => match (args.family, args.n) {
            (Family::Phils, 8) => run(Phils8::checker(), &args),
            (Family::Phils, 12) => run(Phils12::checker(), &args),
            (Family::Phils, 13) => run(Phils13::checker(), &args),
            (Family::Phils, 14) => run(Phils14::checker(), &args),
            (Family::PhilsFixed, 8) => run(Fixed8::checker(), &args),
            (Family::PhilsFixed, 12) => run(Fixed12::checker(), &args),
            (Family::PhilsFixed, 13) => run(Fixed13::checker(), &args),
            (Family::Peterson, 4) => run(Peterson4::checker(), &args),
            (Family::Peterson, 5) => run(Peterson5::checker(), &args),
            (Family::Peterson, 6) => run(Peterson6::checker(), &args),
            (Family::Peterson, 7) => run(Peterson7::checker(), &args),
            (Family::PetersonLocal, 4) => run(PetersonLocal4::checker(), &args),
            (Family::PetersonLocal, 5) => run(PetersonLocal5::checker(), &args),
            _ => unknown(),
        },
        Some(name) => match (args.family, args.n) {
            (Family::PhilsFixed, 8) => run_ltl(FixedLtl8::checker(), name, fairness, compact),
            (Family::PhilsFixed, 10) => run_ltl(FixedLtl10::checker(), name, fairness, compact),
            (Family::Peterson, 4) => run_ltl(PetersonLtl4::checker(), name, fairness, compact),
            (Family::Peterson, 5) => run_ltl(PetersonLtl5::checker(), name, fairness, compact),
            _ => unknown(),
        },
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
    let verdict = match (report.verdict(), args.ltl.is_some()) {
        (Verdict::Verified, true) => "holds",
        (Verdict::Found(FindingKind::Property), true) => "violated",
        (_, false) if !report.is_complete() => {
            eprintln!("{PROGRAM}: the search did not explore every state");
            std::process::exit(1);
        }
        (Verdict::Verified, false) => "verified",
        (Verdict::Found(FindingKind::Deadlock), false) => "deadlock",
        (Verdict::Found(_), false) => "error",
        (other, _) => {
            eprintln!("{PROGRAM}: {other:?}: neither a complete search nor a verdict");
            std::process::exit(1);
        }
    };
    let outcome = Outcome {
        family: args.family,
        n: args.n,
        states: report.states(),
        transitions: report.transitions(),
        deadlocks: report.deadlocks(),
        errors: report.errors(),
        elapsed: report.stats().elapsed,
        tool: "bir",
        search: match (args.ltl.is_some(), fairness, bfs) {
            (true, Fairness::None, _) => "ndfs",
            (true, _, _) => "fair-cycles",
            (false, _, true) if args.symmetry => "bfs-symmetry",
            (false, _, false) if args.symmetry => "dfs-symmetry",
            (false, _, true) => "bfs",
            (false, _, false) => "dfs",
        },
        threads: args.threads,
        property: args.ltl.clone(),
        fairness,
        verdict,
    };
    println!("{}", outcome.line());
}
