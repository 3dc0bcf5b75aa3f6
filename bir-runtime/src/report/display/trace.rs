//! A counterexample as people read it: what was found, the numbered steps with what each
//! changed, the final state, the replay string.

use std::fmt;

use super::{heap_step_text, ChangeDisplay, OperandsDisplay, StateDisplay};
use crate::model::{StateParts, STUTTER};
use crate::trace::{Counterexample, Step};
use crate::units::Counted;
use crate::verdict::FindingKind;

impl fmt::Display for FindingKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}

/// Traces longer than this many steps are printed elided, unless in full (`{:#}`).
pub(crate) const ELIDE_OVER: usize = 40;

/// The steps printed at the start and at the end of an elided trace (or of each part of
/// an elided lasso).
const HEAD: usize = 10;
const TAIL: usize = 20;

/// Where a run stands as its steps are printed: for a model with parts, the decoded state
/// before the next step, which its changes are read against; nothing for one without (its
/// changes are its slots').
struct Walk<'a> {
    parts: &'a StateParts,
    values: Vec<i64>,
}

impl<'a> Walk<'a> {
    /// At `start`, the state before the first step printed.
    fn new(parts: &'a StateParts, start: &[i64]) -> Walk<'a> {
        let values = if parts.is_empty() {
            Vec::new()
        } else {
            start.to_vec()
        };
        Walk { parts, values }
    }

    /// Past `step`.
    fn advance(&mut self, step: &Step) {
        for change in &step.changes {
            if let Some(value) = self.values.get_mut(change.slot as usize) {
                *value = change.new;
            }
        }
    }
}

/// Writes steps numbered from 1, eliding the middle of more than [`ELIDE_OVER`] unless the
/// format is the alternate one (`{:#}`).
fn write_steps(
    f: &mut fmt::Formatter<'_>,
    found: &Counterexample,
    steps: &[Step],
    walk: &mut Walk<'_>,
) -> fmt::Result {
    if f.alternate() || steps.len() <= ELIDE_OVER {
        return write_numbered(f, found, steps, 1, walk);
    }
    write_numbered(f, found, &steps[..HEAD], 1, walk)?;
    let hidden = steps.len() - HEAD - TAIL;
    writeln!(
        f,
        "  ... {} not shown (#{} to #{}); print the report with {{:#}} (`--full-trace`) for \
         all of them",
        Counted(hidden as u64, "step"),
        HEAD + 1,
        HEAD + hidden
    )?;
    for step in &steps[HEAD..HEAD + hidden] {
        walk.advance(step);
    }
    write_numbered(f, found, &steps[HEAD + hidden..], HEAD + hidden + 1, walk)
}

/// Writes every one of `steps`, numbered from `first`.
fn write_numbered(
    f: &mut fmt::Formatter<'_>,
    found: &Counterexample,
    steps: &[Step],
    first: usize,
    walk: &mut Walk<'_>,
) -> fmt::Result {
    let info = found.info();
    for (offset, step) in steps.iter().enumerate() {
        write!(f, "  #{:<2} ", first + offset)?;
        match info.transitions.get(step.transition as usize) {
            Some(t) => {
                write!(f, "{} {} -> {}   {}", t.thread, t.from, t.to, t.text)?;
                if t.line != 0 {
                    write!(f, "   (line {})", t.line)?;
                }
            }
            None if step.transition == STUTTER => write!(
                f,
                "(stutter: no transition is enabled; the run stays in this state forever)"
            )?,
            None => write!(f, "transition {}", step.transition)?,
        }
        if let Some(text) = step
            .heap
            .as_ref()
            .and_then(|h| heap_step_text(walk.parts, h))
        {
            write!(f, "   [{text}]")?;
        }
        writeln!(f)?;
        if step.fault.is_some() {
            writeln!(f, "        FAILS: {}", found.message())?;
        } else if let Some(changes) = ChangeDisplay::new(info, walk.parts, &walk.values, step) {
            writeln!(f, "        {changes}")?;
        }
        walk.advance(step);
    }
    Ok(())
}

impl fmt::Display for Counterexample {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let info = self.info();
        let parts = StateParts::new(info);
        let mut walk = Walk::new(&parts, self.initial_state());
        let Some(cycle) = self.cycle_start() else {
            let steps = Counted(self.len() as u64, "step");
            write!(f, "{} after {steps}", self.kind())?;
            if let Some(original) = self.shortened_from() {
                write!(f, " (shortened from {original})")?;
            }
            writeln!(f, ": {}", self.message())?;
            if !self.operands().is_empty() {
                let operands = OperandsDisplay {
                    info,
                    operands: self.operands(),
                };
                writeln!(f, "  operands: {operands}")?;
            }
            writeln!(
                f,
                "  initial state: {}",
                StateDisplay::with_parts(info, &parts, self.initial_state())
            )?;
            write_steps(f, self, self.steps(), &mut walk)?;
            writeln!(
                f,
                "  final state: {}",
                StateDisplay::with_parts(info, &parts, self.final_state())
            )?;
            return writeln!(f, "  replay: {}", self.replay());
        };
        let (stem, repeated) = self.steps().split_at(cycle);
        writeln!(
            f,
            "{}: {}: a stem of {}, then a cycle of {} repeated forever",
            self.kind(),
            self.message(),
            Counted(stem.len() as u64, "step"),
            Counted(repeated.len() as u64, "step")
        )?;
        writeln!(
            f,
            "  initial state: {}",
            StateDisplay::with_parts(info, &parts, self.initial_state())
        )?;
        writeln!(
            f,
            "  part 1, the stem ({}):",
            Counted(stem.len() as u64, "step")
        )?;
        write_steps(f, self, stem, &mut walk)?;
        // The cycle returns to the state the stem ends in: the final state.
        writeln!(
            f,
            "  cycle entry: {}",
            StateDisplay::with_parts(info, &parts, self.final_state())
        )?;
        writeln!(
            f,
            "  part 2, the cycle ({}, back to the cycle entry, forever):",
            Counted(repeated.len() as u64, "step")
        )?;
        write_steps(f, self, repeated, &mut walk)?;
        writeln!(f, "  replay: {}", self.replay())
    }
}
