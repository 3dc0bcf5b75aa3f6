//! Which search answers a [`Checker`](super::Checker)'s call: the copy specialised to the
//! model's state type, or the one compiled once in this crate for every model (`erased`).
//!
//! The choice is made by the model's [`Model::__check`], not by a branch in the checker: a
//! branch on a constant still makes the compiler walk the code of the branch not taken for
//! every model (it looks for constants that fail to evaluate there), which cost a test crate
//! of a hundred models half a minute. A generated model overrides `__check` with the search
//! it uses (the erased one in debug builds), so that its crate never names the other.

use crate::model::Model;
use crate::replay::ReplayError;
use crate::report::Report;
use crate::trace::Counterexample;

use super::simulation::Walks;
use super::{ConfigError, Options, Plan};

/// One call of a checker on its model. The model answers it with [`Call::specialised`]
/// (the default of [`Model::__check`]), [`Call::erased`] or [`Call::release`].
pub trait Call {
    /// What the call returns.
    type Output;

    /// The answer of the search specialised to `M`'s state type.
    fn specialised<M: Model>(self, model: &M) -> Self::Output;

    /// The answer of the search compiled once, with `M`'s states held as their word
    /// ([`Model::WORD_STATE`]) or as the words [`Model::write_state_words`] writes (which
    /// `M` must implement, as generated models do). A release build of `bir-runtime`
    /// without the features `quick-build` or `erased` does not compile that search: the
    /// answer is then [`Call::specialised`]'s.
    fn erased<M: Model>(self, model: &M) -> Self::Output;

    /// What a generated model answers in release builds: the specialised search, or with
    /// the feature `quick-build` the one compiled once.
    fn release<M: Model>(self, model: &M) -> Self::Output
    where
        Self: Sized,
    {
        #[cfg(feature = "quick-build")]
        let output = self.erased(model);
        #[cfg(not(feature = "quick-build"))]
        let output = self.specialised(model);
        output
    }
}

/// A call that takes a whole checker, its model owned, and runs it on workers of its own
/// (bir-dist's timely workers). A model's [`Call::erased`] for it hands it, through
/// [`Checker::__erased`](super::Checker::__erased), a checker of the model seen through a
/// vtable: the engine is then compiled for two models, not once per model.
pub trait EngineCall {
    /// What the call returns.
    type Output;

    /// Runs `checker`.
    fn run<M: Model + Clone + Send + 'static>(self, checker: super::Checker<M>) -> Self::Output;
}

/// [`Call::erased`]'s answer for `$call` on `$model` (of type `M`): the entry point `$words`
/// or `$packed` of the search compiled once (`erased.rs`), as `M::WORD_STATE` chooses, with
/// `$args` after the model; where that search is not compiled (a plain release build), the
/// specialised search's answer.
macro_rules! erased_answer {
    ($call:expr, $model:ident, $words:ident, $packed:ident, $($args:expr),+) => {{
        #[cfg(any(debug_assertions, feature = "quick-build", feature = "erased"))]
        {
            let model = super::erased::AsWords($model);
            if M::WORD_STATE {
                super::erased::$words(&model, $($args),+)
            } else {
                super::erased::$packed(&model, $($args),+)
            }
        }
        #[cfg(not(any(debug_assertions, feature = "quick-build", feature = "erased")))]
        $call.specialised($model)
    }};
}

/// [`Checker::plan`](super::Checker::plan).
pub struct PlanCall<'a>(pub(crate) &'a Options);

impl Call for PlanCall<'_> {
    type Output = Result<Plan, ConfigError>;

    fn specialised<M: Model>(self, model: &M) -> Self::Output {
        super::plan(model, self.0)
    }

    fn erased<M: Model>(self, model: &M) -> Self::Output {
        erased_answer!(self, model, plan_words, plan_packed, self.0)
    }
}

/// [`Checker::try_run`](super::Checker::try_run).
pub struct RunCall<'a>(pub(crate) &'a Options);

impl Call for RunCall<'_> {
    type Output = Result<Report, ConfigError>;

    fn specialised<M: Model>(self, model: &M) -> Self::Output {
        super::try_run(model, self.0)
    }

    fn erased<M: Model>(self, model: &M) -> Self::Output {
        erased_answer!(self, model, try_run_words, try_run_packed, self.0)
    }
}

/// [`Checker::simulate`](super::Checker::simulate).
pub struct SimulateCall<'a>(pub(crate) &'a Options, pub(crate) Walks);

impl Call for SimulateCall<'_> {
    type Output = Result<Report, ConfigError>;

    fn specialised<M: Model>(self, model: &M) -> Self::Output {
        super::simulate(model, self.0, self.1)
    }

    fn erased<M: Model>(self, model: &M) -> Self::Output {
        erased_answer!(self, model, simulate_words, simulate_packed, self.0, self.1)
    }
}

/// [`Checker::replay`](super::Checker::replay).
pub struct ReplayCall<'a>(pub(crate) &'a Options, pub(crate) &'a str);

impl Call for ReplayCall<'_> {
    type Output = Result<Counterexample, ReplayError>;

    fn specialised<M: Model>(self, model: &M) -> Self::Output {
        super::replay(model, self.0, self.1)
    }

    fn erased<M: Model>(self, model: &M) -> Self::Output {
        erased_answer!(self, model, replay_words, replay_packed, self.0, self.1)
    }
}
