//! The report as one JSON object: the rendering lives in `bir-driver`, which the generated
//! checkers link too, so that both engines print the same JSON.

pub use bir_driver::json::*;
