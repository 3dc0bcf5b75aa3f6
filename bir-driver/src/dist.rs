//! A distributed search (`bir check --workers/--processes`): the checker's breadth-first
//! search over the workers of a timely dataflow (`bir-dist`), its report printed as any
//! other, then the states per level and what the workers sent each other.

use bir_runtime::{Checker, Model};

use crate::{DistOptions, SearchOptions, MALFORMED};

/// Runs `checker` across the workers `dist` describes and prints the outcome; returns the
/// exit status.
#[cfg(feature = "dist")]
pub(crate) fn run<M: Model + Clone + Send + 'static>(
    checker: Checker<M>,
    dist: &DistOptions,
    options: &SearchOptions,
) -> u8 {
    let config = match bir_dist::Config::from_args(dist.timely_args().into_iter()) {
        Ok(config) => config,
        Err(error) => {
            eprintln!("bir: error: the distributed search cannot start: {error}");
            return MALFORMED;
        }
    };
    match bir_dist::check(checker, config) {
        Ok(outcome) => crate::print_report(&outcome.report, options, Some(&outcome.summary())),
        Err(bir_dist::DistError::Config(error)) => {
            eprintln!("bir: error: {error}");
            MALFORMED
        }
        // A worker failed or the processes could not connect: never "verified".
        Err(error) => {
            println!("incomplete: {error}");
            crate::INCOMPLETE
        }
    }
}

/// Without the `dist` feature: the refusal.
#[cfg(not(feature = "dist"))]
pub(crate) fn run<M: Model>(_: Checker<M>, _: &DistOptions, _: &SearchOptions) -> u8 {
    eprintln!(
        "bir: error: this checker was built without distributed search (bir-driver's `dist` \
         feature)"
    );
    MALFORMED
}
