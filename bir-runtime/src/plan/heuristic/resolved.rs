//! A heuristic with its names resolved against a model: the model's heuristic by index,
//! the chosen threads by instance.

use std::sync::Arc;

use crate::model::Model;
use crate::plan::ConfigError;

use super::{Heuristic, StateView};

/// A heuristic with its names resolved against a model.
#[derive(Clone)]
pub(crate) enum Resolved {
    Coverage,
    Switching,
    /// Per instance, whether it is chosen.
    Threads(Vec<bool>),
    Blocked,
    Random(u64),
    /// The model's heuristic of this index, and its name.
    Model(usize, String),
    Custom(Arc<dyn Fn(&StateView<'_>) -> i64 + Send + Sync>),
}

impl Resolved {
    /// `heuristic` resolved against `model`, or why it names what the model lacks.
    pub(crate) fn new<M: Model>(model: &M, heuristic: &Heuristic) -> Result<Self, ConfigError> {
        Ok(match heuristic {
            Heuristic::Coverage => Resolved::Coverage,
            Heuristic::Switching => Resolved::Switching,
            Heuristic::Blocked => Resolved::Blocked,
            Heuristic::Random(seed) => Resolved::Random(*seed),
            Heuristic::Custom(custom) => Resolved::Custom(Arc::clone(&custom.function)),
            Heuristic::Model(name) => {
                let declared = model.heuristics();
                match declared.iter().position(|h| h.name == *name) {
                    Some(index) => Resolved::Model(index, name.clone()),
                    None => {
                        return Err(ConfigError::UnknownHeuristic {
                            name: name.clone(),
                            known: declared.iter().map(|h| h.name.to_string()).collect(),
                        })
                    }
                }
            }
            Heuristic::Threads(names) => Resolved::Threads(chosen(model, names)?),
        })
    }
}

/// The instances `names` choose, per dense instance index: a name is an instance as the
/// model's transitions name it (`Philosopher1`, `P[2]`), or a replicated thread (`P`) for
/// all its instances.
fn chosen<M: Model>(model: &M, names: &[String]) -> Result<Vec<bool>, ConfigError> {
    let mut instances: Vec<(u32, &str)> = model
        .info()
        .transitions
        .iter()
        .map(|t| (t.instance, &*t.thread))
        .collect();
    instances.sort_unstable();
    instances.dedup();
    let count = instances.last().map_or(0, |&(i, _)| i as usize + 1);
    let mut chosen = vec![false; count];
    for name in names {
        let mut any = false;
        for &(instance, thread) in &instances {
            let family = thread
                .strip_prefix(name.as_str())
                .is_some_and(|rest| rest.starts_with('['));
            if thread == name || family {
                chosen[instance as usize] = true;
                any = true;
            }
        }
        if !any {
            return Err(ConfigError::UnknownThread {
                name: name.clone(),
                known: instances.iter().map(|&(_, t)| t.to_string()).collect(),
            });
        }
    }
    Ok(chosen)
}
