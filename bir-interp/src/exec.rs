//! One step, by the definition of `LANGUAGE.md` ("Steps, states and verdicts"): the
//! transformation is enabled when its instance is at its location and its guard holds; its
//! actions run in order on a copy of the state, each seeing the writes of the ones before;
//! then it jumps. Every operation is checked when it executes.

use bir_codegen::emit::tables::TransitionRow;
use bir_codegen::ir::eval::{self, Env, EvalError, Evaluator};
use bir_codegen::ir::{self, Action, Expr, InstanceId, Jump, Scalar, SiteId, ThreadId, VarRef};
use std::cell::RefCell;

use bir_runtime::model::{Fault, Operand, Outcome};

use crate::state::State;
use crate::Interpreter;

/// What executing the actions of an enabled transformation gave.
enum Step {
    /// The step completed: the next state.
    Done(State),
    /// An `assume` was false: the step is discarded as if the guard had been false.
    Discarded,
    /// The `assert` the actions were run up to is next: the state it sees.
    AtAssert(State),
}

impl Interpreter {
    /// The outcome of transition `row` from `state`, or `None` when it is not enabled (its
    /// instance is elsewhere, its guard is false, or an `assume` failed).
    pub(crate) fn execute(&self, state: &State, row: &TransitionRow) -> Option<Outcome<State>> {
        if let Some(partner) = row.partner {
            return self.rendezvous(state, row, partner);
        }
        let thread = &self.program.threads[row.thread];
        let transform = &thread.transforms[row.transform];
        let status = self.plan.instances[row.instance].status;
        if self.plan.packing.get(state, status) != i64::from(transform.location.0) {
            return None;
        }
        // Rule: a guard that faults makes the transformation an error step (one outcome of
        // a step with several leaves it to the first, `Transform::quiet`).
        if let Some(guard) = &transform.guard {
            match self.eval(guard, state, Some(row.instance)) {
                Ok(0) => return None,
                Ok(_) => {}
                Err(_) if transform.quiet.is_some() => return None,
                Err(fault) => return Some(Outcome::Fault(fault)),
            }
        }
        match self.actions(state, row, None) {
            Ok(Step::Done(next)) => Some(Outcome::Next(next)),
            Ok(Step::Discarded | Step::AtAssert(_)) => None,
            Err(fault) => Some(Outcome::Fault(fault)),
        }
    }

    /// The operands of the `assert` at `site` in the step of `row` from `state` (see
    /// `Model::operands`): the actions before it run again, then its condition is evaluated
    /// recording what it reads.
    pub(crate) fn assert_operands(
        &self,
        state: &State,
        row: &TransitionRow,
        site: u32,
        out: &mut Vec<Operand>,
    ) {
        let thread = &self.program.threads[row.thread];
        let transform = &thread.transforms[row.transform];
        let Ok(Step::AtAssert(before)) = self.actions(state, row, Some(site)) else {
            return;
        };
        let cond = transform.actions.iter().find_map(|action| match action {
            Action::Assert { cond, site: s } if s.0 == site => Some(cond),
            _ => None,
        });
        if let Some(cond) = cond {
            self.record(cond, &before, Some(row.instance), out);
        }
    }

    /// Evaluates `expr` in `state` (executed by `instance`), appending every variable and
    /// status it reads to `out` with `Operand::record`, as the generated code does.
    pub(crate) fn record(
        &self,
        expr: &Expr,
        state: &State,
        instance: Option<InstanceId>,
        out: &mut Vec<Operand>,
    ) {
        let view = Recording {
            view: View {
                interp: self,
                state,
                instance,
            },
            out: RefCell::new(std::mem::take(out)),
        };
        // A fault ends the evaluation: what was read up to there is what the check saw.
        let _ = Evaluator::new(&view).eval(expr);
        *out = view.out.into_inner();
    }

