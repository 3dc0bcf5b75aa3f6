// bir explore: the page. Every action asks the server (the same engine as `bir check`)
// and draws what it answers; nothing is computed here but the drawing.
"use strict";

const $ = (id) => document.getElementById(id);
let checkTimer = null;
let engineTimer = null;
let lastReplay = null;
let graphDrawn = false;

function showError(message) {
  const box = $("error");
  box.textContent = message || "";
  box.hidden = !message;
}

async function api(method, path, body) {
  const options = { method, headers: {} };
  if (method === "POST") {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body || {});
  }
  const response = await fetch(path, options);
  const data = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) {
    showError(data.error || ("HTTP " + response.status));
    throw new Error(data.error);
  }
  showError("");
  return data;
}

function text(value) {
  return typeof value === "string" ? value : JSON.stringify(value);
}

function cell(row, content, className) {
  const td = document.createElement("td");
  td.textContent = content;
  if (className) td.className = className;
  row.appendChild(td);
  return td;
}

function render(state) {
  const status = $("status");
  if (state.status === "running") {
    status.textContent = state.step === 0 ? "initial state" : "step " + state.step;
    status.className = "status running";
  } else if (state.status === "ended") {
    status.textContent = "ended: " + state.message;
    status.className = "status ended";
  } else {
    status.textContent = state.status + ": " + state.message;
    status.className = "status found";
  }
  $("step").textContent = state.step;

  const choices = $("choices");
  choices.replaceChildren();
  if (state.choices.length === 0) {
    const none = document.createElement("p");
    none.className = "none";
    none.textContent = "no transition is enabled";
    choices.appendChild(none);
  }
  for (const c of state.choices) {
    const button = document.createElement("button");
    button.className = "choice" + (c.fails ? " fails" : "");
    button.dataset.transition = c.transition;
    const who = document.createElement("span");
    who.className = "who";
    who.textContent = c.thread + " " + c.from + " → " + c.to;
    const line = document.createElement("span");
    line.className = "line";
    line.textContent = "  (line " + c.line + ")" + (c.fails ? "  FAILS" : "");
    button.append(who, document.createElement("br"), c.text, line);
    button.addEventListener("click", () => act("/api/take", { transition: c.transition }));
    choices.appendChild(button);
  }
  $("back").disabled = !state.can_back;
  $("forward").disabled = !state.can_forward;

  const variables = $("variables").tBodies[0];
  variables.replaceChildren();
  for (const v of state.variables) {
    const row = variables.insertRow();
    if (v.changed) row.className = "changed";
    cell(row, v.name);
    // A channel, lock or call stack (v.kind) comes as the server's text; a stack in a call
    // is drawn one frame a line, the running frame first.
    const shown = v.kind === "stack" ? text(v.value).split(" ← ").join("\n← ") : text(v.value);
    cell(row, shown, v.kind ? "value " + v.kind : "value");
  }

  const steps = $("steps").tBodies[0];
  steps.replaceChildren();
  state.steps.forEach((s, i) => {
    const row = steps.insertRow();
    cell(row, String(i + 1));
    cell(row, s.thread || "");
    cell(row, (s.from || "") + " → " + (s.to || ""));
    cell(row, (s.fails ? "FAILS " : "") + (s.text || ""));
    cell(row, String(s.line));
    // What the step did to the heap, in the words of a trace: objects allocated,
    // collected by the garbage collector, and renumbered into the canonical order.
    const heap = [];
    const objects = (list) => list.join(", ");
    if ((s.allocated || []).length) heap.push("allocated " + objects(s.allocated));
    if ((s.collected || []).length) heap.push("collected " + objects(s.collected));
    const moved = (s.renumbered || []).map((r) => r.from + " as " + r.to);
    if (moved.length) heap.push("renumbered " + objects(moved));
    const changes = s.changes.map((c) => c.variable + ": " + text(c.old) + " → " + text(c.new));
    cell(row, changes.join(", ") + (heap.length ? (changes.length ? "; " : "") + heap.join("; ") : ""));
  });

  $("replay-current").textContent = state.replay;
  $("msc").innerHTML = state.msc; // SVG made by the server, every label escaped there
  // The heap graph (empty for a model without records, whose panel stays hidden).
  $("heap").innerHTML = state.heap || "";
  markGraph(state.graph);
}

function markGraph(marks) {
  const svg = $("graph").querySelector("svg");
  if (!svg || !marks) return;
  svg.querySelectorAll(".on-path,.current").forEach((e) => e.classList.remove("on-path", "current"));
  const nodes = marks.nodes || [];
  nodes.forEach((id, i) => {
    if (id === null) return;
    const node = svg.querySelector('g[data-node="' + id + '"]');
    if (node) node.classList.add("on-path");
    if (i > 0 && nodes[i - 1] !== null) {
      const edge = svg.querySelector('path[data-from="' + nodes[i - 1] + '"][data-to="' + id + '"]');
      if (edge) edge.classList.add("on-path");
    }
  });
  if (marks.current !== null && marks.current !== undefined) {
    const node = svg.querySelector('g[data-node="' + marks.current + '"]');
    if (node) node.classList.add("current");
  }
}

