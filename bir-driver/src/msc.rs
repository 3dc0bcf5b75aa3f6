//! A path drawn as a message-sequence chart, in SVG: one lifeline per thread instance (and
//! one for the shared variables when the model has any), the steps in order down the page.
//! A step that changes shared variables is an arrow from its instance to the shared
//! lifeline, labelled with the changes; a step that changes only what its instance owns
//! (its location, its locals) is an arrow from the lifeline back to itself. A failing step
//! is drawn in red. Each step is one `path.msc-arrow`, with the step's BIR text and source
//! line as its tooltip. A version-3 model's channels and locks are labelled as what they
//! held and hold (`c: [] (0 of 2) → [⟨1⟩] (1 of 2)`), not by their hidden slots. Messages
//! are `path.msc-message` arrows between lifelines: a rendezvous across its row, from the
//! sender to the receiver; a message of a buffered channel from the step that sent it down
//! to the step that received it (the channel's length slot tells sends from receives, and
//! its queue pairs them in order). The SVG carries its own style, so an exported file
//! looks the same.

use std::collections::{HashMap, VecDeque};
use std::fmt::Write as _;

use bir_runtime::model::{ModelInfo, SlotKind, StateParts, STUTTER};
use bir_runtime::{step_changes, Step, StepChange};

use crate::json::{slot_name, value};

/// Horizontal distance between lifelines.
const COLUMN: usize = 190;
/// Vertical distance between steps.
const ROW: usize = 46;
/// Where the first lifeline is.
const LEFT: usize = 120;
/// Where the lifelines start, below their names.
const TOP: usize = 56;
/// The longest label drawn in full; longer ones are cut (the tooltip has all).
const LABEL_CHARS: usize = 44;

/// The style of every chart.
const STYLE: &str = "\
text{font:12px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;fill:#1f2937}\
.msc-head rect{fill:#eef2ff;stroke:#6366f1}.msc-head text{font-weight:600;text-anchor:middle}\
.msc-life{stroke:#9ca3af;stroke-dasharray:4 4}\
.msc-arrow{stroke:#2563eb;stroke-width:1.6;fill:none;marker-end:url(#msc-tip)}\
.msc-fail .msc-arrow{stroke:#dc2626;marker-end:url(#msc-tip-fail)}.msc-fail text{fill:#dc2626}\
.msc-number{fill:#6b7280;text-anchor:end}.msc-final{text-anchor:middle;fill:#374151}\
.msc-cycle{stroke:#d97706;stroke-dasharray:6 3}.msc-cycle-label{fill:#d97706}\
.msc-message{stroke:#059669;stroke-width:1.6;fill:none;marker-end:url(#msc-tip-message)}\
.msc-message-label{fill:#059669}";

/// The lifelines of a model: its instances in slot order, then the shared variables.
struct Lifelines {
    /// The name of each instance and the slot of its status.
    instances: Vec<(String, usize)>,
    /// The model has shared (global) variables.
    shared: bool,
}

impl Lifelines {
    fn of(info: &ModelInfo) -> Lifelines {
        let instances: Vec<(String, usize)> = info
            .slots
            .iter()
            .enumerate()
            .filter(|(_, slot)| matches!(slot.kind, SlotKind::Status { .. }))
            .map(|(index, slot)| (slot_name(slot), index))
            .collect();
        let lifelines = Lifelines {
            instances,
            shared: false,
        };
        let shared = (0..info.slots.len()).any(|slot| lifelines.owner(info, slot).is_none());
        Lifelines {
            shared,
            ..lifelines
        }
    }

    /// The instance that owns a slot (its status or one of its locals), or `None` for a
    /// shared variable.
    fn owner(&self, info: &ModelInfo, slot: usize) -> Option<usize> {
        let name = &info.slots.get(slot)?.name;
        self.instances.iter().position(|(instance, status)| {
            *status == slot
                || name
                    .strip_prefix(instance.as_str())
                    .is_some_and(|rest| rest.starts_with('.'))
        })
    }

    /// The lifeline of instance `instance` (its dense index), or of the instance named
    /// `name` for a model whose statuses are not in instance order.
    fn lifeline_of(&self, instance: u32, name: &str) -> usize {
        match self.instances.iter().position(|(n, _)| n == name) {
            Some(lifeline) => lifeline,
            None => (instance as usize).min(self.instances.len().saturating_sub(1)),
        }
    }

    fn count(&self) -> usize {
        self.instances.len() + usize::from(self.shared)
    }

    fn x(&self, lifeline: usize) -> usize {
        LEFT + lifeline * COLUMN
    }
}

