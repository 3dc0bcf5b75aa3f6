//! Benchmark drivers for `scripts/compare`: the command line, the report and the output line
//! shared by the binaries, and the Stateright encodings of the model families.
//!
//! * `bir-bench FAMILY N [--bfs] [--exact | --compact] [--threads T]` checks a bir model
//!   family at a size compiled into the binary (from `models/families.rs`), with the
//!   checker's default storage or the one named.
//! * `bir-ltl-peterson5 --ltl One [--weak-fairness | --strong-fairness] [--exact |
//!   --compact]` (and `bir-ltl-peterson4`, `bir-ltl-phils-fixed10`, `bir-ltl-phils-fixed8`
//!   with `--ltl Someone`) checks an LTL property instead (`One`: `[]<>(incs == 1)`;
//!   `Someone`: `[]<>(exists i in 0 .. Param.N : (Philosopher[i]@putSecond))`). Each holds
//!   the one model it checks, as SPIN's `pan` does ([`ltl_main`]).
//! * `stateright-bench FAMILY N [--threads T]` checks the Stateright encoding of the same
//!   family ([`stateright_models`]) with Stateright's breadth-first search.
//! * `handwritten-bench FAMILY N [--ltl NAME]` runs bir's depth-first search (or its nested
//!   search for `One` and `Someone`) written by hand for the one model ([`handwritten`]): a
//!   hand-written reference search beside the generated checker, with the same counts.
//!
//! All explore every reachable state (past the deadlock of the dining philosophers), print a
//! human-readable summary and then one machine-readable line (see [`Outcome::line`]):
//!
//! ```text
//! model=phils n=12 states=1684801 transitions=14610252 deadlocks=1 errors=0 seconds=0.734 tool=bir search=dfs threads=1 property=- fairness=- verdict=deadlock
//! ```
//!
//! An LTL check counts the states and transitions of the product of the model with the
//! property's automaton (those of the nested search's second pass included), and its
//! verdict is `holds` or `violated`.

pub mod handwritten;
pub mod stateright_models;

use std::fmt;
use std::time::Duration;

use bir::{Checker, FindingKind, Model, Report, Storage, Verdict};

/// The model families, named as `peers/gen_murphi.py` names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// `models/dining_philosophers.bir`: N philosophers, each takes its left fork first;
    /// exactly one deadlock state.
    Phils,
    /// `models/dining_philosophers_fixed.bir`: the last philosopher takes its right fork
    /// first; no deadlock.
    PhilsFixed,
    /// `models/peterson_filter.bir`: Peterson's filter lock; mutual exclusion holds.
    Peterson,
    /// `models/peterson_local.bir`: the same lock as BEEM writes it, scanning the others'
    /// levels with local counters; mutual exclusion holds. From N = 5 its states are wider
    /// than a 64-bit word (75 bits at N = 5). bir only: no Stateright encoding.
    PetersonLocal,
}

impl Family {
    /// Every family, in the order of the comparison.
    pub const ALL: [Family; 4] = [
        Family::Phils,
        Family::PhilsFixed,
        Family::Peterson,
        Family::PetersonLocal,
    ];

    /// The short name (`phils`, `phils_fixed`, `peterson`, as in `gen_murphi.py`;
    /// `peterson_local`, as its `.bir` file).
    pub fn name(self) -> &'static str {
        match self {
            Family::Phils => "phils",
            Family::PhilsFixed => "phils_fixed",
            Family::Peterson => "peterson",
            Family::PetersonLocal => "peterson_local",
        }
    }

    /// Parses a short name or the name of the `.bir` file (`dining_philosophers`...).
    pub fn parse(text: &str) -> Option<Family> {
        match text {
            "phils" | "dining_philosophers" => Some(Family::Phils),
            "phils_fixed" | "fixed" | "dining_philosophers_fixed" => Some(Family::PhilsFixed),
            "peterson" | "peterson_filter" => Some(Family::Peterson),
            "peterson_local" => Some(Family::PetersonLocal),
            _ => None,
        }
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The fairness an LTL check assumes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fairness {
    /// Every run.
    None,
    /// Weak fairness (`--weak-fairness`).
    Weak,
    /// Strong fairness (`--strong-fairness`).
    Strong,
}

impl Fairness {
    /// `none`, `weak` or `strong`.
    pub fn name(self) -> &'static str {
        match self {
            Fairness::None => "none",
            Fairness::Weak => "weak",
            Fairness::Strong => "strong",
        }
    }
}