    /// Runs the actions of `row` and its jump on a copy of `state` (packed: a copy of its
    /// words, which allocates only for a state wider than the inline words); with
    /// `until`, only up to the `assert` of that site, returning the state it sees.
    fn actions(
        &self,
        state: &State,
        row: &TransitionRow,
        until: Option<u32>,
    ) -> Result<Step, Fault> {
        let thread = &self.program.threads[row.thread];
        let transform = &thread.transforms[row.transform];
        let status = self.plan.instances[row.instance].status;
        let packing = &self.plan.packing;
        let mut next = state.clone();
        for (position, action) in transform.actions.iter().enumerate() {
            let done = self.action(&mut next, (row.thread, row.instance), action, until);
            match done {
                Ok(None) => {}
                Ok(Some(step)) => return Ok(step),
                // Rule: an outcome of a step with several (`Transform::quiet`) leaves the
                // faults before the outcomes part to the first outcome.
                Err(_) if transform.quiet.is_some_and(|q| position < q) => {
                    return Ok(Step::Discarded)
                }
                Err(fault) => return Err(fault),
            }
        }
        let jump = match transform.jump {
            Jump::Goto(location) => i64::from(location.0),
            Jump::Return => thread.ended_status(),
        };
        packing.set(&mut next, status, jump);
        Ok(Step::Done(next))
    }

    /// Runs one action on `next`: `Some` when the step ends there (an `exit`, a false
    /// `assume`, the `assert` of `until`).
    fn action(
        &self,
        next: &mut State,
        (thread_id, executing): (ThreadId, InstanceId),
        action: &Action,
        until: Option<u32>,
    ) -> Result<Option<Step>, Fault> {
        let thread = &self.program.threads[thread_id];
        let instance = Some(executing);
        let status = self.plan.instances[executing].status;
        let packing = &self.plan.packing;
        {
            match action {
                Action::Assign { place, value, site } => {
                    let scalar = self.program.ty(thread_id, place.var).scalar;
                    // Rule: in `a[i] := e` the index is evaluated (and checked) before `e`.
                    let element = match &place.index {
                        Some((index, index_site)) => {
                            let len = self.len(thread_id, place.var);
                            let index = self.eval(index, next, instance)?;
                            checked_index(index, len, *index_site)?
                        }
                        None => 0,
                    };
                    let value = self.eval(value, next, instance)?;
                    let stored = store(value, scalar, *site, true)?;
                    let slot = self.slot(place.var, instance) + element;
                    packing.set(next, slot, stored);
                }
                Action::Assert { site, .. } if until == Some(site.0) => {
                    return Ok(Some(Step::AtAssert(next.clone())));
                }
                Action::Assert { cond, site } => {
                    if self.eval(cond, next, instance)? == 0 {
                        return Err(Fault {
                            site: site.0,
                            value: 0,
                        });
                    }
                }
                Action::Assume(cond) => {
                    if self.eval(cond, next, instance)? == 0 {
                        return Ok(Some(Step::Discarded));
                    }
                }
                Action::Start {
                    thread: target,
                    args,
                    site,
                    arg_sites,
                    result,
                } => {
                    let tid = self.start(next, *target, args, *site, arg_sites, instance)?;
                    if let Some(place) = result {
                        // Rule: the target's index is evaluated once the instance is bound.
                        let element = match &place.index {
                            Some((index, index_site)) => {
                                let len = self.len(thread_id, place.var);
                                let index = self.eval(index, next, instance)?;
                                checked_index(index, len, *index_site)?
                            }
                            None => 0,
                        };
                        let slot = self.slot(place.var, instance) + element;
                        packing.set(next, slot, tid);
                    }
                }
                Action::Exit => {
                    // Rule: `exit` ends the instance; the rest of the block is not executed.
                    packing.set(next, status, thread.ended_status());
                    return Ok(Some(Step::Done(next.clone())));
                }
            }
        }
        Ok(None)
    }