/// The chart of the path that starts in `initial` and takes `steps` (a lasso's cycle, if
/// any, starts at step `cycle`).
pub fn render(info: &ModelInfo, initial: &[i64], steps: &[Step], cycle: Option<usize>) -> String {
    let lines = Lifelines::of(info);
    let width = lines.x(lines.count().max(1) - 1) + COLUMN;
    let bottom = TOP + 24 + steps.len() * ROW;
    let height = bottom + 40;
    let mut svg = String::new();
    let _ = write!(
        svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"msc\" width=\"{width}\" \
         height=\"{height}\" viewBox=\"0 0 {width} {height}\" data-steps=\"{}\">\
         <style>{STYLE}</style><defs>\
         <marker id=\"msc-tip\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" \
         markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M0,0L10,5L0,10z\" fill=\"#2563eb\"/></marker>\
         <marker id=\"msc-tip-fail\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" \
         markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M0,0L10,5L0,10z\" fill=\"#dc2626\"/></marker>\
         <marker id=\"msc-tip-message\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" \
         markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M0,0L10,5L0,10z\" fill=\"#059669\"/></marker>\
         </defs>",
        steps.len()
    );
    let names = lines
        .instances
        .iter()
        .map(|(name, _)| name.as_str())
        .chain(lines.shared.then_some("shared variables"));
    for (index, name) in names.enumerate() {
        let x = lines.x(index);
        let _ = write!(
            svg,
            "<g class=\"msc-head\"><rect x=\"{}\" y=\"8\" width=\"{}\" height=\"26\" rx=\"4\"/>\
             <text x=\"{x}\" y=\"26\">{}</text></g>\
             <line class=\"msc-life\" x1=\"{x}\" y1=\"34\" x2=\"{x}\" y2=\"{bottom}\"/>",
            x - COLUMN / 2 + 8,
            COLUMN - 16,
            escape(&cut(name, 24))
        );
    }
    let mut values = initial.to_vec();
    let parts = StateParts::new(info);
    let mut queues = Queues::default();
    for (index, step) in steps.iter().enumerate() {
        let y = TOP + 24 + index * ROW;
        if cycle == Some(index) {
            let _ = write!(
                svg,
                "<line class=\"msc-cycle\" x1=\"4\" y1=\"{0}\" x2=\"{width}\" y2=\"{0}\"/>\
                 <text class=\"msc-cycle-label\" x=\"{1}\" y=\"{2}\">cycle: repeats forever from here</text>",
                y - ROW / 2,
                LEFT,
                y - ROW / 2 - 4
            );
        }
        draw_step(&mut svg, info, &parts, &lines, &mut values, step, index, y);
        draw_messages(&mut svg, info, &lines, &mut queues, step, y);
    }
    // Where each instance ends up.
    for (index, &(_, status)) in lines.instances.iter().enumerate() {
        if let (Some(slot), Some(&v)) = (info.slots.get(status), values.get(status)) {
            let at = match value(slot, v) {
                serde_json::Value::String(text) => text,
                other => other.to_string(),
            };
            let _ = write!(
                svg,
                "<text class=\"msc-final\" x=\"{}\" y=\"{}\">@ {}</text>",
                lines.x(index),
                bottom + 18,
                escape(&cut(&at, 24))
            );
        }
    }
    svg.push_str("</svg>");
    svg
}

/// The messages in flight on each buffered channel (by its length slot and the element of
/// an array of channels): where and at which row each was sent, oldest first.
#[derive(Default)]
struct Queues(HashMap<(usize, usize), VecDeque<(usize, usize)>>);

/// The messages of one step: a rendezvous across its row; a message of a buffered channel
/// from the row that sent it to this one, which receives it.
fn draw_messages(
    svg: &mut String,
    info: &ModelInfo,
    lines: &Lifelines,
    queues: &mut Queues,
    step: &Step,
    y: usize,
) {
    let Some(transition) = info.transitions.get(step.transition as usize) else {
        return;
    };
    if step.fault.is_some() {
        return;
    }
    let x = lines.x(lines.lifeline_of(transition.instance, &transition.thread));
    if let Some(partner) = transition.partner {
        let to = lines.x(lines.lifeline_of(partner.instance, ""));
        arrow(svg, (x, y + 4), (to, y + 4), "rendezvous");
    }
    for change in &step.changes {
        let slot = change.slot as usize;
        let Some(channel) = info.slots.get(slot).and_then(|s| s.channel_length()) else {
            continue;
        };
        // The slots of an array's elements follow the first; each element is a channel.
        let first = (0..=slot)
            .rev()
            .take_while(|&s| info.slots.get(s).and_then(|i| i.channel_length()) == Some(channel))
            .last()
            .unwrap_or(slot);
        let queue = queues.0.entry((first, slot - first)).or_default();
        if change.new > change.old {
            queue.push_back((x, y));
        } else if let Some((from_x, from_y)) = queue.pop_front() {
            let name = match info.slots[slot].element {
                Some(element) => format!("{channel}[{element}]"),
                None => channel.to_string(),
            };
            arrow(svg, (from_x, from_y + 4), (x, y + 4), &name);
        }
    }
}

