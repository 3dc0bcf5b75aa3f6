//! Temporary probe.
include!("../models/families.rs");
dining_philosophers!(Probe, 12);
fn main() {}
#[test]
fn probe() {
    assert!(
        Probe::checker()
            .keep_going(0)
            .progress(false)
            .run()
            .states()
            > 0
    );
}