/// A parsed command line: `FAMILY N [--bfs] [--exact | --compact] [--threads T] [--symmetry]
/// [--ltl NAME [--weak-fairness | --strong-fairness]]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Args {
    /// The model family.
    pub family: Family,
    /// Its size (philosophers or processes).
    pub n: u32,
    /// Breadth-first rather than depth-first search.
    pub bfs: bool,
    /// `--compact` (true) or `--exact` (false): the storage asked for, if any.
    pub compact: Option<bool>,
    /// Worker threads.
    pub threads: usize,
    /// The LTL property to check instead of safety.
    pub ltl: Option<String>,
    /// The fairness of the LTL check.
    pub fairness: Fairness,
    /// Symmetry reduction (`--symmetry`, safety only).
    pub symmetry: bool,
}

impl Args {
    /// Parses the arguments after the program name; `bir` says whether bir's options
    /// (`--bfs`, `--ltl`, the fairness) are accepted. The error is the message to print
    /// (followed by the usage).
    pub fn parse<I, S>(args: I, bir: bool) -> Result<Args, String>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut positional = Vec::new();
        let mut bfs = false;
        let mut compact = None;
        let mut threads = 1;
        let mut ltl = None;
        let mut fairness = Fairness::None;
        let mut symmetry = false;
        let mut args = args.into_iter();
        while let Some(arg) = args.next() {
            match arg.as_ref() {
                "--bfs" if bir => bfs = true,
                "--dfs" if bir => bfs = false,
                "--compact" if bir => compact = Some(true),
                "--exact" if bir => compact = Some(false),
                "--weak-fairness" if bir => fairness = Fairness::Weak,
                "--strong-fairness" if bir => fairness = Fairness::Strong,
                "--symmetry" if bir => symmetry = true,
                "--ltl" if bir => {
                    let name = args
                        .next()
                        .ok_or_else(|| "--ltl needs a name".to_string())?;
                    ltl = Some(name.as_ref().to_string());
                }
                "--threads" => {
                    let value = args
                        .next()
                        .ok_or_else(|| "--threads needs a number".to_string())?;
                    threads = parse_threads(value.as_ref())?;
                }
                other => match other.strip_prefix("--threads=") {
                    Some(value) => threads = parse_threads(value)?,
                    None if bir && other.starts_with("--ltl=") => {
                        ltl = Some(other["--ltl=".len()..].to_string());
                    }
                    None if other.starts_with('-') => {
                        return Err(format!("unknown option `{other}`"))
                    }
                    None => positional.push(other.to_string()),
                },
            }
        }
        let [family, n] = positional.as_slice() else {
            return Err(format!(
                "expected FAMILY and N, got {} argument(s)",
                positional.len()
            ));
        };
        let family = Family::parse(family).ok_or_else(|| {
            format!(
                "unknown family `{family}` (expected phils, phils_fixed, peterson or \
                 peterson_local)"
            )
        })?;
        let n = n
            .parse()
            .map_err(|_| format!("N must be a positive number, got `{n}`"))?;
        if ltl.is_none() && fairness != Fairness::None {
            return Err("fairness needs an LTL property (--ltl NAME)".to_string());
        }
        if ltl.is_some() && (bfs || threads != 1) {
            return Err("an LTL check runs depth-first on one thread".to_string());
        }
        if ltl.is_some() && symmetry {
            return Err("symmetry reduction is for safety checks (drop --ltl)".to_string());
        }
        Ok(Args {
            family,
            n,
            bfs,
            compact,
            threads,
            ltl,
            fairness,
            symmetry,
        })
    }
}

fn parse_threads(text: &str) -> Result<usize, String> {
    match text.parse() {
        Ok(threads) if threads > 0 => Ok(threads),
        _ => Err(format!("--threads needs a positive number, got `{text}`")),
    }
}

