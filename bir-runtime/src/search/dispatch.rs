//! The calls a [`Checker`](crate::Checker) makes of its model, each answered by the copy of
//! the search specialised to the model's state type or by the one compiled once in this
//! crate for every model (`erased`), as the model's [`Model::__check`] chooses (see
//! [`Call`]).

use crate::model::Model;
use crate::report::Report;
use crate::trace::Counterexample;
use crate::trace::ReplayError;

use crate::model::engine::Call;
use crate::plan::{ConfigError, Options, Plan};

use super::frontier::simulation::Walks;

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

/// [`Checker::plan`](crate::Checker::plan).
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

/// [`Checker::try_run`](crate::Checker::try_run).
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

/// [`Checker::simulate`](crate::Checker::simulate).
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

/// [`Checker::replay`](crate::Checker::replay).
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