/// A message arrow from `from` to `to`, labelled.
fn arrow(svg: &mut String, (x1, y1): (usize, usize), (x2, y2): (usize, usize), label: &str) {
    let (from, to) = if x2 >= x1 {
        (x1 + 4, x2 - 4)
    } else {
        (x1 - 4, x2 + 4)
    };
    let _ = write!(
        svg,
        "<g class=\"msc-msg\"><path class=\"msc-message\" d=\"M{from},{y1}L{to},{y2}\"/>\
         <text class=\"msc-message-label\" x=\"{}\" y=\"{}\">{}</text></g>",
        (from + to) / 2,
        (y1 + y2) / 2 + 14,
        escape(&cut(label, 24))
    );
}

/// One step: its arrow, its number and its labels; updates `values` to the state after it.
#[allow(clippy::too_many_arguments)]
fn draw_step(
    svg: &mut String,
    info: &ModelInfo,
    parts: &StateParts,
    lines: &Lifelines,
    values: &mut [i64],
    step: &Step,
    index: usize,
    y: usize,
) {
    let transition = info.transitions.get(step.transition as usize);
    let instance = transition.map(|t| lines.lifeline_of(t.instance, &t.thread));
    let mut shared = Vec::new();
    let mut own = Vec::new();
    for change in step_changes(info, parts, values, step) {
        let change = match change {
            StepChange::Slot(change) => change,
            // A channel or a lock is shared: what it held and holds, on the shared line.
            StepChange::Part { name, old, new, .. } => {
                shared.push(format!("{name}: {old} → {new}"));
                continue;
            }
        };
        let slot = change.slot as usize;
        let Some(info_slot) = info.slots.get(slot) else {
            continue;
        };
        let text = format!(
            "{}: {} → {}",
            slot_name(info_slot),
            value(info_slot, change.old),
            value(info_slot, change.new)
        )
        .replace('"', "");
        match lines.owner(info, slot) {
            None => shared.push(text),
            Some(owner) if Some(owner) == instance && slot == lines.instances[owner].1 => {}
            Some(_) => own.push(text),
        }
    }
    for change in &step.changes {
        if let Some(v) = values.get_mut(change.slot as usize) {
            *v = change.new;
        }
    }
    let (class, title) = match transition {
        _ if step.transition == STUTTER => {
            ("msc-step", "stutter: the final state repeats".to_string())
        }
        Some(t) => (
            if step.fault.is_some() {
                "msc-step msc-fail"
            } else {
                "msc-step"
            },
            format!(
                "{} {} -> {}   {}   (line {})",
                t.thread, t.from, t.to, t.text, t.line
            ),
        ),
        None => ("msc-step", format!("transition {}", step.transition)),
    };
    let _ = write!(
        svg,
        "<g class=\"{class}\" data-step=\"{}\"><title>{}</title>\
         <text class=\"msc-number\" x=\"{}\" y=\"{}\">#{}</text>",
        index + 1,
        escape(&title),
        LEFT - COLUMN / 2 + 4,
        y + 4,
        index + 1
    );
    let x = lines.x(instance.unwrap_or(0));
    let moved = transition.map_or(String::new(), |t| format!("{} → {}", t.from, t.to));
    let fails = if step.fault.is_some() { "FAILS: " } else { "" };
    if !shared.is_empty() && lines.shared {
        let target = lines.x(lines.count() - 1);
        let (from, to) = if target > x {
            (x + 4, target - 4)
        } else {
            (x - 4, target + 4)
        };
        let _ = write!(
            svg,
            "<path class=\"msc-arrow\" d=\"M{from},{y}L{to},{y}\"/>\
             <text x=\"{}\" y=\"{}\">{}</text><text x=\"{}\" y=\"{}\">{}</text>",
            from.min(to) + 8,
            y - 6,
            escape(&cut(&shared.join(", "), LABEL_CHARS)),
            from.min(to) + 8,
            y + 15,
            escape(&cut(
                &format!("{fails}{moved} {}", own.join(", ")),
                LABEL_CHARS
            ))
        );
    } else {
        let label = if step.transition == STUTTER {
            "(stutter)".to_string()
        } else {
            format!("{fails}{moved} {}", own.join(", "))
        };
        let _ = write!(
            svg,
            "<path class=\"msc-arrow\" d=\"M{},{}h34v18h-30\"/>\
             <text x=\"{}\" y=\"{}\">{}</text>",
            x + 2,
            y - 9,
            x + 42,
            y + 4,
            escape(&cut(label.trim(), LABEL_CHARS))
        );
    }
    svg.push_str("</g>");
}

