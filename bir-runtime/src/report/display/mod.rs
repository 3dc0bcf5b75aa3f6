//! Rendering, in one place: states, counterexamples and reports as people read them. The
//! data types (`trace`, `report`) know nothing of it; the number formats are `units`.

mod changes;
mod parts;
mod report;
mod state;
mod trace;

pub use changes::{heap_step_text, step_changes, StepChange};
pub use parts::PartDisplay;
pub(crate) use state::ChangeDisplay;
pub use state::{OperandsDisplay, StateDisplay};
