//! `bir`, the command line tool: checks a BIR model file with the runtime's search, and
//! prints the report exactly as the runtime's `Display` prints it, or as one JSON object
//! (`bir check --html FILE` also writes it as a self-contained page).
//!
//! `bir check` has two engines, which read the same options and print the same reports
//! (both go through `bir-driver`; a test runs every CLI test under both and compares):
//!
//! * by default, as SPIN does with `pan.c`, a checker generated from the model (after
//!   `--set`) by the code generator `bir!` uses, built once in release mode with cargo into
//!   a cached binary and run (`cache.rs`); the first check of a model says on stderr that it
//!   is compiling, a second one runs the cached binary at once;
//! * with `--interpret`, or where the compiled engine is unavailable (no cargo, a failed
//!   build; a note on stderr says why), the reference interpreter (`bir-interp`).
//!
//! `bir replay MODEL.bir STRING` re-executes a replay string from a report (`replay.rs`).
//! `bir explore` serves the model to a browser (`explore/`; the page's checks run on the
//! same two engines, the compiled one in the driver's served mode), `bir simulate --guided`
//! walks it in the terminal (`guided.rs`), both over one guided-simulation session
//! (`session.rs`); `bir graph` writes its state graph (`graph.rs`), `bir murphi` the model in
//! Murphi for Rumur (`bir_codegen::export::murphi`), `bir promela` in Promela for SPIN
//! (`bir_codegen::export::promela`); paths are drawn as
//! message-sequence charts by `bir_driver::msc`.
//!
//! The command line is declared once, with `clap` (`args.rs`), and `bir --help` and
//! `bir check --help` print (a test keeps this copy and the guide's, `docs/guide/cli.md`,
//! equal to them):
//!
//! ```text
//! $ bir --help
//! Check a concurrent system written in BIR, exhaustively
//!
//! Usage: bir <COMMAND>
//!
//! Commands:
//!   check     Explore every reachable state of a model; report errors and deadlocks
//!   explore   Walk a model in the browser: states, steps, charts, checks, the state graph
//!   graph     Write the state graph of a small model as DOT (or JSON)
//!   murphi    Write the model in Murphi, for a cross-check of its counts with Rumur
//!   promela   Write the model and its ltl properties in Promela, for a cross-check with SPIN
//!   simulate  Run a model step by step: random walks, or choose each step (--guided)
//!   replay    Re-execute a replay string from a report; print its counterexample
//!   help      Print this message or the help of the given subcommand(s)
//!
//! Options:
//!   -h, --help     Print help
//!   -V, --version  Print version
//!
//! Exit status:
//!   0  verified: every reachable state explored, no error and no deadlock (with --ltl:
//!      the property holds; with --reachable: a state satisfying it was found)
//!   1  an error (assertion, invariant, range, index, division, start) or a deadlock found
//!      (with --ltl: a run violating the property; with --reachable: no such state)
//!   2  the model is malformed or cannot be read, or the arguments are wrong
//!   3  incomplete: nothing found, but a limit stopped the search
//!
//! $ bir check --help
//! Explore every reachable state of a model; report errors and deadlocks
//!
//! Usage: bir check [OPTIONS] <MODEL.bir>
//!
//! Arguments:
//!   <MODEL.bir>  The model file: BIR text of at most 16 MiB
//!
//! Options:
//!       --bfs                     Breadth-first search: shortest counterexamples
//!                                 (default: depth-first, in Bogor's order)
//!       --best-first <H>          Best-first search by the heuristic H, lowest first:
//!                                 coverage, switching, threads=T1,T2[1], blocked,
//!                                 random[=SEED] or a heuristic the model declares
//!                                 (exhaustive when it completes)
//!       --order-by <H>            Depth-first search, each state's successors in the
//!                                 order of the heuristic H (as for --best-first)
//!       --swarm <K>               Run K diversified searches at once (on --threads, else
//!                                 one per core; spread over --workers/--processes), each
//!                                 over its own bit array; stops at the first finding,
//!                                 never "verified"
//!       --keep-going <N>          Count every finding, keeping the counterexamples of
//!                                 the first N (default: stop at the first finding)
//!       --max-states <N>          Store at most N states (N >= 1)
//!       --max-depth <N>           Do not expand states N steps from the initial state
//!       --time-limit <SECONDS>    Stop after this long (decimals allowed)
//!       --memory-limit <MB>       Stop before the search uses more than MB MiB (MB >= 1;
//!                                 default: three quarters of the available memory)
//!       --no-deadlock             Do not report deadlocks
//!       --threads <N>             Search with N threads, 1 to 256 (same counts; the
//!                                 verdict and trace of a finding come from a sequential
//!                                 depth-first search)
//!       --compact                 Store states exactly in a few bytes each (wider ones than
//!                                 a word as trees of shared parts; one thread, depth-first
//!                                 or breadth-first, and LTL without fairness)
//!       --hash-compaction         Store 64-bit fingerprints of states wider than a word
//!                                 (never "verified": gives the chance a state was missed)
//!       --bitstate <LOG2>         Store each state as K bits of a 2^LOG2-bit array,
//!                                 LOG2 10 to 40 (supertrace; never "verified" either)
//!       --bitstate-hashes <K>     The K of --bitstate, 1 to 8 [default: 3]
//!       --por                     Partial-order reduction: where an instance stands at a safe
//!                                 location, expand it alone (same verdicts, fewer states)
//!       --symmetry                Symmetry reduction: store one state per orbit of the instance
//!                                 permutations the model cannot tell apart (same verdicts)
//!       --ltl <NAME>              Check the LTL property NAME (an `ltl NAME: formula;` of the
//!                                 model): holds, or a lasso that violates it
//!       --weak-fairness           With --ltl: only runs in which every instance enabled
//!                                 continuously from some point on steps infinitely often
//!       --strong-fairness         With --ltl: only runs in which every instance enabled
//!                                 infinitely often steps infinitely often
//!       --reachable <NAME>        Check `reachable NAME: predicate;`: a shortest path to a
//!                                 state that satisfies it (exit 0), or none (exit 1)
//!       --set <Block.NAME=VALUE>  Replace a constant, e.g. --set Param.N=12 (repeatable;
//!                                 VALUE is an integer, true or false)
//!       --no-shorten              Keep the depth-first search's own counterexamples (default:
//!                                 shortened by a breadth-first search to the same finding)
//!       --full-trace              Print every step of a long counterexample (default: the
//!                                 first 10 and the last 20 of more than 40)
//!       --json                    Print one JSON object instead of the text report (a
//!                                 malformed model's errors too)
//!       --interpret               Check with the interpreter instead of a checker compiled
//!                                 from the model (no compiler needed; slower)
//!       --cache <DIR>             Keep compiled checkers in DIR (default: $XDG_CACHE_HOME/bir
//!                                 or ~/.cache/bir)
//!       --workers <W>             Distributed breadth-first search (bir-dist, timely dataflow)
//!                                 with W worker threads in this process (with --swarm: the
//!                                 swarm's searches spread over the workers)
//!       --processes <N>           Distributed search over N processes: run the same command
//!                                 N times, each with its own --process
//!       --process <I>             This process's index among --processes, 0 to N-1
//!       --hostfile <FILE>         One host:port line per process, process 0 first (default:
//!                                 all on this machine, ports 2101 and up)
//!       --html <FILE>             Also write the report as one self-contained HTML page:
//!                                 verdict, statistics, counterexamples as charts and tables
//!   -h, --help                    Print help
//!
//! Exit status:
//!   0  verified: every reachable state explored, no error and no deadlock (with --ltl:
//!      the property holds; with --reachable: a state satisfying it was found)
//!   1  an error (assertion, invariant, range, index, division, start) or a deadlock found
//!      (with --ltl: a run violating the property; with --reachable: no such state)
//!   2  the model is malformed or cannot be read, or the arguments are wrong
//!   3  incomplete: nothing found, but a limit stopped the search
//! ```
//!
//! Every number is checked against its range when the arguments are parsed (`--threads 0`
//! and `--bitstate 41` are errors, status 2, never a panic or a value silently clamped).
//! `bir check` reads at most 16 MiB of model text: a larger file is refused by its size,
//! and a stream that does not end (`/dev/zero`) after 16 MiB and one byte, with status 2
//! and one line on stderr.
//!
//! A malformed model is reported as rustc reports compile errors, every error with its
//! `path:line:column`, the source line and carets under the offending tokens, then a count.
//! A model that compiles gets the warnings `bir!` gives it (a fault that its constants make
//! certain: `a[2]` on `boolean[2] a`, `x / 0`), each on stderr as `bir: warning: ...` with its
//! place, the same way; the model is checked all the same, and the search reports such a
//! fault where it reaches it.
//!
//! # Exit status
//!
//! | status | meaning |
//! | --- | --- |
//! | 0 | verified: every reachable state explored, no error and (unless `--no-deadlock`) no deadlock |
//! | 1 | an error or a deadlock was found |
//! | 2 | the model is malformed or cannot be read, or the arguments are wrong (one line on stderr) |
//! | 3 | incomplete: nothing found, but a limit stopped the search |
//!
//! # JSON output (`--json`)
//!
//! One object on stdout (nothing else is printed there; progress lines go to stderr):
//!
//! | field | type | meaning |
//! | --- | --- | --- |
//! | `model` | string | the system's name |
//! | `file` | string | the model file as given |
//! | `strategy` | string | `depth-first`, `breadth-first`, `parallel`, `nested-depth-first`, `fair-cycles`, `best-first`, `ordered-depth-first` or `swarm` |
//! | `plan` | object | what ran: `strategy`, `threads`, `storage` (`exact`, `compact`, `hash-compaction`, `bitstate`), `bitstate_log2_bits`, `bitstate_hashes`, `layout`, `can_verify`, `property`, `fairness` (`none`, `weak`, `strong`), `por` (bool), `symmetry` (the group in words, or null), `heuristic` (what ordered a best-first or ordered depth-first search, in words, or the heuristic given to a swarm; null otherwise), `swarm` (the searches of a swarm, or null), `notes` |
//! | `verdict` | string | `verified` (with `--ltl`: the property holds), `deadlock`, `assertion`, `invariant`, `range`, `index`, `division`, `start`, `property` (a lasso violates the LTL property), `reached`, `unreachable` or `incomplete` (the kind of the first finding when something was found) |
//! | `complete` | bool | every reachable state was explored (false when the search stopped at a finding or a limit) |
//! | `incomplete_reason` | string or null | `depth_limit`, `state_limit`, `time_limit`, `memory_limit`, `hash_compaction`, `bitstate`, or null |
//! | `states`, `transitions`, `errors`, `deadlocks` | integer | the counts of the search, as the text report's last line |
//! | `max_depth` | integer | the largest depth of a stored state |
//! | `seconds` | number | the time the search took |
//! | `seen_set_bytes` | integer | the seen set's memory |
//! | `peak_memory_bytes` | integer or null | the process's peak resident memory, where the system says |
//! | `omission_probability` | number or null | with lossy storage, the estimated probability that a state was missed |
//! | `notes` | array | notes on how the run went |
//! | `counterexamples` | array | the kept counterexamples, the first finding first (one unless `--keep-going N`) |
//! | `coverage` | object or null | after a complete search of the model (not `--por`, `--symmetry`, `--ltl`, `--reachable`): `full` (bool), `transformations`, `fired_transformations`, `never_fired` (objects `{thread, from, text, line}`), `never_stepped` (instances that never took a step), `never_reached` (`Thread@location`) |
//! | `swarm_searches` | array | with `--swarm`, each search as it ended: `search` (its order, heuristic and seed in words), `states`, `transitions`, `found` (the kind of its first finding, or null), `ran` (false when a finding stopped the swarm before it started); empty otherwise |
//!
//! Each counterexample has `kind` (as `verdict`, never `verified`/`incomplete`; a
//! reachability check's witness is `witness`), `message`, `initial_state` and `final_state`
//! (objects mapping each variable — `x`, `fork[3]`, `Philosopher[1]` for an instance's
//! status, `P[2].level` for a local — to its value), `steps`, `cycle_start` (for a lasso,
//! the index in `steps` where its cycle starts, which returns to `final_state`; null
//! otherwise), `shortened_from` (when a breadth-first search replaced the depth-first
//! search's trace by this shorter one, the original's length; null otherwise) and `replay`
//! (the string `Checker::replay` accepts). A model with channels, locks or functions also has
//! `initial_parts` and `final_parts`: its channels, locks and call stacks in those states,
//! read from the hidden slots the states list, each an object with `name`, `kind`
//! (`channel`, `lock`, `stack`), `value` (as the text report prints it) and what it holds
//! (`messages` and `capacity`; `owner`, `holds`, `waiting`, `notified`; `frames`, the running
//! one first, each `{function, frame, location, locals}`). Every step is listed, however
//! long. Each step has `transition` (its id), `thread` (the instance), `from`, `to` (a
//! location or `return`), `text` (the transformation's BIR text), `line` (0 if unknown),
//! `fails` (true for a failing last step, which changes nothing), `stutter` (true for a
//! lasso's step that repeats a final state) and `changes`, an array of `{variable, old,
//! new}` for every value the step changed (slot by slot, hidden slots included), the
//! instance's own status included. Values are in the model's
//! terms: booleans, integers, `"Enum.Variant"` strings, and for statuses the location's
//! name, `"ended"` or `"not started"`.

