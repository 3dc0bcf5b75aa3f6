//! The files for sharing and the terminal: `bir graph` (DOT, JSON, the refusal), `bir
//! murphi`, `bir promela`,
//! `bir check --html`, `bir simulate`, and `bir simulate --guided` driven through a
//! pseudo-terminal as a person would type.

mod common;

use std::io::{Read, Write};
use std::os::fd::{FromRawFd, OwnedFd};
use std::process::Stdio;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use common::{bir_command, model, run_bir};

fn bir(args: &[&str]) -> (i32, String, String) {
    run_bir(args, &[])
}

#[test]
fn the_state_graph_as_dot_and_json_and_its_refusal() {
    let two = model("two_dining_philosophers.bir");
    let (status, dot, _) = bir(&["graph", &two]);
    assert_eq!(status, 0);
    assert!(dot.starts_with("digraph TwoDiningPhilosophers {"), "{dot}");
    assert_eq!(dot.matches(" -> ").count(), 14, "{dot}");
    assert!(dot.contains(
        "fork1 = true, fork2 = true, Philosopher1 @ loc1, Philosopher2 @ loc1\\n(deadlock)"
    ));
    assert!(dot.contains("label=\"Philosopher2: when !fork2 do { fork2 := true; } goto loc1;\""));
    let (status, text, _) = bir(&["graph", &two, "--json"]);
    assert_eq!(status, 0);
    let json: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    assert_eq!(json["nodes"].as_array().unwrap().len(), 10);
    assert_eq!(json["edges"].as_array().unwrap().len(), 14);
    assert_eq!(json["nodes"][4]["kind"], "deadlock");
    let (status, out, err) = bir(&[
        "graph",
        &model("dining_philosophers.bir"),
        "--max-states",
        "50",
    ]);
    assert_eq!(status, 3);
    assert!(out.is_empty());
    assert_eq!(
        err,
        "bir: error: the model has more than 50 reachable states, too many to draw; \
         raise --max-states, or shrink the model with --set\n"
    );
    let (status, _, err) = bir(&["graph", &two, "--max-states", "0"]);
    assert_eq!(status, 2);
    assert!(
        err.contains("1 to 1000000 states") && err.contains("bir graph --help"),
        "{err}"
    );
}

#[test]
fn the_state_graph_of_version_3_models_shows_pairings_and_what_channels_hold() {
    let (status, dot, _) = bir(&["graph", &model("v3/rdv_pair.bir")]);
    assert_eq!(status, 0);
    assert!(
        dot.contains(
            "s0 -> s1 [label=\"S <-> R: do { c!(5 + g); g := 1; } return; with R: do { c?(x); \
         seen := g; } goto r1;\", style=bold, color=\"#059669\"];"
        ),
        "{dot}"
    );
    let (status, dot, _) = bir(&["graph", &model("v3/chan_fifo.bir")]);
    assert_eq!(status, 0);
    assert!(dot.contains("c = [⟨1⟩, ⟨2⟩] (2 of 2)"), "{dot}");
    let (status, text, _) = bir(&["graph", &model("beem/needham.1.bir"), "--json"]);
    assert_eq!(status, 0);
    let json: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    let edges = json["edges"].as_array().unwrap();
    assert_eq!(
        (json["nodes"].as_array().unwrap().len(), edges.len()),
        (497, 753)
    );
    let pair = edges
        .iter()
        .find_map(|e| e.get("rendezvous"))
        .expect("a pairing");
    assert!(
        pair["sender"].is_string() && pair["receiver"].is_string(),
        "{pair}"
    );
}

