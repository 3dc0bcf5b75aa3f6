//! `bir`, the command line tool: checks a BIR model file with the reference interpreter
//! (`bir-interp`) and the runtime's search, and prints the report exactly as the runtime's
//! `Display` prints it, or as one JSON object.
//!
//! ```text
//! bir check MODEL.bir [--bfs] [--keep-going N] [--max-states N] [--max-depth N]
//!                     [--time-limit SECONDS] [--memory-limit MB] [--no-deadlock]
//!                     [--set Block.NAME=VALUE]... [--json]
//! bir --help
//! ```
//!
//! A malformed model is reported as rustc reports compile errors, every error with its
//! `path:line:column`, the source line and carets under the offending tokens, then a count.
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
//! | `strategy` | string | `depth-first` or `breadth-first` |
//! | `verdict` | string | `verified`, `deadlock`, `assertion`, `invariant`, `range`, `index`, `division`, `start` or `incomplete` (the kind of the first finding when something was found) |
//! | `complete` | bool | every reachable state was explored (false when the search stopped at a finding or a limit) |
//! | `incomplete_reason` | string or null | `depth_limit`, `state_limit`, `time_limit`, `memory_limit`, `hash_compaction`, `bitstate`, or null |
//! | `states`, `transitions`, `errors`, `deadlocks` | integer | the counts of the search, as the text report's last line |
//! | `max_depth` | integer | the largest depth of a stored state |
//! | `seconds` | number | the time the search took |
//! | `counterexamples` | array | the kept counterexamples, the first finding first (one unless `--keep-going N`) |
//!
//! Each counterexample has `kind` (as `verdict`, never `verified`/`incomplete`), `message`,
//! `initial_state` and `final_state` (objects mapping each variable — `x`, `fork[3]`,
//! `Philosopher[1]` for an instance's status, `P[2].level` for a local — to its value),
//! `steps` and `replay` (the string `Checker::replay` accepts). Each step has `transition`
//! (its id), `thread` (the instance), `from`, `to` (a location or `return`), `text` (the
//! transformation's BIR text), `line` (0 if unknown), `fails` (true for a failing last
//! step, which changes nothing) and `changes`, an array of `{variable, old, new}` for every
//! value the step changed, the instance's own status included. Values are in the model's
//! terms: booleans, integers, `"Enum.Variant"` strings, and for statuses the location's
//! name, `"ended"` or `"not started"`.

mod args;
mod diagnostics;
mod json;

use std::ffi::OsString;
use std::process::ExitCode;

use bir_interp::Interpreter;
use std::io::Write as _;

use bir_runtime::{Checker, Report, Verdict};

use crate::args::{CheckOptions, Command};

/// Exit status: the model is malformed or the arguments are wrong.
const MALFORMED: u8 = 2;

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
        Ok(Command::Help) => {
            print!("{}", args::USAGE);
            0
        }
        Ok(Command::Version) => {
            println!("bir {}", env!("CARGO_PKG_VERSION"));
            0
        }
        Ok(Command::Check(options)) => check(&options),
        Err(message) => {
            eprintln!("bir: error: {message} (see `bir --help`)");
            MALFORMED
        }
    }
}

/// `bir check`: read, check and search the model, print the report.
fn check(options: &CheckOptions) -> u8 {
    let path = options.model.display().to_string();
    let source = match std::fs::read_to_string(&options.model) {
        Ok(source) => source,
        Err(error) => {
            eprintln!("bir: error: cannot read `{path}`: {error}");
            return MALFORMED;
        }
    };
    let model = match Interpreter::from_source_with(&source, &options.overrides) {
        Ok(model) => model,
        Err(errors) => {
            eprint!("{}", diagnostics::render(&errors, &path, &source));
            return MALFORMED;
        }
    };
    let report = checker(model, options).run();
    let text = if options.json {
        match serde_json::to_string_pretty(&json::JsonReport::new(&report, &path)) {
            Ok(text) => text,
            Err(error) => {
                eprintln!("bir: error: cannot write the JSON report: {error}");
                return MALFORMED;
            }
        }
    } else {
        report.to_string()
    };
    // A reader that stops early (`bir check m.bir | head`) is not an error of the check:
    // the verdict's exit status stands.
    let _ = writeln!(std::io::stdout().lock(), "{text}");
    exit_status(&report)
}

/// The search the options describe.
fn checker(model: Interpreter, options: &CheckOptions) -> Checker<Interpreter> {
    let mut checker = Checker::new(model).deadlock_detection(!options.no_deadlock);
    if options.bfs {
        checker = checker.bfs();
    }
    if let Some(n) = options.keep_going {
        checker = checker.keep_going(n);
    }
    if let Some(n) = options.max_states {
        checker = checker.max_states(n);
    }
    if let Some(n) = options.max_depth {
        checker = checker.max_depth(n);
    }
    if let Some(limit) = options.time_limit {
        checker = checker.time_limit(limit);
    }
    if let Some(bytes) = options.memory_limit {
        checker = checker.memory_limit(bytes);
    }
    if let Some(threads) = options.threads {
        checker = checker.threads(threads);
    }
    if options.hash_compaction {
        checker = checker.hash_compaction();
    }
    if let Some(log2_bits) = options.bitstate {
        checker = checker.bitstate(log2_bits, 3);
    }
    checker
}

/// 0 verified, 1 something found, 3 incomplete.
fn exit_status(report: &Report) -> u8 {
    match report.verdict() {
        Verdict::Verified => 0,
        Verdict::Found(_) => 1,
        _ => 3,
    }
}
