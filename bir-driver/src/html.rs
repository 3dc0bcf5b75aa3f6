//! `bir check --html FILE`: the report as one self-contained HTML page (inline style, inline
//! SVG, no script, nothing fetched): the verdict, the statistics, each counterexample as a
//! message-sequence chart and as a table of steps with what each changed (a version-3
//! model's states and changes with its channels, locks and call stacks read as what they
//! hold), and after a
//! complete search its coverage: what never happened, and the invariants that hold
//! vacuously.

use std::fmt::Write as _;

use bir_runtime::model::{ModelInfo, StateParts, STUTTER};
use bir_runtime::{
    heap_step_text, step_changes, Counterexample, Coverage, OperandsDisplay, Report, StateDisplay,
    StepChange, Verdict,
};

use crate::json::{slot_name, value, verdict_name};
use crate::msc::{self, escape};

/// The page's style.
const STYLE: &str = "\
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:2em auto;max-width:1200px;padding:0 1em;color:#111827}\
h1{font-size:1.5em;margin:.2em 0}h2{font-size:1.2em;margin-top:1.6em}\
.verdict{display:inline-block;padding:.3em .8em;border-radius:6px;font-weight:600}\
.verdict.ok{background:#dcfce7;color:#166534}.verdict.bad{background:#fee2e2;color:#991b1b}.verdict.open{background:#fef3c7;color:#92400e}\
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #e5e7eb;padding:.25em .6em;text-align:left;vertical-align:top}\
th{background:#f9fafb}code,pre,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px}\
.fails{color:#b91c1c;font-weight:600}.chart{overflow-x:auto;border:1px solid #e5e7eb;border-radius:6px;padding:.5em;margin:.5em 0}\
.replay{background:#f3f4f6;padding:.2em .5em;border-radius:4px}";

/// The page for `report` on the model in `file`.
pub fn render(report: &Report, file: &str) -> String {
    let text = report.to_string();
    let headline = text.lines().next().unwrap_or_default();
    let stats_line = text
        .lines()
        .rev()
        .find(|l| l.starts_with("states:"))
        .unwrap_or_default();
    let class = match report.verdict() {
        Verdict::Verified | Verdict::Reached => "ok",
        Verdict::Found(_) | Verdict::Unreachable => "bad",
        _ => "open",
    };
    let stats = report.stats();
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>bir: {name}: {verdict}</title><style>{STYLE}</style></head><body>\
         <h1>{name}</h1><p class=\"mono\">{file}</p>\
         <p><span class=\"verdict {class}\" id=\"verdict\" data-verdict=\"{verdict}\">{headline}</span></p>\
         <h2>Statistics</h2><table id=\"stats\">\
         <tr><th>states</th><td>{states}</td></tr><tr><th>transitions</th><td>{transitions}</td></tr>\
         <tr><th>errors</th><td>{errors}</td></tr><tr><th>deadlocks</th><td>{deadlocks}</td></tr>\
         <tr><th>max depth</th><td>{depth}</td></tr><tr><th>time</th><td>{seconds:.3} s</td></tr>\
         <tr><th>strategy</th><td>{strategy}</td></tr></table><p class=\"mono\">{stats_line}</p>",
        name = escape(report.name()),
        verdict = verdict_name(report.verdict()),
        file = escape(file),
        headline = escape(headline),
        states = stats.states,
        transitions = stats.transitions,
        errors = stats.errors,
        deadlocks = stats.deadlocks,
        depth = stats.max_depth,
        seconds = stats.elapsed.as_secs_f64(),
        strategy = report.strategy().describe(),
        stats_line = escape(stats_line),
    );
    if !report.notes().is_empty() {
        out.push_str("<h2>Notes</h2><ul>");
        for note in report.notes() {
            let _ = write!(out, "<li>{}</li>", escape(note));
        }
        out.push_str("</ul>");
    }
    for (index, found) in report.findings().iter().enumerate() {
        counterexample(&mut out, report.info(), found, index + 1);
    }
    // Rule: as in the text report, only a search that explored every reachable state of
    // the model itself has a coverage (see `Report::coverage`).
    if let Some(coverage) = report.coverage() {
        coverage_section(&mut out, coverage);
    }
    out.push_str("</body></html>\n");
    out
}

