//! The heap of one state drawn as a graph, in SVG (version 3's records): the roots on the
//! left, each live object a box, each reference an arrow.
//!
//! - The roots, in slot order: every plain slot of reference kind that is not null (a
//!   global `head`, a local `T.n`, an array element `r[1]`), the reference locals of the
//!   frames on each call stack, and the reference fields of the messages buffered in a
//!   channel (`c⟨1⟩.0`: field 0 of its oldest message), and the object whose lock an
//!   instance waits on or was notified by (`W[1] waits`). Each is a `g.heap-root` box with
//!   its name, and an arrow to the object it refers to.
//! - Each live object is a `g.heap-object` box titled as references read it (`Node#1`),
//!   one row per field in declaration order: `value = 1`, a null reference `next = null`,
//!   a reference to an object `next ●`, from whose row an arrow labelled with the field's
//!   name leaves for that object; then one row per lock the object carries (its own,
//!   `lock`, and its lock fields), as a lock reads: `guard = held by W[0]`.
//! - The objects are laid out in columns by their distance from the roots (breadth first,
//!   the roots in order, each object's fields in order: one layout per state), the objects
//!   no drawn root reaches in a last column, marked `heap-unreachable`. An arrow to a
//!   column further right is a curve from the field's row to the object's left side; one
//!   to the same column, a column to the left or its own object (a cycle, a self-loop)
//!   curves over into the object's top.
//!
//! A model without records draws nothing: [`render`] is the empty string. A state of such a
//! model without live objects is a short SVG saying "no objects" (`text.heap-empty`). Every
//! label is escaped; the SVG carries its own style, as [`msc`](crate::msc)'s charts do.

use std::collections::HashMap;
use std::fmt::Write as _;

use bir_runtime::model::{ModelInfo, SlotKind, StateParts};
use bir_runtime::PartDisplay;

use crate::json::value;
use crate::msc::{cut, escape};

mod layout;

use layout::{column_x, layout, roots, Field, Object, ObjectId};

/// Width of an object's box.
const BOX: usize = 150;
/// Width of a root's box.
const ROOT: usize = 120;
/// Horizontal space between columns, where the arrows run.
const GAP: usize = 90;
/// Height of an object's title, and of a root's box.
const HEAD: usize = 24;
/// Height of one field's row.
const ROW: usize = 18;
/// Vertical space between boxes of one column.
const SPACE: usize = 26;
/// Where the boxes start, below the columns' captions.
const TOP: usize = 44;
/// The longest text in a box; longer ones are cut (the tooltip has all).
const CHARS: usize = 18;

/// The style of every heap graph.
const STYLE: &str = "\
text{font:12px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;fill:#1f2937}\
.heap-root rect{fill:#eef2ff;stroke:#6366f1}.heap-root text{font-weight:600}\
.heap-object rect{fill:#fff;stroke:#6b7280}.heap-object .heap-title{fill:#f3f4f6}\
.heap-object text.heap-name{font-weight:600}\
.heap-unreachable rect{stroke-dasharray:4 3}\
.heap-arrow{stroke:#2563eb;stroke-width:1.6;fill:none;marker-end:url(#heap-tip)}\
.heap-label{fill:#2563eb}.heap-caption{fill:#6b7280}.heap-empty{fill:#6b7280}";

