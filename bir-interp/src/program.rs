//! The parts of the checked IR that execution reads, without source spans: `proc_macro2`
//! spans are neither `Send` nor `Sync`, and the runtime shares a model between threads.
//! Expressions and actions are the IR's own, unchanged.

use bir_codegen::ir::{
    self, Action, Expr, GlobalId, IdVec, InstanceId, Jump, LocalId, LocationId, ThreadId,
    TransformId, Ty,
};

/// A checked system, ready to execute.
#[derive(Debug)]
pub(crate) struct Program {
    /// The type of each global.
    pub globals: IdVec<GlobalId, Ty>,
    /// The threads in declaration order.
    pub threads: IdVec<ThreadId, ThreadCode>,
    /// The condition of each invariant, in declaration order.
    pub invariants: Vec<Expr>,
    /// The predicates of each property, in declaration and proposition order.
    pub properties: Vec<Vec<Expr>>,
    /// The value of each heuristic, in declaration order.
    pub heuristics: Vec<Expr>,
    /// The invariant atoms tracked for vacuity: when each holds and when it fails.
    pub atoms: Vec<(Expr, Expr)>,
}

/// A thread declaration.
#[derive(Debug)]
pub(crate) struct ThreadCode {
    /// The number of instances.
    pub instances: u32,
    /// The first instance.
    pub first_instance: InstanceId,
    /// The number of locations; statuses at or above it mean ended (and, one above, not
    /// started).
    pub locations: usize,
    /// The parameters of a started thread or pool, locals.
    pub start_params: Vec<LocalId>,
    /// True for a pool (`thread[k]`): `start` takes its free instance of lowest index, and
    /// its arguments convert as assignments do.
    pub pool: bool,
    /// The type of each local.
    pub locals: IdVec<LocalId, Ty>,
    /// Its transformations in source order.
    pub transforms: IdVec<TransformId, TransformCode>,
}

/// A guarded transformation.
#[derive(Debug)]
pub(crate) struct TransformCode {
    /// The location it leaves.
    pub location: LocationId,
    /// The guard (`None` is true).
    pub guard: Option<Expr>,
    /// The actions in order.
    pub actions: Vec<Action>,
    /// The jump after the actions.
    pub jump: Jump,
    /// See `ir::Transform::quiet`.
    pub quiet: Option<usize>,
    /// See `ir::Transform::rendezvous`.
    pub rendezvous: Option<Box<ir::Rendezvous>>,
}

impl ThreadCode {
    /// The status meaning "ended" (see `ir::Thread::ended_status`).
    pub fn ended_status(&self) -> i64 {
        self.locations as i64
    }

    /// Instance `index` of this thread.
    pub fn instance_id(&self, index: u32) -> InstanceId {
        InstanceId(self.first_instance.0 + index)
    }

    /// The status meaning "not started yet".
    pub fn not_started_status(&self) -> i64 {
        self.locations as i64 + 1
    }
}

impl Program {
    /// The executable parts of `system`.
    pub fn new(system: &ir::System) -> Program {
        let threads = system
            .threads
            .iter()
            .map(|t| {
                debug_assert_eq!(t.ended_status(), t.locations.len() as i64);
                ThreadCode {
                    instances: t.instances(),
                    first_instance: t.first_instance,
                    locations: t.locations.len(),
                    start_params: t.start_params.clone(),
                    pool: t.is_pool(),
                    locals: t.locals.iter().map(|v| v.ty).collect(),
                    transforms: t
                        .transforms
                        .iter()
                        .map(|tr| TransformCode {
                            location: tr.location,
                            guard: tr.guard.clone(),
                            actions: tr.actions.clone(),
                            jump: tr.jump,
                            quiet: tr.quiet,
                            rendezvous: tr.rendezvous.clone(),
                        })
                        .collect(),
                }
            })
            .collect();
        Program {
            globals: system.globals.iter().map(|v| v.ty).collect(),
            threads,
            invariants: system.invariants.iter().map(|i| i.cond.clone()).collect(),
            atoms: system
                .atoms()
                .map(|(_, atom)| (atom.holds.clone(), atom.fails.clone()))
                .collect(),
            properties: system.properties.iter().map(|p| p.atoms.clone()).collect(),
            heuristics: system.heuristics.iter().map(|h| h.value.clone()).collect(),
        }
    }

    /// The type of a variable as seen by `thread`.
    pub fn ty(&self, thread: ThreadId, var: ir::VarRef) -> Ty {
        match var {
            ir::VarRef::Global(id) => self.globals[id],
            ir::VarRef::Local(id) => self.threads[thread].locals[id],
        }
    }
}
