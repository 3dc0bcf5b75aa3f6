//! Version 3 of the language (LANGUAGE.md: high-level bodies, functions, channels, locks)
//! on the reference models of `models/v3/` and `models/beem/`: each through the generated
//! checker (`bir!(file = ..)`) and through the interpreter, a full search past errors and
//! deadlocks, with the counts of the tables in those folders' READMEs (an independent
//! implementation of the spec, and BEEM's published figures). Both engines agree on every
//! count, verdict and first counterexample.

mod common;
use common::{interpreted, summary};

use bir::{Checker, Heuristic, Model};
use bir_interp::Interpreter;

macro_rules! reference {
    ($test:ident, $module:ident, $system:ident, $path:literal, $file:literal, $states:expr, $transitions:expr, $deadlocks:expr, $errors:expr) => {
        mod $module {
            bir::bir!(file = $path);
        }

        #[test]
        fn $test() {
            let compiled = summary($module::$system);
            assert_eq!(
                (compiled.0, compiled.1, compiled.2, compiled.3),
                ($states, $transitions, $deadlocks, $errors),
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

reference!(
    chan_fifo_keeps_fifo_order,
    chan_fifo,
    ChanFifo,
    "../../models/v3/chan_fifo.bir",
    "v3/chan_fifo.bir",
    10,
    12,
    0,
    0
);
reference!(
    peterson_as_statements,
    peterson_high,
    PetersonHigh,
    "../../models/v3/hl_vs_ll_peterson_high.bir",
    "v3/hl_vs_ll_peterson_high.bir",
    1_685,
    4_214,
    0,
    0
);
reference!(
    peterson_as_locations,
    peterson_low,
    PetersonLow,
    "../../models/v3/hl_vs_ll_peterson_low.bir",
    "v3/hl_vs_ll_peterson_low.bir",
    1_685,
    4_214,
    0,
    0
);
reference!(
    recursion_past_its_bound_is_a_stack_error,
    func_rec_stack,
    FuncRecStack,
    "../../models/v3/func_rec_stack.bir",
    "v3/func_rec_stack.bir",
    7,
    7,
    0,
    1
);
reference!(
    alternating_bit_protocol_over_lossy_channels,
    big_abp,
    AlternatingBit,
    "../../models/v3/big_abp.bir",
    "v3/big_abp.bir",
    10_634,
    35_838,
    0,
    0
);
reference!(
    java_bounded_buffer_with_notify_all,
    big_java_buffer,
    JavaBoundedBuffer,
    "../../models/v3/big_java_buffer.bir",
    "v3/big_java_buffer.bir",
    26_751,
    43_000,
    0,
    0
);
reference!(
    java_bounded_buffer_with_notify_deadlocks,
    big_java_buffer_notify,
    JavaBoundedBufferNotify,
    "../../models/v3/big_java_buffer_notify.bir",
    "v3/big_java_buffer_notify.bir",
    14_533,
    22_878,
    2,
    0
);
reference!(
    notify_wakes_one_waiting_instance_per_transition,
    lock_notify,
    LockNotify,
    "../../models/v3/lock_notify.bir",
    "v3/lock_notify.bir",
    17,
    17,
    2,
    0
);
reference!(
    a_pool_frees_its_instances_and_nulls_their_tids,
    pool_tids,
    PoolTids,
    "../../models/v3/pool_tids.bir",
    "v3/pool_tids.bir",
    8,
    8,
    0,
    1
);
reference!(
    a_freed_pool_instance_keeps_no_object_it_waited_on_alive,
    pool_wait_freed,
    PoolWaitFreed,
    "../../models/v3/pool_wait_freed.bir",
    "v3/pool_wait_freed.bir",
    9,
    8,
    0,
    0
);
reference!(
    a_pool_of_two_workers_serves_three_requests,
    thread_pool,
    ThreadPool,
    "../../models/thread_pool.bir",
    "thread_pool.bir",
    52,
    88,
    0,
    0
);
#[test]
fn a_pool_started_past_its_bound_is_a_start_error() {
    // models/thread_pool.bir with `P.WAIT = false`: the third start can find both workers
    // running (examples/thread_pool.rs checks the generated checker of the same model).
    let path = format!("{}/../models/thread_pool.bir", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut overrides = bir_interp::Overrides::default();
    overrides.push(bir_interp::Override::parse("P.WAIT=false").expect("an override"));
    let model = Interpreter::from_source_with(&text, &overrides).expect("the model checks");
    let (states, transitions, deadlocks, errors, verdict, _) = summary(model);
    assert_eq!((states, transitions, deadlocks, errors), (60, 108, 0, 1));
    assert_eq!(verdict, "Found(Start)");
}
reference!(
    a_rendezvous_is_one_transition,
    rdv_pair,
    RdvPair,
    "../../models/v3/rdv_pair.bir",
    "v3/rdv_pair.bir",
    3,
    2,
    0,
    0
);
reference!(
    objects_allocated_in_either_order_are_one_state,
    heap_renumber,
    HeapRenumber,
    "../../models/v3/heap_renumber.bir",
    "v3/heap_renumber.bir",
    4,
    4,
    0,
    0
);

reference!(
    a_wrong_assertion_on_a_stack_of_objects,
    push_pop,
    PushPop,
    "../../models/v3/push_pop.bir",
    "v3/push_pop.bir",
    4,
    4,
    0,
    1
);

reference!(
    an_array_field_indexed_past_its_end,
    array_fields,
    ArrayFields,
    "../../models/v3/array_fields.bir",
    "v3/array_fields.bir",
    6,
    6,
    0,
    1
);

reference!(
    a_monitor_over_an_objects_own_lock,
    object_lock,
    ObjectLock,
    "../../models/v3/object_lock.bir",
    "v3/object_lock.bir",
    18,
    18,
    2,
    0
);

reference!(
    a_monitor_over_the_lock_fields_of_an_object,
    lock_field,
    LockField,
    "../../models/v3/lock_field.bir",
    "v3/lock_field.bir",
    162,
    299,
    3,
    0
);

reference!(
    lock_field_with_its_locks_declared_as_globals,
    lock_field_global,
    LockFieldGlobal,
    "../../models/v3/lock_field_global.bir",
    "v3/lock_field_global.bir",
    162,
    299,
    3,
    0
);

/// The lock fields of the one object of `lock_field` behave as the global locks of
/// `lock_field_global`: the same counts, verdict and first counterexample (its replay), in
/// both engines.
#[test]
fn lock_fields_of_one_object_are_global_locks() {
    let fields = summary(interpreted("v3/lock_field.bir"));
    assert_eq!(summary(interpreted("v3/lock_field_global.bir")), fields);
    assert_eq!(summary(lock_field::LockField), fields);
    assert_eq!(summary(lock_field_global::LockFieldGlobal), fields);
}

/// A model whose lock field operand faults: `ACTION` through `b`, null until N makes it.
const LOCK_FIELD_FAULT: &str = "system LockFieldFault {
    record[1] Box { lock guard; lock l[2]; }
    Box b;
    active thread T() {
        int (0, 2) i := 2;
        loc a: do { ACTION } goto a;
    }
}";

mod lock_field_null {
    bir::bir! {
        system LockFieldFault {
            record[1] Box { lock guard; lock l[2]; }
            Box b;
            active thread T() {
                int (0, 2) i := 2;
                loc a: do { lock(b.guard); } goto a;
            }
        }
    }
}

mod lock_field_index {
    bir::bir! {
        system LockFieldFault {
            record[1] Box { lock guard; lock l[2]; }
            Box b;
            active thread T() {
                int (0, 2) i := 2;
                loc a: do { b := new Box; } goto c;
                loc c: do { unwait(b.l[i]); } goto a;
            }
        }
    }
}

/// The operand of a lock operation on a lock field is evaluated before its readiness: a
/// `null` base is a null error, an index outside the array an index error (not a step
/// that is never ready), the same in both engines.
#[test]
fn lock_field_operands_fault_before_their_readiness() {
    let interpret = |action: &str| {
        let text = LOCK_FIELD_FAULT.replace("ACTION", action);
        let model = Interpreter::from_source(&text).unwrap_or_else(|e| panic!("{e:?}"));
        Checker::new(model).progress(false).run()
    };
    for report in [
        interpret("lock(b.guard);"),
        Checker::new(lock_field_null::LockFieldFault)
            .progress(false)
            .run(),
    ] {
        let found = report.assert_found(bir::FindingKind::Null);
        assert!(
            found
                .message()
                .contains("`b` is `null`: `b.guard` is a lock of no object"),
            "{report}"
        );
    }
    for report in [
        interpret("b := new Box; } goto c; loc c: do { unwait(b.l[i]);"),
        Checker::new(lock_field_index::LockFieldFault)
            .progress(false)
            .run(),
    ] {
        let found = report.assert_found(bir::FindingKind::Index);
        assert!(
            found.message().contains(
                "index out of bounds in `b.l[i]`: the lock field `l` of record `Box` has 2 locks"
            ),
            "{report}"
        );
    }
    for action in ["wasNotified(b.l[i])", "hasLock(b.l[i])"] {
        let report = interpret(&format!(
            "b := new Box; }} goto c; loc c: when {action} do {{ }} goto c; loc d: do {{"
        ));
        report.assert_found(bir::FindingKind::Index);
    }
}

reference!(
    a_wait_mark_follows_its_object_when_renumbered,
    object_lock_renumber,
    ObjectLockRenumber,
    "../../models/v3/object_lock_renumber.bir",
    "v3/object_lock_renumber.bir",
    10,
    9,
    0,
    0
);

/// Without the canonical numbering (allocation order kept, garbage still collected) the
/// two orders of `heap_renumber`'s allocations stay two states: the one heap symmetry
/// merges, as the model's header counts.
#[test]
fn allocation_order_keeps_the_orders_apart() {
    let model = interpreted("v3/heap_renumber.bir")
        .with_heap_order(bir_runtime::model::heap::HeapOrder::Allocation);
    let report = bir_runtime::Checker::new(model).progress(false).run();
    assert_eq!((report.states(), report.transitions()), (5, 4));
}

reference!(
    philosophers_over_rendezvous_deadlock,
    big_rdv_phils,
    RdvPhilosophers,
    "../../models/v3/big_rdv_phils.bir",
    "v3/big_rdv_phils.bir",
    19_682,
    118_089,
    1,
    0
);
reference!(
    beem_bridge,
    bridge,
    Bridge1,
    "../../models/beem/bridge.1.bir",
    "beem/bridge.1.bir",
    3_186,
    4_565,
    839,
    0
);
reference!(
    beem_leader_election,
    leader_election,
    LeaderElection1,
    "../../models/beem/leader_election.1.bir",
    "beem/leader_election.1.bir",
    14_252,
    52_944,
    1,
    0
);
reference!(
    beem_needham,
    needham,
    Needham1,
    "../../models/beem/needham.1.bir",
    "beem/needham.1.bir",
    497,
    753,
    93,
    0
);

/// A rendezvous that fires is both its sender's and its receiver's transformation firing:
/// coverage after a complete search of a model whose every step pairs is full.
#[test]
fn a_fired_rendezvous_covers_both_of_its_transformations() {
    for report in [
        Checker::new(rdv_pair::RdvPair).progress(false).run(),
        Checker::new(interpreted("v3/rdv_pair.bir"))
            .progress(false)
            .run(),
    ] {
        let coverage = report.coverage().expect("a complete search");
        assert_eq!(coverage.transformations(), (3, 3), "{report}");
        assert!(coverage.is_full(), "{report}");
    }
}

/// A full search with partial-order reduction, past errors and deadlocks: states,
/// transitions, and the verdict of a search that stops at the first finding.
fn reduced<M: Model + Clone>(model: M) -> (u64, u64, String) {
    let full = Checker::new(model.clone())
        .keep_going(0)
        .por(true)
        .progress(false)
        .run();
    let first = Checker::new(model).por(true).progress(false).run();
    (
        full.states(),
        full.transitions(),
        format!("{:?}", first.verdict()),
    )
}

/// Partial-order reduction over buffered channels (SPIN's `xs`/`xr` channels, found by the
/// analysis): the verdict of the full search, fewer states, and the same reduced counts in
/// both engines.
#[test]
fn reduced_searches_over_buffered_channels_keep_the_verdict() {
    // `chan_fifo`: P alone sends and Q alone receives, so every step of both is safe; from
    // 10 states to 7 (the hand count: P runs ahead until the channel is full, then Q takes
    // one message and P sends again, then Q finishes).
    let fifo = reduced(chan_fifo::ChanFifo);
    assert_eq!(fifo, (7, 6, "Verified".to_string()));
    assert_eq!(summary(chan_fifo::ChanFifo).4, "Verified");
    assert_eq!(reduced(interpreted("v3/chan_fifo.bir")), fifo);
    // `big_abp`: each channel has two receivers (Receiver or Sender, and Lossy),
    // the sender's and the receiver's sends and receives wait at locations with other steps
    // (a `choose` between a send and a receive; a send or `else`), and `done` is shared:
    // what is safe are the local steps between them, as before channels were judged apart
    // (10,634 states and 35,838 transitions in full).
    let abp = reduced(big_abp::AlternatingBit);
    assert_eq!(abp, (7_587, 15_853, "Verified".to_string()));
    assert_eq!(summary(big_abp::AlternatingBit).4, "Verified");
    assert_eq!(reduced(interpreted("v3/big_abp.bir")), abp);
}

/// An `exit` in a rendezvous's block ends its instance, in a thread that has no other way
/// to end too. (The random models of version 3 found the thread's "ended" status left out
/// of the state: `ir::Transform::destination` did not look into the block.) Hand count:
/// init; R[0] ended; R[1] ended; both ended, where S waits for ever: 4 states, 4
/// transitions, 1 deadlock.
mod exit_in_rendezvous {
    bir::bir! {
        system ExitInRendezvous {
            channel c;
            active thread S() { loc s: do { c!; } goto s; }
            active [2] thread R(int index) { loc r: do { c?; exit; } goto r; }
        }
    }

    pub const SOURCE: &str = "system ExitInRendezvous {
        channel c;
        active thread S() { loc s: do { c!; } goto s; }
        active [2] thread R(int index) { loc r: do { c?; exit; } goto r; }
    }";
}

#[test]
fn an_exit_in_a_rendezvous_block_ends_its_instance() {
    let compiled = summary(exit_in_rendezvous::ExitInRendezvous);
    assert_eq!(
        (compiled.0, compiled.1, compiled.2, compiled.3),
        (4, 4, 1, 0),
        "(states, transitions, deadlocks, errors)"
    );
    let interpreter = Interpreter::from_source(exit_in_rendezvous::SOURCE).expect("it compiles");
    assert_eq!(summary(interpreter), compiled, "the interpreter");
}

/// A pool instance that ends holding a lock: the lock stays held, by no instance, so the
/// instance that reuses the slot does not hold it (LANGUAGE.md, "Locks").
const POOL_LOCK: &str = "system PoolLock {
    lock m;
    tid t;
    thread[1] W() {
        loc take: lock(m);
    }
    active thread Main() {
        t := start W();
        choose when threadTerminated(t) do skip; end
        start W();
    }
}";

mod pool_lock {
    bir::bir! {
        system PoolLock {
            lock m;
            tid t;
            thread[1] W() {
                loc take: lock(m);
            }
            active thread Main() {
                t := start W();
                choose when threadTerminated(t) do skip; end
                start W();
            }
        }
    }
}

#[test]
fn a_lock_held_by_a_freed_pool_instance_stays_held_by_none() {
    // Main starts W[0], which ends holding m; once freed, its slot serves the second start,
    // whose lock(m) waits forever: 5 states, 4 transitions, a deadlock (the reused slot
    // taking m again, reentrantly, would make 6 states and no deadlock).
    let compiled = summary(pool_lock::PoolLock);
    assert_eq!(
        (compiled.0, compiled.1, compiled.2, compiled.3),
        (5, 4, 1, 0)
    );
    let interpreted = Interpreter::from_source(POOL_LOCK).expect("the model checks");
    assert_eq!(summary(interpreted), compiled);
}

#[test]
fn thread_terminated_stands_in_funs_invariants_and_properties() {
    // The worker W[0] ends, so its tid becomes null: `threadTerminated(t)` eventually holds,
    // through a `fun`, in an invariant and in an LTL property alike.
    let source = "system Waits {
        tid t;
        thread[1] W() { loc body: skip; }
        fun over(tid x) returns boolean = threadTerminated(x);
        invariant NotBoth: !(W[0]@body && over(t));
        ltl Ends: <>over(t) && <>[]threadTerminated(t);
        active thread M() {
            t := start W();
        }
    }";
    let model = Interpreter::from_source(source).expect("the model checks");
    let report = Checker::new(model.clone()).progress(false).run();
    report.assert_verified();
    assert_eq!((report.states(), report.transitions()), (3, 2));
    let ltl = Checker::new(model).ltl("Ends").progress(false).run();
    ltl.assert_verified();
}

reference!(
    a_heuristic_changes_no_count,
    heuristic_walk,
    HeuristicWalk,
    "../../models/v3/heuristic_walk.bir",
    "v3/heuristic_walk.bir",
    441,
    1_277,
    0,
    1
);

/// The states each search stores before its first finding, and the finding's trace length.
fn to_the_first_finding<M: Model + Clone>(model: M) -> Vec<(u64, usize)> {
    let searches = [
        Checker::new(model.clone()),
        Checker::new(model.clone()).bfs(),
        Checker::new(model.clone()).best_first(Heuristic::model("Distance")),
        Checker::new(model).order_by(Heuristic::model("Distance")),
    ];
    searches
        .into_iter()
        .map(|checker| {
            let report = checker.shortest(false).progress(false).run();
            let trace = report.first_finding().map_or(0, |c| c.steps().len());
            (report.states(), trace)
        })
        .collect()
}

/// `heuristic Distance: ...` in both engines: the same table, the same value in every
/// state, and a best-first search by it, which reaches the target before depth-first and
/// breadth-first searches do, stores the same states in each engine.
#[test]
fn a_declared_heuristic_orders_the_search_in_both_engines() {
    let compiled = heuristic_walk::HeuristicWalk;
    let interpreted = interpreted("v3/heuristic_walk.bir");
    let names: Vec<&str> = compiled.heuristics().iter().map(|h| &*h.name).collect();
    assert_eq!(names, ["Distance"]);
    assert_eq!(
        compiled.heuristics()[0].text,
        interpreted.heuristics()[0].text
    );
    assert_eq!(
        compiled.heuristic(0, &compiled.initial_state()),
        Ok(15 * 15 + 15 * 15)
    );
    assert_eq!(
        interpreted.heuristic(0, &interpreted.initial_state()),
        Ok(15 * 15 + 15 * 15)
    );
    let first = to_the_first_finding(compiled);
    assert_eq!(first, to_the_first_finding(interpreted), "the interpreter");
    let (dfs, bfs, best, ordered) = (first[0].0, first[1].0, first[2].0, first[3].0);
    assert!(best < dfs && best < bfs, "{first:?}");
    assert!(ordered < dfs, "{first:?}");
}
