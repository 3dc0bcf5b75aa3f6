//! The replay codec: a counterexample as a string of transition ids (`bir1:0.4.8`), printed
//! in reports and read back by [`Checker::replay`](crate::Checker::replay), and what can
//! go wrong replaying one.

use std::fmt;

use crate::model::TransitionId;
use crate::trace::FindingKind;

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
        }
    }
}

impl std::error::Error for ReplayError {}

/// Formats transition ids as a replay string.
pub(crate) fn replay_string(path: &[TransitionId]) -> String {
    let mut text = String::with_capacity(REPLAY_PREFIX.len() + path.len() * 3);
    text.push_str(REPLAY_PREFIX);
    for (i, id) in path.iter().enumerate() {
        if i > 0 {
            text.push('.');
        }
        text.push_str(&id.to_string());
    }
    text
}

/// Parses a replay string into transition ids.
pub(crate) fn parse_replay(text: &str) -> Result<Vec<TransitionId>, ReplayError> {
    let malformed = || ReplayError::Malformed {
        text: text.to_owned(),
    };
    let ids = text
        .trim()
        .strip_prefix(REPLAY_PREFIX)
        .ok_or_else(malformed)?;
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    ids.split('.')
        .map(|id| id.parse().map_err(|_| malformed()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replay_strings_round_trip() {
        assert_eq!(replay_string(&[3, 0, 5, 2]), "bir1:3.0.5.2");
        assert_eq!(replay_string(&[]), "bir1:");
        assert_eq!(parse_replay(" bir1:3.0.5.2\n"), Ok(vec![3, 0, 5, 2]));
        assert_eq!(parse_replay("bir1:"), Ok(vec![]));
        for bad in ["3.0", "bir1:3..0", "bir1:x", "bir2:1", "bir1:-1"] {
            assert!(
                matches!(parse_replay(bad), Err(ReplayError::Malformed { .. })),
                "{bad}"
            );
        }
    }
}