/// What a complete search never saw happen: the transformations never fired, the
/// instances that never took a step, the locations never reached, and each invariant atom
/// constant over every reachable state (the invariant holds vacuously, as far as it goes).
fn coverage_section(out: &mut String, coverage: &Coverage) {
    let (fired, all) = coverage.transformations();
    let _ = write!(
        out,
        "<section id=\"coverage\"><h2>Coverage</h2>\
         <p>{fired} of {all} transformation{s} fired.</p>",
        s = if all == 1 { "" } else { "s" },
    );
    if coverage.is_full() {
        out.push_str(
            "<p>Every transformation fired, every instance took a step, every location was \
             reached, and no invariant holds vacuously.</p></section>",
        );
        return;
    }
    if !coverage.unfired().is_empty() {
        out.push_str(
            "<h3>Never fired</h3><table id=\"never-fired\"><tr><th>thread</th><th>at</th>\
             <th>BIR</th><th>line</th></tr>",
        );
        for unfired in coverage.unfired() {
            let line = if unfired.line == 0 {
                String::new()
            } else {
                unfired.line.to_string()
            };
            let _ = write!(
                out,
                "<tr><td>{}</td><td>{}</td><td class=\"mono\">{}</td><td>{line}</td></tr>",
                escape(&unfired.thread),
                escape(&unfired.from),
                escape(&unfired.text),
            );
        }
        out.push_str("</table>");
    }
    if !coverage.idle_instances().is_empty() {
        out.push_str("<h3>Never took a step</h3><ul id=\"never-stepped\">");
        for instance in coverage.idle_instances() {
            let _ = write!(
                out,
                "<li>{} (never started, or blocked from its start)</li>",
                escape(instance)
            );
        }
        out.push_str("</ul>");
    }
    if !coverage.unreached_locations().is_empty() {
        out.push_str("<h3>Never reached</h3><ul id=\"never-reached\">");
        for (thread, location) in coverage.unreached_locations() {
            let _ = write!(out, "<li>{} at {}</li>", escape(thread), escape(location));
        }
        out.push_str("</ul>");
    }
    if !coverage.vacuous().is_empty() {
        out.push_str(
            "<h3>Holding vacuously</h3><p>Each atom has the same value in every reachable state: \
             its invariant holds vacuously, as far as the atom goes.</p>\
             <table id=\"vacuous\"><tr><th>invariant</th><th>atom</th><th>in every reachable \
             state</th></tr>",
        );
        for vacuous in coverage.vacuous() {
            let never = if vacuous.value {
                "never false"
            } else {
                "never true"
            };
            let _ = write!(
                out,
                "<tr><td>{}</td><td class=\"mono\">{}</td><td>{never}</td></tr>",
                escape(&vacuous.invariant),
                escape(&vacuous.atom),
            );
        }
        out.push_str("</table>");
    }
    out.push_str("</section>");
}

/// One counterexample: message, chart, table of steps, final state, replay string.
fn counterexample(out: &mut String, info: &ModelInfo, found: &Counterexample, number: usize) {
    let parts = StateParts::new(info);
    let _ = write!(
        out,
        "<section class=\"counterexample\"><h2>{number}. {kind} after {len} steps</h2>\
         <p class=\"fails\">{message}</p>{operands}\
         <p>initial state: <span class=\"mono\">{initial}</span></p>\
         <div class=\"chart\">{chart}</div>\
         <table class=\"steps\"><tr><th>#</th><th>instance</th><th>move</th><th>BIR</th>\
         <th>line</th><th>changes</th></tr>",
        kind = found.kind().describe(),
        len = found.len(),
        message = escape(found.message()),
        operands = if found.operands().is_empty() {
            String::new()
        } else {
            format!(
                "<p>operands: <span class=\"mono\">{}</span></p>",
                escape(&OperandsDisplay::new(info, found.operands()).to_string())
            )
        },
        initial =
            escape(&StateDisplay::with_parts(info, &parts, found.initial_state()).to_string()),
        chart = msc::render(
            info,
            found.initial_state(),
            found.steps(),
            found.cycle_start()
        ),
    );
    // A model with parts reads each step's changes against the state it starts in.
    let mut before = if parts.is_empty() {
        Vec::new()
    } else {
        found.initial_state().to_vec()
    };
    for (index, step) in found.steps().iter().enumerate() {
        if found.cycle_start() == Some(index) {
            out.push_str("<tr><td colspan=\"6\"><em>the cycle, repeated forever:</em></td></tr>");
        }
        let changes: Vec<String> = step_changes(info, &parts, &before, step)
            .iter()
            .filter_map(|change| match change {
                StepChange::Slot(c) => {
                    let slot = info.slots.get(c.slot as usize)?;
                    Some(format!(
                        "{}: {} → {}",
                        slot_name(slot),
                        value(slot, c.old),
                        value(slot, c.new)
                    ))
                }
                StepChange::Part { name, old, new, .. } => Some(format!("{name}: {old} → {new}")),
            })
            .collect();
        let changes: Vec<String> = step
            .heap
            .as_ref()
            .and_then(|heap| heap_step_text(&parts, heap))
            .into_iter()
            .chain(changes)
            .collect();
        for change in &step.changes {
            if let Some(value) = before.get_mut(change.slot as usize) {
                *value = change.new;
            }
        }
        let (thread, moved, text, line) = match info.transitions.get(step.transition as usize) {
            _ if step.transition == STUTTER => (String::new(), "stutter".into(), String::new(), 0),
            Some(t) => (
                t.thread.to_string(),
                format!("{} → {}", t.from, t.to),
                t.text.to_string(),
                t.line,
            ),
            None => (String::new(), String::new(), String::new(), 0),
        };
        let fails = if step.fault.is_some() {
            "<span class=\"fails\">FAILS</span> "
        } else {
            ""
        };
        let _ = write!(
            out,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td class=\"mono\">{fails}{}</td><td>{line}</td>\
             <td class=\"mono\">{}</td></tr>",
            index + 1,
            escape(&thread),
            escape(&moved),
            escape(&text),
            escape(&changes.join(", "))
        );
    }
    let _ = write!(
        out,
        "</table><p>final state: <span class=\"mono\">{}</span></p>",
        escape(&StateDisplay::with_parts(info, &parts, found.final_state()).to_string()),
    );
    heap_section(out, info, &parts, found);
    let _ = write!(
        out,
        "<p>replay: <code class=\"replay\">{}</code></p></section>",
        escape(found.replay())
    );
}

