//! The word table against a plain set: insertions, growth, colours, numbers and sharing.

use super::*;
use crate::store::tests::{insert, new_then_seen};

#[test]
fn a_word_table_stores_each_word_once_across_growth() {
    let table = new_then_seen(WordTable::new(0, false));
    assert_eq!(table.len(), 10_002);
    assert_eq!(table.omission(10), None);
    assert!(WordTable::new(0, true).omission(10).is_some());
}

#[test]
fn spread_places_bit_packed_words_evenly() {
    // States are fields packed into a word: those that differ in a few low bits, in a
    // few high ones, or in a middle field spaced by a power of two must still fill the
    // segments and their slots evenly, for linear probing to stay short.
    let families: [&dyn Fn(u64) -> u64; 4] = [
        &|i| i,
        &|i| i << 40,
        &|i| (i & 0xff) | (i >> 8) << 52,
        &|i| 0x5555_0000_0000 | i << 13,
    ];
    for (family, word) in families.iter().enumerate() {
        let count = 1u64 << 16;
        let mut segments = vec![0u32; SEGMENTS];
        // 256 slots a segment: the family's 65,536 words at a load of 1.
        let mut slots = vec![0u32; SEGMENTS * 256];
        for i in 0..count {
            let (segment, hash) = WordTable::place(word(i));
            segments[segment] += 1;
            slots[segment * 256 + (hash as usize & 255)] += 1;
        }
        let fullest = segments.iter().max().copied().unwrap_or(0);
        assert!(
            fullest < 2 * 256,
            "family {family}: a segment has {fullest} words"
        );
        // Uniform hashing leaves e^-1 of the slots empty (36.8%); fewer is more even.
        let empty = slots.iter().filter(|&&n| n == 0).count() as f64 / slots.len() as f64;
        assert!(empty < 0.41, "family {family}: {empty} empty");
    }
}

#[test]
fn colours_stay_with_their_words_across_growth_and_are_no_part_of_them() {
    const CYAN: u64 = 1 << COLOURS.trailing_zeros();
    const RED: u64 = COLOURS & !CYAN;
    let mut table = WordTable::coloured(0);
    assert_eq!(table.recolour(7, CYAN, 0), None, "not stored yet");
    for word in 0..20_000u64 {
        assert_eq!(insert(&mut table, &(), Some(word)), Lookup::New);
        if word % 3 == 0 {
            assert_eq!(table.recolour(word, CYAN, 0), Some(0));
        }
    }
    for word in 0..20_000u64 {
        let cyan = if word % 3 == 0 { CYAN } else { 0 };
        assert_eq!(table.colours_of(word), Some(cyan));
        // Met again, a word says its colours.
        let Lookup::Seen(Some(mark)) = insert(&mut table, &(), Some(word)) else {
            panic!("{word} is stored");
        };
        assert_eq!(colours_of_mark(mark), cyan);
        // Red unless cyan, in one lookup; then no longer cyan.
        assert_eq!(table.recolour_unless(word, RED, CYAN), Some(cyan));
        let before = if cyan != 0 { CYAN } else { RED };
        assert_eq!(table.recolour(word, 0, CYAN), Some(before));
    }
    assert_eq!(table.len(), 20_000);
    assert_eq!(table.colours_of(3), Some(0));
    assert_eq!(table.colours_of(4), Some(RED));
    assert_eq!(table.colours_of(20_000), None);
}

#[test]
fn a_coloured_table_stores_new_words_with_the_fresh_colours() {
    const CYAN: u64 = 1 << COLOURS.trailing_zeros();
    let mut table = WordTable::coloured(CYAN);
    for word in 0..5_000u64 {
        assert_eq!(insert(&mut table, &(), Some(word)), Lookup::New);
        assert_eq!(table.colours_of(word), Some(CYAN));
        if word % 2 == 0 {
            assert_eq!(table.recolour(word, 0, CYAN), Some(CYAN));
        }
    }
    for word in 0..5_000u64 {
        // Seen again, a word keeps the colours it has.
        assert!(matches!(
            insert(&mut table, &(), Some(word)),
            Lookup::Seen(_)
        ));
        let colours = if word % 2 == 0 { 0 } else { CYAN };
        assert_eq!(table.colours_of(word), Some(colours));
    }
}