mod args;
mod cache;
mod dist_args;
mod errors;
mod explore;
mod fnv;
mod graph;
mod guided;
mod json;
mod replay;
mod session;

use std::ffi::OsString;
use std::fs::File;
use std::io::{Read, Write as _};
use std::path::Path;
use std::process::ExitCode;

use bir_codegen::{ir, Overrides};
use bir_driver::{exit_status, INCOMPLETE, MALFORMED};
use bir_interp::Interpreter;
use bir_runtime::Checker;

use crate::args::{
    CheckOptions, Command, GraphOptions, MurphiOptions, Parsed, PromelaOptions, SimulateOptions,
};
use crate::graph::StateGraph;
use crate::session::Session;

/// The stack of the thread that does the work: the parser recurses on nested expressions,
/// and a deeply nested model must be an error, not a stack overflow.
const STACK_BYTES: usize = 256 << 20;

fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    let worker = std::thread::Builder::new()
        .stack_size(STACK_BYTES)
        .spawn(move || run(&args));
    match worker.map(|handle| handle.join()) {
        Ok(Ok(code)) => ExitCode::from(code),
        _ => ExitCode::from(101),
    }
}

/// Runs the command line; returns the exit status.
fn run(args: &[OsString]) -> u8 {
    match args::parse(args) {
        Parsed::Run(command) => match *command {
            Command::Check(options) => check(&options),
            Command::Explore(options) => explore::run(&options),
            Command::Graph(options) => graph(&options),
            Command::Murphi(options) => murphi(&options),
            Command::Promela(options) => promela(&options),
            Command::Replay(options) => replay::replay(&options),
            Command::Simulate(options) => simulate(&options),
        },
        Parsed::Print(text) => {
            // A reader that stops early (`bir --help | head`) is no error.
            let _ = write!(std::io::stdout().lock(), "{text}");
            0
        }
        Parsed::Error(message) => {
            eprintln!("bir: error: {message}");
            MALFORMED
        }
    }
}

