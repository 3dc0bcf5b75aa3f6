//! A heuristic (resolved against the model by the plan) as one search evaluates it
//! ([`Scorer`]): the key each new state is queued by.

use crate::model::{Model, Successor, TransitionId};
use crate::plan::heuristic::{Resolved, SlotNames, StateView};

/// One search's evaluation of its heuristic: the key of each new state (its value, then
/// a tie-break: the order of insertion, or a seeded random one in a swarm).
pub(crate) struct Scorer<'a, M: Model> {
    model: &'a M,
    heuristic: Resolved,
    /// Per transition, its instance.
    instance: Vec<u32>,
    /// Per transition, how often it was fired so far (coverage only).
    fired: Vec<u32>,
    /// The random heuristic's generator, and the swarm's tie-breaking one.
    random: u64,
    tie: Option<u64>,
    sequence: u64,
    values: Vec<i64>,
    names: Option<SlotNames>,
    scratch: Vec<Successor<M::State>>,
    /// Per instance, the stamp of the last state in which it was seen enabled (blocked).
    stamps: Vec<u64>,
    /// The first fault of a model's heuristic, for the report's note.
    fault: Option<String>,
}

impl<'a, M: Model> Scorer<'a, M> {
    /// A scorer of `heuristic` for `model`; with `tie_seed`, ties are broken by a random
    /// order of that seed rather than in successor order.
    pub(crate) fn new(model: &'a M, heuristic: Resolved, tie_seed: Option<u64>) -> Self {
        let info = model.info();
        let instance: Vec<u32> = info.transitions.iter().map(|t| t.instance).collect();
        let instances = instance.iter().max().map_or(0, |&i| i as usize + 1);
        let names = matches!(heuristic, Resolved::Custom(_)).then(|| SlotNames::new(info));
        let random = match heuristic {
            Resolved::Random(seed) => mix(seed ^ 0x5eed),
            _ => 0,
        };
        Scorer {
            model,
            fired: match heuristic {
                Resolved::Coverage => vec![0; instance.len()],
                _ => Vec::new(),
            },
            heuristic,
            instance,
            random,
            tie: tie_seed.map(mix),
            sequence: 0,
            values: Vec::new(),
            names,
            scratch: Vec::new(),
            stamps: vec![0; instances],
            fault: None,
        }
    }

    /// Counts the transitions of one expansion as fired (for branch coverage).
    #[inline]
    pub(crate) fn fired(&mut self, successors: &[Successor<M::State>]) {
        if self.fired.is_empty() {
            return;
        }
        for successor in successors {
            if let Some(count) = self.fired.get_mut(successor.transition as usize) {
                *count = count.saturating_add(1);
            }
        }
    }

    /// The key of `next`, a new state reached by `transition` from a state reached by
    /// `before` ([`TransitionId::MAX`] for the initial state).
    #[inline]
    pub(crate) fn key(
        &mut self,
        before: TransitionId,
        transition: TransitionId,
        next: &M::State,
    ) -> (i64, u64) {
        let value = self.value(before, transition, next);
        self.sequence += 1;
        let tie = match &mut self.tie {
            Some(state) => next_random(state),
            None => self.sequence,
        };
        (value, tie)
    }

    fn value(&mut self, before: TransitionId, transition: TransitionId, next: &M::State) -> i64 {
        let instance = |t: TransitionId| self.instance.get(t as usize).copied();
        match &self.heuristic {
            Resolved::Coverage => self
                .fired
                .get(transition as usize)
                .map_or(0, |&count| i64::from(count)),
            Resolved::Switching => {
                i64::from(before != TransitionId::MAX && instance(before) == instance(transition))
            }
            Resolved::Threads(chosen) => {
                let is_chosen = instance(transition)
                    .and_then(|i| chosen.get(i as usize).copied())
                    .unwrap_or(false);
                i64::from(!is_chosen)
            }
            Resolved::Random(_) => (next_random(&mut self.random) >> 2) as i64,
            Resolved::Blocked => self.enabled_instances(next),
            Resolved::Model(index, name) => match self.model.heuristic(*index, next) {
                Ok(value) => value,
                Err(fault) => {
                    if self.fault.is_none() {
                        let site = self.model.info().fault_sites.get(fault.site as usize);
                        let what = site.map_or("a fault".to_string(), |s| s.message.to_string());
                        self.fault = Some(format!(
                            "the heuristic {name} faulted in some states ({what}); they were \
                             given the largest value and explored last"
                        ));
                    }
                    i64::MAX
                }
            },
            Resolved::Custom(function) => {
                self.model.decode(next, &mut self.values);
                match &self.names {
                    Some(names) => function(&StateView {
                        values: &self.values,
                        names,
                    }),
                    None => 0,
                }
            }
        }
    }

    /// How many instances have an enabled transition in `state` (a step that faults
    /// counts: it is enabled).
    fn enabled_instances(&mut self, state: &M::State) -> i64 {
        self.scratch.clear();
        self.model.successors(state, &mut self.scratch);
        // The sequence number the state is about to get, plus one: new for every state.
        let stamp = self.sequence + 1;
        let mut count = 0;
        for successor in &self.scratch {
            let transition = self
                .model
                .info()
                .transitions
                .get(successor.transition as usize);
            let partner = transition.and_then(|t| t.partner).map(|p| p.instance);
            let own = self.instance.get(successor.transition as usize).copied();
            for instance in own.into_iter().chain(partner) {
                if let Some(seen) = self.stamps.get_mut(instance as usize) {
                    if *seen != stamp {
                        *seen = stamp;
                        count += 1;
                    }
                }
            }
        }
        count
    }

    /// For the random heuristic, a seed for a best-first search to take its open states
    /// in a random order of (rather than sorting random keys).
    pub(crate) fn random_seed(&self) -> Option<u64> {
        match self.heuristic {
            Resolved::Random(_) => Some(self.random ^ self.tie.unwrap_or(0)),
            _ => None,
        }
    }

    /// True when the keys of the states one transition reaches never decrease: branch
    /// coverage (a transition's count only grows), with ties in queuing order.
    pub(crate) fn grows_by_transition(&self) -> bool {
        matches!(self.heuristic, Resolved::Coverage) && self.tie.is_none()
    }

    /// True when ties go in the order states are queued (no seeded tie-break).
    pub(crate) fn ties_by_queuing(&self) -> bool {
        self.tie.is_none()
    }

    /// The note on a fault of the model's heuristic, once.
    pub(crate) fn take_note(&mut self) -> Option<String> {
        self.fault.take()
    }
}

/// SplitMix64's output function.
pub(crate) fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The next value of a SplitMix64 generator.
fn next_random(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    mix(*state)
}
