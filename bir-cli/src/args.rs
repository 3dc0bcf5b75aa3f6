//! The command line, declared once with `clap`: the parser, the usage line, `--help` and
//! the errors all come from the definitions below. Every number is checked here, so that
//! an argument out of range is an error (exit status 2), never a panic, an abort or a
//! value silently clamped by the search.

use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

use bir_driver::SearchOptions;
use bir_interp::{Override, Overrides};
use clap::{Args, Parser, Subcommand};

/// The most bytes of model text `bir check` reads: what `bir!(file = ...)` reads.
pub use bir_codegen::drive::file::MAX_FILE_BYTES as MAX_MODEL_BYTES;
// The limits of `--threads`, `--bitstate` and `--bitstate-hashes` are the search's own: an
// error here (exit status 2) before the search would refuse them.
use bir_runtime::{Heuristic, BITSTATE_HASHES, BITSTATE_LOG2_BITS as BITSTATE_LOG2, MAX_THREADS};

/// What every `--help` ends with.
const EXIT_STATUS: &str = "\
Exit status:
  0  verified: every reachable state explored, no error and no deadlock (with --ltl:
     the property holds; with --reachable: a state satisfying it was found)
  1  an error (assertion, invariant, range, index, division, start) or a deadlock found
     (with --ltl: a run violating the property; with --reachable: no such state)
  2  the model is malformed or cannot be read, or the arguments are wrong
  3  incomplete: nothing found, but a limit stopped the search";

/// `bir`: the whole command line.
#[derive(Debug, Parser)]
#[command(
    name = "bir",
    version,
    about = "Check a concurrent system written in BIR, exhaustively",
    after_help = EXIT_STATUS,
    arg_required_else_help = false
)]
pub struct Cli {
    /// The command.
    #[command(subcommand)]
    pub command: Command,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Explore every reachable state of a model; report errors and deadlocks
    // Negative numbers are values, so that `--max-states -1` says what is wrong with -1.
    #[command(after_help = EXIT_STATUS, allow_negative_numbers = true)]
    Check(Box<CheckOptions>),
    /// Walk a model in the browser: states, steps, charts, checks, the state graph
    #[command(after_help = EXPLORE_PAGE, allow_negative_numbers = true)]
    Explore(ExploreOptions),
    /// Write the state graph of a small model as DOT (or JSON)
    #[command(allow_negative_numbers = true)]
    Graph(GraphOptions),
    /// Write the model in Murphi, for a cross-check of its counts with Rumur
    #[command(after_help = MURPHI_USE, allow_negative_numbers = true)]
    Murphi(MurphiOptions),
    /// Write the model and its ltl properties in Promela, for a cross-check with SPIN
    #[command(after_help = PROMELA_USE, allow_negative_numbers = true)]
    Promela(PromelaOptions),
    /// Run a model step by step: random walks, or choose each step (--guided)
    #[command(allow_negative_numbers = true)]
    Simulate(SimulateOptions),
    /// Re-execute a replay string from a report; print its counterexample
    #[command(after_help = REPLAY_EXIT_STATUS, allow_negative_numbers = true)]
    Replay(ReplayOptions),
}

/// What `bir replay --help` ends with.
const REPLAY_EXIT_STATUS: &str = "\
Exit status:
  0  the string replays to its finding, which is printed
  2  the model is malformed or cannot be read, the arguments are wrong, or the string
     does not replay on this model (the error says at which step)";

/// The options of `bir replay`.
#[derive(Debug, Args)]
pub struct ReplayOptions {
    /// The model file.
    #[arg(
        value_name = "MODEL.bir",
        help = "The model file: BIR text of at most 16 MiB"
    )]
    pub model: PathBuf,

    /// The replay string.
    #[arg(
        value_name = "STRING",
        help = "A replay string as a report prints it (`bir1:0.4.8`)"
    )]
    pub replay: String,

    /// The LTL property a lasso violates.
    #[arg(
        long,
        value_name = "NAME",
        conflicts_with = "reachable",
        help = "The string is a lasso that violates the LTL property NAME"
    )]
    pub ltl: Option<String>,

    /// Weak fairness for the LTL check.
    #[arg(
        long,
        requires = "ltl",
        conflicts_with = "strong_fairness",
        help = "With --ltl: the lasso is weakly fair"
    )]
    pub weak_fairness: bool,

    /// Strong fairness for the LTL check.
    #[arg(
        long,
        requires = "ltl",
        help = "With --ltl: the lasso is strongly fair"
    )]
    pub strong_fairness: bool,

    /// The reachability check whose witness the string is.
    #[arg(
        long,
        value_name = "NAME",
        help = "The string is a witness of `reachable NAME: predicate;`"
    )]
    pub reachable: Option<String>,

    /// Constants replaced with `--set`, in the order given.
    #[arg(
        long = "set",
        value_name = "Block.NAME=VALUE",
        value_parser = constant,
        help = "Replace a constant, as `bir check --set` did when it\n\
                printed the string (repeatable)"
    )]
    pub set: Vec<Override>,

    /// Print every step of long counterexamples.
    #[arg(long, help = "Print every step of a long counterexample")]
    pub full_trace: bool,

    /// Print JSON.
    #[arg(long, help = "Print the counterexample as one JSON object")]
    pub json: bool,
}