/// What one run found, printed as the machine-readable line.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// The family checked.
    pub family: Family,
    /// Its size.
    pub n: u32,
    /// Distinct reachable states, the initial one included.
    pub states: u64,
    /// Executed transitions: (state, enabled transition) pairs.
    pub transitions: u64,
    /// Deadlock states found.
    pub deadlocks: u64,
    /// Errors found (assertion or invariant violations).
    pub errors: u64,
    /// The search's own time (the compare script times whole processes instead).
    pub elapsed: Duration,
    /// `bir` or `stateright`.
    pub tool: &'static str,
    /// `dfs` or `bfs`.
    pub search: &'static str,
    /// Worker threads.
    pub threads: usize,
    /// The LTL property checked, if any.
    pub property: Option<String>,
    /// The fairness of the LTL check (`none`, `weak`, `strong`).
    pub fairness: Fairness,
    /// `holds` or `violated` for an LTL check; otherwise `verified`, `deadlock` or `error`
    /// (what was found first).
    pub verdict: &'static str,
}

impl Outcome {
    /// `model=phils n=12 states=... transitions=... deadlocks=... errors=... seconds=...
    /// tool=... search=... threads=... property=... fairness=... verdict=...`, with
    /// `property=- fairness=-` for a safety check.
    pub fn line(&self) -> String {
        let (property, fairness) = match &self.property {
            Some(name) => (name.as_str(), self.fairness.name()),
            None => ("-", "-"),
        };
        format!(
            "model={} n={} states={} transitions={} deadlocks={} errors={} seconds={:.3} \
             tool={} search={} threads={} property={property} fairness={fairness} verdict={}",
            self.family,
            self.n,
            self.states,
            self.transitions,
            self.deadlocks,
            self.errors,
            self.elapsed.as_secs_f64(),
            self.tool,
            self.search,
            self.threads,
            self.verdict
        )
    }
}

/// `checker` with the storage `--compact` (true) or `--exact` (false) asks for, if any.
pub fn with_storage<M: Model>(checker: Checker<M>, compact: Option<bool>) -> Checker<M> {
    match compact {
        Some(true) => checker.storage(Storage::Compact),
        Some(false) => checker.storage(Storage::Exact),
        None => checker,
    }
}

/// The `main` of a binary that holds one model with LTL properties, of `family` at size
/// `n`: checks with `checker` the property `--ltl NAME` under the fairness and with the
/// storage the command line asks for, then prints as [`print_report`]. One model per
/// binary, as SPIN's `pan` holds one: the process then maps only the code of that model's
/// searches, which is most of the peak memory of the small products `scripts/compare --ltl`
/// checks.
pub fn ltl_main<M: Model>(checker: Checker<M>, program: &str, family: Family, n: u32) -> ! {
    let properties: Vec<&str> = checker
        .model()
        .properties()
        .iter()
        .map(|property| property.name.as_ref())
        .collect();
    let usage = format!(
        "{program} --ltl NAME [--weak-fairness | --strong-fairness] [--exact | --compact]\n  \
         {family} N={n}, properties: {}",
        properties.join(", ")
    );
    let (family_arg, n_arg) = (family.name().to_string(), n.to_string());
    let args = Args::parse(
        [family_arg, n_arg]
            .into_iter()
            .chain(std::env::args().skip(1)),
        true,
    )
    .unwrap_or_else(|message| usage_error(program, &usage, &message));
    let Some(name) = &args.ltl else {
        usage_error(program, &usage, "which property? (--ltl NAME)")
    };
    let checker = with_storage(checker.ltl(name).progress(false), args.compact);
    let checker = match args.fairness {
        Fairness::None => checker,
        Fairness::Weak => checker.weak_fairness(),
        Fairness::Strong => checker.strong_fairness(),
    };
    let report = checker
        .try_run()
        .unwrap_or_else(|error| usage_error(program, &usage, &error.to_string()));
    print_report(program, &args, &report)
}

