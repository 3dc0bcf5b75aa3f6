//! A report as people read it: the headline (system, verdict, how the search ran), every
//! kept counterexample, the notes, and the statistics line.

use std::fmt;

use crate::model::{PropertyInfo, PropertyKind};
use crate::report::Coverage;
use crate::report::{Report, Stats};
use crate::trace::Counterexample;
use crate::units::{Bytes, Counted, Thousands};
use crate::verdict::FindingKind;
use crate::verdict::{IncompleteReason, Verdict};

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Verified => f.write_str("verified"),
            Verdict::Found(kind) => write!(f, "{kind}"),
            Verdict::Incomplete { reason } => {
                write!(f, "not verified ({})", reason.describe())
            }
            Verdict::Reached => f.write_str("reached"),
            Verdict::Unreachable => f.write_str("unreachable"),
        }
    }
}

impl fmt::Display for Stats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.walks > 0 {
            write!(f, "walks: {}, ", Thousands(self.walks))?;
        }
        write!(
            f,
            "states: {}, transitions: {}, errors: {}, deadlocks: {}, max depth: {}, \
             {:.3} s, {} states/s, seen set: {}",
            Thousands(self.states),
            Thousands(self.transitions),
            Thousands(self.errors),
            Thousands(self.deadlocks),
            Thousands(u64::from(self.max_depth)),
            self.elapsed.as_secs_f64(),
            Thousands(self.states_per_sec() as u64),
            Bytes(self.seen_bytes),
        )?;
        if let Some(peak) = self.peak_memory {
            write!(f, ", peak memory: {}", Bytes(peak))?;
        }
        Ok(())
    }
}

/// The first line: the name, what the verdict means, and how the search ran.
fn fmt_headline(report: &Report, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    let how = report.plan().describe();
    let stats = report.stats();
    let states = Thousands(stats.states);
    let nothing = if report.deadlock_detection() {
        "no error and no deadlock"
    } else {
        "no error (deadlock detection off)"
    };
    write!(f, "{}: ", report.name())?;
    if let Some(property) = report.property() {
        return fmt_property_headline(report, property, f);
    }
    match report.verdict() {
        Verdict::Verified => write!(
            f,
            "verified: {nothing} in all {states} reachable states ({how})"
        ),
        Verdict::Found(kind) => {
            write!(f, "{kind} found ({how})")?;
            if report.is_complete() {
                write!(
                    f,
                    "; all {states} reachable states explored: {}, {}",
                    Counted(stats.errors, "error"),
                    Counted(stats.deadlocks, "deadlock")
                )?;
            }
            Ok(())
        }
        Verdict::Incomplete {
            reason: IncompleteReason::Simulation,
        } => write!(
            f,
            "{nothing} found in {} random walks ({} steps, {states} distinct states); \
             not verified",
            Thousands(stats.walks),
            Thousands(stats.transitions)
        ),
        Verdict::Incomplete { reason } => {
            write!(f, "{nothing} found in {states} states ({how}")?;
            // A lossy storage is its own reason, already named by the plan.
            let storage_reason = matches!(
                reason,
                IncompleteReason::HashCompaction | IncompleteReason::Bitstate
            );
            if !storage_reason {
                write!(f, "; {}", reason.describe())?;
            }
            if let Some(p) = stats.omission_probability {
                write!(f, "; probability that a state was missed ≈ {p:.1e}")?;
            }
            write!(f, "); not verified")
        }
        Verdict::Reached | Verdict::Unreachable => Ok(()),
    }
}

/// The first line of a property check.
fn fmt_property_headline(
    report: &Report,
    property: &PropertyInfo,
    f: &mut fmt::Formatter<'_>,
) -> fmt::Result {
    let how = report.plan().describe();
    let stats = report.stats();
    let states = Thousands(stats.states);
    let (name, text) = (&property.name, &property.text);
    let reachable = matches!(property.kind, PropertyKind::Reachable);
    match report.verdict() {
        Verdict::Verified => write!(
            f,
            "property {name} holds: every run satisfies `{text}` ({states} states of the \
             product with the automaton explored; {how})"
        ),
        Verdict::Found(FindingKind::Property) => write!(f, "property {name} violated ({how})"),
        Verdict::Found(kind) => write!(f, "{kind} found while checking {name} ({how})"),
        Verdict::Reached => {
            let steps = report.first_finding().map_or(0, Counterexample::len);
            write!(
                f,
                "reachable {name}: `{text}` reached after {} ({how})",
                Counted(steps as u64, "step")
            )
        }
        Verdict::Unreachable => write!(
            f,
            "reachable {name} FAILED: no reachable state satisfies `{text}`, all {states} \
             states explored ({how})"
        ),
        Verdict::Incomplete { reason } => {
            let what = if reachable {
                format!("no state satisfying `{text}`")
            } else {
                format!("no violation of {name}")
            };
            write!(f, "{what} found in {states} states ({how}")?;
            if !matches!(
                reason,
                IncompleteReason::HashCompaction | IncompleteReason::Bitstate
            ) {
                write!(f, "; {}", reason.describe())?;
            }
            if let Some(p) = stats.omission_probability {
                write!(f, "; probability that a state was missed ≈ {p:.1e}")?;
            }
            write!(f, "); not verified")
        }
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt_headline(self, f)?;
        writeln!(f)?;
        if let (Verdict::Found(_), Some(reason)) = (self.verdict(), self.incomplete_reason()) {
            writeln!(f, "(the search was also cut short: {})", reason.describe())?;
        }
        let findings = self.findings();
        for (number, finding) in findings.iter().enumerate() {
            writeln!(f)?;
            if f.alternate() {
                write!(f, "{}. {finding:#}", number + 1)?;
            } else {
                write!(f, "{}. {finding}", number + 1)?;
            }
        }
        let counted = self.errors() + self.deadlocks();
        let kept = findings.len() as u64;
        if counted > kept && kept > 0 {
            writeln!(
                f,
                "\n({} more counted but not kept)",
                Counted(counted - kept, "finding")
            )?;
        }
        for note in self.plan().notes.iter().chain(self.notes()) {
            writeln!(f, "note: {note}")?;
        }
        if let Some(coverage) = self.coverage().filter(|c| !c.is_full()) {
            write!(f, "\n{coverage}")?;
        }
        writeln!(f)?;
        write!(f, "{}", self.stats())
    }
}

/// What a complete search never saw happen, one item per line under a count.
impl fmt::Display for Coverage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (fired, all) = self.transformations();
        writeln!(
            f,
            "coverage: {fired} of {} fired",
            Counted(all as u64, "transformation")
        )?;
        for unfired in self.unfired() {
            write!(
                f,
                "  never fired: {} at {}: {}",
                unfired.thread, unfired.from, unfired.text
            )?;
            if unfired.line != 0 {
                write!(f, "   (line {})", unfired.line)?;
            }
            writeln!(f)?;
        }
        for instance in self.idle_instances() {
            writeln!(
                f,
                "  never took a step: {instance} (never started, or blocked from its start)"
            )?;
        }
        for (thread, location) in self.unreached_locations() {
            writeln!(f, "  never reached: {thread} at {location}")?;
        }
        for vacuous in self.vacuous() {
            writeln!(f, "  {vacuous}")?;
        }
        Ok(())
    }
}