impl ReplayOptions {
    /// The constants replaced with `--set` (a later one for the same constant wins).
    pub fn overrides(&self) -> Overrides {
        overrides(&self.set)
    }

    /// The options of the search whose counterexample is replayed: its property.
    pub fn search(&self) -> SearchOptions {
        SearchOptions {
            file: self.model.display().to_string(),
            ltl: self.ltl.clone(),
            weak_fairness: self.weak_fairness,
            strong_fairness: self.strong_fairness,
            reachable: self.reachable.clone(),
            full_trace: self.full_trace,
            json: self.json,
            ..SearchOptions::default()
        }
    }
}

/// The options of `bir explore`.
#[derive(Debug, Args)]
pub struct ExploreOptions {
    /// The port.
    #[arg(
        long,
        value_name = "P",
        default_value = "8470",
        value_parser = whole_number::<u16>,
        help = "The port to serve on (0: any free port)"
    )]
    pub port: u16,

    /// The address to listen on.
    #[arg(
        long,
        value_name = "ADDR",
        help = "Listen on this address instead of 127.0.0.1 (e.g. 0.0.0.0:\n\
                every machine that reaches this one may then use the page)"
    )]
    pub listen: Option<std::net::IpAddr>,

    /// The engine of the page's checks.
    #[command(flatten)]
    pub engine: EngineOptions,

    /// The model file and its constants.
    #[command(flatten)]
    pub input: ModelInput,
}

/// The engine of `bir check` and of `bir explore`'s checks: a checker compiled from the
/// model (cached), or the interpreter.
#[derive(Args, Debug, Clone, Default)]
pub struct EngineOptions {
    /// Check with the interpreter instead of generated code.
    #[arg(
        long,
        help = "Check with the interpreter instead of a checker compiled\n\
                from the model (no compiler needed; slower)"
    )]
    pub interpret: bool,

    /// Where compiled checkers are kept.
    #[arg(
        long,
        value_name = "DIR",
        help = "Keep compiled checkers in DIR (default: $XDG_CACHE_HOME/bir\n\
                or ~/.cache/bir)"
    )]
    pub cache: Option<PathBuf>,
}

/// The options of `bir graph`.
#[derive(Debug, Args)]
pub struct GraphOptions {
    /// The most states drawn.
    #[arg(
        long,
        value_name = "N",
        default_value = "2000",
        value_parser = graph_states,
        help = "Refuse models with more than N reachable states (1 to 1000000)"
    )]
    pub max_states: usize,

    /// JSON instead of DOT.
    #[arg(
        long,
        help = "Print the states and steps as one JSON object instead of DOT"
    )]
    pub json: bool,

    /// The model file and its constants.
    #[command(flatten)]
    pub input: ModelInput,
}

/// What `bir murphi --help` ends with.
const EXPLORE_PAGE: &str = "\
The page shows the current state, the enabled transitions (click one to take it), the path
as a message-sequence chart, and, for a model with records, the heap of the current state
as a graph: the reference variables on the left, each live object a box of its fields, an
arrow per reference. Checks run with the limits of `bir check`; small models draw their
state graph.";

const MURPHI_USE: &str = "\
Rumur's states and rules fired are bir's states and transitions on a model whose search
meets no error (Rumur stops at the first), and on any model with --past-errors:
  bir murphi m.bir > m.m
  rumur --deadlock-detection off --value-type int32_t m.m -o m.c
  cc -O2 -std=c11 -mcx16 m.c -lpthread -o m && ./m";

