//! The time limit bounds the search's wall time within 10% + 0.1 s, under every frontier,
//! also when each step of the model is slow.

mod common;

use std::time::{Duration, Instant};

use bir_runtime::{Checker, IncompleteReason, Model, Verdict};
use common::{info, Narrow, Slow, Wide};

fn check<M: Model>(name: &str, checker: Checker<M>, limit: Duration) {
    let started = Instant::now();
    let report = checker
        .time_limit(limit)
        .keep_going(0)
        .progress(false)
        .run();
    let took = started.elapsed();
    assert_eq!(
        report.verdict(),
        Verdict::Incomplete {
            reason: IncompleteReason::TimeLimit
        },
        "{name}: {report}"
    );
    eprintln!(
        "{name}: {:.3} s for a limit of {:.3} s",
        took.as_secs_f64(),
        limit.as_secs_f64()
    );
    assert!(
        took <= limit + limit / 10 + Duration::from_millis(100),
        "{name}: {took:?} for a limit of {limit:?}"
    );
}

#[test]
fn fast_models_stop_at_the_limit() {
    let limit = Duration::from_millis(700);
    check("depth-first", Checker::new(Narrow(info("Narrow"))), limit);
    check(
        "breadth-first",
        Checker::new(Narrow(info("Narrow"))).bfs(),
        limit,
    );
    check(
        "2 threads",
        Checker::new(Narrow(info("Narrow"))).threads(2),
        limit,
    );
    check("heap states", Checker::new(Wide(info("Wide"))), limit);
}

#[test]
fn slow_steps_stop_at_the_limit() {
    let limit = Duration::from_millis(700);
    let slow = || Slow(Narrow(info("Slow")), Duration::from_millis(25));
    check("slow, depth-first", Checker::new(slow()), limit);
    check("slow, breadth-first", Checker::new(slow()).bfs(), limit);
    check("slow, 2 threads", Checker::new(slow()).threads(2), limit);
}
