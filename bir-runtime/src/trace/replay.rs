//! The replay codec: a counterexample as a string of transition ids (`bir1:0.4.8`), printed
//! in reports and read back by [`Checker::replay`](crate::Checker::replay), and what can
//! go wrong replaying one. A lasso (an LTL counterexample) writes its stem, `@`, then its
//! cycle (`bir1:0.4@8.9`); a stutter step is `_`.

use std::fmt;

use crate::model::{TransitionId, STUTTER};
use crate::verdict::FindingKind;

/// The version prefix of replay strings; bump it if their meaning ever changes.
const REPLAY_PREFIX: &str = "bir1:";

/// Why a replay string could not be replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ReplayError {
    /// The text is not `bir1:` followed by transition ids joined by `.`.
    Malformed {
        /// The offending text.
        text: String,
    },
    /// A transition id is not enabled in the state reached at that point (the model changed
    /// since the string was printed, or the string belongs to another model).
    NotEnabled {
        /// The 1-based number of the step.
        step: usize,
        /// The transition id that was asked for.
        transition: TransitionId,
        /// The transitions that are enabled there.
        enabled: Vec<TransitionId>,
    },
    /// A finding (fault, invariant violation) happens before the last step of the string.
    FindingBeforeEnd {
        /// The 1-based number of the step that reaches it (0: the initial state).
        step: usize,
        /// What was found there.
        kind: FindingKind,
    },
    /// The string ends in a state with no finding.
    NoFinding {
        /// The number of steps replayed.
        steps: usize,
    },
    /// A stutter step (`_`) where some transition is enabled.
    Stutter {
        /// The 1-based number of the step.
        step: usize,
    },
    /// A lasso whose cycle does not return to the state it starts from.
    CycleNotClosed {
        /// The 1-based number of the cycle's first step.
        step: usize,
    },
    /// A lasso replayed without an LTL property to check it against, or a path without a
    /// cycle replayed for an LTL property.
    NotALasso,
    /// A lasso that the property's automaton does not accept (the run satisfies the
    /// property), or whose cycle is not fair under the fairness asked for.
    NotAViolation {
        /// Why.
        reason: String,
    },
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::Malformed { text } => write!(
                f,
                "malformed replay string `{text}`: expected `{REPLAY_PREFIX}` followed by \
                 transition ids joined by `.`"
            ),
            ReplayError::NotEnabled {
                step,
                transition,
                enabled,
            } => write!(
                f,
                "step {step}: transition {transition} is not enabled (enabled: {enabled:?}); \
                 was the string printed for another version of the model?"
            ),
            ReplayError::FindingBeforeEnd { step, kind } => {
                write!(
                    f,
                    "the replay reaches a {kind} at step {step}, before its end"
                )
            }
            ReplayError::NoFinding { steps } => {
                write!(
                    f,
                    "the replay ends after {steps} steps in a state without finding"
                )
            }
            ReplayError::Stutter { step } => {
                write!(f, "step {step} stutters, but transitions are enabled there")
            }
            ReplayError::CycleNotClosed { step } => write!(
                f,
                "the cycle starting at step {step} does not return to the state it starts from"
            ),
            ReplayError::NotALasso => f.write_str(
                "a lasso (`stem@cycle`) is replayed for an LTL property: select one with \
                 `.ltl(name)`, and replay lassos only for it",
            ),
            ReplayError::NotAViolation { reason } => {
                write!(f, "the lasso does not violate the property: {reason}")
            }
        }
    }
}

impl std::error::Error for ReplayError {}

/// The steps of a counterexample: a path from the initial state, and for a lasso, where
/// the cycle starts (the steps from there on repeat forever).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Path {
    pub(crate) steps: Vec<TransitionId>,
    pub(crate) cycle: Option<usize>,
}

impl Path {
    /// A path without cycle.
    pub(crate) fn linear(steps: &[TransitionId]) -> Path {
        Path {
            steps: steps.to_vec(),
            cycle: None,
        }
    }
}