/// The options of `bir murphi`.
#[derive(Debug, Args)]
pub struct MurphiOptions {
    /// Errors as steps to the same state.
    #[arg(
        long,
        help = "Count past errors as bir does: a step that faults changes\n\
                nothing, a state that violates an invariant enables no rule"
    )]
    pub past_errors: bool,

    /// The model file and its constants.
    #[command(flatten)]
    pub input: ModelInput,
}

/// What `bir promela --help` ends with.
const PROMELA_USE: &str = "\
SPIN's verdicts are bir's on a model whose search meets no error (Promela checks no
ranges); an ltl property with X, or whose predicates need `? :` or a computed index, is
left out with a comment:
  bir promela m.bir > m.pml
  spin -a m.pml && gcc -O2 -DNOREDUCE -DNFAIR=16 -o pan pan.c   (NFAIR: -f with many processes)
  ./pan -a -N NAME        (-f: weak fairness, as bir check --ltl NAME --weak-fairness)";

/// The options of `bir promela`.
#[derive(Debug, Args)]
pub struct PromelaOptions {
    /// The model file and its constants.
    #[command(flatten)]
    pub input: ModelInput,
}

/// The options of `bir simulate`.
#[derive(Debug, Args)]
pub struct SimulateOptions {
    /// Choose each step in the terminal.
    #[arg(
        long,
        help = "Choose each step from numbered lines in the terminal (a number\n\
                takes that transition; b back, f forward, r random, q quit)"
    )]
    pub guided: bool,

    /// The seed of the random choices.
    #[arg(
        long,
        value_name = "S",
        default_value = "0",
        value_parser = whole_number::<u64>,
        help = "Seed of the random choices (the same seed, the same walks)"
    )]
    pub seed: u64,

    /// How many walks.
    #[arg(
        long,
        value_name = "N",
        default_value = "100",
        value_parser = whole_number::<u64>,
        help = "Random walks to run (without --guided)"
    )]
    pub walks: u64,

    /// How long each walk is.
    #[arg(
        long,
        value_name = "N",
        default_value = "1000",
        value_parser = whole_number::<u32>,
        help = "The most steps of a walk (without --guided)"
    )]
    pub steps: u32,

    /// The model file and its constants.
    #[command(flatten)]
    pub input: ModelInput,
}

/// What every command but `check` and `replay` reads: the model file and the constants
/// `--set` replaces in it (those two word their `--set` for their own use).
#[derive(Debug, Args)]
pub struct ModelInput {
    /// The model file.
    #[arg(
        value_name = "MODEL.bir",
        help = "The model file: BIR text of at most 16 MiB"
    )]
    pub model: PathBuf,

    /// Constants replaced with `--set`.
    #[arg(
        long = "set",
        value_name = "Block.NAME=VALUE",
        value_parser = constant,
        help = "Replace a constant, e.g. --set Param.N=12 (repeatable)"
    )]
    pub set: Vec<Override>,
}

impl ModelInput {
    /// The constants replaced with `--set` (a later one for the same constant wins).
    pub fn overrides(&self) -> Overrides {
        overrides(&self.set)
    }
}

/// The constants replaced with `--set` (a later one for the same constant wins).
pub fn overrides(set: &[Override]) -> Overrides {
    let mut overrides = Overrides::default();
    for o in set {
        overrides.push(o.clone());
    }
    overrides
}

