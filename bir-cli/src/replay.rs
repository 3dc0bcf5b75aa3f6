//! `bir replay MODEL.bir STRING`: re-executes a replay string, as a report prints it, on
//! the model (with the same `--set` and, for a lasso or a witness, the same `--ltl` or
//! `--reachable`), and prints the counterexample it rebuilds: every step, the values each
//! changed, and the finding at its end. Replay strings name transitions by their ids, which
//! the interpreter and the generated checkers share, so the interpreter replays the
//! strings of both engines.

use std::io::Write as _;

use bir_driver::MALFORMED;
use bir_interp::Interpreter;

use crate::args::ReplayOptions;
use crate::errors;
use crate::json::JsonCounterexample;

/// Runs `bir replay`; returns the exit status: 0 when the string replays to its finding,
/// [`MALFORMED`] when the model, the options or the string are wrong.
pub fn replay(options: &ReplayOptions) -> u8 {
    let loaded = match crate::load(&options.model, &options.overrides(), options.json) {
        Ok(loaded) => loaded,
        Err(status) => return status,
    };
    let search = options.search();
    let checker = bir_driver::configure(Interpreter::new(&loaded.system), &search);
    if let Err(error) = checker.plan() {
        errors::one_line(&error.to_string(), &search.file, options.json);
        return MALFORMED;
    }
    let found = match checker.replay(options.replay.trim()) {
        Ok(found) => found,
        Err(error) => {
            let message = format!(
                "`{}` does not replay on {}: {error}",
                options.replay.trim(),
                search.file
            );
            errors::one_line(&message, &search.file, options.json);
            return MALFORMED;
        }
    };
    let text = if options.json {
        match serde_json::to_string_pretty(&JsonCounterexample::new(found.info(), &found)) {
            Ok(text) => text,
            Err(error) => {
                eprintln!("bir: error: cannot write the JSON counterexample: {error}");
                return MALFORMED;
            }
        }
    } else {
        let name = &loaded.system.name;
        let kind = found.kind();
        if options.full_trace {
            format!("{name}: {kind} replayed\n\n{found:#}")
        } else {
            format!("{name}: {kind} replayed\n\n{found}")
        }
    };
    // A reader that stops early (`bir replay ... | head`) is no error.
    let _ = write!(std::io::stdout().lock(), "{text}");
    if options.json {
        let _ = writeln!(std::io::stdout().lock());
    }
    0
}
