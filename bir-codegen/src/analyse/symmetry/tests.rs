//! The groups found on small models and the reference ones.

use std::str::FromStr;

use proc_macro2::TokenStream;

use super::*;

fn families_of(source: &str) -> Vec<Family> {
    let tokens = TokenStream::from_str(source).expect("tokenizes");
    let system = crate::front_end(tokens)
        .unwrap_or_else(|d| panic!("{:?}", d.iter().map(|d| &d.message).collect::<Vec<_>>()));
    families(&system)
}

#[test]
fn peterson_is_symmetric_but_for_the_initial_victim() {
    let peterson = families_of(include_str!("../../../../models/peterson_filter.bir"));
    let [family] = &peterson[..] else {
        panic!("{peterson:?}")
    };
    assert_eq!(family.permuted, [1, 2]);
    assert_eq!(family.indexed, [GlobalId(0)]);
    assert_eq!(family.pid_globals, [GlobalId(1)]);
    assert!(
        family
            .note
            .contains("P[0] fixed: the constant 0 in the initial value of `victim`"),
        "{}",
        family.note
    );
}

#[test]
fn arithmetic_on_an_index_breaks_the_symmetry() {
    let phils = families_of(include_str!("../../../../models/dining_philosophers.bir"));
    assert!(phils[0].permuted.is_empty());
    assert!(
        phils[0]
            .note
            .contains("the instance index of `Philosopher` is used in arithmetic"),
        "{}",
        phils[0].note
    );
}

#[test]
fn toggling_bits_have_the_full_group() {
    let bits = families_of(
        "system Bits {
            boolean[5] bit;
            active [5] thread T(int index) {
                loc l: do { bit[index] := !bit[index]; } goto l;
            }
        }",
    );
    assert_eq!(bits[0].permuted, [0, 1, 2, 3, 4]);
    assert_eq!(bits[0].note, "`T`: every permutation of its 5 instances");
}

#[test]
fn what_properties_name_is_fixed_and_narrow_types_break() {
    let named = families_of(
        "system S {
            boolean[3] on;
            active [3] thread T(int index) {
                loc l: do { on[index] := true; } goto m;
                loc m: do { } goto m;
            }
            invariant I: !(T[2]@m && on[1]);
        }",
    );
    assert_eq!(named[0].permuted, [0]);
    assert!(
        named[0].note.starts_with("`T`: no symmetry: T[1] fixed"),
        "{}",
        named[0].note
    );
    let narrow = families_of(
        "system S {
            int (0, 1) last;
            int (0, 3) owner := 3;
            active [3] thread T(int index) {
                loc l: when owner == 3 do { last := index; owner := index; } goto l;
            }
        }",
    );
    assert!(
        narrow[0].note.contains("`last` holds instance indices"),
        "{}",
        narrow[0].note
    );
    let nobody = families_of(
        "system S {
            int (0, 3) owner := 3;
            active [3] thread T(int index) {
                loc l: when owner == 3 do { owner := index; } goto m;
                loc m: when owner == index do { owner := 3; } goto l;
            }
        }",
    );
    // 3 is nobody: no instance is named.
    assert_eq!(nobody[0].permuted, [0, 1, 2]);
    assert_eq!(nobody[0].pid_globals, [GlobalId(0)]);
}

#[test]
fn quantifiers_must_range_over_every_instance() {
    let partial = families_of(
        "system S {
            boolean[3] on;
            active [3] thread T(int index) {
                loc l: when forall k in 0 .. 2 : (k == index || !on[k])
                       do { on[index] := true; } goto l;
            }
        }",
    );
    assert!(
        partial[0].note.contains("ranges over 0 .. 2"),
        "{}",
        partial[0].note
    );
    // A negative constant in the body cannot fault: the group stays whole.
    let negative = families_of(
        "system S {
            boolean[2] on;
            active [2] thread T(int index) {
                loc l: when forall k in 0 .. 2 : (k == -1 || on[k])
                       do { on[index] := true; } goto l;
            }
        }",
    );
    assert_eq!(negative[0].permuted, [0, 1], "{}", negative[0].note);
}

/// The system and its families, for the tests that name the hidden globals.
fn system_of(source: &str) -> (ir::System, Vec<Family>) {
    let tokens = TokenStream::from_str(source).expect("tokenizes");
    let system = crate::front_end(tokens)
        .unwrap_or_else(|d| panic!("{:?}", d.iter().map(|d| &d.message).collect::<Vec<_>>()));
    let families = families(&system);
    (system, families)
}

