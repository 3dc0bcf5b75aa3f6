//! The command line, parsed by hand: `bir check MODEL [OPTIONS]`, `bir --help`,
//! `bir --version`. Options take their value as the next argument or after `=`.

use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

use bir_interp::{Override, Overrides};

/// The help text (`bir --help`).
pub const USAGE: &str = "\
bir: check a concurrent system written in BIR, exhaustively

Usage:
  bir check MODEL.bir [OPTIONS]
  bir --help
  bir --version

Options:
  --bfs                   breadth-first search: shortest counterexamples
                          (default: depth-first, in Bogor's order)
  --keep-going N          go on past findings, counting all of them and keeping the
                          counterexamples of the first N (default: stop at the first)
  --max-states N          store at most N states
  --max-depth N           do not expand states N steps from the initial state
  --time-limit SECONDS    stop after this long (decimals allowed)
  --memory-limit MB       stop before the search uses more than MB MiB
  --no-deadlock           do not report deadlocks
  --threads N             search with N threads (same counts; the verdict and trace
                          of a finding come from a sequential depth-first search)
  --hash-compaction       store 64-bit fingerprints of states wider than a word
                          (never \"verified\": reports the chance a state was missed)
  --bitstate LOG2         store states as 3 bits each of a 2^LOG2-bit array
                          (supertrace; never \"verified\" either)
  --set Block.NAME=VALUE  replace a constant, e.g. --set Param.N=12 (repeatable;
                          VALUE is an integer, true or false)
  --json                  print one JSON object instead of the text report
  -h, --help              print this help
  -V, --version           print the version

Exit status:
  0  verified: every reachable state explored, no error and no deadlock
  1  an error (assertion, invariant, range, index, division, start) or a deadlock found
  2  the model is malformed, or the arguments are wrong
  3  incomplete: nothing found, but a limit stopped the search
";

/// What the command line asks for.
#[derive(Debug, PartialEq)]
pub enum Command {
    /// `--help`.
    Help,
    /// `--version`.
    Version,
    /// `check MODEL ...`.
    Check(CheckOptions),
}

/// The options of `bir check`.
#[derive(Debug, Default, PartialEq)]
pub struct CheckOptions {
    /// The model file.
    pub model: PathBuf,
    /// Breadth-first instead of depth-first.
    pub bfs: bool,
    /// Go on past findings, keeping this many counterexamples.
    pub keep_going: Option<usize>,
    /// The state limit.
    pub max_states: Option<u64>,
    /// The depth limit.
    pub max_depth: Option<u32>,
    /// The time limit.
    pub time_limit: Option<Duration>,
    /// The memory limit in bytes.
    pub memory_limit: Option<usize>,
    /// Deadlocks are not reported.
    pub no_deadlock: bool,
    /// Threads of the search.
    pub threads: Option<usize>,
    /// Hash compaction.
    pub hash_compaction: bool,
    /// Bitstate hashing with a bit array of 2^this bits.
    pub bitstate: Option<u32>,
    /// Constants replaced with `--set`.
    pub overrides: Overrides,
    /// Print JSON.
    pub json: bool,
}

/// Parses the arguments after the program name; the error is a one-line message.
pub fn parse(args: &[OsString]) -> Result<Command, String> {
    let mut args = args.iter();
    let first = match args.next() {
        None => return Err("no command given: expected `bir check MODEL.bir`".to_string()),
        Some(first) => utf8(first)?,
    };
    match first {
        "-h" | "--help" | "help" => return Ok(Command::Help),
        "-V" | "--version" => return Ok(Command::Version),
        "check" => {}
        other if other.starts_with('-') => return Err(format!("unknown option `{other}`")),
        other => return Err(format!("unknown command `{other}`: expected `check`")),
    }
    let mut options = CheckOptions::default();
    let mut model = None;
    while let Some(arg) = args.next() {
        let text = match arg.to_str() {
            Some(text) => text,
            // A path need not be UTF-8; an option must be.
            None if model.is_none() => {
                model = Some(PathBuf::from(arg));
                continue;
            }
            None => return Err(format!("unexpected argument {arg:?}")),
        };
        if !text.starts_with('-') || text == "-" {
            if model.is_some() {
                return Err(format!("unexpected argument `{text}`: one model at a time"));
            }
            model = Some(PathBuf::from(arg));
            continue;
        }
        let (name, inline) = match text.split_once('=') {
            Some((name, value)) if name.starts_with("--") => (name, Some(value)),
            _ => (text, None),
        };
        let mut value = || -> Result<&str, String> {
            match inline {
                Some(value) => Ok(value),
                None => match args.next() {
                    Some(value) => utf8(value),
                    None => Err(format!("`{name}` needs a value")),
                },
            }
        };
        match name {
            "-h" | "--help" => return Ok(Command::Help),
            "--bfs" => options.bfs = true,
            "--no-deadlock" => options.no_deadlock = true,
            "--hash-compaction" => options.hash_compaction = true,
            "--threads" => options.threads = Some(number(name, value()?)?),
            "--bitstate" => options.bitstate = Some(number(name, value()?)?),
            "--json" => options.json = true,
            "--keep-going" => options.keep_going = Some(number(name, value()?)?),
            "--max-states" => options.max_states = Some(number(name, value()?)?),
            "--max-depth" => options.max_depth = Some(number(name, value()?)?),
            "--time-limit" => options.time_limit = Some(seconds(name, value()?)?),
            "--memory-limit" => {
                let mib: usize = number(name, value()?)?;
                let bytes = mib
                    .checked_mul(1 << 20)
                    .ok_or_else(|| format!("`{name}` is too large: {mib} MiB"))?;
                options.memory_limit = Some(bytes);
            }
            "--set" => options
                .overrides
                .push(Override::parse(value()?).map_err(|e| format!("`--set`: {e}"))?),
            _ => return Err(format!("unknown option `{name}`")),
        }
        let flag = matches!(
            name,
            "--bfs" | "--no-deadlock" | "--json" | "--hash-compaction"
        );
        if inline.is_some() && flag {
            return Err(format!("`{name}` takes no value"));
        }
    }
    options.model = model.ok_or("no model given: expected `bir check MODEL.bir`")?;
    Ok(Command::Check(options))
}

fn utf8(arg: &OsString) -> Result<&str, String> {
    arg.to_str()
        .ok_or_else(|| format!("argument {arg:?} is not valid UTF-8"))
}

/// A whole number for option `name`.
fn number<T: std::str::FromStr>(name: &str, text: &str) -> Result<T, String> {
    text.replace('_', "")
        .parse()
        .map_err(|_| format!("`{name}` needs a whole number, found `{text}`"))
}

/// A positive, finite number of seconds for option `name`.
fn seconds(name: &str, text: &str) -> Result<Duration, String> {
    let error = || format!("`{name}` needs a positive number of seconds, found `{text}`");
    let value: f64 = text.parse().map_err(|_| error())?;
    if value <= 0.0 {
        return Err(error());
    }
    Duration::try_from_secs_f64(value).map_err(|_| error())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_str(args: &[&str]) -> Result<Command, String> {
        let args: Vec<OsString> = args.iter().map(OsString::from).collect();
        parse(&args)
    }

    fn check(args: &[&str]) -> CheckOptions {
        match parse_str(args) {
            Ok(Command::Check(options)) => options,
            other => panic!("{other:?}"),
        }
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
            "--set",
            "Param.N=4",
            "--set=Param.B=true",
            "--json",
        ]);
        assert_eq!(options.model, PathBuf::from("m.bir"));
        assert!(options.bfs && options.no_deadlock && options.json);
        assert_eq!(options.keep_going, Some(3));
        assert_eq!(options.max_states, Some(1000));
        assert_eq!(options.max_depth, Some(7));
        assert_eq!(options.time_limit, Some(Duration::from_millis(1500)));
        assert_eq!(options.memory_limit, Some(2 << 20));
        assert_eq!(
            options.overrides.get("Param", "N").map(|o| o.value),
            Some(4)
        );
        assert_eq!(
            options.overrides.get("Param", "B").map(|o| o.is_bool),
            Some(true)
        );
    }

    #[test]
    fn help_and_version() {
        assert_eq!(parse_str(&["--help"]), Ok(Command::Help));
        assert_eq!(parse_str(&["check", "m.bir", "-h"]), Ok(Command::Help));
        assert_eq!(parse_str(&["-V"]), Ok(Command::Version));
    }

    #[test]
    fn mistakes_are_one_line_messages() {
        for (args, expected) in [
            (&[][..], "no command given"),
            (&["run"][..], "unknown command `run`"),
            (&["check"][..], "no model given"),
            (&["check", "a.bir", "b.bir"][..], "one model at a time"),
            (
                &["check", "a.bir", "--frobnicate"][..],
                "unknown option `--frobnicate`",
            ),
            (
                &["check", "a.bir", "--max-states"][..],
                "`--max-states` needs a value",
            ),
            (
                &["check", "a.bir", "--max-states", "-1"][..],
                "needs a whole number",
            ),
            (
                &["check", "a.bir", "--max-depth", "5000000000"][..],
                "needs a whole number",
            ),
            (
                &["check", "a.bir", "--time-limit", "0"][..],
                "positive number of seconds",
            ),
            (
                &["check", "a.bir", "--time-limit", "inf"][..],
                "positive number of seconds",
            ),
            (
                &["check", "a.bir", "--set", "N=3"][..],
                "`--set`: expected `Block.NAME=VALUE`",
            ),
            (&["check", "a.bir", "--json=yes"][..], "takes no value"),
        ] {
            let error = parse_str(args).unwrap_err();
            assert!(error.contains(expected), "{args:?}: {error}");
            assert!(!error.contains('\n'), "{error}");
        }
    }
}