/// A model read and checked: its text and its checked form.
pub struct Loaded {
    /// The model text.
    pub source: String,
    /// The checked system, constants replaced.
    pub system: ir::System,
}

/// Reads the model at `path` and checks it with `overrides`; on failure prints the errors
/// (also as JSON with `json`) and returns the exit status. Prints the warnings of a model
/// that compiles on stderr.
pub fn load(path: &Path, overrides: &Overrides, json: bool) -> Result<Loaded, u8> {
    let shown = path.display().to_string();
    let source = match read_model(path) {
        Ok(source) => source,
        Err(error) => {
            errors::one_line(&error.message(&shown), &shown, json);
            return Err(MALFORMED);
        }
    };
    match bir_codegen::drive::source::front_end(&source, overrides) {
        Ok(system) => {
            let warnings = bir_codegen::drive::source::warnings(&system);
            errors::model_warnings(&warnings, &shown, &source);
            Ok(Loaded { source, system })
        }
        Err(found) => {
            errors::model_errors(&found, &shown, &source, json);
            Err(MALFORMED)
        }
    }
}

/// [`load`] for the commands that walk the model step by step: its interpreter.
pub fn load_interpreter(path: &Path, overrides: &Overrides) -> Result<Interpreter, u8> {
    load(path, overrides, false).map(|loaded| Interpreter::new(&loaded.system))
}