/// At most `max` characters of `text`, with `…` when cut (the charts' and the heap
/// graphs' labels).
pub(crate) fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_string()
    } else {
        let mut short: String = text.chars().take(max - 1).collect();
        short.push('…');
        short
    }
}

/// Text made safe inside XML and HTML elements and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use bir_interp::Interpreter;
    use bir_runtime::model::{Outcome, Successor};
    use bir_runtime::{Change, Checker, Model};

    use super::*;

    const TWO: &str = include_str!("../../models/two_dining_philosophers.bir");

    #[test]
    fn the_deadlock_of_two_philosophers_is_two_arrows_to_the_shared_forks() {
        let model = Interpreter::from_source(TWO).unwrap();
        let checker = Checker::new(model);
        let found = checker.replay("bir1:0.4").unwrap();
        let svg = render(
            checker.model().info(),
            found.initial_state(),
            found.steps(),
            None,
        );
        assert_eq!(svg.matches("class=\"msc-arrow\"").count(), 2, "{svg}");
        assert!(svg.contains(">Philosopher1</text>"), "{svg}");
        assert!(svg.contains(">shared variables</text>"), "{svg}");
        assert!(svg.contains("fork1: false → true"), "{svg}");
        assert!(svg.contains("fork2: false → true"), "{svg}");
        assert!(svg.contains(">@ loc1</text>"), "{svg}");
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    }

    /// The chart of the run that always takes the first enabled transition until none is
    /// (the models below are deterministic enough for that to be their whole run).
    fn msc_of(source: &str) -> String {
        let model = Interpreter::from_source(source).unwrap();
        let (mut state, mut before, mut after) = (model.initial_state(), Vec::new(), Vec::new());
        model.decode(&state, &mut before);
        let initial = before.clone();
        let (mut steps, mut out) = (Vec::new(), Vec::new());
        loop {
            out.clear();
            model.successors(&state, &mut out);
            let Some(Successor {
                transition,
                outcome: Outcome::Next(next),
            }) = out.first()
            else {
                break;
            };
            model.decode(next, &mut after);
            let changes = Change::between(&before, &after);
            steps.push(Step {
                transition: *transition,
                changes,
                fault: None,
                heap: None,
            });
            (state, before) = (next.clone(), after.clone());
        }
        render(model.info(), &initial, &steps, None)
    }

    #[test]
    fn a_rendezvous_is_one_arrow_from_the_sender_to_the_receiver() {
        let svg = msc_of(include_str!("../../models/v3/rdv_pair.bir"));
        assert_eq!(svg.matches("class=\"msc-message\"").count(), 1, "{svg}");
        assert!(svg.contains("d=\"M124,84L306,84\""), "S to R: {svg}");
        assert!(svg.contains(">rendezvous</text>"), "{svg}");
        assert!(
            svg.contains(">S</text>") && svg.contains(">R</text>"),
            "{svg}"
        );
    }

    #[test]
    fn each_message_of_a_buffered_channel_goes_from_its_send_to_its_receive() {
        // P sends 1, 2 and 3 into a buffer of 2; Q receives two of them: two arrows.
        let svg = msc_of(include_str!("../../models/v3/chan_fifo.bir"));
        assert_eq!(svg.matches("class=\"msc-message\"").count(), 2, "{svg}");
        assert_eq!(svg.matches(">c</text>").count(), 2, "{svg}");
        // The first send's label: the channel as it was and became (cut to the label's
        // length), not its length and cells.
        assert!(
            svg.contains(">c: [] (0 of 2) → [⟨1⟩] (1 of 2)</text>"),
            "{svg}"
        );
        assert!(!svg.contains("len(c)"), "{svg}");
    }

    #[test]
    fn labels_are_escaped_and_cut() {
        assert_eq!(
            escape("a < b && \"c\""),
            "a &lt; b &amp;&amp; &quot;c&quot;"
        );
        assert_eq!(cut("abcdef", 4), "abc…");
        assert_eq!(cut("abc", 4), "abc");
    }
}
