//! Parser, checker and code generator behind the `bir!` macro, as a plain library so that
//! each stage is unit-tested on `proc_macro2` token streams and reused by tools.
//!
//! Data flows one way, through one folder per stage, as [`expand`] runs them:
//!
//! ```text
//! tokens ─ front ─> front::ast::System ─ check ─> ir::System ─ analyse ─> Analysis
//!        ─ lower ─> lowered code ─ emit (layout, tables, the printer) ─> Rust tokens
//! ```
//!
//! - [`front`]: tokens to the syntax tree, the model exactly as written ([`front::parse`]
//!   into [`front::ast`]).
//! - [`check`]: names, types and constants resolved and every compile-time rule checked:
//!   the syntax tree to the [`ir`], the checked model, the one input of every later stage
//!   and of the interpreter. Its `ltl` properties are translated into Büchi automata by
//!   [`ltl`], which knows nothing of BIR.
//! - [`analyse`]: facts about the IR, computed once ([`analyse::Analysis`]): value ranges,
//!   read and write sets, symmetry, the faults the constants make certain, code size.
//! - `lower`: each transition to straight-line code over the stored values, every
//!   run-time check decided.
//! - [`emit`]: the state's bit layout ([`emit::layout`]), the model's tables
//!   ([`emit::tables`], which the interpreter reads too) and the lowered code printed as
//!   Rust; for a model with errors, the errors and a stub of the system's type, so that
//!   user code naming it still compiles.
//! - [`export`]: the IR written in the languages of the peer checkers, Murphi for Rumur and
//!   Promela for SPIN.
//!
//! Errors are collected in [`diag::Diagnostics`], which every stage shares; after a stage
//! that reported errors the pipeline stops. `pipeline` runs the stages ([`front_end`],
//! [`expand`], [`expand_with`]); [`drive`] holds the entry points that read a model as
//! text: `bir!(file = "...")` ([`expand_in`], [`drive::file`]) and models given as text,
//! their errors printed as rustc prints them ([`drive::source`]).
//!
//! Every import goes from a module to one before it in this order, never back (tests
//! excepted, which run the whole front end): `diag` < `front` < `ltl` < `ir` < `check` <
//! `analyse` < `lower` < `emit` < `export` < `pipeline` < `drive` < this root, which only
//! declares the modules and re-exports the entry points.

pub mod analyse;
pub mod check;
pub mod diag;
pub mod drive;
pub mod emit;
pub mod export;
pub mod front;
pub mod ir;
mod lower;
pub mod ltl;
mod pipeline;
pub mod steps;

pub use check::{Override, Overrides};
pub use drive::expand_in;
pub use pipeline::{expand, expand_with, front_end, front_end_with};
