//! Facts about the checked model that the later stages (and future ones) rely on, computed
//! once on the IR before anything is lowered: the domain of every variable, from which
//! lowering bounds the value of any expression ([`interval`]); what each transformation
//! reads and writes ([`access`]), how it uses the buffered channels ([`channels`]) and
//! which locations are safe for partial-order reduction ([`por`]); which permutations of each family's instances the model cannot tell apart
//! ([`symmetry`]); the faults its constants make certain, which are warned about
//! ([`faults`]); and the size of the code lowering will produce ([`size`]), which the front
//! end bounds.

pub mod access;
pub mod channels;
pub mod faults;
pub mod heap;
pub mod interval;
pub mod por;
pub mod size;
pub mod symmetry;

use crate::diag::Diagnostics;
use crate::ir::{self, IdVec, ThreadId, TransformId};

use access::Accesses;
use interval::Domains;

/// What the analysis found out about one checked system.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The range of every variable and instance index.
    pub domains: Domains,
    /// The reads and writes of each transformation of each thread.
    pub accesses: IdVec<ThreadId, IdVec<TransformId, Accesses>>,
    /// Per transition in successor order, whether its location is safe for partial-order
    /// reduction ([`por`]).
    pub safe_transitions: Vec<bool>,
    /// The symmetry of each `active [N]` family of at least two instances ([`symmetry`]).
    pub symmetry: Vec<symmetry::Family>,
    /// The size of the generated code, in the units of [`size::MAX_CODE_SIZE`].
    pub code_size: u64,
    /// The faults that the model's constants make certain: warnings, never errors
    /// ([`faults`]).
    pub constant_faults: Vec<faults::ConstantFault>,
}

/// Analyses a checked system. Returns `None` when it breaks a limit of the implementation
/// (reported in `diags`).
pub fn analyse(system: &ir::System, diags: &mut Diagnostics) -> Option<Analysis> {
    let errors_before = diags.len();
    let code_size = size::code_size(system, diags);
    let accesses = access::of_system(system);
    let safe_transitions = por::safe_transitions(system, &accesses);
    let analysis = Analysis {
        domains: Domains::new(system),
        accesses,
        safe_transitions,
        symmetry: symmetry::families(system),
        code_size,
        constant_faults: faults::constant_faults(system),
    };
    (diags.len() == errors_before).then_some(analysis)
}
