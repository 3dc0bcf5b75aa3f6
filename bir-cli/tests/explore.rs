//! `bir explore`'s API without a browser: the walk to the deadlock, replay strings, checks
//! on the interpreter and on the compiled checker (progress, cancellation), the state
//! graph, and every refusal (bad ids, bad strings, bad bodies, foreign hosts and origins) as
//! a 4xx with a message.

mod common;

use std::time::{Duration, Instant};

use common::{json, model, request, wait_for_compiled, Explorer};
use serde_json::json;

#[test]
fn the_page_and_its_files_are_served_from_the_binary() {
    let server = Explorer::start(&model("two_dining_philosophers.bir"));
    let page = request(&server.address, "GET", "/", &[], None);
    assert_eq!(page.status, 200);
    assert!(page
        .header("content-type")
        .unwrap()
        .starts_with("text/html"));
    assert!(page.text().contains("<script src=\"/page.js\""));
    assert!(!page.text().contains("https://"), "no CDN");
    assert!(page
        .header("content-security-policy")
        .unwrap()
        .contains("default-src 'self'"));
    for file in ["/page.js", "/page.css"] {
        assert_eq!(
            request(&server.address, "GET", file, &[], None).status,
            200,
            "{file}"
        );
    }
    let model = json(&server.address, "GET", "/api/model", None).json();
    assert_eq!(model["name"], "TwoDiningPhilosophers");
    assert_eq!(
        request(&server.address, "GET", "/nothing", &[], None).status,
        404
    );
    assert_eq!(
        request(&server.address, "DELETE", "/api/state", &[], None).status,
        405
    );
}

