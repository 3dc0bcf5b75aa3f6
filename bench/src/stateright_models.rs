//! The model families as Stateright [`Model`]s, encoded exactly as `peers/gen_murphi.py`
//! encodes them for Rumur: the state is the shared variables plus one program counter per
//! thread, and each guarded transformation of the `.bir` model is one action, enabled when
//! its thread is at the transformation's location and its guard holds. So the unique state
//! count and the number of generated successors equal bir's states and transitions.
//!
//! Stateright has no deadlock detection of its own: an `always` property "deadlock free"
//! (some action is enabled) stands for it, and the search is told to continue past its
//! discovery ([`check`] uses `HasDiscoveries::AnyOf(∅)`), as bir's `keep_going`, SPIN's
//! `-c0` and Rumur's `--max-errors` do. Stateright keeps one discovery (path) per property,
//! not a count: [`Checked::deadlock_found`] says whether there is at least one.

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use stateright::{Checker, HasDiscoveries, Model, Property};

/// Program counters of the philosophers: `takeFirst`, `takeSecond`, `putSecond`, `putFirst`
/// (`takeLeft`, `takeRight`, `putRight`, `putLeft` in the symmetric model).
const TAKE_FIRST: u8 = 0;
const TAKE_SECOND: u8 = 1;
const PUT_SECOND: u8 = 2;
const PUT_FIRST: u8 = 3;

/// Dining philosophers with `N` philosophers: `fixed` makes the last one take its right fork
/// first (`dining_philosophers_fixed.bir`, deadlock-free); otherwise every philosopher takes
/// its left fork first (`dining_philosophers.bir`, one deadlock state).
#[derive(Clone, Copy, Debug)]
pub struct Philosophers<const N: usize> {
    /// The deadlock-free variant.
    pub fixed: bool,
}

/// The state: `boolean[N] fork` and one program counter per philosopher.
#[derive(Clone, Debug, Hash, PartialEq, Eq)]
pub struct PhilosophersState<const N: usize> {
    /// Whether each fork is held.
    pub fork: [bool; N],
    /// Each philosopher's location.
    pub pc: [u8; N],
}

/// One guarded transformation of philosopher `.0`.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq)]
pub enum PhilosophersAction {
    /// `when !fork[first] do { fork[first] := true; } goto takeSecond;`
    TakeFirst(usize),
    /// `when !fork[second] do { fork[second] := true; } goto putSecond;`
    TakeSecond(usize),
    /// `do { fork[second] := false; } goto putFirst;`
    PutSecond(usize),
    /// `do { fork[first] := false; } goto takeFirst;`
    PutFirst(usize),
}

impl<const N: usize> Philosophers<N> {
    /// The fork philosopher `i` takes first.
    fn first(&self, i: usize) -> usize {
        if self.fixed && i == N - 1 {
            (i + 1) % N
        } else {
            i
        }
    }

    /// The fork philosopher `i` takes second.
    fn second(&self, i: usize) -> usize {
        if self.fixed && i == N - 1 {
            i
        } else {
            (i + 1) % N
        }
    }

    /// The action philosopher `i` can take, if it is enabled.
    fn enabled(&self, state: &PhilosophersState<N>, i: usize) -> Option<PhilosophersAction> {
        match state.pc[i] {
            TAKE_FIRST if !state.fork[self.first(i)] => Some(PhilosophersAction::TakeFirst(i)),
            TAKE_SECOND if !state.fork[self.second(i)] => Some(PhilosophersAction::TakeSecond(i)),
            PUT_SECOND => Some(PhilosophersAction::PutSecond(i)),
            PUT_FIRST => Some(PhilosophersAction::PutFirst(i)),
            _ => None,
        }
    }
}

impl<const N: usize> Model for Philosophers<N> {
    type State = PhilosophersState<N>;
    type Action = PhilosophersAction;

    fn init_states(&self) -> Vec<Self::State> {
        vec![PhilosophersState {
            fork: [false; N],
            pc: [TAKE_FIRST; N],
        }]
    }

    fn actions(&self, state: &Self::State, actions: &mut Vec<Self::Action>) {
        actions.extend((0..N).filter_map(|i| self.enabled(state, i)));
    }

    fn next_state(&self, state: &Self::State, action: Self::Action) -> Option<Self::State> {
        let mut next = state.clone();
        match action {
            PhilosophersAction::TakeFirst(i) => {
                next.fork[self.first(i)] = true;
                next.pc[i] = TAKE_SECOND;
            }
            PhilosophersAction::TakeSecond(i) => {
                next.fork[self.second(i)] = true;
                next.pc[i] = PUT_SECOND;
            }
            PhilosophersAction::PutSecond(i) => {
                next.fork[self.second(i)] = false;
                next.pc[i] = PUT_FIRST;
            }
            PhilosophersAction::PutFirst(i) => {
                next.fork[self.first(i)] = false;
                next.pc[i] = TAKE_FIRST;
            }
        }
        Some(next)
    }

