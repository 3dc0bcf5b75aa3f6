//! The search layer: everything that explores a model, over the layers below it (the
//! model, the verdicts, the stores, the traces, the plan, the report).
//!
//! Every search runs on one core (`core`: the per-thread `Stepper` — classifying a
//! successor, expanding a state, recording findings, the limits — over any store) and ends
//! in one `finish`; the frontiers (`frontier/`: depth-first, breadth-first, best-first,
//! parallel, swarm, simulation, and the shard of a distributed search) only decide which state is expanded
//! next. `ltl/` is the product with a property's automaton and the searches for its
//! accepting cycles (nested depth-first, fair cycles, lasso checks); `reduce/` the
//! reductions (ample sets, canonical forms and the quotient by symmetry, shortening of
//! counterexamples); `heuristic/` what orders a best-first search. `control` holds what the threads of a run share (limits, the state
//! quota, the memory budget, progress). The search is compiled per state type:
//! `dispatch` answers a checker's calls with a model's own copy or with the one compiled
//! once in this crate for every model (`erased`).
//!
//! The functions here are the entry points of one call, on the copy specialised to `M`.

pub(crate) mod control;
pub(crate) mod core;
pub(crate) mod dispatch;
pub(crate) mod erased;
pub(crate) mod finish;
pub(crate) mod frames;
pub(crate) mod frontier;
pub(crate) mod heuristic;
pub(crate) mod ltl;
pub(crate) mod memory;
pub(crate) mod reduce;
pub(crate) mod stack;

use std::sync::Arc;

use crate::model::Model;
use crate::plan::Fairness;
use crate::plan::{self, ConfigError, Options, Plan, PropertyCheck};
use crate::report::Report;
use crate::trace::{self, replay as codec, Counterexample, ReplayError};
use crate::verdict::Strategy;

use self::control::Control;
use self::core::Run;
use self::frontier::{best_first, bfs, dfs, parallel, simulation, simulation::Walks, swarm};
use self::ltl::{fair, lasso, ndfs};
use self::reduce::{quotient, shorten};

/// `options`, with the default memory limit if none is set.
pub(crate) fn with_default_memory_limit(options: &Options) -> Options {
    Options {
        memory_limit: options.memory_limit.or_else(memory::default_limit),
        ..options.clone()
    }
}

/// [`Checker::plan`], on the search specialised to `M`.
pub(crate) fn plan<M: Model>(model: &M, options: &Options) -> Result<Plan, ConfigError> {
    plan::resolve(model, &with_default_memory_limit(options), false)
}

/// [`Checker::try_run`], on the search specialised to `M`.
pub(crate) fn try_run<M: Model>(model: &M, options: &Options) -> Result<Report, ConfigError> {
    let options = with_default_memory_limit(options);
    let plan = plan::resolve(model, &options, false)?;
    if !M::HAS_SYMMETRY {
        // Not compiled for a model without symmetry: the search over a quotient.
        return Ok(search(model, &options, plan));
    }
    let symmetry = match (&plan.symmetry, model.symmetry()) {
        (Some(_), Some(symmetry)) => symmetry,
        _ => return Ok(search(model, &options, plan)),
    };
    let quotient = quotient::Quotient::new(model, symmetry);
    let mut report = search(&quotient, &options, plan);
    let reachable = match &options.property {
        Some(PropertyCheck::Reachable(name)) => {
            model.properties().iter().position(|p| p.name == *name)
        }
        _ => None,
    };
    quotient.concretise_report(&mut report, reachable);
    Ok(report)
}

/// [`Checker::simulate`], on the search specialised to `M`; a [`ConfigError`] when the
/// options do not suit a simulation.
pub(crate) fn simulate<M: Model>(
    model: &M,
    options: &Options,
    walks: Walks,
) -> Result<Report, ConfigError> {
    let options = with_default_memory_limit(options);
    let plan = plan::resolve(model, &options, true)?;
    let control = Control::new(&model.info().name, &options, 1);
    let mut report = simulation::run(Run::new(model, &options, &control, plan), walks);
    shorten::shorten(model, &options, &mut report, control.started);
    Ok(report)
}

/// [`Checker::replay`], on the search specialised to `M`.
pub(crate) fn replay<M: Model>(
    model: &M,
    options: &Options,
    replay: &str,
) -> Result<Counterexample, ReplayError> {
    let path = codec::parse_replay(replay)?;
    let info = Arc::new(model.info().clone());
    let find = |name: &str| model.properties().iter().position(|p| p.name == name);
    match (&options.property, path.cycle) {
        (Some(PropertyCheck::Ltl(name)), Some(_)) => {
            let index = find(name).ok_or(ReplayError::NotALasso)?;
            let mut message = ndfs::violation_message(model, index);
            if options.fairness != Fairness::None {
                message.push_str(&format!(", under {}", options.fairness));
            }
            let found = trace::rebuild_lasso(model, &info, &path, message)?;
            lasso::check(model, index, options.fairness, &path)
                .map_err(|reason| ReplayError::NotAViolation { reason })?;
            Ok(found)
        }
        (_, Some(_)) => Err(ReplayError::NotALasso),
        (Some(check), None) => {
            let (PropertyCheck::Ltl(name) | PropertyCheck::Reachable(name)) = check;
            let plain = trace::rebuild(model, &info, &path.steps);
            match (plain, find(name)) {
                (Ok(found), _) => Ok(found),
                (Err(error), None) => Err(error),
                (Err(_), Some(index)) if matches!(check, PropertyCheck::Reachable(_)) => {
                    trace::rebuild_reached(model, &info, &path.steps, index).or_else(|_| {
                        trace::rebuild_predicate_fault(model, &info, &path.steps, index)
                    })
                }
                (Err(_), Some(index)) => {
                    trace::rebuild_predicate_fault(model, &info, &path.steps, index)
                }
            }
        }
        (None, None) => trace::rebuild(model, &info, &path.steps),
    }
}

/// Runs the search `plan` resolved for `model` (the user's model or its quotient by a
/// symmetry) and shortens its counterexamples.
fn search<M: Model>(model: &M, options: &Options, plan: Plan) -> Report {
    let control = Control::new(&model.info().name, options, plan.threads);
    let run = Run::new(model, options, &control, plan);
    let property = run.property;
    let started = control.started;
    // `M::HAS_LTL` false: the product searches are not compiled for this model (and its
    // plan never chooses them: it has no LTL property).
    let mut report = match (run.plan.strategy, property) {
        (Strategy::Parallel, _) => parallel::run(run),
        (Strategy::BreadthFirst, _) => bfs::run(run),
        (Strategy::BestFirst | Strategy::OrderedDepthFirst, _) => best_first::run(run),
        (Strategy::Swarm, _) => swarm::run(run),
        (Strategy::NestedDepthFirst, Some(index)) if M::HAS_LTL => ndfs::run(run, index),
        (Strategy::FairCycles, Some(index)) if M::HAS_LTL => fair::run(run, index),
        _ => dfs::run(run),
    };
    report.property = property.map(|index| model.properties()[index].clone());
    shorten::shorten(model, options, &mut report, started);
    report
}
