//! Every figure of `models/README.md` for the scalable families: states and transitions
//! for N = 2..8 (N = 10 and 12 in the `release` target), identical in DFS and BFS, with the
//! verdict each family must have; compact storage gives the same.

include!("../../models/families.rs");

family_test!(philosophers_2, dining_philosophers, P2, 2, 10, 14, 1);
family_test!(philosophers_3, dining_philosophers, P3, 3, 35, 75, 1);
family_test!(philosophers_4, dining_philosophers, P4, 4, 118, 340, 1);
family_test!(philosophers_5, dining_philosophers, P5, 5, 392, 1_415, 1);
family_test!(philosophers_6, dining_philosophers, P6, 6, 1_297, 5_622, 1);
family_test!(philosophers_7, dining_philosophers, P7, 7, 4_286, 21_679, 1);
family_test!(
    philosophers_8,
    dining_philosophers,
    P8,
    8,
    14_158,
    81_848,
    1
);

family_test!(fixed_2, dining_philosophers_fixed, F2, 2, 7, 8, 0);
family_test!(fixed_3, dining_philosophers_fixed, F3, 3, 24, 46, 0);
family_test!(fixed_4, dining_philosophers_fixed, F4, 4, 79, 208, 0);
family_test!(fixed_5, dining_philosophers_fixed, F5, 5, 261, 876, 0);
family_test!(fixed_6, dining_philosophers_fixed, F6, 6, 862, 3_516, 0);
family_test!(fixed_7, dining_philosophers_fixed, F7, 7, 2_847, 13_670, 0);
family_test!(fixed_8, dining_philosophers_fixed, F8, 8, 9_403, 51_944, 0);

family_test!(peterson_2, peterson_filter, Q2, 2, 20, 34, 0);
family_test!(peterson_3, peterson_filter, Q3, 3, 288, 651, 0);
family_test!(peterson_4, peterson_filter, Q4, 4, 4_752, 13_080, 0);

#[test]
fn dining_philosophers_deadlock_is_every_philosopher_holding_the_left_fork() {
    dining_philosophers!(P4Deadlock, 4);
    let report = P4Deadlock::checker().bfs().run();
    let deadlock = report.assert_deadlock();
    let info = report.info();
    let final_state = deadlock.final_state();
    for (slot, value) in info.slots.iter().zip(final_state) {
        match slot.kind {
            bir::model::SlotKind::Bool => assert_eq!(*value, 1, "{} holds", slot.name),
            bir::model::SlotKind::Status { .. } => {
                assert_eq!(*value, 1, "{} at takeRight", slot.name)
            }
            _ => {}
        }
    }
    assert_eq!(deadlock.len(), 4, "BFS: four steps, one per philosopher");
}

#[test]
fn peterson_never_violates_mutual_exclusion() {
    peterson_filter!(Q3Verified, 3);
    Q3Verified::checker().run().assert_verified();
    Q3Verified::checker().bfs().run().assert_verified();
}