#[test]
fn the_model_in_murphi_for_rumur_and_a_malformed_one() {
    let peterson = model("peterson_filter.bir");
    let (status, text, err) = bir(&["murphi", &peterson, "--set", "Param.N=4"]);
    assert_eq!((status, err.as_str()), (0, ""));
    assert!(
        text.starts_with("-- The BIR system `PetersonFilter`"),
        "{text}"
    );
    // The commands the text and the help give run as written (`--value-type int64_t`
    // would not: Rumur's 64-bit type has no room for "undefined").
    assert!(
        text.contains("rumur --deadlock-detection off --value-type int32_t"),
        "{text}"
    );
    let (_, help, _) = bir(&["murphi", "--help"]);
    assert!(
        help.contains("rumur --deadlock-detection off --value-type int32_t"),
        "{help}"
    );
    for expected in [
        "  g_level: array [0..3] of 0..3;",
        "ruleset inst: 0..3 do",
        "invariant \"MutualExclusion: incs <= 1\"",
    ] {
        assert!(
            text.lines().any(|l| l == expected),
            "no `{expected}` in\n{text}"
        );
    }
    // Counting past errors: no invariant of Murphi's own, each step's outcome decided.
    let (status, text, _) = bir(&["murphi", &model("sum_to_n.bir"), "--past-errors"]);
    assert_eq!(status, 0);
    assert!(
        text.contains("function outcome_0_0(inst: 0..0): 0..2;"),
        "{text}"
    );
    assert!(!text.contains("\ninvariant "), "{text}");
    // What Rumur counts of them is `bir-difftest`'s test `rumur` (it needs Rumur).
    let dir = std::env::temp_dir().join(format!("bir-murphi-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let broken = dir.join("broken.bir");
    std::fs::write(
        &broken,
        "system S { active thread T() { loc a: do { x := 1; } goto a; } }",
    )
    .unwrap();
    let (status, out, err) = bir(&["murphi", broken.to_str().unwrap()]);
    assert_eq!(status, 2);
    assert!(out.is_empty());
    assert!(err.contains("unknown name `x`"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_model_in_promela_for_spin_and_its_refusal() {
    let dir = std::env::temp_dir().join(format!("bir-promela-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let lock = dir.join("lock.bir");
    std::fs::write(
        &lock,
        "system Lock {
           boolean taken;
           active [2] thread P(int index) {
             loc idle: do {} goto waiting;
             loc waiting: when !taken do { taken := true; } goto critical;
             loc critical: do { taken := false; } goto idle;
           }
           ltl Served: [](P[0]@waiting -> <>P[0]@critical);
         }",
    )
    .unwrap();
    let (status, text, err) = bir(&["promela", lock.to_str().unwrap()]);
    assert_eq!((status, err.as_str()), (0, ""));
    for expected in [
        "  :: d_step { (st_P_0 == 1 && !(g_taken)); g_taken = true; st_P_0 = 2 }",
        "ltl Served { []((((st_P_0 == 1)) -> <>(((st_P_0 == 2))))) }",
    ] {
        assert!(
            text.lines().any(|l| l == expected),
            "no `{expected}` in\n{text}"
        );
    }
    // What SPIN says of such models is `bir-difftest`'s test `spin` (it needs SPIN).
    let late = dir.join("late.bir");
    std::fs::write(
        &late,
        "system S { int (0, 3) x; active thread T() { loc l: do { x := 1; assume (x > 0); } goto l; } }",
    )
    .unwrap();
    let (status, out, err) = bir(&["promela", late.to_str().unwrap()]);
    assert_eq!(status, 2);
    assert!(out.is_empty());
    assert!(err.contains("cannot write the model in Promela"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_html_report_is_one_file_with_the_chart_and_the_table() {
    let dir = std::env::temp_dir().join(format!("bir-html-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("report.html");
    let path = file.display().to_string();
    let (status, out, _) = bir(&[
        "check",
        &model("two_dining_philosophers.bir"),
        "--bfs",
        "--html",
        &path,
    ]);
    assert_eq!(status, 1);
    assert!(out.contains("deadlock found"));
    let page = std::fs::read_to_string(&file).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert!(page.contains("data-verdict=\"deadlock\""));
    assert_eq!(page.matches("class=\"msc-arrow\"").count(), 2);
    assert!(
        page.contains("<td>Philosopher2</td><td>loc0 → loc1</td>"),
        "{page}"
    );
    let (status, _, _) = bir(&["check", &model("sum_to_n.bir"), "--html", &path]);
    assert_eq!(status, 1);
    let (status, _, _) = bir(&["check", &model("bounded_buffer.bir"), "--html", &path]);
    assert_eq!(status, 0);
    let page = std::fs::read_to_string(&file).unwrap();
    assert!(page.contains("data-verdict=\"verified\""));
    let (status, _, err) = bir(&[
        "check",
        &model("bounded_buffer.bir"),
        "--html",
        "/nonexistent/dir/r.html",
    ]);
    assert_eq!(status, 2);
    assert!(
        err.contains("cannot write `/nonexistent/dir/r.html`"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn random_walks_find_the_deadlock_with_a_seed() {
    let (status, out, _) = bir(&[
        "simulate",
        &model("two_dining_philosophers.bir"),
        "--seed",
        "3",
    ]);
    assert_eq!(status, 1);
    assert!(out.contains("deadlock found (random simulation)"), "{out}");
    let (again, out2, _) = bir(&[
        "simulate",
        &model("two_dining_philosophers.bir"),
        "--seed",
        "3",
    ]);
    assert_eq!(again, 1);
    assert_eq!(out.lines().nth(2), out2.lines().nth(2));
}

#[test]
fn guided_simulation_in_a_pseudo_terminal() {
    let (master, slave) = open_pty();
    let stdio = |fd: &OwnedFd| Stdio::from(fd.try_clone().expect("dup"));
    let mut child = bir_command()
        .args([
            "simulate",
            &model("two_dining_philosophers.bir"),
            "--guided",
        ])
        .stdin(stdio(&slave))
        .stdout(stdio(&slave))
        .stderr(stdio(&slave))
        .spawn()
        .expect("bir simulate --guided runs");
    drop(slave);
    let mut writer = std::fs::File::from(master.try_clone().expect("dup"));
    let mut reader = std::fs::File::from(master);
    let (sender, screen) = mpsc::channel::<Vec<u8>>();
    std::thread::spawn(move || {
        let mut buffer = [0u8; 4096];
        // Reading a pty whose other side closed fails (EIO): the end.
        while let Ok(n) = reader.read(&mut buffer) {
            if n == 0 || sender.send(buffer[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    let mut seen = String::new();
    let wait_for = |text: &str, seen: &mut String| {
        let deadline = Instant::now() + Duration::from_secs(30);
        while !seen.contains(text) {
            let left = deadline.saturating_duration_since(Instant::now());
            match screen.recv_timeout(left) {
                Ok(bytes) => seen.push_str(&String::from_utf8_lossy(&bytes)),
                Err(_) => panic!("waited for {text:?}; the terminal shows:\n{seen}"),
            }
        }
    };
    // The prompt starts a line; "> " alone also matches the arrows of "loc0 -> loc1".
    wait_for("\n> ", &mut seen);
    assert!(
        seen.contains("step 0: fork1 = false, fork2 = false, Philosopher1 @ loc0"),
        "{seen}"
    );
    assert!(
        seen.contains("   1  Philosopher1 loc0 -> loc1   when !fork1"),
        "{seen}"
    );
    assert!(
        seen.contains("   2  Philosopher2 loc0 -> loc1   when !fork2"),
        "{seen}"
    );
    writer.write_all(b"1\n").unwrap();
    wait_for("step 1:", &mut seen);
    // Philosopher2's move is the second choice at step 1 too.
    writer.write_all(b"2\n").unwrap();
    wait_for("replay: bir1:0.4", &mut seen);
    assert!(seen.contains(
        "deadlock: no transition is enabled: Philosopher1 blocked at loc1, Philosopher2 blocked at loc1"
    ));
    writer.write_all(b"b\n").unwrap();
    wait_for("f forward", &mut seen);
    writer.write_all(b"q\n").unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(Instant::now() < deadline, "bir did not quit");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success(), "{status:?}");
}

/// A new pseudo-terminal: (master, slave).
fn open_pty() -> (OwnedFd, OwnedFd) {
    let (mut master, mut slave) = (-1, -1);
    // SAFETY: openpty writes two new descriptors into the pointers it is given; the name,
    // termios and window size arguments may be null.
    let result = unsafe {
        libc::openpty(
            &mut master,
            &mut slave,
            std::ptr::null_mut(),
            std::ptr::null(),
            std::ptr::null(),
        )
    };
    assert_eq!(result, 0, "openpty: {}", std::io::Error::last_os_error());
    // SAFETY: both descriptors were just opened by openpty and are owned by nothing else.
    unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) }
}
