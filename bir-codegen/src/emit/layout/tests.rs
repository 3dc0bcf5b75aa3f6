use std::str::FromStr;

use proc_macro2::TokenStream;

use super::*;

fn layout_of(source: &str) -> (ir::System, Layout) {
    let tokens = TokenStream::from_str(source).expect("tokenizes");
    let system = crate::front_end(tokens)
        .unwrap_or_else(|d| panic!("{:?}", d.iter().map(|d| &d.message).collect::<Vec<_>>()));
    let layout = Layout::new(&system);
    (system, layout)
}

/// Reads element `i` of `field` from packed words, as generated accessors do.
fn get(words: &[u64], field: &Field, i: u32) -> i64 {
    let (word, shift) = field.locate(i);
    if field.width == 0 {
        return field.offset;
    }
    ((words[word as usize] >> shift) & field.mask()) as i64 + field.offset
}

/// No two elements of any fields share a bit, and none crosses a word boundary.
fn assert_disjoint(layout: &Layout) {
    let mut used = vec![0u64; layout.words as usize];
    for field in &layout.fields {
        for i in 0..field.elements {
            let (word, shift) = field.locate(i);
            if field.width == 0 {
                continue;
            }
            assert!(
                shift + field.width <= layout.word_bits,
                "{field:?} crosses a word"
            );
            let bits = field.mask() << shift;
            assert_eq!(used[word as usize] & bits, 0, "{field:?}[{i}] overlaps");
            used[word as usize] |= bits;
        }
    }
}

#[test]
fn small_states_use_the_smallest_integer() {
    let (_, layout) = layout_of(
        "system S { boolean a; boolean b;
          active thread T() { loc l: do { a := b; } goto l; } }",
    );
    assert_eq!(layout.used_bits, 2);
    assert_eq!((layout.word_bits, layout.words), (8, 1));
    let (_, layout) = layout_of(include_str!("../../../../models/dining_philosophers.bir"));
    // 5 forks + 5 statuses of 4 locations (no return: "ended" needs no code).
    assert_eq!(layout.used_bits, 5 + 5 * 2);
    assert_eq!((layout.word_bits, layout.words), (16, 1));
}

#[test]
fn negative_and_wrapping_ranges_store_value_minus_lower_bound() {
    let (_, layout) = layout_of(
        "system S { int (-4, 4) x := -3; int wrap (-8, -1) w := -1; byte b := 200;
          active thread T() { loc l: do { x := 1; } goto l; } }",
    );
    let widths: Vec<_> = layout.fields.iter().map(|f| (f.width, f.offset)).collect();
    assert_eq!(widths, [(4, -4), (3, -8), (8, 0), (0, 0)]);
    let values = vec![vec![-3], vec![-1], vec![200], vec![0]];
    let words = layout.pack(&values);
    for (field, value) in layout.fields.iter().zip(&values) {
        assert_eq!(get(&words, field, 0), value[0]);
    }
}

#[test]
fn arrays_longer_than_a_word_are_spread_without_crossing_words() {
    let (_, layout) = layout_of(
        "system S { int (0, 6)[30] a; boolean[70] flags; int x;
          active thread T() { loc l: do { x := 1; } goto l; } }",
    );
    assert_eq!(layout.word_bits, 64);
    assert_disjoint(&layout);
    let a = layout.field(Owner::Global(ir::GlobalId(0)));
    assert!(matches!(
        a.placement,
        Placement::Spread { per_word: 21, .. }
    ));
    let values: Vec<Vec<i64>> = vec![
        (0..30).map(|i| i % 7).collect(),
        (0..70).map(|i| i % 3 % 2).collect(),
        vec![-123_456],
        vec![0],
    ];
    let words = layout.pack(&values);
    for (field, values) in layout.fields.iter().zip(&values) {
        for (i, value) in values.iter().enumerate() {
            assert_eq!(get(&words, field, i as u32), *value, "{field:?}[{i}]");
        }
    }
}

#[test]
fn states_wider_than_128_bits_pack_first_fit() {
    let (_, layout) = layout_of(
        "system S { int a; int b; int c; int d; int e; boolean f; int (0, 2) g;
          active [3] thread T(int index) { int (0, 9) mine; loc l: do { mine := 1; } goto l; } }",
    );
    // 5 * 32 + 1 + 2 + 3 * (0 + 4) = 175 bits in 3 words.
    assert_eq!(layout.used_bits, 175);
    assert_eq!(layout.words, 3);
    assert_disjoint(&layout);
    let values: Vec<Vec<i64>> = layout
        .fields
        .iter()
        .map(|f| {
            vec![if f.width == 32 {
                ir::INT_MIN
            } else {
                f.offset + f.mask() as i64
            }]
        })
        .collect();
    let words = layout.pack(&values);
    for (field, value) in layout.fields.iter().zip(&values) {
        assert_eq!(get(&words, field, 0), value[0], "{field:?}");
    }
}

#[test]
fn statuses_count_only_reachable_kinds() {
    let (system, layout) = layout_of(include_str!("../../../../models/sum_to_n.bir"));
    let status = |thread: u32| {
        let thread = ir::ThreadId(thread);
        let instance = system.threads[thread].first_instance;
        layout.field(Owner::Status { thread, instance }).width
    };
    // Thread0: one location + ended; Thread1/2: three locations, never end.
    assert_eq!((status(0), status(1), status(2)), (1, 2, 2));
}
