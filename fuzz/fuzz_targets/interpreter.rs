//! Arbitrary bytes as a `.bir` file for the reference interpreter: when the front end
//! accepts the text, bounded depth-first and breadth-first searches (exact, compact, reduced
//! by partial orders and by symmetry), a few random walks, and a bounded check of each of
//! its properties (every `ltl` without fairness, reduced by partial orders or by symmetry,
//! under weak and under strong fairness; every `reachable`). Rules: nothing panics; a
//! malformed model is an error and a faulty one a finding; and an `ltl` verdict is the one
//! the whole product gives, where it is small enough for the oracle
//! (`bir::oracle::judge`).
#![no_main]

use bir::model::PropertyKind;
use bir::oracle::{judge, Judgement};
use bir::{Checker, Model, Storage};
use bir_interp::Interpreter;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(interpreter) = Interpreter::from_source(text) {
            // A state takes at most 8 bytes per value (packed, each value takes at most 64
            // bits; up to 2^17 values): at most 2,000 states, and fewer for wide ones, so
            // that the states stored stay within 256 MB, far below libFuzzer's memory limit.
            let values = interpreter.info().slots.len().max(1) as u64;
            let max_states = (256 << 20) / (8 * values);
            let checker = Checker::new(interpreter)
                .max_states(max_states.clamp(1, 2_000))
                .keep_going(1)
                .progress(false);
            let _ = checker.clone().dfs().run();
            let _ = checker.clone().bfs().run();
            let _ = checker.clone().storage(Storage::Compact).run();
            let _ = checker.clone().por(true).symmetry(true).run();
            for property in checker.model().properties().to_vec() {
                match property.kind {
                    PropertyKind::Ltl { .. } => {
                        let ltl = checker.clone().ltl(&property.name);
                        let checks = [
                            ltl.clone(),
                            ltl.clone().por(true),
                            ltl.clone().symmetry(true),
                            ltl.clone().weak_fairness(),
                            ltl.strong_fairness(),
                        ];
                        for check in checks {
                            // Partial-order reduction refuses a formula with `X`, a
                            // refusal is no finding. A verdict is the one the whole
                            // product gives, where it has at most 2,000 states.
                            if let Ok(report) = check.try_run() {
                                let judgement = judge(&report, checker.model(), 2_000);
                                assert!(
                                    !matches!(judgement, Judgement::Disagrees { .. }),
                                    "ltl {}: the search and the whole product disagree\n{report}",
                                    property.name
                                );
                            }
                        }
                    }
                    PropertyKind::Reachable => {
                        let _ = checker.clone().reachable(&property.name).run();
                    }
                }
            }
            // The walks' seed comes from the input, so that a crash replays from its file.
            let seed = data
                .iter()
                .fold(0u64, |h, &b| h.wrapping_mul(31).wrapping_add(b.into()));
            let _ = checker.simulate(3, 50, seed);
        }
    }
    proc_macro2::extra::invalidate_current_thread_spans();
});