/// The options of `bir check`. Each help text is laid out by hand (clap is built without
/// terminal-width wrapping), so that `--help` prints the same everywhere.
#[derive(Debug, Args)]
pub struct CheckOptions {
    /// The model file.
    #[arg(
        value_name = "MODEL.bir",
        help = "The model file: BIR text of at most 16 MiB"
    )]
    pub model: PathBuf,

    /// Breadth-first instead of depth-first.
    #[arg(
        long,
        help = "Breadth-first search: shortest counterexamples\n\
                (default: depth-first, in Bogor's order)"
    )]
    pub bfs: bool,

    /// Best-first search by this heuristic.
    #[arg(
        long,
        value_name = "H",
        conflicts_with_all = ["bfs", "order_by"],
        value_parser = heuristic,
        help = "Best-first search by the heuristic H, lowest first:\n\
                coverage, switching, threads=T1,T2[1], blocked,\n\
                random[=SEED] or a heuristic the model declares\n\
                (exhaustive when it completes)"
    )]
    pub best_first: Option<String>,

    /// Depth-first search with successors ordered by this heuristic.
    #[arg(
        long,
        value_name = "H",
        conflicts_with = "bfs",
        value_parser = heuristic,
        help = "Depth-first search, each state's successors in the\n\
                order of the heuristic H (as for --best-first)"
    )]
    pub order_by: Option<String>,

    /// A swarm of diversified searches.
    #[arg(
        long,
        value_name = "K",
        conflicts_with = "bfs",
        value_parser = swarm,
        help = "Run K diversified searches at once (on --threads, else\n\
                one per core; spread over --workers/--processes), each\n\
                over its own bit array; stops at the first finding,\n\
                never \"verified\""
    )]
    pub swarm: Option<usize>,

    /// Go on past findings, keeping this many counterexamples.
    #[arg(
        long,
        value_name = "N",
        value_parser = whole_number::<usize>,
        help = "Count every finding, keeping the counterexamples of\n\
                the first N (default: stop at the first finding)"
    )]
    pub keep_going: Option<usize>,

    /// The state limit.
    #[arg(
        long,
        value_name = "N",
        value_parser = max_states,
        help = "Store at most N states (N >= 1)"
    )]
    pub max_states: Option<u64>,

    /// The depth limit.
    #[arg(
        long,
        value_name = "N",
        value_parser = whole_number::<u32>,
        help = "Do not expand states N steps from the initial state"
    )]
    pub max_depth: Option<u32>,

    /// The time limit.
    #[arg(
        long,
        value_name = "SECONDS",
        value_parser = seconds,
        help = "Stop after this long (decimals allowed)"
    )]
    pub time_limit: Option<Duration>,

    /// The memory limit in bytes (given in MiB).
    #[arg(
        long = "memory-limit",
        value_name = "MB",
        value_parser = memory_limit,
        help = "Stop before the search uses more than MB MiB (MB >= 1;\n\
                default: three quarters of the available memory)"
    )]
    pub memory_limit: Option<usize>,

    /// Deadlocks are not reported.
    #[arg(long, help = "Do not report deadlocks")]
    pub no_deadlock: bool,

    /// Threads of the search.
    #[arg(
        long,
        value_name = "N",
        value_parser = threads,
        help = "Search with N threads, 1 to 256 (same counts; the\n\
                verdict and trace of a finding come from a sequential\n\
                depth-first search)"
    )]
    pub threads: Option<usize>,

    /// Compact exact storage.
    #[arg(
        long,
        conflicts_with_all = ["bitstate", "hash_compaction"],
        help = "Store states exactly in a few bytes each (wider ones than\n\
                a word as trees of shared parts; one thread, depth-first\n\
                or breadth-first, and LTL without fairness)"
    )]
    pub compact: bool,

    /// Hash compaction.
    #[arg(
        long,
        conflicts_with = "bitstate",
        help = "Store 64-bit fingerprints of states wider than a word\n\
                (never \"verified\": gives the chance a state was missed)"
    )]
    pub hash_compaction: bool,

    /// Bitstate hashing with a bit array of 2^this bits.
    #[arg(
        long,
        value_name = "LOG2",
        value_parser = bitstate_log2,
        help = "Store each state as K bits of a 2^LOG2-bit array,\n\
                LOG2 10 to 40 (supertrace; never \"verified\" either)"
    )]
    pub bitstate: Option<u32>,

    /// The bits set per state by bitstate hashing.
    #[arg(
        long,
        value_name = "K",
        requires = "bitstate",
        default_value = "3",
        value_parser = bitstate_hashes,
        help = "The K of --bitstate, 1 to 8"
    )]
    pub bitstate_hashes: u32,

    /// Partial-order reduction.
    #[arg(
        long,
        help = "Partial-order reduction: where an instance stands at a safe\n\
                location, expand it alone (same verdicts, fewer states)"
    )]
    pub por: bool,

    /// Symmetry reduction.
    #[arg(
        long,
        help = "Symmetry reduction: store one state per orbit of the instance\n\
                permutations the model cannot tell apart (same verdicts)"
    )]
    pub symmetry: bool,

    /// The LTL property to check.
    #[arg(
        long,
        value_name = "NAME",
        conflicts_with = "reachable",
        help = "Check the LTL property NAME (an `ltl NAME: formula;` of the\n\
                model): holds, or a lasso that violates it"
    )]
    pub ltl: Option<String>,

    /// Weak fairness for the LTL check.
    #[arg(
        long,
        requires = "ltl",
        conflicts_with = "strong_fairness",
        help = "With --ltl: only runs in which every instance enabled\n\
                continuously from some point on steps infinitely often"
    )]
    pub weak_fairness: bool,

    /// Strong fairness for the LTL check.
    #[arg(
        long,
        requires = "ltl",
        help = "With --ltl: only runs in which every instance enabled\n\
                infinitely often steps infinitely often"
    )]
    pub strong_fairness: bool,

    /// The reachability check to run.
    #[arg(
        long,
        value_name = "NAME",
        help = "Check `reachable NAME: predicate;`: a shortest path to a\n\
                state that satisfies it (exit 0), or none (exit 1)"
    )]
    pub reachable: Option<String>,

    /// Constants replaced with `--set`, in the order given.
    #[arg(
        long = "set",
        value_name = "Block.NAME=VALUE",
        value_parser = constant,
        help = "Replace a constant, e.g. --set Param.N=12 (repeatable;\n\
                VALUE is an integer, true or false)"
    )]
    pub set: Vec<Override>,

    /// Keep the search's own counterexamples.
    #[arg(
        long,
        help = "Keep the depth-first search's own counterexamples (default:\n\
                shortened by a breadth-first search to the same finding)"
    )]
    pub no_shorten: bool,

    /// Print every step of long counterexamples.
    #[arg(
        long,
        help = "Print every step of a long counterexample (default: the\n\
                first 10 and the last 20 of more than 40)"
    )]
    pub full_trace: bool,

    /// Print JSON.
    #[arg(
        long,
        help = "Print one JSON object instead of the text report (a\n\
                malformed model's errors too)"
    )]
    pub json: bool,

    /// The engine: compiled (default) or the interpreter.
    #[command(flatten)]
    pub engine: EngineOptions,

    /// A distributed search.
    #[command(flatten)]
    pub dist: crate::dist_args::DistArgs,

    /// Also write the report as an HTML page.
    #[arg(
        long,
        value_name = "FILE",
        help = "Also write the report as one self-contained HTML page:\n\
                verdict, statistics, counterexamples as charts and tables"
    )]
    pub html: Option<PathBuf>,
}

