//! The heap's reference models of `models/v3/` (LANGUAGE.md, "Records and the heap": a
//! linked queue, a lock-free stack, objects handed over a channel, the renumbering of two
//! allocations), each through the generated checker (`bir!(file = ..)`) and through the
//! interpreter, a full search past errors and deadlocks, in both of the heap's orders:
//!
//! - canonical (the language's rule): the objects renumbered after every step by the walk
//!   from the roots, so that states that differ only in where objects were allocated are
//!   one state;
//! - allocation order (`Interpreter::with_heap_order(HeapOrder::Allocation)`, and
//!   `BIR_HEAP_ORDER=allocation` for the generated checker, which reads it once per
//!   process: that half runs in a child process of this test binary), which only removes
//!   garbage; the ratio of the two state counts is what heap symmetry saves
//!   (`models/v3/README.md`).
//!
//! Both engines agree on every count, verdict and first counterexample in both orders.
//!
//! `BIR_HEAP_MEASURE=models/v3/x.bir cargo test --release -p bir-interp --test heap
//! measure -- --ignored --nocapture` prints both orders' counts of any model through the
//! interpreter (`--set`-like overrides in `BIR_HEAP_SET=P.N=3,P.M=2`).

mod common;
use common::summary;

use bir::model::heap::HeapOrder;
use bir::{Checker, Model};
use bir_codegen::Overrides;
use bir_interp::Interpreter;

/// The interpreter of `models/<path>`, numbering the heap in `order`.
fn interpreted(path: &str, order: HeapOrder) -> Interpreter {
    interpreted_with(path, order, &Overrides::default())
}

/// The same, with constants replaced.
fn interpreted_with(path: &str, order: HeapOrder, overrides: &Overrides) -> Interpreter {
    let path = format!("{}/../models/{path}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    Interpreter::from_source_with(&text, overrides)
        .unwrap_or_else(|e| panic!("{path}: {e:?}"))
        .with_heap_order(order)
}

/// True in the child process that runs the generated checkers in allocation order.
fn in_allocation_order() -> bool {
    std::env::var(HeapOrder::ENV).as_deref() == Ok("allocation")
}

/// Runs test `name` of this binary again in a child process with `BIR_HEAP_ORDER=allocation`,
/// and asserts that it passes.
fn rerun_in_allocation_order(name: &str) {
    let exe = std::env::current_exe().expect("the test binary");
    let output = std::process::Command::new(exe)
        .args([name, "--exact", "--test-threads", "1", "--nocapture"])
        .env(HeapOrder::ENV, "allocation")
        .output()
        .expect("the test binary runs");
    assert!(
        output.status.success(),
        "{name} in allocation order:\n{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("1 passed"),
        "{name} in allocation order ran no test:\n{stdout}"
    );
}

/// `(states, transitions, deadlocks, errors)` of a full search.
type Counts = (u64, u64, u64, u64);

/// The counts of a full search of `model`, past every finding.
fn counts<M: Model>(model: M) -> Counts {
    let full = Checker::new(model).keep_going(0).progress(false).run();
    (
        full.states(),
        full.transitions(),
        full.deadlocks(),
        full.errors(),
    )
}

macro_rules! heap_reference {
    ($test:ident, $module:ident, $system:ident, $path:literal, $file:literal,
     canonical: $canonical:expr, allocation: $allocation:expr) => {
        mod $module {
            bir::bir!(file = $path);
        }

        #[test]
        fn $test() {
            if in_allocation_order() {
                // One full search per engine: the first finding is the canonical half's.
                let compiled = counts($module::$system);
                assert_eq!(
                    compiled, $allocation,
                    "{} in allocation order (states, transitions, deadlocks, errors)",
                    $file
                );
                assert_eq!(
                    counts(interpreted($file, HeapOrder::Allocation)),
                    compiled,
                    "{} in allocation order: the interpreter",
                    $file
                );
                return;
            }
            let compiled = summary($module::$system);
            assert_eq!(
                (compiled.0, compiled.1, compiled.2, compiled.3),
                $canonical,
                "{} (states, transitions, deadlocks, errors)",
                $file
            );
            assert_eq!(
                summary(interpreted($file, HeapOrder::Canonical)),
                compiled,
                "{}: the interpreter",
                $file
            );
            let (allocation, canonical): (Counts, Counts) = ($allocation, $canonical);
            assert!(
                allocation.0 > canonical.0,
                "{}: the canonical heap saves states",
                $file
            );
            rerun_in_allocation_order(stringify!($test));
        }
    };
}

heap_reference!(
    two_allocations_in_either_order_are_one_state,
    heap_renumber,
    HeapRenumber,
    "../../models/v3/heap_renumber.bir",
    "v3/heap_renumber.bir",
    canonical: (4, 4, 0, 0),
    allocation: (5, 4, 0, 0)
);
heap_reference!(
    the_two_lock_queue_keeps_fifo_order,
    linked_queue,
    LinkedQueue,
    "../../models/v3/linked_queue.bir",
    "v3/linked_queue.bir",
    canonical: (99_661, 324_185, 0, 0),
    allocation: (827_957, 2_617_929, 0, 0)
);
heap_reference!(
    the_treiber_stack_pops_in_lifo_order,
    treiber_stack,
    TreiberStack,
    "../../models/v3/treiber_stack.bir",
    "v3/treiber_stack.bir",
    canonical: (14_993, 50_980, 0, 0),
    allocation: (28_418, 96_372, 0, 0)
);
heap_reference!(
    objects_handed_over_a_channel_arrive_once_in_order,
    heap_handoff,
    HeapHandoff,
    "../../models/v3/heap_handoff.bir",
    "v3/heap_handoff.bir",
    canonical: (9_636, 25_392, 0, 0),
    allocation: (147_818, 377_735, 0, 0)
);

/// Prints the counts of `BIR_HEAP_MEASURE` (a path relative to the repository) in both
/// orders, through the interpreter, with the overrides of `BIR_HEAP_SET`.
#[test]
#[ignore = "a measuring tool: set BIR_HEAP_MEASURE"]
fn measure() {
    let Ok(path) = std::env::var("BIR_HEAP_MEASURE") else {
        return;
    };
    let path = path.strip_prefix("models/").unwrap_or(&path).to_string();
    let mut overrides = Overrides::default();
    for entry in std::env::var("BIR_HEAP_SET").unwrap_or_default().split(',') {
        let Some((name, value)) = entry.split_once('=') else {
            continue;
        };
        let (block, name) = name.split_once('.').expect("Block.NAME=VALUE");
        overrides.set_int(block, name, value.parse().expect("an integer"));
    }
    let mut states = Vec::new();
    for order in [HeapOrder::Canonical, HeapOrder::Allocation] {
        let report = Checker::new(interpreted_with(&path, order, &overrides))
            .keep_going(0)
            .progress(false)
            .run();
        println!(
            "{path} {order:?}: {} states, {} transitions, {} deadlocks, {} errors, {:?}",
            report.states(),
            report.transitions(),
            report.deadlocks(),
            report.errors(),
            report.verdict()
        );
        states.push(report.states());
    }
    println!("factor {:.2}", states[1] as f64 / states[0].max(1) as f64);
}