#[test]
fn an_array_of_locks_indexed_by_instances_moves_with_them() {
    let (system, families) = system_of(
        "system S {
            lock own[3];
            lock m;
            int (0, 3) inside;
            active [3] thread P(int (0, 2) id) {
                loc l0: do { lock(own[id]); } goto l1;
                loc l1: do { lock(m); } goto l2;
                loc l2: do { inside := inside + 1; } goto l3;
                loc l3: do { inside := inside - 1; unlock(m); } goto l4;
                loc l4: do { unlock(own[id]); } goto l0;
            }
        }",
    );
    let [family] = &families[..] else {
        panic!("{families:?}")
    };
    assert_eq!(family.permuted, [0, 1, 2], "{}", family.note);
    let (own, m) = (&system.hidden.locks[0], &system.hidden.locks[1]);
    // The owner and the count of `own[p]` move with P[p]; both owners hold global numbers.
    assert_eq!(family.indexed, [own.owner, own.count]);
    assert_eq!(family.instance_globals, [own.owner, m.owner]);
    assert!(family.pid_globals.is_empty() && family.strided.is_empty());
}

#[test]
fn a_later_family_holds_locks_at_its_own_offset() {
    let (system, families) = system_of(
        "system Desks {
            lock desk[3];
            int (-1, 2) offer := -1;
            active [3] thread Server(int (0, 2) id) {
                loc idle: when offer == -1 do { lock(desk[id]); offer := id; } goto open;
                loc open: do { unlock(desk[id]); } goto idle;
            }
            active [2] thread Client(int (0, 1) id) {
                int (-1, 2) s := -1;
                loc c0: when offer != -1 do { s := offer; offer := -1; } goto c1;
                loc c1: do { lock(desk[s]); } goto c2;
                loc c2: do { unlock(desk[s]); s := -1; } goto c0;
            }
        }",
    );
    let [server, client] = &families[..] else {
        panic!("{families:?}")
    };
    let desk = &system.hidden.locks[0];
    assert_eq!(server.permuted, [0, 1, 2], "{}", server.note);
    assert_eq!(client.permuted, [0, 1], "{}", client.note);
    // `desk` is indexed by servers' ids, which `offer` and each client's `s` hold; its
    // owners are global numbers of either family (clients from 3).
    assert_eq!(server.indexed, [desk.owner, desk.count]);
    let offer = system
        .globals
        .iter_enumerated()
        .find(|(_, g)| g.name == "offer");
    assert_eq!(server.pid_globals, [offer.expect("a global").0]);
    assert_eq!(server.pid_locals, [(client.thread, LocalId(0))]);
    assert_eq!(server.instance_globals, [desk.owner]);
    assert_eq!(client.instance_globals, [desk.owner]);
    assert!(client.indexed.is_empty());
    assert_eq!(system.threads[client.thread].first_instance.0, 3);
}

#[test]
fn wait_marks_move_in_each_family_s_window() {
    let (system, families) = system_of(include_str!("../../../../models/v3/lock_notify.bir"));
    let [family] = &families[..] else {
        panic!("{families:?}")
    };
    assert_eq!(family.permuted, [0, 1], "{}", family.note);
    let waits = system.hidden.waits.expect("the model waits");
    assert_eq!(family.windows, [(waits.mark, 0), (waits.count, 0)]);
    assert_eq!(family.instance_globals, [system.hidden.locks[0].owner]);
    // Waiting on an element of an array of locks that a pid names: its number in the wait
    // mark would need renaming.
    let refused = families_of(
        "system S {
            lock m[2];
            active [2] thread W(int (0, 1) id) {
                loc l0: do { lock(m[id]); } goto l1;
                loc l1: do { wait(m[id]); } goto l2;
                loc l2: do { unwait(m[id]); } goto l3;
                loc l3: do { unlock(m[id]); } goto l0;
            }
        }",
    );
    assert!(refused[0].permuted.is_empty());
    assert!(
        refused[0]
            .note
            .contains("names the element of an array of locks that a `wait` waits on"),
        "{}",
        refused[0].note
    );
}