    /// `start T(args);`, giving the started instance's `tid`. A thread: a start error
    /// unless T has not started yet; then each argument is evaluated and stored in its
    /// parameter (outside its type a range error, never wrapped). A pool: the arguments are
    /// evaluated first, then the free instance of lowest index is taken (none: a start
    /// error) and the arguments converted as assignments convert (wrap, or range error).
    /// Either way the instance goes to its first location.
    fn start(
        &self,
        next: &mut State,
        target: ThreadId,
        args: &[Expr],
        site: SiteId,
        arg_sites: &[SiteId],
        instance: Option<InstanceId>,
    ) -> Result<i64, Fault> {
        let thread = &self.program.threads[target];
        let packing = &self.plan.packing;
        let start_error = Fault {
            site: site.0,
            value: 0,
        };
        let is_free = |state: &State, id: InstanceId| {
            packing.get(state, self.plan.instances[id].status) == thread.not_started_status()
        };
        let params = thread.start_params.iter().zip(arg_sites);
        let chosen = if thread.pool {
            let values = args
                .iter()
                .map(|arg| self.eval(arg, next, instance))
                .collect::<Result<Vec<i64>, Fault>>()?;
            let chosen = (0..thread.instances)
                .map(|index| thread.instance_id(index))
                .find(|&id| is_free(next, id))
                .ok_or(start_error)?;
            for (value, (&param, &arg_site)) in values.into_iter().zip(params) {
                let stored = store(value, thread.locals[param].scalar, arg_site, true)?;
                packing.set(next, self.plan.instances[chosen].locals[param], stored);
            }
            chosen
        } else {
            let chosen = thread.first_instance;
            if !is_free(next, chosen) {
                return Err(start_error);
            }
            for (arg, (&param, &arg_site)) in args.iter().zip(params) {
                let value = self.eval(arg, next, instance)?;
                let stored = store(value, thread.locals[param].scalar, arg_site, false)?;
                packing.set(next, self.plan.instances[chosen].locals[param], stored);
            }
            chosen
        };
        packing.set(next, self.plan.instances[chosen].status, 0);
        Ok(ir::System::tid_of(chosen))
    }

    /// The value of `expr` in `state`, executed by `instance` (`None` for invariants).
    pub(crate) fn eval(
        &self,
        expr: &Expr,
        state: &State,
        instance: Option<InstanceId>,
    ) -> Result<i64, Fault> {
        let view = View {
            interp: self,
            state,
            instance,
        };
        match Evaluator::new(&view).eval(expr) {
            Ok(value) => Ok(value),
            Err(EvalError::Fault { site, value }) => Err(Fault {
                site: site.0,
                value,
            }),
            // The checker only lets expressions read what is in scope where they stand.
            Err(EvalError::NotConstant) => {
                panic!("bir-interp: an expression read a value out of its scope: {expr:?}")
            }
        }
    }

    /// The first slot of a variable as seen by `instance`.
    fn slot(&self, var: VarRef, instance: Option<InstanceId>) -> usize {
        self.try_slot(var, instance)
            .unwrap_or_else(|| panic!("bir-interp: a local written outside a thread: {var:?}"))
    }

    fn try_slot(&self, var: VarRef, instance: Option<InstanceId>) -> Option<usize> {
        match var {
            VarRef::Global(id) => Some(self.plan.globals[id]),
            VarRef::Local(local) => Some(self.plan.instances[instance?].locals[local]),
        }
    }

    /// The number of elements of a variable of `thread`.
    fn len(&self, thread: ThreadId, var: VarRef) -> u32 {
        self.program.ty(thread, var).elements()
    }
}

/// An array index checked against the array's length: an index error at `site` outside.
fn checked_index(index: i64, len: u32, site: SiteId) -> Result<usize, Fault> {
    if (0..i64::from(len)).contains(&index) {
        Ok(index as usize)
    } else {
        Err(Fault {
            site: site.0,
            value: index,
        })
    }
}

