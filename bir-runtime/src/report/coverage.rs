//! Coverage: what a complete search never saw happen, as SPIN's "unreached in proctype"
//! reports it. A search marks every transition it executes (one flag per transition, the
//! only cost while it runs); afterwards the flags and the initial state say which
//! transformations never fired, which instances never took a step, and which locations no
//! instance ever stood at.
//!
//! A location is reached when a fired transition jumps to it, or when it is the first
//! location of an instance that runs in the initial state or took a step (so it started).
//! An instance started by another that then never takes a step is reported as never
//! taking one: from the executed transitions alone, it cannot be told from an instance
//! never started, and either deserves a look.

use std::collections::BTreeSet;

use crate::model::{AtomInfo, ModelInfo, SlotKind, TransitionId, TransitionInfo};

/// What a complete search covered: see the module documentation of how it is computed.
/// Reports carry one after a complete exhaustive search of the model itself (not of an LTL
/// product, not reduced by partial order, not lossy); [`Report::coverage`](crate::Report::coverage).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Coverage {
    /// Transformations no instance executed, as (thread, transition ids of every instance).
    unfired: Vec<Unfired>,
    /// Instances that never took a step, by name.
    idle: Vec<String>,
    /// Locations no instance stood at: (thread, location).
    unreached: Vec<(String, String)>,
    /// Transformations (of all instances) and how many fired.
    transformations: usize,
    fired_transformations: usize,
    /// Invariant atoms constant over the reachable states.
    vacuous: Vec<Vacuous>,
}

/// An atom of an invariant (a comparison, a boolean variable, a `T@loc` whose value the
/// invariant does not force) that is constant over every reachable state (and every value
/// of the quantifiers around it): the invariant holds vacuously, as far as the atom goes,
/// as `!Proc[0]@cs || turn == 0` does when `Proc[0]@cs` is never true.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Vacuous {
    /// The invariant's name.
    pub invariant: String,
    /// The atom as BIR text.
    pub atom: String,
    /// Its value in every reachable state: false for "never true", true for "always true".
    pub value: bool,
}

impl std::fmt::Display for Vacuous {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let never = if self.value {
            "never false"
        } else {
            "never true"
        };
        write!(
            f,
            "invariant {} holds vacuously: `{}` is {never}",
            self.invariant, self.atom
        )
    }
}

/// A transformation no instance of its thread executed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unfired {
    /// The thread (`Philosopher`, the family of `Philosopher[0]`...).
    pub thread: String,
    /// The location it leaves.
    pub from: String,
    /// Its BIR text.
    pub text: String,
    /// Its line in the model source (0 when unknown).
    pub line: u32,
}

/// A transformation, whichever instance executes it: (thread, from, text, line).
fn key(t: &TransitionInfo) -> (&str, &str, &str, u32) {
    (family(&t.thread), &t.from, &t.text, t.line)
}

/// The thread an instance belongs to: `P` for `P[2]`, the name itself otherwise.
fn family(instance: &str) -> &str {
    match instance.strip_suffix(']').and_then(|s| s.rsplit_once('[')) {
        Some((family, index)) if index.bytes().all(|b| b.is_ascii_digit()) => family,
        _ => instance,
    }
}

