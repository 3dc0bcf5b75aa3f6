//! Packing and unpacking: every value round-trips, at the edges of its field and of its
//! word, and a write leaves every other value alone; the words are the layout's own.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use bir_codegen::emit::layout::{Field, Layout, Placement};
use bir_codegen::ir::{GlobalId, Owner, Scalar};
use bir_codegen::Overrides;

use super::*;
use bir_codegen::drive::source::front_end;

/// The layout of a model's source.
fn layout_of(source: &str) -> Layout {
    let system = front_end(source, &Overrides::default())
        .unwrap_or_else(|e| panic!("{:?}", e.iter().map(|d| &d.message).collect::<Vec<_>>()));
    Layout::new(&system)
}

/// A scalar field of `width` bits storing `offset` as 0, at `word`/`shift`.
fn field(global: u32, width: u32, offset: i64, word: u32, shift: u32) -> Field {
    let hi = if width == 64 {
        i64::MAX
    } else {
        offset.wrapping_add((1i64 << width) - 1)
    };
    Field {
        owner: Owner::Global(GlobalId(global)),
        width,
        offset,
        elements: 1,
        is_array: false,
        scalar: Scalar::Int {
            lo: offset,
            hi,
            wrap: false,
        },
        placement: Placement::Packed { word, shift },
    }
}

/// A hand-made layout of `fields` in `words` words.
fn hand_layout(fields: Vec<Field>, words: u32) -> Layout {
    let used_bits = fields.iter().map(|f| f.width * f.elements).sum();
    Layout {
        fields,
        word_bits: 64,
        words,
        used_bits,
    }
}

/// The lowest and highest value of every slot, by the layout.
fn extremes(layout: &Layout) -> Vec<(i64, i64)> {
    layout
        .fields
        .iter()
        .flat_map(|f| {
            let hi = (f.mask() as i64).wrapping_add(f.offset);
            std::iter::repeat_n((f.offset, hi), f.elements as usize)
        })
        .collect()
}

/// Writes each extreme of each slot over a state holding the other extreme everywhere, and
/// checks that the slot reads it back and no other slot changed.
fn assert_slots_independent(layout: &Layout) {
    let packing = Packing::new(layout);
    let bounds = extremes(layout);
    assert_eq!(packing.slots(), bounds.len());
    for high_first in [false, true] {
        let base: Vec<i64> = bounds
            .iter()
            .map(|&(lo, hi)| if high_first { hi } else { lo })
            .collect();
        let state = packing.pack(&base);
        let mut values = Vec::new();
        packing.unpack(&state, &mut values);
        assert_eq!(values, base);
        for (slot, &(lo, hi)) in bounds.iter().enumerate() {
            let mut changed = state.clone();
            let value = if high_first { lo } else { hi };
            packing.set(&mut changed, slot, value);
            let mut expected = base.clone();
            expected[slot] = value;
            packing.unpack(&changed, &mut values);
            assert_eq!(values, expected, "slot {slot}");
            packing.set(&mut changed, slot, base[slot]);
            assert_eq!(changed, state, "slot {slot} written back");
        }
    }
}

#[test]
fn negative_and_wrapping_ranges_round_trip_and_pack_as_the_layout_does() {
    let layout = layout_of(
        "system S { int (-4, 4) x := -3; int wrap (-8, -1) w := -1; byte b := 200;
          enum C { R, G, B } C c := C.B; boolean f := true;
          active thread T() { loc l: do { x := 1; } goto l; } }",
    );
    let packing = Packing::new(&layout);
    // x, w, b, c, f, T's status.
    let values = [-3, -1, 200, 2, 1, 0];
    let state = packing.pack(&values);
    let fields: Vec<Vec<i64>> = values.iter().map(|&v| vec![v]).collect();
    assert_eq!(state.words(), layout.pack(&fields));
    for x in -4..=4 {
        for w in -8..=-1 {
            let mut state = state.clone();
            packing.set(&mut state, 0, x);
            packing.set(&mut state, 1, w);
            assert_eq!((packing.get(&state, 0), packing.get(&state, 1)), (x, w));
            assert_eq!(packing.get(&state, 2), 200);
        }
    }
    assert_slots_independent(&layout);
}

#[test]
fn a_field_of_width_zero_takes_no_bits_and_reads_its_value() {
    let layout = layout_of(
        "system S { int (7, 7) seven := 7; int (-2, -2) minus := -2; boolean b;
          active thread T() { loc l: do { b := !b; } goto l; } }",
    );
    assert_eq!(layout.used_bits, 1);
    let packing = Packing::new(&layout);
    let state = packing.pack(&[7, -2, 1, 0]);
    assert_eq!(state.words(), [1]);
    let mut values = Vec::new();
    packing.unpack(&state, &mut values);
    assert_eq!(values, [7, -2, 1, 0]);
    assert_slots_independent(&layout);
}