async function act(path, body) {
  try {
    render(await api("POST", path, body));
  } catch (e) {
    /* shown in #error */
  }
}

function numberOrNull(id) {
  const value = $(id).value.trim();
  return value === "" ? null : Number(value);
}

async function runCheck() {
  const body = {
    strategy: $("check-strategy").value,
    no_deadlock: $("check-no-deadlock").checked,
  };
  for (const [key, id] of [["max_states", "check-max-states"], ["max_depth", "check-max-depth"], ["time_limit", "check-time-limit"]]) {
    const value = numberOrNull(id);
    if (value !== null) body[key] = value;
  }
  if ($("check-ltl").value) body.ltl = $("check-ltl").value;
  try {
    await api("POST", "/api/check", body);
  } catch (e) {
    return;
  }
  $("check-result").textContent = "";
  $("check-load").hidden = true;
  $("check-report").hidden = true;
  $("check-run").disabled = true;
  $("check-cancel").disabled = false;
  pollCheck();
}

// The engine the next check runs on, beside the check button: the compiled checker (as
// `bir check`), or the interpreter while it is built or when it cannot be had.
function showEngine(engine) {
  if (!engine) return;
  $("check-engine").textContent = engine === "building"
    ? "engine: building the compiled checker (checks run on the interpreter meanwhile)"
    : "engine: " + engine;
  clearTimeout(engineTimer);
  if (engine === "building") engineTimer = setTimeout(pollEngine, 1000);
}

// Not through api(): a poll must not clear the error an action showed.
async function pollEngine() {
  try {
    const response = await fetch("/api/check");
    if (response.ok) showEngine((await response.json()).engine);
  } catch (e) {
    engineTimer = setTimeout(pollEngine, 5000);
  }
}

async function pollCheck() {
  clearTimeout(checkTimer);
  let view;
  try {
    view = await api("GET", "/api/check");
  } catch (e) {
    return;
  }
  showEngine(view.engine);
  const p = view.progress || { states: 0, transitions: 0, max_depth: 0 };
  const on = view.check_engine ? " on " + view.check_engine.split(" (")[0] : "";
  $("check-progress").textContent = (view.running ? "running" : "done") + on + ": " +
    p.states.toLocaleString("en") + " states, " + p.transitions.toLocaleString("en") +
    " transitions, depth " + p.max_depth + ", " + (view.seconds || 0).toFixed(1) + " s";
  if (view.running) {
    checkTimer = setTimeout(pollCheck, 250);
    return;
  }
  $("check-run").disabled = false;
  $("check-cancel").disabled = true;
  if (view.result) {
    $("check-result").textContent = view.result.text;
    lastReplay = view.result.replay;
    $("check-load").hidden = !lastReplay;
    $("check-report").hidden = false;
  } else if (view.error) {
    $("check-result").textContent = "error: " + view.error;
  }
}

async function loadModel() {
  const model = await api("GET", "/api/model");
  $("model-name").textContent = model.name;
  $("model-file").textContent = model.file;
  document.title = "bir explore: " + model.name;
  $("graph-limit").textContent = model.graph_limit.toLocaleString("en");
  $("heap-panel").hidden = !model.heap;
  showEngine(model.engine);
  for (const p of model.properties) {
    if (p.kind !== "ltl") continue;
    const option = document.createElement("option");
    option.value = p.name;
    option.textContent = p.name + ": " + p.text;
    $("check-ltl").appendChild(option);
  }
  render(await api("GET", "/api/state"));
}

document.addEventListener("DOMContentLoaded", () => {
  $("back").addEventListener("click", () => act("/api/back"));
  $("forward").addEventListener("click", () => act("/api/forward"));
  $("reset").addEventListener("click", () => act("/api/reset"));
  $("random").addEventListener("click", () => {
    const seed = Number($("random-seed").value || 0);
    act("/api/random", { seed, steps: Number($("random-steps").value || 1) });
    $("random-seed").value = seed + 1; // the next click draws anew, and can be repeated
  });
  $("replay-load").addEventListener("click", () => act("/api/replay", { replay: $("replay-input").value }));
  $("replay-input").addEventListener("keydown", (e) => {
    if (e.key === "Enter") act("/api/replay", { replay: $("replay-input").value });
  });
  $("check-run").addEventListener("click", runCheck);
  $("check-cancel").addEventListener("click", () => api("POST", "/api/check/cancel").then(pollCheck, () => {}));
  $("check-load").addEventListener("click", () => {
    if (lastReplay) act("/api/replay", { replay: lastReplay });
  });
  $("graph-draw").addEventListener("click", async () => {
    try {
      const graph = await api("GET", "/api/graph");
      $("graph").innerHTML = graph.svg; // made by the server, labels escaped there
      graphDrawn = true;
      render(await api("GET", "/api/state"));
    } catch (e) {
      $("graph").textContent = "";
    }
  });
  loadModel().catch(() => {});
});