/// The heap of `values` (a decoded state of the model `info` describes, whose parts are
/// `parts`) as an SVG graph (see the module's documentation); empty when the model has no
/// records.
pub fn render(info: &ModelInfo, parts: &StateParts, values: &[i64]) -> String {
    if parts.heaps().is_empty() {
        return String::new();
    }
    let by_record: HashMap<&str, usize> = parts
        .heaps()
        .iter()
        .enumerate()
        .map(|(index, heap)| (heap.record.as_str(), index))
        .collect();
    // The object a slot refers to, if it is a reference to a live object.
    let target_of = |slot: usize| -> Option<ObjectId> {
        let SlotKind::Reference { record } = &info.slots.get(slot)?.kind else {
            return None;
        };
        let number = usize::try_from(*values.get(slot)?)
            .ok()
            .filter(|&n| n > 0)?;
        Some((*by_record.get(record.as_ref())?, number))
    };
    let mut objects: Vec<Object> = Vec::new();
    let mut index_of: HashMap<ObjectId, usize> = HashMap::new();
    for (h, heap) in parts.heaps().iter().enumerate() {
        for object in heap.objects(values) {
            let mut fields: Vec<Field> = object
                .values()
                .map(|&(name, slot)| {
                    let target = target_of(slot);
                    let text = match (target, info.slots.get(slot), values.get(slot)) {
                        (Some(_), _, _) => format!("{name} ●"),
                        (None, Some(info), Some(&v)) => format!("{name} = {}", shown(info, v)),
                        _ => name.to_string(),
                    };
                    Field {
                        name: name.to_string(),
                        text,
                        target,
                    }
                })
                .collect();
            // Its locks after its values, each as a lock reads (`guard = held by T`).
            fields.extend(object.locks.iter().map(|lock| {
                let state = parts.object_lock_state(h, &object, lock, values);
                Field {
                    name: lock.name.to_string(),
                    text: format!("{} = {}", lock.name, PartDisplay::lock_text(parts, &state)),
                    target: None,
                }
            }));
            index_of.insert((h, object.number), objects.len());
            objects.push(Object {
                title: format!("{}#{}", heap.record, object.number),
                fields,
                column: 0,
                x: 0,
                y: 0,
            });
        }
    }
    if objects.is_empty() {
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"heap\" width=\"160\" \
                height=\"32\" viewBox=\"0 0 160 32\"><style>text{font:12px ui-monospace,\
                monospace}.heap-empty{fill:#6b7280}</style>\
                <text class=\"heap-empty\" x=\"8\" y=\"20\">no objects</text></svg>"
            .to_string();
    }
    let roots: Vec<(String, usize)> = roots(info, parts, values)
        .into_iter()
        .filter_map(|(name, slot)| Some((name, *index_of.get(&target_of(slot)?)?)))
        .collect();
    let (order, unreached) = layout(&mut objects, &roots, &index_of);
    draw(&objects, &roots, &order, unreached, &index_of)
}

/// The SVG of the laid out objects and their roots.
fn draw(
    objects: &[Object],
    roots: &[(String, usize)],
    order: &[Vec<usize>],
    unreached: bool,
    index_of: &HashMap<ObjectId, usize>,
) -> String {
    let columns = order.len();
    let width = column_x(columns - 1) + BOX + GAP;
    let tallest = objects
        .iter()
        .map(|o| o.y + o.height())
        .max()
        .unwrap_or(TOP);
    let height = tallest.max(TOP + roots.len() * (HEAD + SPACE)) + 24;
    let mut svg = String::new();
    let _ = write!(
        svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"heap\" width=\"{width}\" \
         height=\"{height}\" viewBox=\"0 0 {width} {height}\" data-objects=\"{}\">\
         <style>{STYLE}</style><defs>\
         <marker id=\"heap-tip\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" \
         markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M0,0L10,5L0,10z\" fill=\"#2563eb\"/></marker>\
         </defs>",
        objects.len()
    );
    if !roots.is_empty() {
        caption_at(&mut svg, 0, "roots");
        caption_at(&mut svg, 1, "objects");
    }
    if unreached {
        caption_at(&mut svg, columns - 1, "unreachable from the roots");
    }
    // The arrows first, so that the boxes are drawn over their ends.
    for (index, (name, object)) in roots.iter().enumerate() {
        let y = TOP + index * (HEAD + SPACE) + HEAD / 2;
        arrow(
            &mut svg,
            (column_x(0) + ROOT, y, 0, y),
            &objects[*object],
            "",
            (name.as_str(), &objects[*object].title),
        );
    }
    for object in objects {
        for (row, field) in object.fields.iter().enumerate() {
            let Some(target) = field.target.and_then(|t| index_of.get(&t).copied()) else {
                continue;
            };
            let y = object.y + HEAD + row * ROW + ROW / 2;
            let from = format!("{}.{}", object.title, field.name);
            arrow(
                &mut svg,
                (object.x + BOX, y, object.column, object.y),
                &objects[target],
                &field.name,
                (&from, &objects[target].title),
            );
        }
    }
    for (index, (name, _)) in roots.iter().enumerate() {
        let y = TOP + index * (HEAD + SPACE);
        let _ = write!(
            svg,
            "<g class=\"heap-root\" data-root=\"{0}\"><title>{0}</title>\
             <rect x=\"{1}\" y=\"{y}\" width=\"{ROOT}\" height=\"{HEAD}\" rx=\"4\"/>\
             <text x=\"{2}\" y=\"{3}\">{4}</text></g>",
            escape(name),
            column_x(0),
            column_x(0) + 8,
            y + 16,
            escape(&cut(name, CHARS - 2))
        );
    }
    for object in objects {
        let unreachable = unreached && object.column == columns - 1;
        let class = if unreachable {
            "heap-object heap-unreachable"
        } else {
            "heap-object"
        };
        let texts: Vec<&str> = object.fields.iter().map(|f| f.text.as_str()).collect();
        let _ = write!(
            svg,
            "<g class=\"{class}\" data-object=\"{0}\"><title>{0} {{ {1} }}</title>\
             <rect x=\"{2}\" y=\"{3}\" width=\"{BOX}\" height=\"{4}\" rx=\"4\"/>\
             <rect class=\"heap-title\" x=\"{5}\" y=\"{6}\" width=\"{7}\" height=\"{8}\"/>\
             <text class=\"heap-name\" x=\"{9}\" y=\"{10}\">{11}</text>",
            escape(&object.title),
            escape(&texts.join(", ")),
            object.x,
            object.y,
            object.height(),
            object.x + 1,
            object.y + 1,
            BOX - 2,
            HEAD - 2,
            object.x + 8,
            object.y + 16,
            escape(&cut(&object.title, CHARS))
        );
        for (row, field) in object.fields.iter().enumerate() {
            let _ = write!(
                svg,
                "<text class=\"heap-field\" x=\"{}\" y=\"{}\">{}</text>",
                object.x + 10,
                object.y + HEAD + row * ROW + 13,
                escape(&cut(&field.text, CHARS))
            );
        }
        svg.push_str("</g>");
    }
    svg.push_str("</svg>");
    svg
}