#[test]
fn two_steps_walk_to_the_deadlock_and_back() {
    let server = Explorer::start(&model("two_dining_philosophers.bir"));
    let a = &server.address;
    let state = json(a, "GET", "/api/state", None).json();
    assert_eq!(state["status"], "running");
    let ids: Vec<u64> = state["choices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["transition"].as_u64().unwrap())
        .collect();
    assert_eq!(ids, [0, 4]);
    json(a, "POST", "/api/take", Some(json!({"transition": 0})));
    let state = json(a, "POST", "/api/take", Some(json!({"transition": 4}))).json();
    assert_eq!(state["status"], "deadlock");
    assert!(state["message"]
        .as_str()
        .unwrap()
        .contains("Philosopher2 blocked at loc1"));
    assert_eq!(state["replay"], "bir1:0.4");
    assert_eq!(
        state["msc"]
            .as_str()
            .unwrap()
            .matches("class=\"msc-arrow\"")
            .count(),
        2
    );
    let changed: Vec<&str> = state["variables"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|v| v["changed"] == true)
        .map(|v| v["name"].as_str().unwrap())
        .collect();
    assert_eq!(changed, ["fork2", "Philosopher2"]);
    let svg = request(a, "GET", "/api/msc.svg", &[], None);
    assert_eq!(svg.header("content-type"), Some("image/svg+xml"));
    assert!(svg.text().starts_with("<svg"));
    let state = json(a, "POST", "/api/back", Some(json!({}))).json();
    assert_eq!(
        (state["step"].as_u64(), state["can_forward"].as_bool()),
        (Some(1), Some(true))
    );
    let state = json(a, "POST", "/api/forward", Some(json!({}))).json();
    assert_eq!(state["status"], "deadlock");
    let state = json(a, "POST", "/api/reset", Some(json!({}))).json();
    assert_eq!(state["step"], 0);
    let once = json(
        a,
        "POST",
        "/api/random",
        Some(json!({"seed": 7, "steps": 5})),
    )
    .json();
    json(a, "POST", "/api/reset", Some(json!({})));
    let again = json(
        a,
        "POST",
        "/api/random",
        Some(json!({"seed": 7, "steps": 5})),
    )
    .json();
    assert_eq!(
        once["replay"], again["replay"],
        "the same seed, the same steps"
    );
}

#[test]
fn bad_inputs_are_4xx_with_a_message() {
    let server = Explorer::start(&model("two_dining_philosophers.bir"));
    let a = &server.address;
    for (path, body, status, expected) in [
        (
            "/api/take",
            json!({"transition": 1}),
            409,
            "not enabled here (enabled: 0, 4)",
        ),
        ("/api/take", json!({"transition": -1}), 400, "bad request"),
        ("/api/take", json!({"transition": "0"}), 400, "bad request"),
        ("/api/take", json!({}), 400, "missing field `transition`"),
        (
            "/api/take",
            json!({"transition": 0, "x": 1}),
            400,
            "unknown field",
        ),
        (
            "/api/replay",
            json!({"replay": "bir1:0.0"}),
            400,
            "step 2: transition 0 is not enabled",
        ),
        (
            "/api/replay",
            json!({"replay": "hello"}),
            400,
            "malformed replay string",
        ),
        ("/api/replay", json!({"replay": 3}), 400, "bad request"),
        ("/api/random", json!({"steps": 0}), 400, "steps: 1 to"),
        (
            "/api/check",
            json!({"strategy": "sideways"}),
            400,
            "expected `dfs` or `bfs`",
        ),
        ("/api/check", json!({"max_states": 0}), 400, "at least 1"),
        ("/api/check", json!({"ltl": "Nope"}), 400, "Nope"),
        ("/api/nothing", json!({}), 404, "nothing is served"),
    ] {
        let reply = json(a, "POST", path, Some(body.clone()));
        assert_eq!(reply.status, status, "{path} {body}: {}", reply.text());
        let message = reply.json()["error"].as_str().unwrap().to_string();
        assert!(message.contains(expected), "{path} {body}: {message}");
    }
    let bytes = |headers: &[(&str, &str)], body: &[u8]| {
        request(a, "POST", "/api/take", headers, Some(body)).status
    };
    let json_type = ("Content-Type", "application/json");
    assert_eq!(bytes(&[json_type], b"{not json"), 400);
    assert_eq!(bytes(&[json_type], &[0xff, 0xfe]), 400);
    assert_eq!(bytes(&[("Content-Type", "text/plain")], b"{}"), 415);
    assert_eq!(bytes(&[], b"{}"), 415);
    let huge = vec![b' '; (1 << 20) + 10];
    assert_eq!(bytes(&[json_type], &huge), 413);
    // Nothing changed the walk, and the server still answers.
    assert_eq!(json(a, "GET", "/api/state", None).json()["step"], 0);
}

#[test]
fn foreign_hosts_and_origins_are_refused() {
    let server = Explorer::start(&model("two_dining_philosophers.bir"));
    let a = &server.address;
    let port = a.rsplit(':').next().unwrap().to_string();
    let evil_host = format!("evil.example:{port}");
    let reply = request(a, "GET", "/api/state", &[("Host", &evil_host)], None);
    assert_eq!(reply.status, 403);
    assert!(reply.json()["error"].as_str().unwrap().contains("DNS"));
    let localhost = format!("localhost:{port}");
    assert_eq!(
        request(a, "GET", "/api/state", &[("Host", &localhost)], None).status,
        200
    );
    let wrong_port = "127.0.0.1:1".to_string();
    assert_eq!(
        request(a, "GET", "/", &[("Host", &wrong_port)], None).status,
        403
    );
    let body = br#"{"transition": 0}"#;
    let post = |origin: &str| {
        request(
            a,
            "POST",
            "/api/take",
            &[("Content-Type", "application/json"), ("Origin", origin)],
            Some(body),
        )
        .status
    };
    assert_eq!(post("http://evil.example"), 403);
    assert_eq!(post("null"), 403);
    assert_eq!(post(&format!("http://{a}")), 200);
}

#[test]
fn a_check_runs_reports_and_is_cancelled() {
    let server = Explorer::start(&model("two_dining_philosophers.bir"));
    let a = &server.address;
    let reply = json(a, "POST", "/api/check", Some(json!({"strategy": "bfs"})));
    assert_eq!(reply.status, 202, "{}", reply.text());
    let view = wait_for_check(a);
    assert_eq!(view["result"]["verdict"], "deadlock");
    assert!(view["result"]["text"]
        .as_str()
        .unwrap()
        .contains("deadlock found (breadth-first search)"));
    assert_eq!(view["result"]["replay"], "bir1:0.4");
    let report = request(a, "GET", "/api/check/report.html", &[], None);
    assert_eq!(report.status, 200);
    assert!(report.text().contains("data-verdict=\"deadlock\""));
    let state = json(
        a,
        "POST",
        "/api/replay",
        Some(json!({"replay": "bir1:0.4"})),
    )
    .json();
    assert_eq!(state["status"], "deadlock");
    let graph = json(a, "GET", "/api/graph", None).json();
    assert_eq!(graph["states"], 10);
    let state = json(a, "GET", "/api/state", None).json();
    assert_eq!(state["graph"]["nodes"].as_array().unwrap().len(), 3);

    // A large model: the state graph is refused, a check is cancelled.
    let big = Explorer::start_with(&model("dining_philosophers.bir"), &["--set", "Param.N=14"]);
    let b = &big.address;
    let graph = json(b, "GET", "/api/graph", None);
    assert_eq!(graph.status, 422);
    assert!(graph.json()["error"]
        .as_str()
        .unwrap()
        .contains("more than 2000"));
    let reply = json(b, "POST", "/api/check", Some(json!({"no_deadlock": true})));
    assert_eq!(reply.status, 202, "{}", reply.text());
    assert_eq!(json(b, "POST", "/api/check", Some(json!({}))).status, 409);
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(
        json(b, "POST", "/api/check/cancel", Some(json!({}))).json()["cancelled"],
        true
    );
    let view = wait_for_check(b);
    assert_eq!(view["result"]["verdict"], "incomplete");
    assert_eq!(view["result"]["report"]["incomplete_reason"], "cancelled");
    assert_eq!(view["check_engine"], "interpreter (--interpret)");
    assert_eq!(view["engine"], "interpreter (--interpret)");
}

#[test]
fn a_check_runs_on_the_compiled_checker_once_it_is_built() {
    let server = Explorer::compiled(&model("two_dining_philosophers.bir"), &[]);
    let a = &server.address;
    let engine = json(a, "GET", "/api/model", None).json()["engine"].clone();
    assert!(
        engine == "building" || engine == "compiled",
        "the model view names the engine: {engine}"
    );
    wait_for_compiled(a);
    let reply = json(a, "POST", "/api/check", Some(json!({"strategy": "bfs"})));
    assert_eq!(reply.status, 202, "{}", reply.text());
    let view = wait_for_check(a);
    assert_eq!(view["check_engine"], "compiled", "{view}");
    assert_eq!(view["error"], serde_json::Value::Null);
    let result = &view["result"];
    assert_eq!(result["verdict"], "deadlock");
    assert_eq!(result["replay"], "bir1:0.4");
    assert!(result["text"]
        .as_str()
        .unwrap()
        .contains("deadlock found (breadth-first search)"));
    assert_eq!(result["report"]["verdict"], "deadlock");
    assert_eq!(result["report"]["counterexamples"][0]["replay"], "bir1:0.4");
    assert!(result["report"]["file"]
        .as_str()
        .unwrap()
        .ends_with("two_dining_philosophers.bir"));
    let report = request(a, "GET", "/api/check/report.html", &[], None);
    assert_eq!(report.status, 200);
    assert!(report.text().contains("data-verdict=\"deadlock\""));
    // The same options are refused as on the interpreter, before anything runs.
    let refused = json(a, "POST", "/api/check", Some(json!({"max_states": 0})));
    assert_eq!(refused.status, 400);
}

#[test]
fn a_long_compiled_check_shows_its_progress_and_is_cancelled() {
    let server = Explorer::compiled(&model("dining_philosophers.bir"), &["--set", "Param.N=14"]);
    let a = &server.address;
    wait_for_compiled(a);
    let reply = json(a, "POST", "/api/check", Some(json!({"no_deadlock": true})));
    assert_eq!(reply.status, 202, "{}", reply.text());
    // Progress lines come from the binary while it runs.
    let started = Instant::now();
    let running = loop {
        let view = json(a, "GET", "/api/check", None).json();
        if view["progress"]["states"].as_u64().unwrap_or(0) > 0 {
            break view;
        }
        assert!(
            view["running"] == true && started.elapsed() < Duration::from_secs(60),
            "no progress from the compiled checker: {view}"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(running["running"], true, "{running}");
    assert_eq!(running["check_engine"], "compiled");
    assert_eq!(
        json(a, "POST", "/api/check/cancel", Some(json!({}))).json()["cancelled"],
        true
    );
    let cancelled = Instant::now();
    let view = wait_for_check(a);
    assert!(
        cancelled.elapsed() < Duration::from_secs(5),
        "a cancelled binary stops at once, without being killed"
    );
    assert_eq!(view["cancelled"], true);
    assert_eq!(view["error"], serde_json::Value::Null, "{view}");
    let result = &view["result"];
    assert_eq!(result["verdict"], "incomplete");
    assert_eq!(result["report"]["incomplete_reason"], "cancelled");
    assert_eq!(result["report"]["complete"], false);
    assert!(result["report"]["states"].as_u64().unwrap() > 0);
    let text = result["text"].as_str().unwrap();
    assert!(
        text.contains("cancelled") && text.contains("not verified"),
        "{text}"
    );
    assert!(
        !text.replace("not verified", "").contains("verified"),
        "{text}"
    );
}

/// Polls the check until it ends; returns its view.
fn wait_for_check(address: &str) -> serde_json::Value {
    let started = Instant::now();
    loop {
        let view = json(address, "GET", "/api/check", None).json();
        if view["running"] == false {
            return view;
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the check did not end"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}
