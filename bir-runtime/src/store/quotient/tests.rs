//! The quotient table's unit tests: its layout and arithmetic, and the set against the
//! plain one.

use super::bucket::mask;
use super::layout::{Divisor, PART_BITS};
use super::segment::{buckets_at, BLOCK, BLOCK_BITS};
use super::*;
use crate::store::tests::{insert, new_then_seen};
use crate::store::Store;

#[test]
fn the_permutation_is_a_bijection_of_each_width() {
    for width in [24, 31, 39, 47, 63] {
        for x in (0..5_000u64).map(|i| i.wrapping_mul(0x2545_f491_4f6c_dd1d) & mask(width)) {
            let layout = Layout::new(width);
            let y = layout.permute(x);
            assert!(y <= mask(width));
            assert_eq!(layout.unpermute(y), x, "width {width}");
        }
    }
}

#[test]
fn the_divisor_divides_every_part_exactly() {
    let mut n = 0x1234_5678_9abc_def1u64;
    for d in [
        1,
        2,
        3,
        7,
        64,
        1000,
        65_537,
        (1 << 40) + 3,
        1 << 55,
        (1 << 56) - 1,
    ] {
        let divisor = Divisor::new(d);
        let edges = [
            0,
            1,
            d - 1,
            d,
            d + 1,
            (1 << PART_BITS) - 1,
            (1 << PART_BITS) - d,
        ];
        for _ in 0..10_000 {
            n = n.wrapping_mul(0x2545_f491_4f6c_dd1d).wrapping_add(1);
            let part = n >> SEGMENT_BITS;
            assert_eq!(divisor.quotient(part), part / d, "{part} / {d}");
        }
        for part in edges.into_iter().filter(|&p| p < 1 << PART_BITS) {
            assert_eq!(divisor.quotient(part), part / d, "{part} / {d}");
        }
    }
}

#[test]
fn a_place_and_its_alternate_give_back_the_word() {
    let segment = Segment::new(37, 31);
    for z in (0..10_000u64).map(|i| i * 214_013 % (1 << 31)) {
        let place = segment.place(z);
        assert!(place.home < 37);
        let alt = segment.alternate(place.home, place.remainder);
        assert_ne!(alt, place.home);
        assert_eq!(segment.home_of(alt, place.remainder), place.home);
        assert_eq!(place.home * segment.range + place.remainder, z);
    }
}

#[test]
fn a_bucket_is_the_same_through_the_first_block_and_the_block_list() {
    // Three blocks: the first reached through `first`, the others through the list.
    let mut segment = Segment::new(2 * BLOCK + 5, 40);
    assert_eq!(segment.first_len, BLOCK);
    for b in 0..segment.buckets {
        let listed = &segment.blocks[(b >> BLOCK_BITS) as usize][(b & (BLOCK - 1)) as usize];
        assert!(std::ptr::eq(segment.bucket(b), listed));
    }
    let shape = segment.shape;
    segment.bucket_mut(3).push(6, shape);
    assert!(segment.blocks[0][3].holds(6, shape));
    assert_eq!(segment.take_blocks().len(), 3);
    assert_eq!(segment.first_len, 0);
    fn shared<T: Send + Sync>() {}
    shared::<QuotientTable>();
}

#[test]
fn a_compact_set_stores_each_word_once_across_growth() {
    let set = new_then_seen(QuotientTable::new());
    assert_eq!(set.len(), 10_002);
    assert_eq!(set.omission(10), None);
}

#[test]
fn every_word_comes_back_out_across_growth_and_widening() {
    let mut set = QuotientTable::new();
    let mut expected = Vec::new();
    // Narrow words first, then ever wider ones: the set widens several times.
    for i in 0..200_000u64 {
        let word = match i {
            0..=99_999 => i * 3,
            100_000..=149_999 => (i << 20) ^ 0xabc,
            _ => (i << 40) | i,
        };
        assert_eq!(insert(&mut set, &(), Some(word)), Lookup::New, "{word}");
        expected.push(word);
    }
    assert_eq!(set.layout.width, 58);
    assert_eq!(set.len(), expected.len());
    for &word in &expected {
        assert!(Store::<()>::contains(&mut set, &(), Some(word)), "{word}");
        assert_eq!(insert(&mut set, &(), Some(word)), Lookup::Seen(None));
    }
    assert!(!Store::<()>::contains(&mut set, &(), Some(1)));
    assert!(!Store::<()>::contains(&mut set, &(), Some(u64::MAX - 1)));
    let mut words = set.words();
    words.sort_unstable();
    expected.sort_unstable();
    assert_eq!(words, expected);
}

#[test]
fn the_staggered_sizes_are_growth_to_the_fractional_powers() {
    for generation in 0..60 {
        for index in 0..SEGMENTS {
            let exponent = f64::from(generation) + index as f64 / SEGMENTS as f64;
            let exact = (MIN_BUCKETS as f64 * GROWTH.powf(exponent)).ceil() as u64;
            let buckets = buckets_at(index, generation);
            // Equal but where the product lies within rounding of a whole number.
            assert!(buckets.abs_diff(exact) <= 1, "{index} {generation}");
            assert!(buckets >= MIN_BUCKETS);
        }
    }
    let equal = (0..SEGMENTS)
        .filter(|&i| {
            let exact = (MIN_BUCKETS as f64 * GROWTH.powf(20.0 + i as f64 / 256.0)).ceil();
            buckets_at(i, 20) == exact as u64
        })
        .count();
    assert_eq!(equal, SEGMENTS);
    assert_eq!(buckets_at(0, 0), MIN_BUCKETS);
    assert_eq!(buckets_at(0, 2), 4);
}

#[test]
fn dense_states_take_a_few_bytes_each() {
    // Half a million 39-bit words, as the philosophers' states: about 4 bytes each (3.9
    // at 2 million), half of a plain table's 8. Fewer would leave longer remainders.
    let mut set = QuotientTable::new();
    let n = 500_000u64;
    for i in 0..n {
        let word = (i.wrapping_mul(0x9e37_79b9) & mask(39)) | 1 << 38;
        insert(&mut set, &(), Some(word));
    }
    let per_state = set.bytes() as f64 / set.len() as f64;
    assert!(per_state < 4.5, "{per_state} bytes per state");
    assert_eq!(set.len() as u64, n);
}

#[test]
fn growth_is_asked_for_before_any_allocation() {
    let mut set = QuotientTable::new();
    assert_eq!(set.bytes(), 0);
    let Lookup::Full(growth) = Store::<()>::insert(&mut set, &(), Some(5)) else {
        panic!("an empty set has no room");
    };
    assert_eq!(set.bytes(), 0);
    Store::<()>::grow(&mut set, growth);
    assert!(set.bytes() > 0 && set.bytes() <= growth.bytes);
    assert_eq!(Store::<()>::insert(&mut set, &(), Some(5)), Lookup::New);
}
