//! The differential test on the even-numbered models of the run (`build.rs` writes
//! `models_even.rs`; `differential_odd.rs` has the others, so that cargo compiles the two halves in
//! parallel). What is compared is in `common/mod.rs`.

mod common;

use common::Differ;

include!(concat!(env!("OUT_DIR"), "/models_even.rs"));

#[test]
fn generated_checkers_agree_with_the_interpreter() {
    common::check_all(run_all, COUNT + POOLS, SYMMETRIC, SEED);
}
