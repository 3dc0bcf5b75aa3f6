//! A guided simulation: a path from the initial state that a person extends one chosen
//! transition at a time, walks back and forth along, extends at random, or loads from a
//! replay string. `bir simulate --guided` and `bir explore` both drive one.
//!
//! The steps are the model's own ([`Model::successors`]), and what a path ends in (a
//! deadlock, a failing step, a violated invariant) is said by the runtime: the session
//! replays its path with [`Checker::replay`], so its messages are those of `bir check`.

use bir_runtime::model::{Outcome, Successor, TransitionId, TransitionInfo, STUTTER};
use bir_runtime::{
    replay_steps, replay_string, Change, Checker, Counterexample, FindingKind, Model, Step,
};

/// The most steps a path may have (a pasted replay string, random steps).
pub const MAX_PATH: usize = 100_000;

/// A path being walked through a model.
pub struct Session<M: Model> {
    checker: Checker<M>,
    /// The states along the path: the initial one first, one more per successful step.
    states: Vec<M::State>,
    /// The transitions taken; a failing step is the last and adds no state.
    path: Vec<TransitionId>,
    /// Set when the last step failed.
    failed: bool,
    /// The steps undone by [`Session::back`], the next one last.
    future: Vec<TransitionId>,
}

/// One enabled transition of the current state.
#[derive(Clone, Debug)]
pub struct Choice<'a> {
    /// Its id (what [`Session::take`] takes).
    pub transition: TransitionId,
    /// The model's description of it.
    pub info: &'a TransitionInfo,
    /// Taking it fails (an assertion, a range error...).
    pub fails: bool,
}

/// Where the path stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// Some transition is enabled.
    Running,
    /// Every started instance has ended: a valid end state.
    Ended,
    /// A finding: a deadlock, a failing last step or a violated invariant, with the
    /// runtime's message.
    Found(FindingKind, String),
}

impl<M: Model + Clone> Session<M> {
    /// A session at the initial state of the checker's model.
    pub fn new(checker: Checker<M>) -> Session<M> {
        let initial = checker.model().initial_state();
        Session {
            checker,
            states: vec![initial],
            path: Vec::new(),
            failed: false,
            future: Vec::new(),
        }
    }

    /// The model.
    pub fn model(&self) -> &M {
        self.checker.model()
    }

    /// The transitions taken so far.
    pub fn path(&self) -> &[TransitionId] {
        &self.path
    }

    /// The path as a replay string.
    pub fn replay(&self) -> String {
        replay_string(&self.path)
    }

    /// The current state.
    pub fn state(&self) -> &M::State {
        self.states
            .last()
            .unwrap_or_else(|| unreachable!("a path has its initial state"))
    }

    /// Every state along the path, the initial one first.
    pub fn states(&self) -> &[M::State] {
        &self.states
    }

    /// A state decoded: one value per slot of the model's `ModelInfo`.
    pub fn values(&self, state: &M::State) -> Vec<i64> {
        let mut values = Vec::new();
        self.model().decode(state, &mut values);
        values
    }

    /// The successors of the current state (none after a failing step or at a state that
    /// violates an invariant: a path ends at its first finding).
    fn successors(&self) -> Vec<Successor<M::State>> {
        let mut out = Vec::new();
        if !self.failed && self.model().check_invariants(self.state()).is_ok() {
            self.model().successors(self.state(), &mut out);
        }
        out
    }

