//! Models at the front end's limits run on the interpreter without overflowing a test
//! thread's stack in a debug build: its evaluator walks expressions recursively, as deep as
//! the parser allows (`MAX_EXPR_DEPTH`).

use bir::{Checker, Verdict};
use bir_codegen::front::parse::MAX_EXPR_DEPTH;
use bir_interp::Interpreter;

/// Guards whose expression tree is `n` levels high, each true in the initial state (`x` is
/// 0, `a` all zeros), in each way an expression can nest.
fn nested_guards(n: usize) -> Vec<String> {
    vec![
        format!("{}x == 0{}", "(".repeat(n - 2), ")".repeat(n - 2)),
        format!("{}(x == 0)", "!".repeat((n - 3) / 2 * 2)),
        format!("{}x == 0", "-".repeat(n - 2)),
        format!("x{} == 0", " * 1".repeat(n - 2)),
        format!(
            "{}x == 0{}",
            "true && (".repeat((n - 2) / 2),
            ")".repeat((n - 2) / 2)
        ),
        format!(
            "{}true{}",
            "x == 0 ? ".repeat(n - 2),
            " : false".repeat(n - 2)
        ),
        format!("{}0{} == x", "a[".repeat(n - 2), "]".repeat(n - 2)),
        format!(
            "{}x == 0{}",
            (0..n - 2)
                .map(|k| format!("forall q{k} in 0 .. 1 : ("))
                .collect::<String>(),
            ")".repeat(n - 2)
        ),
    ]
}

#[test]
fn guards_nested_to_the_limit_are_evaluated() {
    for guard in nested_guards(MAX_EXPR_DEPTH) {
        let source = format!(
            "system S {{ int (0, 3) x; int (0, 3)[4] a; active thread T() {{ \
             loc l: when {guard} do {{ x := 1; }} goto l; }} }}"
        );
        let interpreter = Interpreter::from_source(&source)
            .unwrap_or_else(|errors| panic!("{guard}: {:?}", errors[0].message));
        for bfs in [false, true] {
            let checker = Checker::new(interpreter.clone()).progress(false);
            let report = if bfs { checker.bfs() } else { checker }.run();
            // The guard holds at x == 0 only: one step, then a deadlock.
            assert_eq!(report.states(), 2, "{guard}");
            assert!(matches!(report.verdict(), Verdict::Found(_)), "{guard}");
        }
    }
}
