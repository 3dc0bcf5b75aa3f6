//! `bir!(file = "...")`: a model read from its `.bir` file at compile time checks exactly
//! as the same text written inside `bir! { ... }`.

mod from_file {
    bir::bir!(file = "../../models/dining_philosophers.bir");
}

#[test]
fn a_model_read_from_its_file_checks_as_the_reference_model() {
    let report = from_file::DiningPhilosophers::checker()
        .keep_going(0)
        .progress(false)
        .run();
    // models/README.md: dining philosophers, N = 5.
    assert_eq!((report.states(), report.transitions()), (392, 1_415));
    assert_eq!(report.deadlocks(), 1);
    let first = from_file::DiningPhilosophers::checker()
        .bfs()
        .progress(false)
        .run();
    assert_eq!(first.assert_deadlock().len(), 5);
}
