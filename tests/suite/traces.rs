//! Counterexamples as users read them: numbered steps with the transformation's text and
//! line, the variables each step changed, the final state in full, and a replay string
//! that rebuilds the same path.

use bir::{bir, FindingKind};

bir! {
    system Handshake {
        enum Phase { Idle, Asked, Done }
        Phase phase;
        int (0, 3)[2] count;
        active thread Client() {
            loc ask: do { phase := Phase.Asked; count[0] := count[0] + 1; } goto wait;
            loc wait: when phase == Phase.Done do { assert (count[1] == 2); } goto ask;
        }
        active thread Server() {
            loc serve: when phase == Phase.Asked do { phase := Phase.Done; count[1] := count[1] + 1; } goto serve;
        }
    }
}

#[test]
fn a_trace_names_every_step_and_every_change() {
    let report = Handshake::checker().bfs().run();
    let cx = report.assert_found(FindingKind::Assertion);
    assert_eq!(cx.len(), 3);
    let text = cx.to_string();
    let expected_lines = [
        "#1  Client ask -> wait   do { phase := Phase.Asked; count[0] := count[0] + 1; } goto wait;",
        "phase: Phase.Idle -> Phase.Asked, count[0]: 0 -> 1",
        "#2  Server serve -> serve   when phase == Phase.Asked do { phase := Phase.Done; count[1] := count[1] + 1; } goto serve;",
        "#3  Client wait -> ask   when phase == Phase.Done do { assert (count[1] == 2); } goto ask;",
    ];
    for line in expected_lines {
        assert!(text.contains(line), "missing {line:?} in:\n{text}");
    }
    assert!(
        text.contains("count = [1, 1]"),
        "final state in full:\n{text}"
    );
    assert!(text.contains("Client @ wait"), "{text}");
}

#[test]
fn a_replay_string_rebuilds_the_same_counterexample() {
    for checker in [Handshake::checker(), Handshake::checker().bfs()] {
        let report = checker.run();
        let cx = report.first_finding().expect("a finding");
        let replayed = Handshake::checker().replay(cx.replay()).expect("replays");
        assert_eq!(&replayed, cx);
    }
    assert!(
        Handshake::checker().replay("bir1:1").is_err(),
        "Server is not enabled first"
    );
    assert!(Handshake::checker().replay("nonsense").is_err());
}

#[test]
fn states_print_with_their_names() {
    let state = bir::Model::initial_state(&Handshake);
    assert_eq!(
        state.to_string(),
        "phase = Phase.Idle, count = [0, 0], Client @ ask, Server @ serve"
    );
    assert!(format!("{state:?}").contains("count = [0, 0]"));
}

#[test]
fn the_report_prints_verdict_trace_and_statistics() {
    let text = Handshake::checker().run().to_string();
    assert!(text.starts_with("Handshake: assertion"), "{text}");
    assert!(text.contains("replay: bir1:"), "{text}");
    assert!(text.contains("states: "), "{text}");
}