impl CheckOptions {
    /// The constants replaced with `--set` (a later one for the same constant wins).
    pub fn overrides(&self) -> Overrides {
        overrides(&self.set)
    }

    /// The options of the search, as both engines read them.
    pub fn search(&self) -> SearchOptions {
        SearchOptions {
            file: self.model.display().to_string(),
            bfs: self.bfs,
            best_first: self.best_first.clone(),
            order_by: self.order_by.clone(),
            swarm: self.swarm,
            keep_going: self.keep_going,
            max_states: self.max_states,
            max_depth: self.max_depth,
            time_limit: self.time_limit,
            memory_limit: self.memory_limit,
            no_deadlock: self.no_deadlock,
            threads: self.threads,
            compact: self.compact,
            hash_compaction: self.hash_compaction,
            bitstate: self.bitstate,
            bitstate_hashes: self.bitstate_hashes,
            por: self.por,
            symmetry: self.symmetry,
            ltl: self.ltl.clone(),
            weak_fairness: self.weak_fairness,
            strong_fairness: self.strong_fairness,
            reachable: self.reachable.clone(),
            no_shorten: self.no_shorten,
            full_trace: self.full_trace,
            json: self.json,
            html: self.html.clone(),
            stream: false,
            dist: self.dist.options(),
        }
    }
}

/// What the command line asks for, or the error to print.
#[derive(Debug)]
pub enum Parsed {
    /// Run this command.
    Run(Box<Command>),
    /// Print this text on stdout and exit with status 0 (`--help`, `--version`).
    Print(String),
    /// The arguments are wrong: this one-line message, which ends by naming the help to
    /// read (`bir --help` or `bir check --help`).
    Error(String),
}

/// Parses the arguments after the program name.
pub fn parse<I, T>(args: I) -> Parsed
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let args: Vec<OsString> = std::iter::once("bir".into())
        .chain(args.into_iter().map(Into::into))
        .collect();
    match Cli::try_parse_from(&args) {
        Ok(cli) => Parsed::Run(Box::new(cli.command)),
        Err(error) => match error.kind() {
            clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion => {
                Parsed::Print(error.render().to_string())
            }
            _ => {
                let text = error.render().to_string();
                let command = args[1..]
                    .iter()
                    .find(|arg| !arg.to_string_lossy().starts_with('-'));
                let help = match command.and_then(|c| c.to_str()) {
                    Some(c @ ("check" | "explore" | "graph" | "replay" | "simulate")) => {
                        format!("bir {c} --help")
                    }
                    _ => "bir --help".to_string(),
                };
                Parsed::Error(format!("{} (see `{help}`)", one_line(&text)))
            }
        },
    }
}