/// Traces of at most this many steps draw the heap of every state; longer ones only the
/// final state's.
const HEAP_STATES: usize = 40;

/// The heap of a version-3 model's trace drawn as [`heap_svg`](crate::heap_svg) draws it,
/// the graph the explorer shows: in a `div.heap`, the final state's drawing, open; for a
/// trace of at most [`HEAP_STATES`] steps, before it, one closed `details.heap-state` per
/// earlier state (the initial state, then the state after each step). Nothing for a model
/// without records.
fn heap_section(out: &mut String, info: &ModelInfo, parts: &StateParts, found: &Counterexample) {
    if parts.heaps().is_empty() {
        return;
    }
    out.push_str("<div class=\"heap\"><h3>heap</h3>");
    let steps = found.steps();
    if steps.len() <= HEAP_STATES {
        let mut values = found.initial_state().to_vec();
        for (index, step) in steps.iter().enumerate() {
            let title = match index {
                0 => "initial state".to_string(),
                n => format!("after step {n}"),
            };
            let _ = write!(
                out,
                "<details class=\"heap-state\"><summary>{title}</summary>{}</details>",
                crate::heap_svg::render(info, parts, &values)
            );
            for change in &step.changes {
                if let Some(value) = values.get_mut(change.slot as usize) {
                    *value = change.new;
                }
            }
        }
    }
    let _ = write!(
        out,
        "<details class=\"heap-state heap-final\" open><summary>final state</summary>{}\
         </details></div>",
        crate::heap_svg::render(info, parts, found.final_state())
    );
}

#[cfg(test)]
pub(crate) mod tests {
    use bir_interp::Interpreter;
    use bir_runtime::Checker;

    use super::*;