/// Reads a replay string without executing it: its transition ids in order (a stutter step
/// is [`STUTTER`]) and, for a lasso, the index of its cycle's first step. For tools that
/// walk a path themselves (an explorer loading a pasted string); whether the ids are
/// enabled is for them to check, as [`Checker::replay`](crate::Checker::replay) does.
///
/// ```
/// assert_eq!(bir_runtime::replay_steps("bir1:0.4"), Ok((vec![0, 4], None)));
/// assert_eq!(bir_runtime::replay_steps("bir1:0@1.2"), Ok((vec![0, 1, 2], Some(1))));
/// assert!(bir_runtime::replay_steps("0.4").is_err());
/// ```
pub fn replay_steps(text: &str) -> Result<(Vec<TransitionId>, Option<usize>), ReplayError> {
    parse_replay(text).map(|path| (path.steps, path.cycle))
}

/// Formats transition ids as a replay string (`bir1:0.4`), the form reports print and
/// [`Checker::replay`](crate::Checker::replay) reads.
///
/// ```
/// assert_eq!(bir_runtime::replay_string(&[0, 4]), "bir1:0.4");
/// ```
pub fn replay_string(path: &[TransitionId]) -> String {
    path_string(&Path::linear(path))
}

/// Formats a path, a lasso's included, as a replay string.
pub(crate) fn path_string(path: &Path) -> String {
    let mut text = String::with_capacity(REPLAY_PREFIX.len() + path.steps.len() * 3);
    text.push_str(REPLAY_PREFIX);
    for (i, &id) in path.steps.iter().enumerate() {
        if path.cycle == Some(i) {
            text.push('@');
        } else if i > 0 {
            text.push('.');
        }
        if id == STUTTER {
            text.push('_');
        } else {
            text.push_str(&id.to_string());
        }
    }
    text
}

/// Parses a replay string into a path.
pub(crate) fn parse_replay(text: &str) -> Result<Path, ReplayError> {
    let malformed = || ReplayError::Malformed {
        text: text.to_owned(),
    };
    let body = text
        .trim()
        .strip_prefix(REPLAY_PREFIX)
        .ok_or_else(malformed)?;
    let (stem, cycle) = match body.split_once('@') {
        Some((stem, cycle)) if !cycle.is_empty() => (stem, Some(cycle)),
        Some(_) => return Err(malformed()),
        None => (body, None),
    };
    let ids = |part: &str| -> Result<Vec<TransitionId>, ReplayError> {
        if part.is_empty() {
            return Ok(Vec::new());
        }
        part.split('.')
            .map(|id| match id {
                "_" => Ok(STUTTER),
                id => id
                    .parse()
                    .ok()
                    .filter(|&id| id != STUTTER)
                    .ok_or_else(malformed),
            })
            .collect()
    };
    let mut steps = ids(stem)?;
    let cycle = match cycle {
        Some(cycle) => {
            let start = steps.len();
            steps.extend(ids(cycle)?);
            Some(start)
        }
        None => None,
    };
    Ok(Path { steps, cycle })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replay_strings_round_trip() {
        assert_eq!(replay_string(&[3, 0, 5, 2]), "bir1:3.0.5.2");
        assert_eq!(replay_string(&[]), "bir1:");
        assert_eq!(
            parse_replay(" bir1:3.0.5.2\n"),
            Ok(Path::linear(&[3, 0, 5, 2]))
        );
        assert_eq!(parse_replay("bir1:"), Ok(Path::default()));
        let lasso = Path {
            steps: vec![0, 4, STUTTER],
            cycle: Some(2),
        };
        assert_eq!(path_string(&lasso), "bir1:0.4@_");
        assert_eq!(parse_replay("bir1:0.4@_"), Ok(lasso));
        let from_start = Path {
            steps: vec![1, 2],
            cycle: Some(0),
        };
        assert_eq!(path_string(&from_start), "bir1:@1.2");
        assert_eq!(parse_replay("bir1:@1.2"), Ok(from_start));
        for bad in [
            "3.0",
            "bir1:3..0",
            "bir1:x",
            "bir2:1",
            "bir1:-1",
            "bir1:1@",
            "bir1:1@2@3",
            "bir1:4294967295",
        ] {
            assert!(
                matches!(parse_replay(bad), Err(ReplayError::Malformed { .. })),
                "{bad}"
            );
        }
    }
}
