//! Exceptions (LANGUAGE.md, version 3, "Exceptions"): the reference models that throw,
//! each through the generated checker (`bir!(file = ..)`) and through the interpreter, a
//! full search past errors and deadlocks. Both engines execute the one lowering of throws
//! to version 1's steps (`bir_codegen::check::exceptions`), so they agree on every count,
//! verdict and first counterexample; the counts are the spec's (hand-counted where the
//! model's header says so), and each model asserts where its exceptions were caught.

mod common;
use common::summary;

use bir::{Checker, FindingKind};
use bir_interp::Interpreter;

/// The interpreter of `path`, under this crate's folder.
fn interpreted(path: &str) -> Interpreter {
    let path = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    Interpreter::from_source(&text).unwrap_or_else(|e| panic!("{path}: {e:?}"))
}

macro_rules! exceptions {
    ($test:ident, $module:ident, $system:ident, $path:literal, $file:literal, $counts:expr) => {
        mod $module {
            bir::bir!(file = $path);
        }

        #[test]
        fn $test() {
            let compiled = summary($module::$system);
            assert_eq!(
                (compiled.0, compiled.1, compiled.2, compiled.3),
                $counts,
                "{} (states, transitions, deadlocks, errors)",
                $file
            );
            assert_eq!(
                summary(interpreted($file)),
                compiled,
                "{}: the interpreter",
                $file
            );
        }
    };
}

exceptions!(
    an_exception_two_frames_down_is_caught_by_the_thread,
    exc_caller,
    ExcCaller,
    "../../models/v3/exc_caller.bir",
    "../models/v3/exc_caller.bir",
    (8, 7, 0, 0)
);
exceptions!(
    a_full_buffer_is_caught_in_the_producers_frame,
    full_buffer_caught,
    FullBuffer,
    "../../models/full_buffer_caught.bir",
    "../models/full_buffer_caught.bir",
    (198, 338, 0, 0)
);
exceptions!(
    a_full_buffer_no_frame_catches_is_uncaught,
    full_buffer_escapes,
    FullBufferEscapes,
    "../../models/full_buffer_escapes.bir",
    "../models/full_buffer_escapes.bir",
    (107, 182, 0, 6)
);
exceptions!(
    a_throw_in_atomic_ends_its_path,
    in_atomic,
    InAtomic,
    "exceptions/in_atomic.bir",
    "tests/exceptions/in_atomic.bir",
    (5, 4, 0, 0)
);
exceptions!(
    a_throw_in_a_rendezvous_block_ends_that_block,
    in_rendezvous,
    InRendezvous,
    "exceptions/in_rendezvous.bir",
    "tests/exceptions/in_rendezvous.bir",
    (8, 9, 0, 0)
);
exceptions!(
    a_throw_in_a_rendezvous_senders_block_ends_that_block,
    in_rendezvous_sender,
    InRendezvousSender,
    "exceptions/in_rendezvous_sender.bir",
    "tests/exceptions/in_rendezvous_sender.bir",
    (11, 14, 0, 0)
);
exceptions!(
    each_recursive_frame_has_its_own_handlers,
    recursive,
    Recursive,
    "exceptions/recursive.bir",
    "tests/exceptions/recursive.bir",
    (11, 10, 0, 0)
);
exceptions!(
    each_call_of_a_function_is_caught_around_it,
    two_callers,
    TwoCallers,
    "exceptions/two_callers.bir",
    "tests/exceptions/two_callers.bir",
    (11, 10, 0, 0)
);
exceptions!(
    low_level_catch_clauses_in_source_order,
    low_level,
    LowLevel,
    "exceptions/low_level.bir",
    "tests/exceptions/low_level.bir",
    (4, 4, 0, 1)
);

/// The uncaught exception and `throw` of `null` are findings of their own kinds, with
/// the messages that say where.
#[test]
fn uncaught_and_null_throws_are_findings_of_their_kinds() {
    let report = Checker::new(interpreted("../models/full_buffer_escapes.bir"))
        .bfs()
        .progress(false)
        .run();
    let found = report.assert_found(FindingKind::Uncaught);
    assert!(
        found.message().contains(
            "`throw e;` in `put` (called from `produce`, called from `Producer`) throws a \
             `Full` that no handler catches"
        ),
        "{report}"
    );
    let report = Checker::new(interpreted("tests/exceptions/low_level.bir"))
        .progress(false)
        .run();
    let found = report.assert_found(FindingKind::Null);
    assert!(
        found.message().contains("`throw nothing;` throws `null`"),
        "{report}"
    );
}