/// clap's error text as one line: its message and tips, without the usage and the pointer
/// to `--help` (the caller adds its own): `error: unexpected argument '--bsf' found\n\n
/// tip: a similar argument exists: '--bfs'\n\nUsage: ...` becomes `unexpected argument
/// '--bsf' found; tip: a similar argument exists: '--bfs'`.
fn one_line(text: &str) -> String {
    let text = text.trim();
    let text = text.strip_prefix("error: ").unwrap_or(text);
    let parts: Vec<String> = text
        .split("\n\n")
        .filter(|part| !part.starts_with("Usage:") && !part.starts_with("For more information"))
        .map(|part| part.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|part| !part.is_empty())
        .collect();
    if parts.is_empty() {
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    } else {
        parts.join("; ")
    }
}

/// A whole number; `_` may separate digits (`1_000_000`).
pub(crate) fn whole_number<T: std::str::FromStr>(text: &str) -> Result<T, String> {
    text.replace('_', "")
        .parse()
        .map_err(|_| format!("expected a whole number, found `{text}`"))
}

/// `bir graph --max-states`: 1 to a million.
fn graph_states(text: &str) -> Result<usize, String> {
    match whole_number(text)? {
        n @ 1..=1_000_000 => Ok(n),
        n => Err(format!("a graph has 1 to 1000000 states, not {n}")),
    }
}

/// `--max-states`: at least 1.
pub(crate) fn max_states(text: &str) -> Result<u64, String> {
    match whole_number(text)? {
        0 => Err("a search stores at least the initial state: N must be at least 1".to_string()),
        n => Ok(n),
    }
}

/// `--best-first` and `--order-by`: a built-in heuristic as [`Heuristic`] parses it, or
/// a name (of a heuristic of the model, checked when the search is planned).
fn heuristic(text: &str) -> Result<String, String> {
    text.parse::<Heuristic>().map(|_| text.trim().to_string())
}

/// `--swarm`: 1 search or more.
fn swarm(text: &str) -> Result<usize, String> {
    match whole_number::<usize>(text)? {
        0 => Err("a swarm runs 1 search or more, not 0".to_string()),
        n => Ok(n),
    }
}

/// `--threads`: 1 to [`MAX_THREADS`].
fn threads(text: &str) -> Result<usize, String> {
    match whole_number(text)? {
        n @ 1..=MAX_THREADS => Ok(n),
        n => Err(format!(
            "the search runs with 1 to {MAX_THREADS} threads, not {n}"
        )),
    }
}

/// `--memory-limit`: at least 1 MiB; returns bytes.
pub(crate) fn memory_limit(text: &str) -> Result<usize, String> {
    let mib: usize = whole_number(text)?;
    if mib == 0 {
        return Err("the limit is at least 1 MiB".to_string());
    }
    mib.checked_mul(1 << 20)
        .ok_or_else(|| format!("{mib} MiB is more bytes than this machine can address"))
}

/// `--bitstate`: a log2 size in [`BITSTATE_LOG2`].
fn bitstate_log2(text: &str) -> Result<u32, String> {
    let log2: u32 = whole_number(text)?;
    if BITSTATE_LOG2.contains(&log2) {
        Ok(log2)
    } else {
        Err(format!(
            "the bit array has 2^{} to 2^{} bits: LOG2 is {} to {}, not {log2}",
            BITSTATE_LOG2.start(),
            BITSTATE_LOG2.end(),
            BITSTATE_LOG2.start(),
            BITSTATE_LOG2.end()
        ))
    }
}

/// `--bitstate-hashes`: a count in [`BITSTATE_HASHES`].
fn bitstate_hashes(text: &str) -> Result<u32, String> {
    let k: u32 = whole_number(text)?;
    if BITSTATE_HASHES.contains(&k) {
        Ok(k)
    } else {
        Err(format!(
            "a state sets {} to {} bits, not {k}",
            BITSTATE_HASHES.start(),
            BITSTATE_HASHES.end()
        ))
    }
}

/// `--time-limit`: a positive, finite number of seconds that is not zero as a `Duration`.
pub(crate) fn seconds(text: &str) -> Result<Duration, String> {
    let error = || format!("expected a positive number of seconds, found `{text}`");
    let value: f64 = text.parse().map_err(|_| error())?;
    if value.is_nan() || value <= 0.0 {
        return Err(error());
    }
    match Duration::try_from_secs_f64(value) {
        Ok(duration) if !duration.is_zero() => Ok(duration),
        _ => Err(error()),
    }
}