/// The value stored when `value` is written to a variable of type `scalar`: unchanged when
/// it lies in the type, reduced into the range for `int wrap` and `byte` when `wrapping`
/// (assignments, but not `start` arguments), and otherwise a range error at `site`.
fn store(value: i64, scalar: Scalar, site: SiteId, wrapping: bool) -> Result<i64, Fault> {
    match scalar {
        Scalar::Int { lo, hi, wrap } if !(lo..=hi).contains(&value) => {
            if wrap && wrapping {
                Ok(eval::wrap(value, lo, hi))
            } else {
                Err(Fault {
                    site: site.0,
                    value,
                })
            }
        }
        // Booleans and enum values are in their type by the checker's typing rules.
        _ => Ok(value),
    }
}

/// A view that records what an expression reads (see `Interpreter::record`).
struct Recording<'a> {
    view: View<'a>,
    out: RefCell<Vec<Operand>>,
}

impl Recording<'_> {
    fn note(&self, mark: usize, slot: usize, value: Option<i64>) -> Option<i64> {
        let value = value?;
        Operand::record(&mut self.out.borrow_mut(), mark, slot as u32, value);
        Some(value)
    }
}

impl Env for Recording<'_> {
    fn len(&self, var: VarRef) -> Option<u32> {
        self.view.len(var)
    }

    fn instances(&self, thread: ThreadId) -> Option<u32> {
        self.view.instances(thread)
    }

    fn read(&self, var: VarRef, element: u32) -> Option<i64> {
        self.view.read(var, element)
    }

    fn status(&self, thread: ThreadId, instance: u32) -> Option<i64> {
        self.view.status(thread, instance)
    }

    fn instance_index(&self) -> Option<i64> {
        self.view.instance_index()
    }

    fn mark(&self) -> usize {
        self.out.borrow().len()
    }

    fn read_at(&self, mark: usize, var: VarRef, element: u32) -> Option<i64> {
        let slot = self.view.interp.try_slot(var, self.view.instance)? + element as usize;
        self.note(mark, slot, self.view.read(var, element))
    }

    fn status_at(&self, mark: usize, thread: ThreadId, instance: u32) -> Option<i64> {
        let t = &self.view.interp.program.threads[thread];
        let value = self.view.status(thread, instance)?;
        let slot = self.view.interp.plan.instances[t.instance_id(instance)].status;
        self.note(mark, slot, Some(value))
    }
}

/// A state as seen by one instance, or by an invariant (which reads no local).
struct View<'a> {
    interp: &'a Interpreter,
    state: &'a State,
    instance: Option<InstanceId>,
}

impl View<'_> {
    fn thread(&self) -> Option<ThreadId> {
        let instance = self.instance?;
        Some(self.interp.plan.instances[instance].thread)
    }
}

impl Env for View<'_> {
    fn len(&self, var: VarRef) -> Option<u32> {
        match var {
            VarRef::Global(id) => Some(self.interp.program.globals[id].elements()),
            VarRef::Local(_) => Some(self.interp.len(self.thread()?, var)),
        }
    }

    fn instances(&self, thread: ThreadId) -> Option<u32> {
        Some(self.interp.program.threads[thread].instances)
    }

    fn read(&self, var: VarRef, element: u32) -> Option<i64> {
        let len = Env::len(self, var)?;
        if element >= len {
            return None;
        }
        let slot = self.interp.try_slot(var, self.instance)?;
        Some(
            self.interp
                .plan
                .packing
                .get(self.state, slot + element as usize),
        )
    }

    fn status(&self, thread: ThreadId, instance: u32) -> Option<i64> {
        let t = &self.interp.program.threads[thread];
        if instance >= t.instances {
            return None;
        }
        let status = self.interp.plan.instances[t.instance_id(instance)].status;
        Some(self.interp.plan.packing.get(self.state, status))
    }

    fn instance_index(&self) -> Option<i64> {
        let instance = self.instance?;
        Some(i64::from(self.interp.plan.instances[instance].index))
    }
}

mod rendezvous;
#[cfg(test)]
mod tests;
