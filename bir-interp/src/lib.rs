//! The reference interpreter of BIR models: [`Interpreter`] implements the runtime's
//! [`Model`] trait by evaluating the checked IR directly, with no code generation and no
//! folding, so that it can be read against `LANGUAGE.md` and used as the oracle the
//! generated checkers are compared with.
//!
//! A [`State`] holds the words of the generated checker's state for the same model: every
//! value at the width and the place the code generator's [`Layout`] gives it (the words
//! inline up to two of them, boxed beyond), so that a state that fits in 63 bits is stored
//! as one word in the seen set, as the generated code's is. Slots are numbered in the order
//! of the layout's fields (globals, then for each instance its status and its locals;
//! arrays element by element), and `decode` writes exactly the values the generated
//! model's `decode` writes. Statuses are encoded as the generated code encodes them: a value
//! below the thread's number of locations is that location, the number of locations means
//! ended, one more means not started. The model's [`ModelInfo`] is built from the same
//! [`Tables`] as the generated code's, so transition ids, slot names and fault sites agree,
//! and reports of both compare with `==`. Beyond the packing it favours plainness over
//! speed: expressions are evaluated by walking the IR, every read unpacks its slot.
//!
//! ```
//! use bir_interp::Interpreter;
//! use bir_runtime::{Checker, FindingKind, Verdict};
//!
//! let source = "system Count { int (0, 2) x;
//!     active thread T() { loc l: when x < 2 do { x := x + 1; } goto l; } }";
//! let report = Checker::new(Interpreter::from_source(source).unwrap()).progress(false).run();
//! assert_eq!(report.verdict(), Verdict::Found(FindingKind::Deadlock));
//! assert_eq!((report.states(), report.transitions()), (3, 2));
//! ```
#![warn(missing_docs)]

mod exec;
mod info;
mod program;
mod state;

use std::sync::Arc;

use bir_codegen::ir::{self, GlobalId, IdVec, InstanceId, LocalId, Owner, ThreadId};

use crate::program::Program;
use bir_codegen::analyse::{access, por, symmetry};
use bir_codegen::emit::layout::Layout;
use bir_codegen::emit::tables::{SymmetryTable, Tables, TransitionRow};
use bir_runtime::model::heap::{HeapLayout, HeapOrder};
use bir_runtime::model::{
    AtomInfo, FailedCheck, FamilySymmetry, Fault, HeuristicInfo, InvariantFailure, ModelInfo,
    Operand, Outcome, PropertyInfo, Successor, SymmetryInfo,
};
use bir_runtime::Model;

use crate::state::Packing;

pub use bir_codegen::diag::Spans;
pub use bir_codegen::diag::{Diagnostic, Note};
pub use bir_codegen::{Override, Overrides};
pub use state::State;

/// A checked BIR system, executed by evaluating its IR. Cheap to clone.
#[derive(Clone, Debug)]
pub struct Interpreter {
    program: Arc<Program>,
    info: ModelInfo,
    plan: Arc<Plan>,
    /// The properties, as the generated code's table has them.
    properties: Arc<[PropertyInfo]>,
    /// The heuristics, as the generated code's table has them.
    heuristics: Arc<[HeuristicInfo]>,
    /// Per transition, whether its location is safe for partial-order reduction.
    safe: Arc<[bool]>,
    /// The invariant atoms tracked for vacuity, as the generated code's table has them.
    atoms: Arc<[AtomInfo]>,
    /// The symmetry of the instance families, as the generated code's table has it.
    symmetry: Arc<SymmetryInfo>,
}

/// Where every value of a state lives, and the transitions in successor order.
#[derive(Clone, Debug)]
struct Plan {
    /// How states are packed: the place of every slot.
    packing: Packing,
    /// The initial state.
    initial: State,
    /// The first slot of each global.
    globals: IdVec<GlobalId, usize>,
    /// The slots of each instance.
    instances: IdVec<InstanceId, InstanceSlots>,
    /// Every transition; the index is the transition id.
    transitions: Vec<TransitionRow>,
    /// The heap's objects and the walk's roots, in slots.
    heap: HeapLayout,
    /// How the walk numbers the objects that remain after a step.
    heap_order: HeapOrder,
    /// Per transition, the pool instances its step frees at its end (`ir::System::freeing`),
    /// as slots.
    frees: Vec<Vec<Freed>>,
}

