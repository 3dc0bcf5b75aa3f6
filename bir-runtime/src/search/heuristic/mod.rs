//! Heuristics as a search evaluates them (`score`): the key of each new state, from the
//! heuristic the plan resolved (`plan::heuristic`).

pub(crate) mod score;

pub(crate) use self::score::Scorer;