#[test]
fn numbers_stay_with_their_words_across_growth() {
    // Numbers beside the words; in the bits above words of 20 bits; in the 14 bits
    // above words of 50 bits until number 16,383 moves them beside the words.
    for (word_bits, spills, slot_bytes) in [
        (None, false, 12),
        (Some(20), false, 8),
        (Some(50), true, 12),
    ] {
        let mut table = WordTable::numbered(false, word_bits);
        assert!(!table.set_number(7, 1), "not stored yet");
        assert_eq!(table.number(7), None);
        let words = 0..30_000u64;
        for word in words.clone() {
            let number = word as u32 + 1;
            assert_eq!(insert(&mut table, &(), Some(word * 3)), Lookup::New);
            assert_eq!(table.number(word * 3), Some(0), "a new word has number 0");
            let spill = table.spill_bytes(number);
            assert_eq!(spill.is_some(), spills && number == 16_383, "{word_bits:?}");
            assert_eq!(spill, spill.map(|_| table.slots * 4));
            assert!(table.set_number(word * 3, number));
        }
        for word in words.clone().step_by(2) {
            assert!(table.set_number(word * 3, 0));
        }
        for word in words {
            let number = if word % 2 == 0 { 0 } else { word as u32 + 1 };
            assert_eq!(table.number(word * 3), Some(number));
            // Met again, a word says its number.
            let again = insert(&mut table, &(), Some(word * 3));
            assert_eq!(again, Lookup::Seen(Some(number)));
        }
        assert_eq!(table.number(1), None);
        assert_eq!(table.len(), 30_000);
        assert_eq!(table.bytes(), table.slots * slot_bytes);
    }
    // Fingerprints fill their words: their numbers are beside them.
    assert_eq!(WordTable::numbered(true, Some(20)).in_words, 0);
    // A table without numbers stores words only.
    let mut plain = WordTable::new(0, false);
    insert(&mut plain, &(), Some(5));
    assert_eq!(plain.number(5), Some(0));
    assert!(!plain.set_number(5, 1));
    assert_eq!(insert(&mut plain, &(), Some(5)), Lookup::Seen(None));
}

#[test]
fn the_last_new_word_is_numbered_in_its_place_even_after_its_segment_grew() {
    for word_bits in [None, Some(40)] {
        let mut table = WordTable::numbered(false, word_bits);
        assert_eq!(insert(&mut table, &(), Some(42)), Lookup::New);
        let before = table.slots;
        // Words of 42's segment until it grows: 42 moves.
        let (segment, _) = WordTable::place(42);
        let mut word = 43;
        while table.slots == before {
            if WordTable::place(word).0 == segment {
                insert(&mut table, &(), Some(word));
            }
            word += 1;
        }
        assert!(table.set_number(42, 9));
        assert_eq!(table.number(42), Some(9));
        // The last word inserted, numbered without a second lookup.
        assert_eq!(insert(&mut table, &(), Some(7)), Lookup::New);
        assert!(table.set_number(7, 3));
        assert_eq!(table.number(7), Some(3));
        assert_eq!(table.number(42), Some(9));
    }
}

#[test]
fn growth_is_asked_for_and_bounded_by_one_segment() {
    let mut table = WordTable::new(0, false);
    let before = table.bytes();
    let mut asked = 0;
    for word in 0..100_000u64 {
        loop {
            match Store::<()>::insert(&mut table, &(), Some(word)) {
                Lookup::Full(growth) => {
                    assert!(growth.bytes <= table.largest * 16);
                    asked += 1;
                    Store::<()>::grow(&mut table, growth);
                }
                Lookup::New => break,
                other => panic!("{word} is new: {other:?}"),
            }
        }
    }
    assert!(asked > 0 && table.bytes() > before);
    assert_eq!(table.len(), 100_000);
}

#[test]
fn concurrent_inserts_store_each_word_once() {
    let set = SharedWords::new(0, false);
    let new: usize = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..2)
            .map(|_| {
                scope.spawn(|| {
                    let mut handle = SharedStore::<()>::handle(&set);
                    let mut new = 0;
                    for word in 0..200_000u64 {
                        new += usize::from(insert(&mut handle, &(), Some(word)) == Lookup::New);
                        if word % 64 == 0 {
                            Store::<()>::pause(&mut handle);
                        }
                    }
                    new
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap_or(0)).sum()
    });
    assert_eq!(new, 200_000, "each word is new to exactly one thread");
    assert_eq!(set.len(), 200_000);
    let mut handle = SharedStore::<()>::handle(&set);
    assert!((0..200_000u64).all(|w| Store::<()>::contains(&mut handle, &(), Some(w))));
}