impl Coverage {
    /// The coverage of a search that executed the transitions flagged in `fired` (indexed
    /// by [`TransitionId`]) from the initial state `initial` (decoded).
    pub(crate) fn new(info: &ModelInfo, fired: &[bool], initial: &[i64]) -> Coverage {
        let was_fired = |id: usize| fired.get(id).copied().unwrap_or(false);
        let transitions = &info.transitions;
        // Transformations: one per (thread, from, text, line), fired when any instance did.
        let mut all = BTreeSet::new();
        let mut fired_keys = BTreeSet::new();
        let mut stepped = BTreeSet::new();
        let mut reached = BTreeSet::new();
        // A rendezvous is no transformation of its own: when it fires, the sender's and the
        // receiver's transformations both fired.
        for (id, t) in transitions.iter().enumerate() {
            let sides = match t.partner {
                Some(partner) => partner.sides.map(|side| side as usize).to_vec(),
                None => {
                    all.insert(key(t));
                    vec![id]
                }
            };
            if !was_fired(id) {
                continue;
            }
            for side in sides.into_iter().filter_map(|side| transitions.get(side)) {
                fired_keys.insert(key(side));
                stepped.insert(&*side.thread);
                if side.to != "return" {
                    reached.insert((family(&side.thread), &*side.to));
                }
            }
        }
        let mut unfired = Vec::new();
        let mut listed = BTreeSet::new();
        for t in transitions.iter().filter(|t| t.partner.is_none()) {
            let k = key(t);
            if !fired_keys.contains(&k) && listed.insert(k) {
                unfired.push(Unfired {
                    thread: family(&t.thread).to_string(),
                    from: t.from.to_string(),
                    text: t.text.to_string(),
                    line: t.line,
                });
            }
        }
        let mut idle = Vec::new();
        let mut unreached_set = BTreeSet::new();
        let mut unreached = Vec::new();
        for (slot, &value) in info.slots.iter().zip(initial) {
            let SlotKind::Status { locations } = &slot.kind else {
                continue;
            };
            let name = &*slot.name;
            let running = (value as usize) < locations.len();
            let took_a_step = stepped.contains(name);
            if !took_a_step {
                idle.push(name.to_string());
            }
            if let Some(first) = locations.first() {
                if running || took_a_step {
                    reached.insert((family(name), &**first));
                }
            }
            for location in locations.iter() {
                let at = (family(name), &**location);
                if !reached.contains(&at) && unreached_set.insert(at) {
                    unreached.push((at.0.to_string(), at.1.to_string()));
                }
            }
        }
        // A location reached by a later instance of the family was listed too early.
        unreached.retain(|(thread, location)| !reached.contains(&(&**thread, &**location)));
        Coverage {
            transformations: all.len(),
            fired_transformations: fired_keys.len(),
            unfired,
            idle,
            unreached,
            vacuous: Vec::new(),
        }
    }

    /// This coverage with the vacuity of the invariant atoms `atoms`: `bits[0]` has bit `n`
    /// set when some reachable state made atom `n` hold, `bits[1]` when some made it fail
    /// (see [`Model::atoms`](crate::Model::atoms)). An atom never evaluated (its evaluation
    /// always faulted) is not reported.
    pub(crate) fn with_vacuity(
        mut self,
        info: &ModelInfo,
        atoms: &[AtomInfo],
        bits: [u64; 2],
    ) -> Self {
        for (n, atom) in atoms.iter().enumerate().take(64) {
            let (holds, fails) = (bits[0] >> n & 1 == 1, bits[1] >> n & 1 == 1);
            if holds == fails {
                continue;
            }
            let invariant = info
                .invariants
                .get(atom.invariant as usize)
                .map_or_else(|| atom.invariant.to_string(), |i| i.name.to_string());
            self.vacuous.push(Vacuous {
                invariant,
                atom: atom.text.to_string(),
                value: holds,
            });
        }
        self
    }

    /// True when every transformation fired, every instance took a step, every location
    /// was reached and no invariant holds vacuously.
    pub fn is_full(&self) -> bool {
        self.unfired.is_empty()
            && self.idle.is_empty()
            && self.unreached.is_empty()
            && self.vacuous.is_empty()
    }

    /// The invariant atoms constant over every reachable state: invariants that hold
    /// vacuously, as far as those atoms go.
    pub fn vacuous(&self) -> &[Vacuous] {
        &self.vacuous
    }

    /// The transformations no instance executed, in the model's order.
    pub fn unfired(&self) -> &[Unfired] {
        &self.unfired
    }

    /// The instances that never took a step (never started, or blocked from the start).
    pub fn idle_instances(&self) -> &[String] {
        &self.idle
    }

    /// The locations no instance stood at, as (thread, location).
    pub fn unreached_locations(&self) -> &[(String, String)] {
        &self.unreached
    }