    /// A model whose counterexample builds a list of two nodes, then drops one.
    pub(crate) const LIST: &str = "system List {
      record Node { int (0, 3) v; Node next; }
      Node head;
      active thread A() {
        Node n;
        head := new Node; head.v := 1;
        n := new Node; n.v := 2; n.next := head; head := n;
        n := null;
        head := head.next;
        assert(false);
      }
    }";

    #[test]
    fn a_heap_model_page_draws_the_heap_of_every_state_of_the_trace() {
        let model = Interpreter::from_source(LIST).unwrap();
        let report = Checker::new(model).bfs().progress(false).run();
        let page = render(&report, "list.bir");
        assert!(page.contains("<div class=\"heap\"><h3>heap</h3>"), "{page}");
        let steps = report.findings()[0].len();
        // One drawing per state before the final one, and the final one, open.
        assert_eq!(
            page.matches("<details class=\"heap-state\">").count(),
            steps
        );
        assert_eq!(page.matches("heap-final\" open>").count(), 1);
        let last = &page[page.find("heap-final").unwrap()..];
        // The final state: head at the node of value 1, numbered 1, the other collected.
        assert!(last.contains("data-object=\"Node#1\""), "{last}");
        assert!(!last.contains("data-object=\"Node#2\""), "{last}");
        assert!(
            last.contains("data-from=\"head\" data-to=\"Node#1\""),
            "{last}"
        );
        // Before the drop, two objects and the edge between them.
        assert!(page.contains("data-object=\"Node#2\""));
        assert!(
            page.contains("data-from=\"Node#1.next\" data-to=\"Node#2\""),
            "{page}"
        );
    }

    #[test]
    fn the_page_has_the_verdict_the_chart_and_the_table_and_fetches_nothing() {
        let source = include_str!("../../models/two_dining_philosophers.bir");
        let model = Interpreter::from_source(source).unwrap();
        let report = Checker::new(model).bfs().progress(false).run();
        let page = render(&report, "two.bir");
        assert!(page.contains("data-verdict=\"deadlock\""), "{page}");
        assert!(page.contains("deadlock found (breadth-first search)"));
        assert_eq!(page.matches("class=\"msc-arrow\"").count(), 2);
        assert_eq!(page.matches("<tr><td>").count(), 2);
        assert!(page.contains("bir1:0.4"));
        for remote in ["http://", "https://", "<script", "<link"] {
            let outside_svg = page.replace("http://www.w3.org/2000/svg", "");
            assert!(!outside_svg.contains(remote), "{remote}");
        }
        // A search stopped at a finding has no coverage.
        assert!(!page.contains("id=\"coverage\""), "{page}");
    }

    #[test]
    fn a_version_3_page_shows_locks_and_channels_as_what_they_hold() {
        let source = include_str!("../../models/v3/lock_notify.bir");
        let report = Checker::new(Interpreter::from_source(source).unwrap())
            .progress(false)
            .run();
        let page = render(&report, "lock_notify.bir");
        assert!(
            page.contains("final state: <span class=\"mono\">n = 2, m = free (waiting: W[1]), "),
            "{page}"
        );
        assert!(page.contains("n: 0 → 1, m: free → held by W[0], W[0]: &quot;atomic#1&quot;"));
        // The hidden slots show nowhere in the states or the table.
        assert!(
            !page.contains("owner(m)") && !page.contains("wait mark"),
            "{page}"
        );
    }

    /// A model with a transformation that never fires (`x > 5` on `int (0, 3) x`) and an
    /// invariant whose atoms never change (`flag` is never true, `x < 3` never false).
    const UNCOVERED: &str = "system Uncovered {
        int (0, 3) x;
        boolean flag;
        invariant Guarded: !flag || x < 3;
        active thread T() {
            loc a: when x < 2 do { x := x + 1; } goto a;
                   when x > 5 && x < 3 do { flag := true; } goto a;
        }
    }";

    #[test]
    fn a_complete_search_shows_what_never_happened_and_the_vacuous_atoms_escaped() {
        let model = Interpreter::from_source(UNCOVERED).unwrap();
        let report = Checker::new(model)
            .deadlock_detection(false)
            .progress(false)
            .run();
        assert!(report.is_verified(), "{report}");
        let page = render(&report, "uncovered.bir");
        let start = page
            .find("<section id=\"coverage\">")
            .expect("a coverage section");
        let section = &page[start
            ..page[start..]
                .find("</section>")
                .map_or(page.len(), |end| start + end)];
        assert!(
            section.contains("1 of 2 transformations fired."),
            "{section}"
        );
        // The transformation that never fired, HTML-escaped.
        assert!(
            section.contains(
                "<tr><td>T</td><td>a</td><td class=\"mono\">when x &gt; 5 &amp;&amp; x &lt; 3 \
                 do { flag := true; } goto a;</td><td>7</td></tr>"
            ),
            "{section}"
        );
        // Each vacuous atom with its invariant.
        assert!(
            section.contains(
                "<tr><td>Guarded</td><td class=\"mono\">flag</td><td>never true</td></tr>"
            ),
            "{section}"
        );
        assert!(
            section.contains(
                "<tr><td>Guarded</td><td class=\"mono\">x &lt; 3</td><td>never false</td></tr>"
            ),
            "{section}"
        );
        assert!(!section.contains("x < 3"), "{section}");
        // The same as the text report says.
        let text = report.to_string();
        assert!(text.contains("invariant Guarded holds vacuously: `flag` is never true"));
        assert!(
            text.contains("never fired: T at a: when x > 5 && x < 3"),
            "{text}"
        );
    }

    #[test]
    fn an_incomplete_search_has_no_coverage_and_a_full_one_says_so() {
        let model = Interpreter::from_source(UNCOVERED).unwrap();
        let cut = Checker::new(model).max_states(1).progress(false).run();
        assert!(cut.coverage().is_none());
        assert!(!render(&cut, "uncovered.bir").contains("id=\"coverage\""));
        let source = include_str!("../../models/dining_philosophers_fixed.bir");
        let model = Interpreter::from_source(source).unwrap();
        let report = Checker::new(model).progress(false).run();
        report.assert_full_coverage();
        let page = render(&report, "fixed.bir");
        assert!(
            page.contains("Every transformation fired, every instance took a step"),
            "{page}"
        );
    }
}