    fn properties(&self) -> Vec<Property<Self>> {
        vec![Property::always(
            DEADLOCK_FREE,
            |model: &Self, state: &PhilosophersState<N>| {
                (0..N).any(|i| model.enabled(state, i).is_some())
            },
        )]
    }
}

/// Program counters of Peterson's filter lock: `idle`, `announce`, `waiting`, `critical`.
const IDLE: u8 = 0;
const ANNOUNCE: u8 = 1;
const WAITING: u8 = 2;
const CRITICAL: u8 = 3;

/// Peterson's filter lock for `N` processes (`peterson_filter.bir`). The ghost counter
/// `incs` of the `.bir` model is the number of processes at `critical`, a function of the
/// program counters: it adds no states and is left out, as in `gen_murphi.py`; mutual
/// exclusion is checked on the program counters instead.
#[derive(Clone, Copy, Debug, Default)]
pub struct Peterson<const N: usize>;

/// The state: `level[N]`, `victim[N]` (`victim[0]` is never written) and one program counter
/// per process.
#[derive(Clone, Debug, Hash, PartialEq, Eq)]
pub struct PetersonState<const N: usize> {
    /// Each process's level (0 = idle).
    pub level: [u8; N],
    /// The last process to enter each level.
    pub victim: [u8; N],
    /// Each process's location.
    pub pc: [u8; N],
}

/// One guarded transformation of process `.0`.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq)]
pub enum PetersonAction {
    /// `idle`: `do { level[i] := 1; } goto announce;`
    Enter(usize),
    /// `announce`: `do { victim[level[i]] := i; } goto waiting;`
    Announce(usize),
    /// `waiting`: `when level[i] < N - 1 && C(i) do { level[i] := level[i] + 1; } goto announce;`
    Climb(usize),
    /// `waiting`: `when level[i] == N - 1 && C(i) do { ... } goto critical;`
    EnterCritical(usize),
    /// `critical`: `do { level[i] := 0; } goto idle;`
    Leave(usize),
}

impl<const N: usize> Peterson<N> {
    /// The action process `i` can take, if it is enabled.
    fn enabled(state: &PetersonState<N>, i: usize) -> Option<PetersonAction> {
        match state.pc[i] {
            IDLE => Some(PetersonAction::Enter(i)),
            ANNOUNCE => Some(PetersonAction::Announce(i)),
            WAITING => {
                let level = state.level[i];
                // C(i): every other process is on a lower level, or another one came later.
                let may_go = (0..N).all(|k| k == i || state.level[k] < level)
                    || usize::from(state.victim[usize::from(level)]) != i;
                if !may_go {
                    None
                } else if usize::from(level) < N - 1 {
                    Some(PetersonAction::Climb(i))
                } else {
                    Some(PetersonAction::EnterCritical(i))
                }
            }
            CRITICAL => Some(PetersonAction::Leave(i)),
            _ => None,
        }
    }
}

impl<const N: usize> Model for Peterson<N> {
    type State = PetersonState<N>;
    type Action = PetersonAction;

    fn init_states(&self) -> Vec<Self::State> {
        vec![PetersonState {
            level: [0; N],
            victim: [0; N],
            pc: [IDLE; N],
        }]
    }

    fn actions(&self, state: &Self::State, actions: &mut Vec<Self::Action>) {
        actions.extend((0..N).filter_map(|i| Self::enabled(state, i)));
    }

    fn next_state(&self, state: &Self::State, action: Self::Action) -> Option<Self::State> {
        let mut next = state.clone();
        match action {
            PetersonAction::Enter(i) => {
                next.level[i] = 1;
                next.pc[i] = ANNOUNCE;
            }
            PetersonAction::Announce(i) => {
                next.victim[usize::from(state.level[i])] = i as u8;
                next.pc[i] = WAITING;
            }
            PetersonAction::Climb(i) => {
                next.level[i] += 1;
                next.pc[i] = ANNOUNCE;
            }
            PetersonAction::EnterCritical(i) => next.pc[i] = CRITICAL,
            PetersonAction::Leave(i) => {
                next.level[i] = 0;
                next.pc[i] = IDLE;
            }
        }
        Some(next)
    }

    fn properties(&self) -> Vec<Property<Self>> {
        vec![
            Property::always(MUTUAL_EXCLUSION, |_, state: &PetersonState<N>| {
                state.pc.iter().filter(|&&pc| pc == CRITICAL).count() <= 1
            }),
            Property::always(DEADLOCK_FREE, |_, state: &PetersonState<N>| {
                (0..N).any(|i| Self::enabled(state, i).is_some())
            }),
        ]
    }
}

