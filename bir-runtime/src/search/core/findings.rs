//! Findings as one search thread records them: counting each, keeping the counterexamples
//! asked for (rebuilt from the path's transition ids), the reachability goal that every new
//! state is tested against, and, in a search that shortens traces, only the findings it
//! looks for.

use std::sync::Arc;

use crate::model::{Model, TransitionId};
use crate::search::reduce::shorten::Wanted;
use crate::trace::{self, replay_string, Counterexample, ReplayError};
use crate::verdict::FindingKind;

use super::{Stepper, Visit};

impl<M: Model> Stepper<'_, M> {
    /// Counts a finding and keeps its counterexample while fewer than the configured number
    /// are kept; `path` writes the transition ids from the initial state to it. Without
    /// keep-going, the search stops here.
    /// The path and the rebuild are passed as trait objects: they run once per kept
    /// counterexample, and a generic parameter would make a copy of this code for every
    /// caller's closure in every model (a fifth of a small model's generated code).
    pub(crate) fn record(
        &mut self,
        kind: FindingKind,
        path: &mut dyn FnMut(&mut Vec<TransitionId>),
    ) {
        let (model, info, goal) = (self.model, Arc::clone(&self.info), self.goal);
        self.record_with(kind, &mut |steps| {
            path(steps);
            match goal {
                Some(goal) if kind == FindingKind::Reached => {
                    trace::rebuild_reached(model, &info, steps, goal)
                }
                Some(goal) => trace::rebuild(model, &info, steps)
                    .or_else(|_| trace::rebuild_predicate_fault(model, &info, steps, goal)),
                None => trace::rebuild(model, &info, steps),
            }
        });
    }

    /// Like [`Self::record`], with the counterexample built by `build`, which writes the
    /// transition ids of its path into the buffer it is given (for a note, should the
    /// rebuild fail): for searches whose states are not the model's (the LTL product).
    pub(crate) fn record_with(
        &mut self,
        kind: FindingKind,
        build: &mut dyn FnMut(&mut Vec<TransitionId>) -> Result<Counterexample, ReplayError>,
    ) {
        if let Some(wanted) = &mut self.wanted {
            if !wanted.wants(kind) {
                return;
            }
            self.path.clear();
            if let Ok(found) = build(&mut self.path) {
                if wanted.offer(&found).is_some() {
                    self.tally.findings.push(found);
                }
            }
            self.clock.look_soon();
            if wanted.is_done() {
                self.control.stop_at_finding();
                self.stopped = true;
            }
            return;
        }
        if kind == FindingKind::Deadlock {
            self.tally.deadlocks += 1;
        } else if kind.is_error() {
            self.tally.errors += 1;
        }
        if !self.tally.kinds.contains(&kind) {
            self.tally.kinds.push(kind);
        }
        if self.keeps_next_trace() {
            self.path.clear();
            match build(&mut self.path) {
                Ok(found) => self.tally.findings.push(found),
                // Only a nondeterministic model gets here: say so rather than panic.
                Err(error) => self.tally.notes.push(format!(
                    "the {kind} found at `{}` could not be rebuilt ({error}); \
                     are the model's successors deterministic?",
                    replay_string(&self.path)
                )),
            }
            // Rebuilding a long trace takes time: look at the clock.
            self.clock.look_soon();
        }
        let ends_check = matches!(kind, FindingKind::Property | FindingKind::Reached);
        if self.options.keep_going.is_none() || ends_check {
            self.control.stop_at_finding();
            self.stopped = true;
        }
    }

    /// Whether recording a finding of `kind` now would build its counterexample (call the
    /// `build` of [`Self::record_with`]): a search whose path is costly to gather asks
    /// first, so that keeping going past many findings does not gather it for each.
    pub(crate) fn builds_trace(&self, kind: FindingKind) -> bool {
        match &self.wanted {
            Some(wanted) => wanted.wants(kind),
            None => self.keeps_next_trace(),
        }
    }

    /// True when the next finding's counterexample will be kept (so its path is needed).
    pub(crate) fn keeps_next_trace(&self) -> bool {
        self.tally.findings.len() < self.keep
    }

    /// Records only findings that match one of `wanted` (the first match of each), and
    /// stops once every one has its match.
    pub(crate) fn with_wanted(mut self, wanted: Option<Wanted>) -> Self {
        if let Some(wanted) = &wanted {
            self.keep = wanted.len();
        }
        self.wanted = wanted;
        self
    }

    /// Tests every new state against the predicate of reachability check `property`: a
    /// state that satisfies it is a [`FindingKind::Reached`].
    pub(crate) fn with_goal(mut self, property: Option<usize>) -> Self {
        self.goal = property;
        self
    }

    /// What a new state that satisfies the invariants is: new, or a finding when it
    /// satisfies the reachability check's predicate (or evaluating it faults).
    pub(super) fn new_state(&self, state: &M::State) -> Visit {
        let Some(goal) = self.goal else {
            return Visit::New;
        };
        match self.model.propositions(goal, state) {
            Ok(props) if props & 1 != 0 => Visit::Violating(FindingKind::Reached),
            Ok(_) => Visit::New,
            Err(fault) => Visit::Violating(trace::fault_kind(&self.info, fault)),
        }
    }
}