/// `--set Block.NAME=VALUE`.
fn constant(text: &str) -> Result<Override, String> {
    Override::parse(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(args: &[&str]) -> CheckOptions {
        match parse(args) {
            Parsed::Run(command) => match *command {
                Command::Check(options) => *options,
                other => panic!("{other:?}"),
            },
            other => panic!("{other:?}"),
        }
    }

    fn error(args: &[&str]) -> String {
        match parse(args) {
            Parsed::Error(message) => message,
            other => panic!("{args:?}: {other:?}"),
        }
    }

    #[test]
    fn the_definition_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }

    #[test]
    fn every_option_is_read() {
        let options = check(&[
            "check",
            "--bfs",
            "m.bir",
            "--keep-going",
            "3",
            "--max-states=1_000",
            "--max-depth",
            "7",
            "--time-limit",
            "1.5",
            "--memory-limit",
            "2",
            "--no-deadlock",
            "--threads",
            "2",
            "--bitstate",
            "20",
            "--bitstate-hashes=5",
            "--set",
            "Param.N=4",
            "--set=Param.B=true",
            "--set",
            "Param.N=5",
            "--json",
        ]);
        assert_eq!(options.model, PathBuf::from("m.bir"));
        assert!(options.bfs && options.no_deadlock && options.json);
        assert!(!options.hash_compaction);
        assert_eq!(options.keep_going, Some(3));
        assert_eq!(options.max_states, Some(1000));
        assert_eq!(options.max_depth, Some(7));
        assert_eq!(options.time_limit, Some(Duration::from_millis(1500)));
        assert_eq!(options.memory_limit, Some(2 << 20));
        assert_eq!(options.threads, Some(2));
        assert_eq!((options.bitstate, options.bitstate_hashes), (Some(20), 5));
        let overrides = options.overrides();
        assert_eq!(overrides.get("Param", "N").map(|o| o.value), Some(5));
        assert_eq!(overrides.get("Param", "B").map(|o| o.is_bool), Some(true));
    }

    #[test]
    fn the_heuristic_searches_are_read() {
        let options = check(&["check", "m.bir", "--best-first", "threads=P,Q[1]"]);
        assert_eq!(options.best_first.as_deref(), Some("threads=P,Q[1]"));
        let options = check(&["check", "m.bir", "--order-by=Closest", "--swarm", "4"]);
        assert_eq!(options.order_by.as_deref(), Some("Closest"));
        assert_eq!(options.swarm, Some(4));
        assert_eq!(options.search().swarm, Some(4));
        assert!(error(&["check", "m.bir", "--best-first", "random=x"]).contains("seed"));
        assert!(error(&["check", "m.bir", "--swarm", "0"]).contains("not 0"));
        let both = error(&["check", "m.bir", "--best-first", "coverage", "--bfs"]);
        assert!(both.contains("cannot be used with"), "{both}");
    }

    #[test]
    fn defaults() {
        let options = check(&["check", "m.bir"]);
        assert!(!options.bfs && !options.json && !options.no_deadlock);
        assert_eq!(options.keep_going, None);
        assert_eq!(options.max_states, None);
        assert_eq!(options.threads, None);
        assert_eq!((options.bitstate, options.bitstate_hashes), (None, 3));
        assert!(options.overrides().is_empty());
    }

    #[test]
    fn the_help_names_the_limits_the_parser_enforces() {
        use clap::CommandFactory;
        let mut cli = Cli::command();
        let help = cli
            .find_subcommand_mut("check")
            .expect("check")
            .render_help()
            .to_string();
        for limit in [
            format!("1 to {MAX_THREADS}"),
            format!("LOG2 {} to {}", BITSTATE_LOG2.start(), BITSTATE_LOG2.end()),
            format!(
                "{} to {} [default: 3]",
                BITSTATE_HASHES.start(),
                BITSTATE_HASHES.end()
            ),
            format!("at most {} MiB", MAX_MODEL_BYTES >> 20),
        ] {
            assert!(help.contains(&limit), "{limit}:\n{help}");
        }
    }

    #[test]
    fn help_and_version_are_printed() {
        for args in [
            &["--help"][..],
            &["-h"],
            &["help"],
            &["check", "m.bir", "-h"],
        ] {
            match parse(args) {
                Parsed::Print(text) => assert!(text.contains("Usage: bir"), "{text}"),
                other => panic!("{args:?}: {other:?}"),
            }
        }
        for args in [&["-V"][..], &["--version"]] {
            match parse(args) {
                Parsed::Print(text) => {
                    assert_eq!(text, format!("bir {}\n", env!("CARGO_PKG_VERSION")))
                }
                other => panic!("{args:?}: {other:?}"),
            }
        }
    }

    #[test]
    fn numbers_out_of_range_are_errors() {
        for (args, expected) in [
            (&["--threads", "0"][..], "1 to 256 threads, not 0"),
            (&["--threads", "257"], "1 to 256 threads, not 257"),
            (
                &["--threads", "18446744073709551615"],
                "not 18446744073709551615",
            ),
            (&["--threads", "18446744073709551616"], "whole number"),
            (&["--bitstate", "9"], "LOG2 is 10 to 40, not 9"),
            (&["--bitstate", "41"], "LOG2 is 10 to 40, not 41"),
            (
                &["--bitstate", "20", "--bitstate-hashes", "0"],
                "1 to 8 bits, not 0",
            ),
            (
                &["--bitstate", "20", "--bitstate-hashes", "9"],
                "1 to 8 bits, not 9",
            ),
            (&["--memory-limit", "0"], "at least 1 MiB"),
            (
                &["--memory-limit", "18446744073709551615"],
                "more bytes than",
            ),
            (&["--max-states", "0"], "at least 1"),
            (&["--max-states", "-1"], "whole number"),
            (&["--max-depth", "5000000000"], "whole number"),
            (&["--time-limit", "0"], "positive number of seconds"),
            (&["--time-limit", "-1"], "positive number of seconds"),
            (&["--time-limit", "inf"], "positive number of seconds"),
            (&["--time-limit", "NaN"], "positive number of seconds"),
            (&["--time-limit", "1e-300"], "positive number of seconds"),
            (&["--time-limit", "1e300"], "positive number of seconds"),
        ] {
            let args: Vec<&str> = ["check", "m.bir"].iter().chain(args).copied().collect();
            let message = error(&args);
            assert!(message.contains(expected), "{args:?}: {message}");
            assert!(!message.contains('\n'), "{message}");
        }
        // The bounds themselves are accepted.
        for args in [
            &["--threads", "1"][..],
            &["--threads", "256"],
            &["--bitstate", "10", "--bitstate-hashes", "1"],
            &["--bitstate", "40", "--bitstate-hashes", "8"],
            &["--memory-limit", "1"],
            &["--max-states", "1"],
            &["--max-depth", "0"],
            &["--keep-going", "0"],
            &["--time-limit", "0.001"],
        ] {
            let args: Vec<&str> = ["check", "m.bir"].iter().chain(args).copied().collect();
            check(&args);
        }
    }

    #[test]
    fn mistakes_are_one_line_messages() {
        for (args, expected) in [
            (&[][..], "requires a subcommand"),
            (&["run"][..], "unrecognized subcommand 'run'"),
            (
                &["check"][..],
                "required arguments were not provided: <MODEL.bir>",
            ),
            (
                &["check", "a.bir", "b.bir"][..],
                "unexpected argument 'b.bir'",
            ),
            (
                &["check", "a.bir", "--frobnicate"][..],
                "unexpected argument '--frobnicate'",
            ),
            (
                &["check", "a.bir", "--max-state", "3"][..],
                "tip: a similar argument exists: '--max-states'",
            ),
            (
                &["chek", "a.bir"][..],
                "tip: a similar subcommand exists: 'check'",
            ),
            (
                &["check", "a.bir", "--max-states"][..],
                "a value is required for '--max-states <N>'",
            ),
            (
                &["check", "a.bir", "--set", "N=3"][..],
                "expected `Block.NAME=VALUE`, found `N=3`",
            ),
            (
                &["check", "a.bir", "--json=yes"][..],
                "unexpected value 'yes' for '--json'",
            ),
            (
                &["check", "a.bir", "--bitstate-hashes", "2"][..],
                "required arguments were not provided: --bitstate <LOG2>",
            ),
            (
                &["check", "a.bir", "--bitstate", "20", "--hash-compaction"][..],
                "cannot be used with",
            ),
        ] {
            let message = error(args);
            assert!(message.contains(expected), "{args:?}: {message}");
            assert!(!message.contains('\n'), "{message}");
            assert!(!message.contains("Usage"), "{message}");
            let hint = if args.first() == Some(&"check") {
                " (see `bir check --help`)"
            } else {
                " (see `bir --help`)"
            };
            assert!(message.ends_with(hint), "{message}");
        }
    }
}