    /// The transitions enabled in the current state, in the model's order.
    pub fn choices(&self) -> Vec<Choice<'_>> {
        let transitions = &self.model().info().transitions;
        self.successors()
            .into_iter()
            .filter_map(|s| {
                Some(Choice {
                    transition: s.transition,
                    info: transitions.get(s.transition as usize)?,
                    fails: matches!(s.outcome, Outcome::Fault(_)),
                })
            })
            .collect()
    }

    /// Where the path stands: running, ended, or at a finding with its message.
    pub fn status(&self) -> Status {
        let state = self.state();
        let stuck = self.failed
            || self.model().check_invariants(state).is_err()
            || self.successors().is_empty();
        if !stuck {
            return Status::Running;
        }
        if !self.failed
            && self.model().check_invariants(state).is_ok()
            && self.model().is_end_state(state)
        {
            return Status::Ended;
        }
        match self.finding() {
            Some(found) => Status::Found(found.kind(), found.message().to_string()),
            None => Status::Ended,
        }
    }

    /// The path as the runtime's counterexample, when it ends at a finding.
    pub fn finding(&self) -> Option<Counterexample> {
        self.checker.replay(&self.replay()).ok()
    }

    /// Takes transition `id`, which must be enabled; forgets the steps undone before,
    /// unless `id` is the next of them.
    pub fn take(&mut self, id: TransitionId) -> Result<(), String> {
        if self.path.len() >= MAX_PATH {
            return Err(format!("a path has at most {MAX_PATH} steps"));
        }
        let successors = self.successors();
        let Some(taken) = successors.into_iter().find(|s| s.transition == id) else {
            let enabled: Vec<String> = self
                .choices()
                .iter()
                .map(|c| c.transition.to_string())
                .collect();
            return Err(if enabled.is_empty() {
                format!("transition {id} is not enabled: no transition is enabled here")
            } else {
                format!(
                    "transition {id} is not enabled here (enabled: {})",
                    enabled.join(", ")
                )
            });
        };
        match taken.outcome {
            Outcome::Next(next) => self.states.push(next),
            Outcome::Fault(_) => self.failed = true,
        }
        self.path.push(id);
        if self.future.last() == Some(&id) {
            self.future.pop();
        } else {
            self.future.clear();
        }
        Ok(())
    }

    /// Undoes the last step; false at the initial state.
    pub fn back(&mut self) -> bool {
        let Some(id) = self.path.pop() else {
            return false;
        };
        if self.failed {
            self.failed = false;
        } else {
            self.states.pop();
        }
        self.future.push(id);
        true
    }

    /// Takes again the last step undone; false when there is none.
    pub fn forward(&mut self) -> bool {
        match self.future.last().copied() {
            Some(id) => self.take(id).is_ok(),
            None => false,
        }
    }

    /// True when a step was undone and can be taken again.
    pub fn can_forward(&self) -> bool {
        !self.future.is_empty()
    }

    /// Back to the initial state (the path is forgotten).
    pub fn reset(&mut self) {
        self.states.truncate(1);
        self.path.clear();
        self.failed = false;
        self.future.clear();
    }

    /// Takes up to `steps` transitions chosen at random (the same `seed` from the same
    /// state chooses the same ones); stops where nothing is enabled. Returns the steps taken.
    pub fn random(&mut self, seed: u64, steps: usize) -> usize {
        let mut rng = SplitMix64(seed);
        let mut taken = 0;
        while taken < steps && self.path.len() < MAX_PATH {
            let choices: Vec<TransitionId> = self.choices().iter().map(|c| c.transition).collect();
            if choices.is_empty() {
                break;
            }
            let pick = choices[(rng.next() % choices.len() as u64) as usize];
            if self.take(pick).is_err() {
                break;
            }
            taken += 1;
        }
        taken
    }

    /// Replaces the path with the one a replay string describes (a lasso's stutter steps
    /// are left out: they repeat a state). Every step must be enabled where it is taken;
    /// on an error the path is left as it was.
    pub fn load(&mut self, text: &str) -> Result<(), String> {
        let (steps, _) = replay_steps(text).map_err(|e| e.to_string())?;
        if steps.len() > MAX_PATH {
            return Err(format!(
                "a path has at most {MAX_PATH} steps, this one {}",
                steps.len()
            ));
        }
        let mut fresh = Session::new(self.checker.clone());
        for (index, &id) in steps.iter().enumerate() {
            if id == STUTTER {
                continue;
            }
            fresh
                .take(id)
                .map_err(|message| format!("step {}: {message}", index + 1))?;
        }
        self.states = fresh.states;
        self.path = fresh.path;
        self.failed = fresh.failed;
        self.future.clear();
        Ok(())
    }

    /// The steps of the path with what each changed, for the message-sequence chart.
    pub fn steps(&self) -> Vec<Step> {
        let mut steps = Vec::with_capacity(self.path.len());
        for (index, &transition) in self.path.iter().enumerate() {
            let fault = self.failed && index + 1 == self.path.len();
            let changes = if fault {
                Vec::new()
            } else {
                Change::between(
                    &self.values(&self.states[index]),
                    &self.values(&self.states[index + 1]),
                )
            };
            let heap = if fault {
                None
            } else {
                bir_runtime::heap_step(self.model(), &self.states[index], transition)
            };
            steps.push(Step {
                transition,
                changes,
                fault: None,
                heap,
            });
            if fault {
                if let Some(found) = self.finding() {
                    if let Some(last) = steps.last_mut() {
                        last.fault = found.fault();
                    }
                }
            }
        }
        steps
    }
}

/// A small seeded generator (splitmix64): the same seed, the same random steps.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

#[cfg(test)]
mod tests {
    use bir_interp::Interpreter;

    use super::*;

    fn session(name: &str) -> Session<Interpreter> {
        let path = format!("{}/../models/{name}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).expect("a reference model");
        let model = Interpreter::from_source(&text).expect("it checks");
        Session::new(Checker::new(model))
    }

    #[test]
    fn a_guided_rendezvous_is_one_choice_that_moves_both_instances() {
        let mut session = session("v3/rdv_pair.bir");
        let choices = session.choices();
        assert_eq!(choices.len(), 1);
        assert_eq!(choices[0].info.thread, "S <-> R");
        let pairing = choices[0].transition;
        session.take(pairing).expect("enabled");
        let next: Vec<_> = session
            .choices()
            .iter()
            .map(|c| c.info.thread.to_string())
            .collect();
        assert_eq!(next, ["R"]);
        let last = session.choices()[0].transition;
        session.take(last).expect("enabled");
        assert_eq!(session.status(), Status::Ended);
        let replay = session.replay();
        session.reset();
        session.load(&replay).expect("its own replay");
        assert_eq!(session.status(), Status::Ended);
    }

    #[test]
    fn a_guided_walk_into_a_recursion_too_deep_ends_at_the_stack_error() {
        let mut session = session("v3/func_rec_stack.bir");
        while session.status() == Status::Running {
            let first = session.choices()[0].transition;
            session.take(first).expect("enabled");
        }
        assert!(
            matches!(session.status(), Status::Found(FindingKind::Stack, _)),
            "{:?}",
            session.status()
        );
    }
}