/// The slots that freeing one pool instance writes (`ir::System::freeing`).
#[derive(Clone, Debug)]
struct Freed {
    /// Each slot of its locals with its initial value.
    locals: Vec<(usize, i64)>,
    /// The slot of its status, and the value meaning free.
    status: (usize, i64),
    /// The `tid` naming it.
    tid: i64,
    /// Every slot that holds a `tid`.
    tids: Vec<usize>,
    /// Every slot of a lock's owner, the instance's number there, and the owner of a lock
    /// held by no instance.
    owners: (Vec<usize>, i64, i64),
    /// Its slots of the wait arrays, with their initial values.
    waits: Vec<(usize, i64)>,
}

/// The slots of one thread instance.
#[derive(Clone, Debug)]
struct InstanceSlots {
    /// Its thread.
    thread: ThreadId,
    /// Its index within the thread (the parameter of an active thread).
    index: u32,
    /// The slot of its status.
    status: usize,
    /// The first slot of each of its locals.
    locals: IdVec<LocalId, usize>,
}

impl Interpreter {
    /// The interpreter of a checked system.
    pub fn new(system: &ir::System) -> Interpreter {
        let layout = Layout::new(system);
        let tables =
            Tables::new(system, &layout).with_symmetry(system, &symmetry::families(system));
        let slot_of = |owner: Owner| {
            tables
                .field(owner)
                .map(|field| field.first_slot)
                .unwrap_or_else(|| panic!("the layout has no field for {owner:?}"))
        };
        let globals = system
            .globals
            .ids()
            .map(|id| slot_of(Owner::Global(id)))
            .collect();
        let mut instances = IdVec::new();
        for (thread, t) in system.threads.iter_enumerated() {
            for index in 0..t.instances() {
                let instance = t.instance_id(index);
                instances.push(InstanceSlots {
                    thread,
                    index,
                    status: slot_of(Owner::Status { thread, instance }),
                    locals: t
                        .locals
                        .ids()
                        .map(|local| {
                            slot_of(Owner::Local {
                                thread,
                                instance,
                                local,
                            })
                        })
                        .collect(),
                });
            }
        }
        let info = info::model_info(system, &tables);
        let atoms = tables
            .atoms
            .iter()
            .map(|(invariant, text)| AtomInfo {
                invariant: *invariant,
                text: text.clone().into(),
            })
            .collect();
        let packing = Packing::new(&layout);
        debug_assert_eq!(packing.slots(), tables.slots.len());
        let freed = |freeing: ir::Freeing| {
            let slots = |owner: Owner, len: usize| {
                let first = slot_of(owner);
                (first..first + len).collect::<Vec<_>>()
            };
            Freed {
                locals: freeing
                    .locals
                    .iter()
                    .flat_map(|(owner, init)| {
                        slots(*owner, init.len()).into_iter().zip(init.clone())
                    })
                    .collect(),
                status: (slot_of(freeing.status), freeing.free),
                tid: freeing.tid,
                tids: freeing
                    .tids
                    .iter()
                    .flat_map(|(owner, len)| slots(*owner, *len as usize))
                    .collect(),
                owners: (
                    freeing
                        .owners
                        .iter()
                        .flat_map(|(owner, len)| slots(*owner, *len as usize))
                        .collect(),
                    freeing.number,
                    freeing.nobody,
                ),
                waits: freeing
                    .waits
                    .iter()
                    .map(|(owner, element, init)| (slot_of(*owner) + *element as usize, *init))
                    .collect(),
            }
        };
        let frees = system
            .transitions()
            .map(|transition| {
                system
                    .freed_by(&transition)
                    .into_iter()
                    .filter_map(|instance| system.freeing(instance))
                    .map(freed)
                    .collect()
            })
            .collect();
        let plan = Plan {
            initial: packing.pack(&tables.initial_state()),
            packing,
            globals,
            instances,
            transitions: tables.transitions,
            heap: tables.heap,
            heap_order: HeapOrder::Canonical,
            frees,
        };
        Interpreter {
            program: Arc::new(Program::new(system)),
            info,
            plan: Arc::new(plan),
            properties: info::properties(system).into(),
            heuristics: info::heuristics(system).into(),
            safe: por::safe_transitions(system, &access::of_system(system)).into(),
            atoms,
            symmetry: Arc::new(symmetry_info(&tables.symmetry)),
        }
    }

