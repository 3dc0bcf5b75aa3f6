//! Facts about the checked model that the later stages (and future ones) rely on, computed
//! once on the IR before anything is lowered: the domain of every variable, from which
//! lowering bounds the value of any expression ([`interval`]); what each transformation
//! reads and writes ([`access`], for partial-order reduction); and the size of the code
//! lowering will produce ([`size`]), which the front end bounds.

pub mod access;
pub mod interval;
pub mod size;

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
    /// The size of the generated code, in the units of [`size::MAX_CODE_SIZE`].
    pub code_size: u64,
}

/// Analyses a checked system. Returns `None` when it breaks a limit of the implementation
/// (reported in `diags`).
pub fn analyse(system: &ir::System, diags: &mut Diagnostics) -> Option<Analysis> {
    let errors_before = diags.len();
    let code_size = size::code_size(system, diags);
    let accesses = system
        .threads
        .iter()
        .map(|thread| thread.transforms.iter().map(Accesses::of).collect())
        .collect();
    let analysis = Analysis {
        domains: Domains::new(system),
        accesses,
        code_size,
    };
    (diags.len() == errors_before).then_some(analysis)
}
