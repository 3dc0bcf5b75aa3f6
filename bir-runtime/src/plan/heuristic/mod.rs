//! Heuristics: what orders a best-first search, or the successors of each state of a
//! depth-first one (lower values first, ties in successor order). The built-in ones are
//! the seed's for concurrent programs (Groce and Visser's, in Java PathFinder): branch
//! coverage, thread switching, chosen threads first, most blocked first, random; a model
//! may declare its own (`heuristic Name: expr;`, [`Model::heuristics`]), and a user may
//! give any Rust code as a closure over a state's values ([`Heuristic::custom`]).
//!
//! [`Heuristic`] is what a user names (`Checker::best_first`, `bir check --best-first`);
//! the plan resolves it against the model ([`Resolved`]), and the search evaluates it
//! (`search::heuristic`).

pub(crate) mod resolved;
mod view;

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use crate::model::Model;
use crate::plan::ConfigError;

pub(crate) use self::resolved::Resolved;
pub(crate) use self::view::SlotNames;
pub use self::view::StateView;

/// What orders a heuristic search: see [`Checker::best_first`](crate::Checker::best_first)
/// and [`Checker::order_by`](crate::Checker::order_by). Lower values are explored first;
/// ties go in successor order.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Heuristic {
    /// Branch coverage: a state reached by a transition fired fewer times so far first.
    Coverage,
    /// Thread switching: a state reached by a step of an instance other than the one that
    /// made the step before first.
    Switching,
    /// Chosen threads first: a state reached by a step of one of these instances first. A
    /// name is an instance (`Philosopher1`, `P[2]`) or a thread, for all its instances
    /// (`P`).
    Threads(Vec<String>),
    /// Most blocked first: a state in which fewer instances have an enabled transition
    /// first (it computes each new state's successors once more).
    Blocked,
    /// A random value per state, from a generator seeded by this (the same seed gives the
    /// same order).
    Random(u64),
    /// A heuristic the model declares (`heuristic Name: expr;`), by name. A state where its
    /// evaluation faults gets the largest value, and the report notes it once.
    Model(String),
    /// A closure over a state's values ([`StateView`]): any Rust code.
    Custom(Custom),
}

/// A user's heuristic: a closure over a state's values, with a name for the report.
#[derive(Clone)]
pub struct Custom {
    name: String,
    pub(crate) function: Arc<dyn Fn(&StateView<'_>) -> i64 + Send + Sync>,
}

impl fmt::Debug for Custom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Custom({:?})", self.name)
    }
}

/// Two custom heuristics are equal when they are the same closure.
impl PartialEq for Custom {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.function, &other.function) && self.name == other.name
    }
}

impl Eq for Custom {}

impl Heuristic {
    /// A heuristic computed by `function` from a state's values (lower first), named
    /// `custom` in the report. It sees every value the report prints of a state, by name:
    ///
    /// ```
    /// # use bir_runtime::Heuristic;
    /// // Prefer states where `count` is high and `Worker` is at `done`.
    /// let h = Heuristic::custom(|state| {
    ///     let count = state.get("count").unwrap_or(0);
    ///     -count - if state.at("Worker", "done") { 100 } else { 0 }
    /// });
    /// # let _ = h;
    /// ```
    pub fn custom(function: impl Fn(&StateView<'_>) -> i64 + Send + Sync + 'static) -> Self {
        Heuristic::named_custom("custom", function)
    }

    /// [`Heuristic::custom`] with a name for the report.
    pub fn named_custom(
        name: &str,
        function: impl Fn(&StateView<'_>) -> i64 + Send + Sync + 'static,
    ) -> Self {
        Heuristic::Custom(Custom {
            name: name.to_string(),
            function: Arc::new(function),
        })
    }

    /// The heuristic in words, as the report names it: `branch coverage`, `thread
    /// switching`, `threads P[1], Q first`, `most blocked first`, `random (seed 7)`,
    /// `heuristic Closest`, `custom heuristic`.
    pub fn describe(&self) -> String {
        match self {
            Heuristic::Coverage => "branch coverage".to_string(),
            Heuristic::Switching => "thread switching".to_string(),
            Heuristic::Threads(names) => format!("threads {} first", names.join(", ")),
            Heuristic::Blocked => "most blocked first".to_string(),
            Heuristic::Random(seed) => format!("random (seed {seed})"),
            Heuristic::Model(name) => format!("heuristic {name}"),
            Heuristic::Custom(custom) => format!("{} heuristic", custom.name),
        }
    }

    /// The heuristic's name on the command line (`coverage`, `threads=P[1],Q`,
    /// `random=7`, a model's heuristic's own name, `custom`).
    pub fn name(&self) -> String {
        match self {
            Heuristic::Coverage => "coverage".to_string(),
            Heuristic::Switching => "switching".to_string(),
            Heuristic::Threads(names) => format!("threads={}", names.join(",")),
            Heuristic::Blocked => "blocked".to_string(),
            Heuristic::Random(seed) => format!("random={seed}"),
            Heuristic::Model(name) => name.clone(),
            Heuristic::Custom(custom) => custom.name.clone(),
        }
    }
}

/// The built-in heuristics' names on the command line, for messages.
pub const BUILT_IN: &str = "coverage, switching, threads=T1,T2[1], blocked, random[=SEED]";

/// Parses a heuristic as `bir check --best-first` takes it: `coverage`, `switching`,
/// `threads=T1,T2[1]`, `blocked`, `random` (seed 0), `random=SEED`, or any other name (a
/// heuristic of the model, checked when the search is planned).
impl FromStr for Heuristic {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let text = text.trim();
        let (head, value) = match text.split_once('=') {
            Some((head, value)) => (head.trim(), Some(value.trim())),
            None => (text, None),
        };
        match (head, value) {
            ("coverage", None) => Ok(Heuristic::Coverage),
            ("switching", None) => Ok(Heuristic::Switching),
            ("blocked", None) => Ok(Heuristic::Blocked),
            ("random", None) => Ok(Heuristic::Random(0)),
            ("random", Some(seed)) => seed.parse().map(Heuristic::Random).map_err(|_| {
                format!("`random={seed}`: the seed is a whole number from 0 to 2^64 - 1")
            }),
            ("threads", Some(list)) => {
                let names: Vec<String> = list
                    .split(',')
                    .map(|name| name.trim().to_string())
                    .filter(|name| !name.is_empty())
                    .collect();
                if names.is_empty() {
                    return Err("`threads=` names no thread: give e.g. threads=P,Q[1]".into());
                }
                Ok(Heuristic::Threads(names))
            }
            ("", _) => Err(format!(
                "no heuristic named: one of {BUILT_IN}, or the name of a \
                                    heuristic the model declares"
            )),
            (_, Some(_)) => Err(format!(
                "`{text}` is no heuristic: one of {BUILT_IN}, or the name of a heuristic the \
                 model declares"
            )),
            (name, None) => Ok(Heuristic::Model(name.to_string())),
        }
    }
}

/// Checks `heuristic` against `model`: the name of a model's heuristic must be one it
/// declares, a thread or instance one it has.
pub(crate) fn check<M: Model>(model: &M, heuristic: &Heuristic) -> Result<(), ConfigError> {
    Resolved::new(model, heuristic).map(|_| ())
}
