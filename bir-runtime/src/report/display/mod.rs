//! Rendering, in one place: states, counterexamples and reports as people read them. The
//! data types (`trace`, `report`) know nothing of it; the number formats are `units`.

mod report;
mod state;
mod trace;

pub(crate) use state::ChangeDisplay;
pub use state::{OperandsDisplay, StateDisplay};