/// `bir check`: read and check the model, search it with the compiled engine (or the
/// interpreter), print the report.
fn check(options: &CheckOptions) -> u8 {
    let overrides = options.overrides();
    let loaded = match load(&options.model, &overrides, options.json) {
        Ok(loaded) => loaded,
        Err(status) => return status,
    };
    let search = options.search();
    if let Some(problem) = options.dist.problem() {
        errors::one_line(&problem, &search.file, options.json);
        return MALFORMED;
    }
    // Options that cannot run together are refused before anything runs or compiles: the
    // plan depends on the model's description, which both engines share.
    let checker = bir_driver::configure(Interpreter::new(&loaded.system), &search);
    if let Err(error) = checker.plan() {
        errors::one_line(&error.to_string(), &search.file, options.json);
        return MALFORMED;
    }
    if !options.engine.interpret {
        let compiled = cache::check(
            options.engine.cache.as_deref(),
            &loaded.source,
            &overrides,
            &loaded.system,
            &search,
        );
        match compiled {
            Ok(status) => return status,
            Err(cache::Unavailable(why)) => {
                eprintln!("bir: note: {why}; checking with the interpreter");
            }
        }
    }
    bir_driver::run_checker(checker, &search)
}

/// `bir graph`: the state graph as DOT or JSON, or a refusal past the limit (status 3).
fn graph(options: &GraphOptions) -> u8 {
    let model = match load_interpreter(&options.input.model, &options.input.overrides()) {
        Ok(model) => model,
        Err(status) => return status,
    };
    let graph = match StateGraph::build(&model, options.max_states) {
        Ok(graph) => graph,
        Err(too_large) => {
            eprintln!("bir: error: {too_large}");
            return INCOMPLETE;
        }
    };
    let text = if options.json {
        match serde_json::to_string_pretty(&graph) {
            Ok(text) => text + "\n",
            Err(error) => {
                eprintln!("bir: error: cannot write the JSON graph: {error}");
                return MALFORMED;
            }
        }
    } else {
        graph.dot()
    };
    let _ = write!(std::io::stdout().lock(), "{text}");
    0
}

