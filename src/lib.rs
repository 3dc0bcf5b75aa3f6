#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

pub use bir_macros::bir;
pub use bir_runtime::*;