/// The name of the property that stands for deadlock detection.
pub const DEADLOCK_FREE: &str = "deadlock free";
/// Peterson's safety property.
pub const MUTUAL_EXCLUSION: &str = "mutual exclusion";

/// What a Stateright search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checked {
    /// Unique states (Stateright's fingerprints: 64-bit hashes of the states).
    pub states: u64,
    /// Generated successors (Stateright's `state_count` less the initial states): one per
    /// executed transition, as every action's `next_state` is `Some`.
    pub transitions: u64,
    /// The "deadlock free" property was falsified: at least one deadlock state.
    pub deadlock_found: bool,
    /// Some other `always` property (mutual exclusion) was falsified.
    pub error_found: bool,
    /// The deepest level of the breadth-first search.
    pub max_depth: u64,
    /// Wall-clock time from spawning the checker to joining it.
    pub elapsed: Duration,
}

/// Explores every reachable state of `model` with Stateright's breadth-first search on
/// `threads` threads, continuing past every discovery.
pub fn check<M>(model: M, threads: usize) -> Checked
where
    M: Model + Send + Sync + 'static,
    M::State: Clone + std::fmt::Debug + std::hash::Hash + PartialEq + Send + Sync + 'static,
    M::Action: Clone + std::fmt::Debug + PartialEq,
{
    let initial = model.init_states().len() as u64;
    let start = Instant::now();
    let checker = model
        .checker()
        .threads(threads)
        // No discovery ends the search: explore everything, like the other tools here.
        .finish_when(HasDiscoveries::AnyOf(BTreeSet::new()))
        .spawn_bfs()
        .join();
    let elapsed = start.elapsed();
    let discoveries = checker.discoveries();
    Checked {
        states: checker.unique_state_count() as u64,
        transitions: checker.state_count() as u64 - initial,
        deadlock_found: discoveries.contains_key(DEADLOCK_FREE),
        error_found: discoveries.keys().any(|name| *name != DEADLOCK_FREE),
        max_depth: checker.max_depth() as u64,
        elapsed,
    }
}

/// Checks `family` at size `n` (philosophers 2..=16, Peterson 2..=8); `None` for another size
/// or family (Peterson with local counters has no Stateright encoding).
pub fn check_family(family: crate::Family, n: u32, threads: usize) -> Option<Checked> {
    macro_rules! sizes {
        ($make:ident; $($size:literal)*) => {
            match n {
                $($size => Some(check($make::<$size>(), threads)),)*
                _ => None,
            }
        };
    }
    fn phils<const N: usize>() -> Philosophers<N> {
        Philosophers { fixed: false }
    }
    fn fixed<const N: usize>() -> Philosophers<N> {
        Philosophers { fixed: true }
    }
    fn peterson<const N: usize>() -> Peterson<N> {
        Peterson
    }
    match family {
        crate::Family::Phils => sizes!(phils; 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16),
        crate::Family::PhilsFixed => sizes!(fixed; 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16),
        crate::Family::Peterson => sizes!(peterson; 2 3 4 5 6 7 8),
        // Not encoded for Stateright: the family is there for bir's compact storage of wide
        // states.
        crate::Family::PetersonLocal => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Family;

    /// `(states, transitions)` from `models/README.md`.
    fn checked(family: Family, n: u32) -> (u64, u64, bool, bool) {
        let checked = check_family(family, n, 1).unwrap();
        (
            checked.states,
            checked.transitions,
            checked.deadlock_found,
            checked.error_found,
        )
    }

    #[test]
    fn philosophers_match_the_reference_counts() {
        let expected = [
            (2, 10, 14),
            (3, 35, 75),
            (4, 118, 340),
            (5, 392, 1_415),
            (6, 1_297, 5_622),
        ];
        for (n, states, transitions) in expected {
            assert_eq!(
                checked(Family::Phils, n),
                (states, transitions, true, false),
                "N = {n}"
            );
        }
    }

    #[test]
    fn fixed_philosophers_match_the_reference_counts() {
        let expected = [
            (2, 7, 8),
            (3, 24, 46),
            (4, 79, 208),
            (5, 261, 876),
            (6, 862, 3_516),
        ];
        for (n, states, transitions) in expected {
            assert_eq!(
                checked(Family::PhilsFixed, n),
                (states, transitions, false, false),
                "N = {n}"
            );
        }
    }

    #[test]
    fn peterson_matches_the_reference_counts() {
        let expected = [(2, 20, 34), (3, 288, 651), (4, 4_752, 13_080)];
        for (n, states, transitions) in expected {
            assert_eq!(
                checked(Family::Peterson, n),
                (states, transitions, false, false),
                "N = {n}"
            );
        }
    }

    #[test]
    fn sizes_outside_the_compiled_ones_are_refused() {
        assert!(check_family(Family::Peterson, 9, 1).is_none());
        assert!(check_family(Family::Phils, 1, 1).is_none());
    }
}
