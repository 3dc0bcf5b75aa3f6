//! The bit layout seen through the generated accessors: a model that writes the extreme
//! values of every type into every variable (more than 128 bits of state, arrays across
//! word boundaries, negative and wrapping ranges) and asserts, in BIR, that each reads
//! back. An overlap or an off-by-one width would fail an assertion or change the counts.

use bir::bir;

bir! {
    system Extremes {
        enum Color { Red, Green, Blue }
        int (-4, 4) small;
        int big;
        int wrap (-8, -1) w;
        byte b;
        boolean flag;
        Color color;
        int (0, 6)[30] digits;
        boolean[70] bits;
        int (-100, 100)[3] wide;
        active thread Writer() {
            int (1, 9) mine := 9;
            loc low: do {
                small := -4; big := -2147483648; w := -8; b := 0; flag := false;
                color := Color.Red; digits[0] := 0; digits[29] := 6; bits[69] := true;
                wide[1] := -100; mine := 1;
                assert (small == -4 && big == -2147483648 && w == -8 && b == 0 && !flag);
                assert (color == Color.Red && digits[0] == 0 && digits[29] == 6 && bits[69]);
                assert (wide[1] == -100 && mine == 1 && !bits[68] && digits[28] == 0);
            } goto high;
            loc high: do {
                small := 4; big := 2147483647; w := w - 1; b := b - 1; flag := true;
                color := Color.Blue; digits[21] := 6; bits[0] := true; wide[2] := 100; mine := 9;
                assert (small == 4 && big == 2147483647 && w == -1 && b == 255 && flag);
                assert (color == Color.Blue && digits[21] == 6 && digits[20] == 0 && bits[0]);
                assert (wide[2] == 100 && wide[1] == -100 && mine == 9 && bits[69]);
            } goto low;
        }
    }
}

#[test]
fn every_value_round_trips_through_the_packed_state() {
    let report = Extremes::checker().run();
    report.assert_verified();
    // initial, after `low`, after `high`; `low` again reaches a fourth state (bits[0] and
    // digits[21] stay set), whose `high` step leads back to the third.
    assert_eq!((report.states(), report.transitions()), (4, 4));
}

#[test]
fn decoded_values_match_the_declarations() {
    let mut values = Vec::new();
    let state = bir::Model::initial_state(&Extremes);
    bir::Model::decode(&Extremes, &state, &mut values);
    let info = bir::Model::info(&Extremes);
    assert_eq!(values.len(), info.slots.len());
    assert_eq!(values.len(), 6 + 30 + 70 + 3 + 1 + 1);
    assert_eq!(values.last(), Some(&9), "the local's initialiser");
    assert_eq!(
        std::mem::size_of_val(&state),
        4 * 8,
        "239 bits pack into four words"
    );
}

#[test]
fn wide_states_can_be_stored_as_fingerprints_but_then_are_not_verified() {
    let report = Extremes::checker().hash_compaction().run();
    assert_eq!((report.states(), report.transitions()), (4, 4));
    assert_eq!(
        report.incomplete_reason(),
        Some(bir::IncompleteReason::HashCompaction)
    );
    let bitstate = Extremes::checker().bitstate(16, 3).run();
    assert_eq!(bitstate.states(), 4);
    assert!(!bitstate.is_verified());
}

bir! {
    system Narrow {
        int (0, 7) x;
        active thread T() { loc l: when x < 7 do { x := x + 1; } goto l; when x == 7 do {} return; }
    }
}

#[test]
fn states_of_one_word_are_exact_even_under_hash_compaction() {
    let report = Narrow::checker().hash_compaction().run();
    report.assert_verified();
    assert_eq!(report.states(), 9);
}

bir! {
    system LongArray {
        int (0, 3)[1500] a;
        boolean done;
        active thread T() {
            loc l: do { a[1499] := 3; } goto m;
            loc m: do { done := true; assert (a[0] == 1); } goto m;
        }
    }
}

/// A model of more than 1,024 slots builds its `ModelInfo`'s slots at first use, in loops
/// (see `MOST_LISTED_SLOTS` in `bir-codegen/src/emit/info.rs`): the same slots, in order;
/// and its states print with the runs of equal values of a long array written once.
#[test]
fn the_slots_of_a_long_array_are_built_at_first_use() {
    let info = bir::Model::info(&LongArray);
    let slot = |i: usize| (info.slots[i].name.to_string(), info.slots[i].element);
    assert_eq!(info.slots.len(), 1502);
    assert_eq!(slot(0), ("a".to_string(), Some(0)));
    assert_eq!(slot(1499), ("a".to_string(), Some(1499)));
    assert_eq!(slot(1500), ("done".to_string(), None));
    assert_eq!(slot(1501), ("T".to_string(), None));
    let report = LongArray::checker().progress(false).run();
    let text = report.to_string();
    assert!(text.contains("assertion failed: a[0] == 1"), "{text}");
    // A long array writes each run of equal values once.
    assert!(
        text.contains("final state: a = [0 ×1499, 3], done = false, T @ m"),
        "{text}"
    );
}