#[test]
fn an_array_of_channels_indexed_by_instances_moves_with_them() {
    let (system, families) = system_of(
        "system Mailboxes {
            channel (boolean, int (0, 3)) buffer 2 box[3];
            int (-1, 2) ready := -1;
            active [3] thread W(int (0, 2) id) {
                boolean b;
                int (0, 3) n;
                loc l0: when ready == -1 do { ready := id; } goto l1;
                loc l1: when !empty(box[id]) do { box[id]?(b, n); } goto l0;
            }
            active thread C() {
                loc c0: when ready != -1 do { box[ready]!(true, 3); ready := -1; } goto c0;
            }
        }",
    );
    let [family] = &families[..] else {
        panic!("{families:?}")
    };
    assert_eq!(family.permuted, [0, 1, 2], "{}", family.note);
    let boxes = &system.hidden.channels[0];
    assert_eq!(family.indexed, [boxes.length]);
    assert_eq!(family.strided, [(boxes.slots[0], 2), (boxes.slots[1], 2)]);
    assert!(family.pid_globals.iter().all(|g| !boxes.holds(*g)));
}

#[test]
fn what_channels_cannot_permute_is_said() {
    // A buffered channel's empty slots hold the field's default, 0: instance 0 is named.
    let queue = families_of(
        "system S {
            channel (int (-1, 2)) buffer 2 q;
            active [3] thread W(int (0, 2) id) {
                loc l0: do { q!(id); } goto l1;
                loc l1: do { } goto l1;
            }
            active thread R() {
                int (-1, 2) x := -1;
                loc r0: do { q?(x); } goto r0;
            }
        }",
    );
    assert_eq!(queue[0].permuted, [1, 2]);
    assert!(
        queue[0]
            .note
            .contains("W[0] fixed: the constant 0 in the empty message slots of channel `q`"),
        "{}",
        queue[0].note
    );
    // A rendezvous message has no slots: the ids it carries are renamed, if its field
    // holds them all.
    let rendezvous = |field: &str| {
        families_of(&format!(
            "system S {{
                channel ({field}) go;
                active [3] thread W(int (0, 2) id) {{
                    loc l0: do {{ go!(id); }} goto l0;
                }}
                active thread R() {{
                    int (-1, 2) x := -1;
                    loc r0: do {{ go?(x); }} goto r1;
                    loc r1: do {{ x := -1; }} goto r0;
                }}
            }}"
        ))
    };
    assert_eq!(rendezvous("int (-1, 2)")[0].permuted, [0, 1, 2]);
    let narrow = rendezvous("int (-1, 1)");
    assert!(
        narrow[0]
            .note
            .contains("the messages of `go` carry instance indices but the type of field 1"),
        "{}",
        narrow[0].note
    );
    // An array of channels of another length than the family's.
    let longer = families_of(
        "system S {
            channel (boolean) buffer 1 c[4];
            active [3] thread W(int (0, 2) id) {
                loc l0: do { c[id]!(true); } goto l1;
                loc l1: do { c[id]?(_); } goto l0;
            }
        }",
    );
    assert!(longer[0].permuted.is_empty());
    assert!(
        longer[0].note.contains("has 4 elements, not 3"),
        "{}",
        longer[0].note
    );
}

#[test]
fn a_pool_and_an_active_family_beside_it_are_both_permuted() {
    let (system, found) = system_of(
        "system S {
            thread[2] W() { loc w: skip; }
            tid[2] started;
            active [2] thread C(int index) {
                loc go: started[index] := start W();
            }
        }",
    );
    let [pool, clients] = &found[..] else {
        panic!("{found:?}")
    };
    assert_eq!(pool.permuted, [0, 1], "{}", pool.note);
    assert_eq!(pool.note, "`W`: every permutation of its 2 instances");
    // The tids the clients keep name the pool's instances: renamed by the pool's
    // permutations; the array they are kept in moves with the clients.
    let started = system
        .globals
        .iter_enumerated()
        .find(|(_, g)| g.name == "started");
    let started = started.expect("a global").0;
    assert_eq!(pool.tid_globals, [started]);
    assert_eq!(clients.permuted, [0, 1], "{}", clients.note);
    assert_eq!(clients.indexed, [started]);
    assert!(clients.tid_globals.is_empty());
}