    /// How many transformations the model has (counting those of a replicated thread once)
    /// and how many of them fired.
    pub fn transformations(&self) -> (usize, usize) {
        (self.fired_transformations, self.transformations)
    }
}

/// The transitions a search executed, one flag per [`TransitionId`].
#[derive(Clone, Debug, Default)]
pub(crate) struct Fired(pub(crate) Vec<bool>);

impl Fired {
    /// No transition of `info` fired yet.
    pub(crate) fn new(info: &ModelInfo) -> Fired {
        Fired(vec![false; info.transitions.len()])
    }

    /// Marks `transition` (ids outside the table, such as a stutter step, are ignored).
    #[inline]
    pub(crate) fn mark(&mut self, transition: TransitionId) {
        if let Some(flag) = self.0.get_mut(transition as usize) {
            *flag = true;
        }
    }

    /// Adds another thread's marks.
    pub(crate) fn merge(&mut self, other: &Fired) {
        if self.0.len() < other.0.len() {
            self.0.resize(other.0.len(), false);
        }
        for (flag, &other) in self.0.iter_mut().zip(&other.0) {
            *flag |= other;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::family;
    use crate::test_models::{Graph, Philosophers, ReadersWriters};
    use crate::Checker;

    #[test]
    fn a_complete_search_reports_what_never_happened() {
        let graph = Graph::new(4, &[(0, Some(1)), (2, Some(3)), (1, Some(0))]).end(&[1]);
        let report = Checker::new(graph).run();
        report.assert_verified();
        let coverage = report.coverage().expect("complete");
        assert!(!coverage.is_full());
        assert_eq!(coverage.transformations(), (2, 3));
        assert_eq!(coverage.unfired().len(), 1);
        assert_eq!(coverage.unfired()[0].from, "n2");
        assert!(coverage.idle_instances().is_empty());
        let unreached: Vec<_> = coverage
            .unreached_locations()
            .iter()
            .map(|(t, l)| format!("{t}@{l}"))
            .collect();
        assert_eq!(unreached, ["T@n2", "T@n3"]);
        let text = report.to_string();
        assert!(
            text.contains(
                "coverage: 2 of 3 transformations fired\n  never fired: T at n2: goto n3;\n  \
                 never reached: T at n2\n  never reached: T at n3\n"
            ),
            "{text}"
        );
    }

    #[test]
    fn full_coverage_is_said_by_nothing_and_asserted() {
        for report in [
            Checker::new(Philosophers::new(3, true)).run(),
            Checker::new(Philosophers::new(3, true)).bfs().run(),
            Checker::new(Philosophers::new(3, true)).threads(2).run(),
        ] {
            report.assert_full_coverage();
            assert!(!report.to_string().contains("coverage"));
        }
        ReadersWriters::new(false)
            .checker()
            .run()
            .assert_full_coverage();
    }

    #[test]
    fn only_a_complete_search_of_the_model_has_coverage() {
        let model = Philosophers::new(3, false);
        assert!(Checker::new(model.clone()).run().coverage().is_none());
        assert!(Checker::new(model.clone())
            .keep_going(1)
            .run()
            .coverage()
            .is_some());
        assert!(Checker::new(model.clone())
            .keep_going(1)
            .max_states(5)
            .run()
            .coverage()
            .is_none());
        assert!(Checker::new(model)
            .keep_going(1)
            .hash_compaction()
            .run()
            .coverage()
            .is_none());
    }

    #[test]
    #[should_panic(expected = "expected every transformation, instance and location covered")]
    fn assert_full_coverage_panics_on_a_gap() {
        let graph = Graph::new(3, &[(0, Some(1)), (2, Some(1))]).end(&[1]);
        Checker::new(graph).run().assert_full_coverage();
    }

    #[test]
    fn the_family_of_an_instance_drops_its_index() {
        assert_eq!(family("P[12]"), "P");
        assert_eq!(family("Philosopher1"), "Philosopher1");
        assert_eq!(family("odd[x]"), "odd[x]");
    }
}
