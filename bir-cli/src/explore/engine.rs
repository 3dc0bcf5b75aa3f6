//! Which engine a check from the page runs on: the model's compiled checker (the engine of
//! `bir check`) once it is built or found in the cache, else the interpreter. The build
//! runs on a thread of its own from the start of `bir explore`, so that the page works
//! meanwhile; `--interpret` means never compile.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use bir_codegen::Overrides;

use crate::cache::{self, Unavailable};

/// Where the compiled checker stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum State {
    /// Being built (or looked up in the cache).
    Building,
    /// Built: checks run on this binary.
    Compiled {
        /// The compiled checker.
        binary: PathBuf,
        /// A folder of the cache for the HTML reports of checks while they run.
        scratch: PathBuf,
    },
    /// Checks run on the interpreter, for this reason.
    Interpreter(String),
}

impl State {
    /// What the page shows: `compiled`, `building` or `interpreter (reason)`.
    pub fn name(&self) -> String {
        match self {
            State::Building => "building".to_string(),
            State::Compiled { .. } => "compiled".to_string(),
            State::Interpreter(why) => format!("interpreter ({why})"),
        }
    }
}

/// The engine of the page's checks, shared with the thread that builds it.
#[derive(Clone, Debug)]
pub struct Engine(Arc<Mutex<State>>);

impl Engine {
    /// The interpreter, for `reason`: nothing is compiled.
    pub fn interpreter(reason: &str) -> Engine {
        Engine(Arc::new(Mutex::new(State::Interpreter(reason.to_string()))))
    }

    /// Starts building (or finding in the cache `dir`) the checker of the model `source`,
    /// the system `name`, with `overrides` applied. Until it is ready the
    /// state is [`State::Building`]; if it cannot be had, the interpreter with the reason,
    /// also said on stderr as `bir check` says it.
    pub fn build(
        dir: Option<PathBuf>,
        source: String,
        overrides: Overrides,
        name: String,
    ) -> Engine {
        let engine = Engine(Arc::new(Mutex::new(State::Building)));
        let shared = engine.clone();
        let spawned = std::thread::Builder::new()
            .name("bir-explore-build".into())
            .spawn(move || {
                let built = cache::binary(dir.as_deref(), &source, &overrides, &name, false, None)
                    .and_then(|binary| {
                        let scratch = cache::cache_root(dir.as_deref())?.join("explore");
                        Ok(State::Compiled { binary, scratch })
                    });
                let state = built.unwrap_or_else(|Unavailable(why)| {
                    eprintln!("bir: note: {why}; the page's checks run on the interpreter");
                    State::Interpreter(why)
                });
                shared.set(state);
            });
        if let Err(error) = spawned {
            engine.set(State::Interpreter(format!(
                "cannot start building the compiled checker: {error}"
            )));
        }
        engine
    }

    /// Where the compiled checker stands now.
    pub fn state(&self) -> State {
        match self.0.lock() {
            Ok(state) => state.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        }
    }

    /// Replaces the state (the compiled checker turned out not to run).
    pub fn set(&self, state: State) {
        match self.0.lock() {
            Ok(mut slot) => *slot = state,
            Err(poisoned) => *poisoned.into_inner() = state,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_is_told_which_engine_runs() {
        assert_eq!(State::Building.name(), "building");
        let compiled = State::Compiled {
            binary: PathBuf::from("/c/bin"),
            scratch: PathBuf::from("/c/explore"),
        };
        assert_eq!(compiled.name(), "compiled");
        let engine = Engine::interpreter("--interpret");
        assert_eq!(engine.state().name(), "interpreter (--interpret)");
        engine.set(compiled.clone());
        assert_eq!(engine.state(), compiled);
    }
}