/// A column's caption above it.
fn caption_at(svg: &mut String, column: usize, caption: &str) {
    let _ = write!(
        svg,
        "<text class=\"heap-caption\" x=\"{}\" y=\"20\">{caption}</text>",
        column_x(column)
    );
}

/// An arrow from `(x, y)` (the right side of a box in column `column` whose top is at
/// `top`) to `target`,
/// labelled `label` (a root's arrow is not: its box has the name); `from` and `to` name its
/// two ends.
fn arrow(
    svg: &mut String,
    (x, y, column, top): (usize, usize, usize, usize),
    target: &Object,
    label: &str,
    (from, to): (&str, &str),
) {
    let (x, y, top) = (x as i64, y as i64, top as i64);
    let (tx, ty) = (target.x as i64, target.y as i64);
    let (path, (lx, ly)) = if target.column > column {
        // Forward: into the target's left side, at its title.
        let (ex, ey) = (tx - 2, ty + HEAD as i64 / 2);
        let bend = (ex - x) / 2;
        let path = format!("M{x},{y}C{},{y} {},{ey} {ex},{ey}", x + bend, ex - bend);
        (path, ((x + ex) / 2 - 12, (y + ey) / 2 - 5))
    } else {
        // Back, across or to itself: out to the right, up over the boxes and down into the
        // target's top (not above the picture: the curve stays below its control points).
        let (ex, ey) = (tx + BOX as i64 / 2, ty - 2);
        let (c1, c2) = if target.x as i64 + BOX as i64 == x && target.y as i64 == top {
            ((x + 60, y), (ex, (ey - 60).max(0)))
        } else {
            ((x + 70, (top - 40).max(0)), (ex, (ey - 50).max(0)))
        };
        let path = format!("M{x},{y}C{},{} {},{} {ex},{ey}", c1.0, c1.1, c2.0, c2.1);
        // The curve's middle point.
        let mx = (x + 3 * c1.0 + 3 * c2.0 + ex) / 8;
        let my = (y + 3 * c1.1 + 3 * c2.1 + ey) / 8;
        (path, (mx + 4, my - 4))
    };
    let _ = write!(
        svg,
        "<g class=\"heap-ref\" data-from=\"{}\" data-to=\"{}\"><path class=\"heap-arrow\" d=\"{path}\"/>",
        escape(from),
        escape(to),
    );
    if !label.is_empty() {
        let _ = write!(
            svg,
            "<text class=\"heap-label\" x=\"{lx}\" y=\"{ly}\">{}</text>",
            escape(&cut(label, CHARS))
        );
    }
    svg.push_str("</g>");
}

/// A field's value as the reports print it: `1`, `true`, `Color.Red`, `null`.
fn shown(slot: &bir_runtime::model::SlotInfo, v: i64) -> String {
    match value(slot, v) {
        serde_json::Value::String(text) => text,
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests;