#[test]
fn a_dispatched_pool_renames_its_tids_everywhere() {
    let (system, found) = system_of(
        "system Dispatch {
            channel (tid) buffer 2 jobs;
            lock m;
            tid[3] ts;
            int (0, 3) done;
            thread[3] W(tid peer) {
                tid seen;
                lock(m);
                seen := peer;
                if threadTerminated(seen) do done := done + 1; end
                unlock(m);
                if !full(jobs) do jobs!(peer); end
            }
            active thread D() {
                int (0, 3) n;
                tid mine;
                while n < 3 do
                    mine := start W(mine);
                    ts[n] := mine;
                    if mine == ts[0] && !empty(jobs) do jobs?(mine); end
                    n := n + 1;
                end
            }
        }",
    );
    let [pool] = &found[..] else {
        panic!("{found:?}")
    };
    assert_eq!(pool.permuted, [0, 1, 2], "{}", pool.note);
    let named = |name: &str| {
        let found = system
            .globals
            .iter_enumerated()
            .find(|(_, g)| g.name == name);
        found.expect("a global").0
    };
    let jobs = &system.hidden.channels[0];
    assert!(pool.tid_globals.contains(&named("ts")));
    assert!(pool.tid_globals.contains(&jobs.slots[0]));
    assert!(!pool.tid_globals.contains(&named("done")));
    let local = |thread: ThreadId, name: &str| {
        let locals = &system.threads[thread].locals;
        let found = locals.iter_enumerated().find(|(_, l)| l.name == name);
        (thread, found.expect("a local").0)
    };
    let d = ThreadId(1);
    assert_eq!(system.threads[d].name, "D");
    for tid in [
        local(pool.thread, "peer"),
        local(pool.thread, "seen"),
        local(d, "mine"),
    ] {
        assert!(pool.tid_locals.contains(&tid), "{tid:?}: {pool:?}");
    }
    assert_eq!(pool.instance_globals, [system.hidden.locks[0].owner]);
    assert!(pool.indexed.is_empty() && pool.strided.is_empty());
}

#[test]
fn what_names_a_pool_instance_fixes_it_and_those_below() {
    let named = families_of(
        "system S {
            thread[4] W() { loc busy: skip; }
            active thread M() {
                loc l: do { start W(); } goto l;
            }
            invariant I: !W[1]@busy;
        }",
    );
    assert_eq!(named[0].permuted, [2, 3], "{}", named[0].note);
    assert!(
        named[0].note.contains(
            "W[0] fixed: below the fixed W[1] (`start` takes the free instance of lowest index"
        ) && named[0]
            .note
            .contains("W[1] fixed: the constant 1 in invariant `I` names it"),
        "{}",
        named[0].note
    );
    // The highest instance named: none is left to permute.
    let top = families_of(
        "system S {
            thread[2] W() { loc busy: skip; }
            active thread M() {
                loc l: do { start W(); } goto l;
            }
            invariant I: !W[1]@busy;
        }",
    );
    assert!(top[0].permuted.len() < 2, "{}", top[0].note);
    assert!(
        top[0].note.starts_with("`W`: no symmetry"),
        "{}",
        top[0].note
    );
    // A quantifier over every instance names none.
    let all = families_of(
        "system S {
            thread[3] W() { loc busy: skip; }
            active thread M() {
                loc l: do { start W(); } goto l;
            }
            invariant I: !(forall k in 0 .. 3 : (W[k]@busy));
        }",
    );
    assert_eq!(all[0].permuted, [0, 1, 2], "{}", all[0].note);
}

#[test]
fn an_array_that_moves_with_a_pool_refuses_it() {
    let moving = families_of(
        "system S {
            boolean[2] seen;
            thread[2] W() { loc busy: skip; }
            active thread M() {
                loc l: do { start W(); } goto l;
            }
            invariant I: forall k in 0 .. 2 : (!W[k]@busy || !seen[k]);
        }",
    );
    assert!(moving[0].permuted.is_empty());
    assert!(
        moving[0].note.contains(
            "`seen` is indexed by the pool's instance indices but keeps its values when an \
             instance is freed"
        ),
        "{}",
        moving[0].note
    );
    // A partial threadTerminated-like disjunction is no translation: its constants name
    // instances. (Only the checker writes tid constants; this one is built by hand below.)
    let ended = families_of(
        "system S {
            tid t;
            thread[3] W() { loc busy: skip; }
            active thread M() {
                loc l: do { t := start W(); } goto m;
                loc m: when threadTerminated(t) do { } goto l;
            }
        }",
    );
    assert_eq!(ended[0].permuted, [0, 1, 2], "{}", ended[0].note);
}