    /// This interpreter with the heap's objects numbered as `order` says after each step:
    /// [`HeapOrder::Canonical`] (the default, LANGUAGE.md's rule) or, to measure what the
    /// canonical heap saves, [`HeapOrder::Allocation`] (garbage is still collected, but
    /// states that differ only in where objects were allocated stay apart).
    pub fn with_heap_order(mut self, order: HeapOrder) -> Interpreter {
        let plan = Arc::make_mut(&mut self.plan);
        plan.heap_order = order;
        self
    }

    /// What comes at the end of the step of transition `id`, on the state it made, before
    /// the state is stored: the freeing of the pool instances it ended, then the heap's walk
    /// when the step needs it, so that the references the freeing reset are no roots. The
    /// generated checker does the same at the end of each transition's function
    /// (`emit::step`).
    fn end_of_step(&self, next: &mut State, id: usize) {
        self.free(next, &self.plan.frees[id]);
        if self.plan.transitions[id].walks_heap {
            let packing = &self.plan.packing;
            let mut slots = state::Slots {
                packing,
                state: next,
            };
            // A report replaying a step in allocation order says so per thread.
            let order = bir_runtime::model::heap::steps::effective(self.plan.heap_order);
            self.plan.heap.collect(&mut slots, order);
        }
    }

    /// Rule: frees the pool instances a step ended, at its end: their locals back to their
    /// initial values, their statuses free, every `tid` naming them `null`.
    fn free(&self, next: &mut State, frees: &[Freed]) {
        let packing = &self.plan.packing;
        for freed in frees {
            for &(slot, value) in &freed.locals {
                packing.set(next, slot, value);
            }
            packing.set(next, freed.status.0, freed.status.1);
            for &slot in &freed.tids {
                if packing.get(next, slot) == freed.tid {
                    packing.set(next, slot, 0);
                }
            }
            let (owners, number, nobody) = &freed.owners;
            for &slot in owners {
                if packing.get(next, slot) == *number {
                    packing.set(next, slot, *nobody);
                }
            }
            for &(slot, init) in &freed.waits {
                packing.set(next, slot, init);
            }
        }
    }

    /// Tokenizes, parses and checks BIR source text (the body of a `bir!` invocation, or a
    /// `.bir` file): the interpreter, or every error found with its spans.
    pub fn from_source(source: &str) -> Result<Interpreter, Vec<Diagnostic>> {
        Self::from_source_with(source, &Overrides::default())
    }

    /// Like [`from_source`](Self::from_source), with the named constants of `overrides`
    /// replaced (`Param.N = 12`), so that one model text can be checked at any size.
    pub fn from_source_with(
        source: &str,
        overrides: &Overrides,
    ) -> Result<Interpreter, Vec<Diagnostic>> {
        bir_codegen::drive::source::front_end(source, overrides)
            .map(|system| Interpreter::new(&system))
    }
}

impl Model for Interpreter {
    type State = State;

    fn info(&self) -> &ModelInfo {
        &self.info
    }

    fn initial_state(&self) -> State {
        self.plan.initial.clone()
    }

    fn successors(&self, state: &State, out: &mut Vec<Successor<State>>) {
        for (id, row) in self.plan.transitions.iter().enumerate() {
            if let Some(mut outcome) = self.execute(state, row) {
                if let Outcome::Next(next) = &mut outcome {
                    self.end_of_step(next, id);
                }
                out.push(Successor {
                    transition: id as u32,
                    outcome,
                });
            }
        }
    }

    fn check_invariants(&self, state: &State) -> Result<(), InvariantFailure> {
        for (id, invariant) in self.program.invariants.iter().enumerate() {
            match self.eval(invariant, state, None) {
                Ok(0) => return Err(InvariantFailure::Violated(id as u32)),
                Ok(_) => {}
                Err(fault) => return Err(InvariantFailure::Fault(fault)),
            }
        }
        Ok(())
    }

