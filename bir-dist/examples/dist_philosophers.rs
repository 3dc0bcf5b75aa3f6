//! A reference model checked by the distributed breadth-first search: the dining
//! philosophers with N = 10 by default, or another model with `--model`.
//!
//! ```text
//! cargo run --release -p bir-dist --example dist_philosophers -- -w 2
//! # two processes on this machine (each in its own terminal):
//! cargo run --release -p bir-dist --example dist_philosophers -- -n 2 -p 0
//! cargo run --release -p bir-dist --example dist_philosophers -- -n 2 -p 1
//! # several machines: the same hostfile (one host:port per line, process 0 first) on each
//! dist_philosophers --model peterson5 -n 4 -p $INDEX -h hosts.txt
//! ```
//!
//! Options before timely's: `--model NAME` (see `MODELS`), `--max-states N`,
//! `--time-limit SECONDS`, `--keep-going N`, `--no-deadlock`. The exit status is 0 for
//! verified, 1 for a finding, 2 for an incomplete search (a limit, or a worker that failed).

use std::process::ExitCode;
use std::time::Duration;

use bir::{Checker, Model, Verdict};

include!("../../models/families.rs");

dining_philosophers!(Phils5, 5);
dining_philosophers!(Phils10, 10);
dining_philosophers!(Phils12, 12);
dining_philosophers_fixed!(PhilsFixed5, 5);
dining_philosophers_fixed!(PhilsFixed10, 10);
peterson_filter!(Peterson3, 3);
peterson_filter!(Peterson4, 4);
peterson_filter!(Peterson5, 5);
peterson_filter!(Peterson6, 6);

mod fixed {
    bir::bir!(file = "../../models/two_dining_philosophers.bir");
    bir::bir!(file = "../../models/bounded_buffer.bir");
    bir::bir!(file = "../../models/readers_writers.bir");
    bir::bir!(file = "../../models/sum_to_n.bir");
}

/// The models `--model` names.
const MODELS: &str = "phils5 phils10 phils12 phils_fixed5 phils_fixed10 peterson3 peterson4 \
                      peterson5 peterson6 two_dining_philosophers bounded_buffer \
                      readers_writers sum_to_n";

/// The checker's options, read from the arguments before timely's.
struct Options {
    model: String,
    max_states: Option<u64>,
    time_limit: Option<Duration>,
    keep_going: Option<usize>,
    deadlock_detection: bool,
}

fn main() -> ExitCode {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let options = match parse(&mut args) {
        Ok(options) => options,
        Err(error) => {
            eprintln!("dist_philosophers: {error}");
            return ExitCode::from(2);
        }
    };
    let args = args.into_iter();
    match options.model.as_str() {
        "phils5" => run(Phils5, &options, args),
        "phils10" => run(Phils10, &options, args),
        "phils12" => run(Phils12, &options, args),
        "phils_fixed5" => run(PhilsFixed5, &options, args),
        "phils_fixed10" => run(PhilsFixed10, &options, args),
        "peterson3" => run(Peterson3, &options, args),
        "peterson4" => run(Peterson4, &options, args),
        "peterson5" => run(Peterson5, &options, args),
        "peterson6" => run(Peterson6, &options, args),
        "two_dining_philosophers" => run(fixed::TwoDiningPhilosophers, &options, args),
        "bounded_buffer" => run(fixed::BoundedBuffer, &options, args),
        "readers_writers" => run(fixed::ReadersWriters, &options, args),
        "sum_to_n" => run(fixed::SumToN, &options, args),
        other => {
            eprintln!("dist_philosophers: no model `{other}`; the models are {MODELS}");
            ExitCode::from(2)
        }
    }
}

/// Takes this program's options out of `args`, leaving timely's.
fn parse(given: &mut Vec<String>) -> Result<Options, String> {
    let mut options = Options {
        model: "phils10".into(),
        max_states: None,
        time_limit: None,
        keep_going: None,
        deadlock_detection: true,
    };
    let mut rest = Vec::new();
    let mut args = std::mem::take(given).into_iter();
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "--model" => options.model = value("--model")?,
            "--max-states" => options.max_states = Some(number(&value("--max-states")?)?),
            "--time-limit" => {
                let seconds: f64 = value("--time-limit")?
                    .parse()
                    .map_err(|_| "--time-limit takes seconds".to_string())?;
                options.time_limit = Duration::try_from_secs_f64(seconds).ok();
            }
            "--keep-going" => options.keep_going = Some(number(&value("--keep-going")?)? as usize),
            "--no-deadlock" => options.deadlock_detection = false,
            _ => rest.push(arg),
        }
    }
    *given = rest;
    Ok(options)
}

fn number(text: &str) -> Result<u64, String> {
    text.replace('_', "")
        .parse()
        .map_err(|_| format!("`{text}` is not a number"))
}

/// Checks `model` over timely's workers and prints the outcome (every process prints the
/// same); a failed worker anywhere makes the search incomplete here.
fn run<M: Model + Clone + Send + 'static>(
    model: M,
    options: &Options,
    timely_args: impl Iterator<Item = String>,
) -> ExitCode {
    let name = model.info().name.to_string();
    let mut checker = Checker::new(model).deadlock_detection(options.deadlock_detection);
    if let Some(states) = options.max_states {
        checker = checker.max_states(states);
    }
    if let Some(limit) = options.time_limit {
        checker = checker.time_limit(limit);
    }
    if let Some(keep) = options.keep_going {
        checker = checker.keep_going(keep);
    }
    match bir_dist::check_from_args(checker, timely_args) {
        Ok(outcome) => {
            print!("{outcome}");
            match outcome.report.verdict() {
                Verdict::Verified => ExitCode::SUCCESS,
                Verdict::Incomplete { .. } => ExitCode::from(2),
                _ => ExitCode::from(1),
            }
        }
        Err(error) => {
            println!("{name}: incomplete: {error}");
            ExitCode::from(2)
        }
    }
}