/// Prints `report` of the check `args` asked for: the verdict, the first counterexample's
/// length and the statistics (not the counterexample itself: a depth-first one has
/// thousands of steps at these sizes), then the machine-readable line; exits with status 0,
/// or 1 when a safety check did not explore every state or the report has no verdict.
pub fn print_report(program: &str, args: &Args, report: &Report) -> ! {
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
            eprintln!("{program}: the search did not explore every state");
            std::process::exit(1);
        }
        (Verdict::Verified, false) => "verified",
        (Verdict::Found(FindingKind::Deadlock), false) => "deadlock",
        (Verdict::Found(_), false) => "error",
        (other, _) => {
            eprintln!("{program}: {other:?}: neither a complete search nor a verdict");
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
        search: match (args.ltl.is_some(), args.fairness, args.bfs) {
            (true, Fairness::None, _) => "ndfs",
            (true, _, _) => "fair-cycles",
            (false, _, true) if args.symmetry => "bfs-symmetry",
            (false, _, false) if args.symmetry => "dfs-symmetry",
            (false, _, true) => "bfs",
            (false, _, false) => "dfs",
        },
        threads: args.threads,
        property: args.ltl.clone(),
        fairness: args.fairness,
        verdict,
    };
    println!("{}", outcome.line());
    std::process::exit(0)
}

/// Prints `message` and the usage to stderr and exits with status 2.
pub fn usage_error(program: &str, usage: &str, message: &str) -> ! {
    eprintln!("{program}: {message}\nusage: {usage}");
    std::process::exit(2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_command_line() {
        assert_eq!(
            Args::parse(["phils", "12", "--bfs", "--threads", "1"], true),
            Ok(Args {
                family: Family::Phils,
                n: 12,
                bfs: true,
                compact: None,
                threads: 1,
                ltl: None,
                fairness: Fairness::None,
                symmetry: false,
            })
        );
        assert!(
            Args::parse(["peterson", "7", "--symmetry"], true)
                .unwrap()
                .symmetry
        );
        assert!(Args::parse(["peterson", "7", "--symmetry"], false).is_err());
        let args = Args::parse(["peterson", "5", "--ltl", "One", "--weak-fairness"], true).unwrap();
        assert_eq!(
            (args.ltl.as_deref(), args.fairness),
            (Some("One"), Fairness::Weak)
        );
        let args = Args::parse(["--ltl=Someone", "phils_fixed", "10"], true).unwrap();
        assert_eq!(
            (args.ltl.as_deref(), args.fairness),
            (Some("Someone"), Fairness::None)
        );
        assert!(Args::parse(["peterson", "5", "--ltl", "One"], false).is_err());
        assert!(Args::parse(["peterson", "5", "--ltl"], true).is_err());
        assert!(Args::parse(["peterson", "5", "--weak-fairness"], true)
            .unwrap_err()
            .contains("--ltl"));
        assert!(Args::parse(["peterson", "5", "--ltl", "One", "--bfs"], true).is_err());
        let args = Args::parse(["--threads=2", "peterson_filter", "6"], false).unwrap();
        assert_eq!(
            (args.family, args.n, args.threads),
            (Family::Peterson, 6, 2)
        );
        assert!(Args::parse(["phils", "12", "--bfs"], false)
            .unwrap_err()
            .contains("--bfs"));
        assert!(Args::parse(["phils"], true).unwrap_err().contains("FAMILY"));
        assert!(Args::parse(["forks", "3"], true)
            .unwrap_err()
            .contains("unknown family"));
        assert!(Args::parse(["phils", "x"], true).is_err());
        assert!(Args::parse(["phils", "3", "--threads", "0"], true).is_err());
        assert!(Args::parse(["phils", "3", "--threads"], true).is_err());
    }

    #[test]
    fn the_line_has_every_key() {
        let outcome = Outcome {
            family: Family::PhilsFixed,
            n: 8,
            states: 9_403,
            transitions: 51_944,
            deadlocks: 0,
            errors: 0,
            elapsed: Duration::from_millis(1500),
            tool: "stateright",
            search: "bfs",
            threads: 1,
            property: None,
            fairness: Fairness::None,
            verdict: "verified",
        };
        assert_eq!(
            outcome.line(),
            "model=phils_fixed n=8 states=9403 transitions=51944 deadlocks=0 errors=0 \
             seconds=1.500 tool=stateright search=bfs threads=1 property=- fairness=- \
             verdict=verified"
        );
        let ltl = Outcome {
            property: Some("Someone".to_string()),
            fairness: Fairness::Weak,
            verdict: "holds",
            tool: "bir",
            search: "fair-cycles",
            ..outcome
        };
        assert!(ltl.line().ends_with(
            "tool=bir search=fair-cycles threads=1 property=Someone fairness=weak verdict=holds"
        ));
    }
}