/// `bir murphi`: the model in Murphi, for Rumur.
fn murphi(options: &MurphiOptions) -> u8 {
    match load(&options.input.model, &options.input.overrides(), false) {
        Ok(loaded) => {
            let errors = if options.past_errors {
                bir_codegen::export::murphi::Errors::CountPast
            } else {
                bir_codegen::export::murphi::Errors::Stop
            };
            match bir_codegen::export::murphi::murphi(&loaded.system, errors) {
                Ok(text) => {
                    let _ = write!(std::io::stdout().lock(), "{text}");
                    0
                }
                Err(bir_codegen::export::Unsupported(why)) => {
                    eprintln!("bir: error: cannot write the model in Murphi: {why}");
                    MALFORMED
                }
            }
        }
        Err(status) => status,
    }
}

/// `bir promela`: the model and its ltl properties in Promela, for SPIN; status 2 for a
/// model the encoding cannot keep (an assume that reads what its step wrote before it).
fn promela(options: &PromelaOptions) -> u8 {
    let loaded = match load(&options.input.model, &options.input.overrides(), false) {
        Ok(loaded) => loaded,
        Err(status) => return status,
    };
    match bir_codegen::export::promela::promela(&loaded.system) {
        Ok(text) => {
            let _ = write!(std::io::stdout().lock(), "{text}");
            0
        }
        Err(bir_codegen::export::promela::Unsupported(why)) => {
            eprintln!("bir: error: cannot write the model in Promela: {why}");
            MALFORMED
        }
    }
}

