//! The routes of `bir explore`: the page and its files, and the JSON API the page drives.
//! Every answer is JSON (or the page, a chart, a report), every error a 4xx with
//! `{"error": message}`.

use std::sync::Arc;

use bir_driver::parts::part_json;
use bir_interp::Interpreter;
use bir_runtime::model::{PropertyKind, SlotRole, StateParts};
use bir_runtime::{step_changes, Checker, Model, StepChange};
use serde::Deserialize;
use serde_json::{json, Value};
use tiny_http::{Header, Method, Request, Response};

use crate::graph::{StateGraph, DEFAULT_MAX_STATES};
use crate::json::{kind_name, slot_name, value};
use crate::session::{Session, Status, MAX_PATH};

use super::check::{self, CheckRequest, CheckRun};
use super::engine::{Engine, State};
use super::guard::{check_headers, read_body, Refusal};

const PAGE: &str = include_str!("page.html");
const SCRIPT: &str = include_str!("page.js");
const STYLE: &str = include_str!("page.css");

/// What a route answers.
pub struct Answer {
    status: u16,
    content_type: &'static str,
    body: Vec<u8>,
    /// A file name to save the body as.
    download: Option<&'static str>,
}

impl Answer {
    fn json(value: Value) -> Answer {
        Answer::with(200, "application/json", value.to_string())
    }

    fn with(status: u16, content_type: &'static str, body: impl Into<Vec<u8>>) -> Answer {
        Answer {
            status,
            content_type,
            body: body.into(),
            download: None,
        }
    }

    fn refusal(refusal: Refusal) -> Answer {
        Answer::with(
            refusal.status,
            "application/json",
            json!({ "error": refusal.message }).to_string(),
        )
    }
}

/// The state of the server: the model, the walk, the state graph once drawn, the engine
/// of checks, the check.
pub struct App {
    file: String,
    port: u16,
    session: Session<Interpreter>,
    /// The model's channels, locks and call stacks, which the state view shows in place of
    /// the slots they are kept in.
    parts: StateParts,
    graph: Option<Result<Arc<StateGraph>, String>>,
    engine: Engine,
    check: Option<CheckRun>,
}

impl App {
    /// The server of `model` (read from `file`) on `port`, whose checks run on `engine`.
    pub fn new(model: Interpreter, file: String, port: u16, engine: Engine) -> App {
        App {
            file,
            port,
            parts: StateParts::new(model.info()),
            session: Session::new(Checker::new(model).progress(false)),
            graph: None,
            engine,
            check: None,
        }
    }

    /// The system's name.
    pub fn name(&self) -> String {
        self.session.model().info().name.to_string()
    }