    /// Rule: an end state is one where every instance has ended or never started, i.e.
    /// every status is at least the thread's "ended" value.
    fn is_end_state(&self, state: &State) -> bool {
        self.plan.instances.iter().all(|instance| {
            self.plan.packing.get(state, instance.status)
                >= self.program.threads[instance.thread].ended_status()
        })
    }

    /// The state's one word when the layout fits in 63 bits: the generated code's word.
    fn state_word(&self, state: &State) -> Option<u64> {
        self.plan.packing.word(state)
    }

    fn state_word_bits(&self) -> Option<u32> {
        self.plan.packing.word_bits()
    }

    /// The packed words as they are: a distributed search sends them between processes.
    fn write_state_words(&self, state: &State, out: &mut Vec<u64>) -> bool {
        out.extend_from_slice(state.words());
        true
    }

    fn state_from_words(&self, words: &[u64]) -> Option<State> {
        self.plan.packing.unpack_words(words)
    }

    fn decode(&self, state: &State, values: &mut Vec<i64>) {
        self.plan.packing.unpack(state, values);
    }

    fn operands(&self, state: &State, check: FailedCheck, out: &mut Vec<Operand>) {
        match check {
            FailedCheck::Invariant(index) => {
                if let Some(invariant) = self.program.invariants.get(index as usize) {
                    self.record(invariant, state, None, out);
                }
            }
            FailedCheck::Assertion { transition, site } => {
                if let Some(row) = self.plan.transitions.get(transition as usize) {
                    self.assert_operands(state, row, site, out);
                }
            }
        }
    }

    fn atoms_info(&self) -> &[AtomInfo] {
        &self.atoms
    }

    fn atoms(&self, state: &State) -> [u64; 2] {
        let mut bits = [0, 0];
        for (bit, (holds, fails)) in self.program.atoms.iter().enumerate() {
            // An atom whose evaluation faults is left out.
            for (set, expr) in [holds, fails].into_iter().enumerate() {
                if matches!(self.eval(expr, state, None), Ok(value) if value != 0) {
                    bits[set] |= 1 << bit;
                }
            }
        }
        bits
    }

    fn ample_safe(&self) -> &[bool] {
        if self.safe.contains(&true) {
            &self.safe
        } else {
            &[]
        }
    }

    fn symmetry(&self) -> Option<&SymmetryInfo> {
        Some(&self.symmetry)
    }

    fn encode(&self, values: &[i64]) -> Option<State> {
        (values.len() == self.plan.packing.slots()).then(|| self.plan.packing.pack(values))
    }

    fn properties(&self) -> &[PropertyInfo] {
        &self.properties
    }

    fn heuristics(&self) -> &[HeuristicInfo] {
        &self.heuristics
    }

    fn heuristic(&self, heuristic: usize, state: &State) -> Result<i64, Fault> {
        match self.program.heuristics.get(heuristic) {
            Some(value) => self.eval(value, state, None),
            None => Ok(0),
        }
    }

    fn propositions(&self, property: usize, state: &State) -> Result<u64, Fault> {
        let mut props = 0;
        for (bit, atom) in self.program.properties[property].iter().enumerate() {
            if self.eval(atom, state, None)? != 0 {
                props |= 1 << bit;
            }
        }
        Ok(props)
    }
}

/// The runtime's form of a symmetry table.
fn symmetry_info(table: &SymmetryTable) -> SymmetryInfo {
    SymmetryInfo {
        families: table
            .families
            .iter()
            .map(|family| FamilySymmetry {
                thread: family.thread.clone().into(),
                instances: family.instances,
                permuted: family.permuted.clone().into(),
                rows: family.rows.clone().into(),
                row_pids: family.row_pids.clone().into(),
                pid_slots: family.pid_slots.clone().into(),
                row_offsets: family.row_offsets.clone().into(),
                pid_offsets: family.pid_offsets.clone().into(),
            })
            .collect::<Vec<_>>()
            .into(),
        notes: table
            .notes
            .iter()
            .map(|note| note.clone().into())
            .collect::<Vec<_>>()
            .into(),
    }
}