/// `bir simulate`: random walks (the runtime's simulation, reported as `bir check`
/// reports), or with `--guided` a walk chosen step by step on stdin.
fn simulate(options: &SimulateOptions) -> u8 {
    let model = match load_interpreter(&options.input.model, &options.input.overrides()) {
        Ok(model) => model,
        Err(status) => return status,
    };
    if options.guided {
        let mut session = Session::new(Checker::new(model).progress(false));
        let stdin = std::io::stdin();
        return match guided::run(&mut session, options.seed, stdin.lock(), std::io::stdout()) {
            Ok(()) => 0,
            Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => 0,
            Err(error) => {
                eprintln!("bir: error: {error}");
                MALFORMED
            }
        };
    }
    let report = Checker::new(model).simulate(options.walks, options.steps, options.seed);
    let _ = writeln!(std::io::stdout().lock(), "{report}");
    exit_status(&report)
}

/// Why a model file was not read.
#[derive(Debug)]
enum ReadError {
    /// Opening or reading failed.
    Io(std::io::Error),
    /// More than this many bytes.
    TooLarge(u64),
    /// Not UTF-8: the first bad byte's offset.
    NotUtf8(usize),
}

impl ReadError {
    /// The one-line message for the file `path`.
    fn message(&self, path: &str) -> String {
        match self {
            ReadError::Io(error) => format!("cannot read `{path}`: {error}"),
            ReadError::TooLarge(cap) => format!(
                "`{path}` is larger than {} MiB, the most model text `bir check` reads",
                cap >> 20
            ),
            ReadError::NotUtf8(offset) => {
                format!("`{path}` is not UTF-8 text (invalid byte at offset {offset})")
            }
        }
    }
}

/// The text of the model file, at most [`args::MAX_MODEL_BYTES`]: a larger file is
/// refused by its size, and one that does not say its size (a pipe, `/dev/zero`) after
/// reading one byte past the cap.
fn read_model(path: &Path) -> Result<String, ReadError> {
    let file = File::open(path).map_err(ReadError::Io)?;
    let cap = args::MAX_MODEL_BYTES;
    if let Ok(metadata) = file.metadata() {
        if metadata.is_file() && metadata.len() > cap {
            return Err(ReadError::TooLarge(cap));
        }
    }
    read_capped(file, cap)
}

/// At most `cap` bytes of UTF-8 text from `reader`; more is an error.
fn read_capped(reader: impl Read, cap: u64) -> Result<String, ReadError> {
    let mut bytes = Vec::new();
    reader
        .take(cap.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(ReadError::Io)?;
    if bytes.len() as u64 > cap {
        return Err(ReadError::TooLarge(cap));
    }
    String::from_utf8(bytes).map_err(|e| ReadError::NotUtf8(e.utf8_error().valid_up_to()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_model_text_is_read_up_to_the_cap_and_no_further() {
        let text = "system S {}";
        let cap = text.len() as u64;
        assert_eq!(read_capped(text.as_bytes(), cap).unwrap(), text);
        let longer = format!("{text} ");
        assert!(matches!(
            read_capped(longer.as_bytes(), cap),
            Err(ReadError::TooLarge(c)) if c == cap
        ));
        // An endless reader is refused after cap + 1 bytes.
        let mut endless = std::io::repeat(b' ');
        assert!(matches!(
            read_capped(&mut endless, 1 << 20),
            Err(ReadError::TooLarge(_))
        ));
        assert!(matches!(
            read_capped(&b"ok \xff"[..], 16),
            Err(ReadError::NotUtf8(3))
        ));
    }

    #[test]
    fn read_errors_are_one_line_and_name_the_file() {
        for error in [
            ReadError::TooLarge(16 << 20),
            ReadError::NotUtf8(3),
            ReadError::Io(std::io::Error::from(std::io::ErrorKind::NotFound)),
        ] {
            let message = error.message("m.bir");
            assert!(message.contains("`m.bir`"), "{message}");
            assert!(!message.contains('\n'), "{message}");
        }
        assert_eq!(
            ReadError::TooLarge(16 << 20).message("m.bir"),
            "`m.bir` is larger than 16 MiB, the most model text `bir check` reads"
        );
    }
}