#[test]
fn sixty_four_bit_fields_round_trip_every_pattern() {
    // Word 0: a full 64-bit field of the whole i64 range; word 1: 64 bits from 0 (its
    // values past i64::MAX do not arise, but its bits still round-trip).
    let layout = hand_layout(vec![field(0, 64, i64::MIN, 0, 0), field(1, 64, 0, 1, 0)], 2);
    let packing = Packing::new(&layout);
    for value in [i64::MIN, i64::MIN + 1, -1, 0, 1, i64::MAX - 1, i64::MAX] {
        let state = packing.pack(&[value, value]);
        assert_eq!(packing.get(&state, 0), value);
        assert_eq!(packing.get(&state, 1), value);
        assert_eq!(state.words()[0], (value as u64) ^ (1 << 63));
        assert_eq!(state.words()[1], value as u64);
    }
    // Two words, or one full one: no state word.
    assert_eq!(packing.word(&packing.pack(&[0, 0])), None);
    let full = hand_layout(vec![field(0, 64, 0, 0, 0)], 1);
    assert_eq!(Packing::new(&full).word(&State::zero(1)), None);
}

#[test]
fn fields_meet_at_word_edges_without_touching_each_other() {
    // Word 0: 4 bits ending at bit 64 and 60 bits below them; word 1: 3 bits at bit 0
    // (negative range) and 61 bits above them.
    let layout = hand_layout(
        vec![
            field(0, 4, -8, 0, 60),
            field(1, 60, 5, 0, 0),
            field(2, 3, -4, 1, 0),
            field(3, 61, -(1 << 40), 1, 3),
        ],
        2,
    );
    assert_slots_independent(&layout);
    let packing = Packing::new(&layout);
    let state = packing.pack(&[7, 5, -4, -(1 << 40)]);
    assert_eq!(state.words(), [0xf << 60, 0]);
}

#[test]
fn wide_states_are_boxed_and_spread_arrays_round_trip() {
    let layout = layout_of(
        "system S { int (0, 6)[30] a; boolean[70] flags; int (-5, 9)[3] small; int x;
          active [2] thread T(int index) { int (0, 9) mine; loc l: do { mine := 1; } goto l; } }",
    );
    assert!(
        layout.words > bir_runtime::model::INLINE_WORDS as u32,
        "{}",
        layout.words
    );
    assert!(matches!(
        layout.fields[0].placement,
        Placement::Spread { .. }
    ));
    let packing = Packing::new(&layout);
    let values: Vec<i64> = (0..30)
        .map(|i| i % 7)
        .chain((0..70).map(|i| i % 3 % 2))
        .chain([-5, 0, 9, -123_456])
        .chain([0, 7, 0, 9])
        .collect();
    let state = packing.pack(&values);
    assert!(!state.is_inline());
    let mut fields = Vec::new();
    let mut rest = &values[..];
    for field in &layout.fields {
        let (these, more) = rest.split_at(field.elements as usize);
        fields.push(these.to_vec());
        rest = more;
    }
    assert_eq!(state.words(), layout.pack(&fields));
    let mut decoded = Vec::new();
    packing.unpack(&state, &mut decoded);
    assert_eq!(decoded, values);
    assert_eq!(packing.word(&state), None);
    assert_slots_independent(&layout);
}

#[test]
fn states_compare_and_hash_by_their_words() {
    let hash = |state: &State| {
        let mut hasher = DefaultHasher::new();
        state.hash(&mut hasher);
        hasher.finish()
    };
    let layout = layout_of(
        "system S { int (0, 3) x; int (0, 3) y;
          active thread T() { loc l: do { x := 1; } goto l; } }",
    );
    let packing = Packing::new(&layout);
    let (a, b) = (packing.pack(&[1, 2, 0]), packing.pack(&[1, 2, 0]));
    let c = packing.pack(&[2, 1, 0]);
    assert_eq!(a, b);
    assert_eq!(hash(&a), hash(&b));
    assert_ne!(a, c);
    // x in bits 0-1, y in 2-3, the status (one location: width 0) nowhere.
    assert_eq!(packing.word(&a), Some(0b10_01));
    assert_eq!(format!("{a:?}"), "State[0x9]");
    let mut wide = State::zero(3);
    wide.words_mut()[2] = 5;
    let copy = wide.clone();
    wide.words_mut()[2] = 6;
    assert_eq!(copy.words(), [0, 0, 5]);
    assert_ne!(copy, wide);
    assert_eq!(format!("{copy:?}"), "State[0x0, 0x0, 0x5]");
}