    /// Answers one request.
    pub fn handle(&mut self, mut request: Request) {
        let header = |name: &'static str| {
            request
                .headers()
                .iter()
                .find(|h| h.field.equiv(name))
                .map(|h| h.value.as_str().to_string())
        };
        let (host, origin, content_type) =
            (header("Host"), header("Origin"), header("Content-Type"));
        let method = request.method().clone();
        let url = request.url().to_string();
        let path = url.split('?').next().unwrap_or("").to_string();
        let answer = match check_headers(host.as_deref(), origin.as_deref(), self.port) {
            Err(refusal) => Answer::refusal(refusal),
            Ok(()) if method == Method::Post => {
                let length = request.body_length();
                match read_body(content_type.as_deref(), length, request.as_reader()) {
                    Ok(body) => self.post(&path, &body),
                    Err(refusal) => Answer::refusal(refusal),
                }
            }
            Ok(()) if method == Method::Get || method == Method::Head => self.get(&path),
            Ok(()) => Answer::refusal(Refusal::new(405, format!("method {method} is not served"))),
        };
        let _ = request.respond(response(answer));
    }

    /// The answer to `GET path`.
    pub fn get(&mut self, path: &str) -> Answer {
        match path {
            "/" | "/index.html" => Answer::with(200, "text/html; charset=utf-8", PAGE),
            "/page.js" => Answer::with(200, "text/javascript; charset=utf-8", SCRIPT),
            "/page.css" => Answer::with(200, "text/css; charset=utf-8", STYLE),
            "/api/model" => Answer::json(self.model_view()),
            "/api/state" => Answer::json(self.state_view()),
            "/api/msc.svg" => {
                let mut answer = Answer::with(200, "image/svg+xml", self.chart());
                answer.download = Some("path.svg");
                answer
            }
            "/api/heap.svg" if self.parts.heaps().is_empty() => Answer::refusal(Refusal::new(
                404,
                "the model has no records: no heap to draw",
            )),
            "/api/heap.svg" => {
                let current = self.session.values(self.session.state());
                let mut answer = Answer::with(200, "image/svg+xml", self.heap(&current));
                answer.download = Some("heap.svg");
                answer
            }
            "/api/graph" => self.graph_view(),
            "/api/check" => Answer::json(self.check_view()),
            "/api/check/report.html" => match self.check.as_ref().and_then(CheckRun::html) {
                Some(html) => Answer::with(200, "text/html; charset=utf-8", html),
                None => Answer::refusal(Refusal::new(404, "no check has finished yet")),
            },
            _ if path.starts_with("/api/") => not_found(path),
            _ => not_found(path),
        }
    }

    /// The answer to `POST path` with a JSON body.
    pub fn post(&mut self, path: &str, body: &Value) -> Answer {
        let result = match path {
            "/api/take" => self.take(body),
            "/api/back" => {
                self.session.back();
                Ok(())
            }
            "/api/forward" => {
                self.session.forward();
                Ok(())
            }
            "/api/reset" => {
                self.session.reset();
                Ok(())
            }
            "/api/random" => self.random(body),
            "/api/replay" => self.load(body),
            "/api/check" => return self.start_check(body),
            "/api/check/cancel" => {
                let cancelled = self.check.as_ref().is_some_and(CheckRun::cancel);
                return Answer::json(json!({ "cancelled": cancelled }));
            }
            _ => return not_found(path),
        };
        match result {
            Ok(()) => Answer::json(self.state_view()),
            Err(refusal) => Answer::refusal(refusal),
        }
    }

    fn take(&mut self, body: &Value) -> Result<(), Refusal> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Take {
            transition: u32,
        }
        let take: Take = parse(body)?;
        self.session
            .take(take.transition)
            .map_err(|message| Refusal::new(409, message))
    }

    fn random(&mut self, body: &Value) -> Result<(), Refusal> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Random {
            #[serde(default)]
            seed: u64,
            #[serde(default = "one")]
            steps: usize,
        }
        fn one() -> usize {
            1
        }
        let random: Random = parse(body)?;
        if !(1..=MAX_PATH).contains(&random.steps) {
            return Err(Refusal::new(
                400,
                format!("steps: 1 to {MAX_PATH}, not {}", random.steps),
            ));
        }
        self.session.random(random.seed, random.steps);
        Ok(())
    }

    fn load(&mut self, body: &Value) -> Result<(), Refusal> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Load {
            replay: String,
        }
        let load: Load = parse(body)?;
        self.session
            .load(&load.replay)
            .map_err(|message| Refusal::new(400, message))
    }

    fn start_check(&mut self, body: &Value) -> Answer {
        if self.check.as_ref().is_some_and(CheckRun::running) {
            return Answer::refusal(Refusal::new(409, "a check is running: cancel it first"));
        }
        match self.new_check(body) {
            Ok(run) => {
                self.check = Some(run);
                let mut answer = Answer::json(json!({ "started": true }));
                answer.status = 202;
                answer
            }
            Err(refusal) => Answer::refusal(refusal),
        }
    }

    /// The check `body` asks for, started on the compiled checker if it is built, else on
    /// the interpreter. Its options are checked against the interpreter's plan either way.
    fn new_check(&mut self, body: &Value) -> Result<CheckRun, Refusal> {
        let request: CheckRequest = parse(body)?;
        let search = request.search(&self.file)?;
        let checker = check::checker(self.session.model().clone(), &search)?;
        let why = match self.engine.state() {
            State::Compiled { binary, scratch } => {
                match CheckRun::compiled(&binary, &scratch, search) {
                    Ok(run) => return Ok(run),
                    Err(why) => {
                        // A binary that does not run now will not later: the interpreter
                        // takes over for this check and the next ones.
                        eprintln!("bir: note: {why}; the page's checks run on the interpreter");
                        self.engine.set(State::Interpreter(why.clone()));
                        why
                    }
                }
            }
            State::Building => "the compiled checker is being built".to_string(),
            State::Interpreter(why) => why,
        };
        CheckRun::interpreter(checker, &self.file, format!("interpreter ({why})"))
    }

    /// The check view: the engine a check started now would run on, and the check that
    /// runs or ran last (none yet: not running, no result).
    fn check_view(&self) -> Value {
        let mut view = match &self.check {
            Some(run) => run.view(),
            None => json!({ "running": false, "result": null, "check_engine": null }),
        };
        view["engine"] = Value::String(self.engine.state().name());
        view
    }

    fn model_view(&self) -> Value {
        let model = self.session.model();
        let properties: Vec<Value> = model
            .properties()
            .iter()
            .map(|p| {
                let kind = match p.kind {
                    PropertyKind::Ltl { .. } => "ltl",
                    _ => "reachable",
                };
                json!({ "name": p.name, "kind": kind, "text": p.text })
            })
            .collect();
        json!({
            "name": model.info().name,
            "file": self.file,
            "transitions": model.info().transitions.len(),
            "properties": properties,
            "graph_limit": DEFAULT_MAX_STATES,
            "heap": !self.parts.heaps().is_empty(),
            "engine": self.engine.state().name(),
        })
    }

    /// Where the walk stands, everything the page shows of it.
    fn state_view(&self) -> Value {
        let session = &self.session;
        let info = session.model().info();
        let states = session.states();
        let current = session.values(session.state());
        let previous = states
            .len()
            .checked_sub(2)
            .map(|i| session.values(&states[i]));
        let variables = self.variables(&current, previous.as_deref());
        let choices: Vec<Value> = session
            .choices()
            .iter()
            .map(|c| {
                json!({
                    "transition": c.transition, "thread": c.info.thread, "from": c.info.from,
                    "to": c.info.to, "text": c.info.text, "line": c.info.line, "fails": c.fails,
                })
            })
            .collect();
        let (status, message) = match session.status() {
            Status::Running => ("running", String::new()),
            Status::Ended => (
                "ended",
                "every instance has ended: a valid end state".into(),
            ),
            Status::Found(kind, message) => (kind_name(kind), message),
        };
        let steps: Vec<Value> = session
            .steps()
            .iter()
            .enumerate()
            .map(|(index, step)| {
                let t = info.transitions.get(step.transition as usize);
                // A model with parts reads each step's changes against the state it starts in.
                let before = if self.parts.is_empty() {
                    Vec::new()
                } else {
                    states
                        .get(index)
                        .map(|state| session.values(state))
                        .unwrap_or_default()
                };
                let changes: Vec<Value> = step_changes(info, &self.parts, &before, step)
                    .iter()
                    .filter_map(|change| match change {
                        StepChange::Slot(c) => {
                            let slot = info.slots.get(c.slot as usize)?;
                            Some(json!({"variable": slot_name(slot), "old": value(slot, c.old), "new": value(slot, c.new)}))
                        }
                        StepChange::Part { name, old, new, .. } => {
                            Some(json!({"variable": name, "old": old, "new": new}))
                        }
                    })
                    .collect();
                let (allocated, collected, renumbered) =
                    bir_driver::json::heap_changes(&self.parts, step);
                json!({
                    "transition": step.transition,
                    "thread": t.map(|t| t.thread.to_string()),
                    "from": t.map(|t| t.from.to_string()),
                    "to": t.map(|t| t.to.to_string()),
                    "text": t.map(|t| t.text.to_string()),
                    "line": t.map_or(0, |t| t.line),
                    "fails": step.fault.is_some(),
                    "changes": changes,
                    "allocated": allocated,
                    "collected": collected,
                    "renumbered": renumbered,
                })
            })
            .collect();
        let graph = match &self.graph {
            Some(Ok(graph)) => {
                let nodes: Vec<Option<usize>> = states
                    .iter()
                    .map(|s| graph.node_of(&session.values(s)))
                    .collect();
                json!({ "nodes": nodes, "current": graph.node_of(&current) })
            }
            _ => Value::Null,
        };
        json!({
            "step": session.path().len(),
            "status": status,
            "message": message,
            "variables": variables,
            "choices": choices,
            "steps": steps,
            "replay": session.replay(),
            "can_back": !session.path().is_empty(),
            "can_forward": session.can_forward(),
            "msc": self.chart(),
            "heap": self.heap(&current),
            "graph": graph,
        })
    }

    /// The state `current` as the page lists it, each entry marked `changed` when it differs
    /// from `previous`: every slot as itself (`name`, `value`), but that a version-3 model's
    /// channels, locks and call stacks are listed as what they hold, in place of the slots
    /// they are kept in ([`bir_driver::parts`]: `name`, `kind`, `value` as text, and what
    /// they hold), and the slots read only as part of them not at all.
    fn variables(&self, current: &[i64], previous: Option<&[i64]>) -> Vec<Value> {
        let info = self.session.model().info();
        let mut variables = Vec::new();
        for (i, (slot, &v)) in info.slots.iter().zip(current).enumerate() {
            match self.parts.role(i) {
                SlotRole::Plain => {
                    let changed = previous.is_some_and(|p| p.get(i) != Some(&v));
                    variables.push(
                        json!({ "name": slot_name(slot), "value": value(slot, v), "changed": changed }),
                    );
                }
                SlotRole::Anchor(part) => {
                    let mut entry = part_json(info, &self.parts, part, current);
                    let changed = previous.is_some_and(|p| {
                        part_json(info, &self.parts, part, p)["value"] != entry["value"]
                    });
                    entry["changed"] = Value::Bool(changed);
                    variables.push(entry);
                }
                _ => {}
            }
        }
        variables
    }

    /// The path as a message-sequence chart.
    fn chart(&self) -> String {
        let session = &self.session;
        let initial = session.values(&session.states()[0]);
        bir_driver::msc::render(session.model().info(), &initial, &session.steps(), None)
    }

    /// The heap of the state `values` as a graph (empty for a model without records).
    fn heap(&self, values: &[i64]) -> String {
        bir_driver::heap_svg::render(self.session.model().info(), &self.parts, values)
    }

    fn graph_view(&mut self) -> Answer {
        let model = self.session.model();
        let graph = self.graph.get_or_insert_with(|| {
            StateGraph::build(model, DEFAULT_MAX_STATES)
                .map(Arc::new)
                .map_err(|too_large| too_large.to_string())
        });
        match graph {
            Ok(graph) => Answer::json(json!({ "states": graph.nodes.len(), "svg": graph.svg() })),
            Err(message) => Answer::refusal(Refusal::new(422, message.clone())),
        }
    }
}

