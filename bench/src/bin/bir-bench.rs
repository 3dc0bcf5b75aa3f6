//! `bir-bench FAMILY N [--bfs] [--threads T]`: checks a bir model family at a size compiled
//! into this binary (the macros of `models/families.rs`), exploring every reachable state
//! (past the deadlock of the dining philosophers), and prints the verdict, bir's statistics
//! and the machine-readable line of `scripts/compare`.
//!
//! The LTL benchmarks are binaries of their own, one model each (`bir-ltl-peterson5`...;
//! see `bir_bench::ltl_main`).
//!
//! `--symmetry` reduces a safety check by the symmetry `bir!` found (`peterson`: the
//! permutations of `P[1]` to `P[N-1]`; `peterson 7` is compiled in for it); the search
//! field of the output line is then `dfs-symmetry` (or `bfs-symmetry`).
//!
//! `peterson_local` (`models/peterson_local.bir`) is compiled in at N = 4 (52-bit states) and
//! N = 5 (75 bits: two words), for compact storage of states wider than a word.

use bir::{Checker, Model, Report};
use bir_bench::{print_report, usage_error, with_storage, Args, Family};

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

const PROGRAM: &str = "bir-bench";
const USAGE: &str = "bir-bench (phils|phils_fixed|peterson|peterson_local) N [--bfs] \
    [--exact | --compact] [--threads T] [--symmetry]\n  \
    sizes compiled in: phils 8 12 13 14, phils_fixed 8 12 13, peterson 4 5 6 7, \
    peterson_local 4 5 (states of 75 bits); \
    depth-first search unless --bfs;\n  \
    LTL: bir-ltl-peterson4, bir-ltl-peterson5, bir-ltl-phils-fixed8, bir-ltl-phils-fixed10";

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

fn main() {
    let args = Args::parse(std::env::args().skip(1), true)
        .unwrap_or_else(|message| usage_error(PROGRAM, USAGE, &message));
    if args.ltl.is_some() {
        usage_error(
            PROGRAM,
            USAGE,
            "LTL properties are checked by the binaries of one model each (bir-ltl-...)",
        );
    }
    let report = match (args.family, args.n) {
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
        (family, n) => usage_error(
            PROGRAM,
            USAGE,
            &format!("no {family} model of size {n} is compiled in"),
        ),
    };
    print_report(PROGRAM, &args, &report)
}