/// A body as the route's type, or a 400 saying why not.
fn parse<T: serde::de::DeserializeOwned>(body: &Value) -> Result<T, Refusal> {
    T::deserialize(body).map_err(|e| Refusal::new(400, format!("bad request: {e}")))
}

fn not_found(path: &str) -> Answer {
    Answer::refusal(Refusal::new(404, format!("nothing is served at `{path}`")))
}

/// The HTTP response of an answer, with headers that keep the page to itself.
fn response(answer: Answer) -> Response<std::io::Cursor<Vec<u8>>> {
    let mut response = Response::from_data(answer.body).with_status_code(answer.status);
    let mut headers = vec![
        ("Content-Type", answer.content_type.to_string()),
        ("Cache-Control", "no-store".to_string()),
        ("X-Content-Type-Options", "nosniff".to_string()),
        ("X-Frame-Options", "DENY".to_string()),
        ("Referrer-Policy", "no-referrer".to_string()),
        (
            "Content-Security-Policy",
            "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; \
             frame-ancestors 'none'"
                .to_string(),
        ),
    ];
    if let Some(name) = answer.download {
        headers.push((
            "Content-Disposition",
            format!("inline; filename=\"{name}\""),
        ));
    }
    for (name, value) in headers {
        if let Ok(header) = Header::from_bytes(name.as_bytes(), value.as_bytes()) {
            response.add_header(header);
        }
    }
    response
}
