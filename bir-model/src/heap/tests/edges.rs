//! Hand cases of the edges: what is written, long walks, ill-formed states, texts.
use super::*;

/// A state that counts its writes.
struct Counting {
    values: Vec<i64>,
    writes: Vec<u32>,
}

impl HeapSlots for Counting {
    fn heap_get(&self, slot: u32) -> i64 {
        self.values[slot as usize]
    }

    fn heap_set(&mut self, slot: u32, value: i64) {
        self.writes.push(slot);
        self.values[slot as usize] = value;
    }
}

#[test]
fn nothing_changes_nothing_is_written() {
    let (layout, mut state, [a, b]) = nodes(3);
    object(&layout, &mut state, 0, 1, &[5, 2]);
    object(&layout, &mut state, 0, 2, &[6, 1]);
    (state[a as usize], state[b as usize]) = (1, 2);
    for order in [HeapOrder::Canonical, HeapOrder::Allocation] {
        let mut counting = Counting {
            values: state.clone(),
            writes: Vec::new(),
        };
        assert!(!layout.collect(&mut counting, order));
        assert!(
            counting.writes.is_empty(),
            "{order:?}: {:?}",
            counting.writes
        );
    }
    // Garbage in a canonical heap: only the garbage's slots are written.
    object(&layout, &mut state, 0, 3, &[7, 3]);
    let mut counting = Counting {
        values: state,
        writes: Vec::new(),
    };
    assert!(layout.collect(&mut counting, HeapOrder::Canonical));
    let garbage = &layout.records[0];
    let mut expected = vec![garbage.live[2]];
    expected.extend(garbage.fields.iter().map(|f| f.slots[2]));
    counting.writes.sort_unstable();
    expected.sort_unstable();
    assert_eq!(counting.writes, expected);
}

/// A chain #k -> #k-1 -> ... -> #1 in each of `types` records of bound `bound`, the root at
/// type 0's #k, and object #n's `other` at the next type's #(k + 1 - n): the walk goes down
/// type 0's chain, then from its end down the next type's, and so on, as deep as there are
/// objects; in the three sizes of scratch (fixed small, fixed large, allocated).
fn chains(types: u32, bound: u32) {
    let mut builder = Builder::default();
    let root = builder.root(0);
    for r in 0..types {
        let next = (r + 1) % types;
        builder.record(
            "R",
            bound,
            &[refs("next", r), refs("other", next), data("v", 0)],
        );
    }
    let (layout, mut state) = builder.build();
    for r in 0..types {
        for n in 1..=bound as usize {
            let other = if r + 1 < types {
                (bound as usize + 1 - n) as i64
            } else {
                0
            };
            object(&layout, &mut state, r, n, &[n as i64 - 1, other, n as i64]);
        }
    }
    state[root as usize] = i64::from(bound);
    let collected = canonical(&layout, &state);
    for (r, record) in layout.records.iter().enumerate() {
        for j in 0..bound as usize {
            assert_eq!(collected[record.live[j] as usize], 1);
            let v = collected[record.fields[2].slots[j] as usize];
            assert_eq!(v, i64::from(bound) - j as i64, "type {r} object {j}");
        }
    }
    assert_eq!(canonical(&layout, &collected), collected);
}

#[test]
fn long_chains_in_every_size_of_scratch() {
    chains(1, 40);
    chains(1, 255);
    chains(5, 255);
}

#[test]
fn dangling_and_out_of_range_references_do_not_panic() {
    // a -> #2, which is dead; b holds 9, outside 0..=3; #3 is live garbage.
    let (layout, mut state, [a, b]) = nodes(3);
    object(&layout, &mut state, 0, 3, &[3, 0]);
    (state[a as usize], state[b as usize]) = (2, 9);
    let collected = canonical(&layout, &state);
    assert_eq!((collected[a as usize], collected[b as usize]), (1, 9));
    assert!(layout.describe(&collected).is_empty());
    let record = &layout.records[0];
    assert!(record.live.iter().all(|&s| collected[s as usize] == 0));
}

#[test]
fn texts_slots_and_checks() {
    let (layout, state, [a, b]) = nodes(2);
    assert_eq!(layout.reference_text(0, 0), "null");
    assert_eq!(layout.reference_text(0, 2), "Node#2");
    let owned: Vec<u32> = layout.owned_slots().collect();
    assert_eq!(owned.len(), 6);
    assert!(!layout.owns(a) && !layout.owns(b));
    assert!(owned.iter().all(|&s| layout.owns(s)));
    assert!(layout.describe(&state).is_empty());
    let named = layout.describe_with(&canonical(&layout, &state), |_, v| format!("<{v}>"));
    assert!(named.is_empty());

    let mut builder = Builder::default();
    builder.record("Empty", 1, &[]);
    builder.record("Flag", 1, &[data("on", 0)]);
    let (empty, mut state) = builder.build();
    object(&empty, &mut state, 0, 1, &[]);
    object(&empty, &mut state, 1, 1, &[1]);
    let described = empty.describe_with(&state, |_, v| (v == 1).to_string());
    assert_eq!(described, ["Empty#1 {}", "Flag#1 { on = true }"]);

    assert!(HeapLayout::EMPTY.is_empty() && !layout.is_empty());
    assert_eq!(HeapLayout::EMPTY.check(), Ok(()));
    HeapLayout::EMPTY.collect(&mut Vec::new(), HeapOrder::Canonical);
    let mut twice = layout.clone();
    twice.roots.to_mut()[1].slot = a;
    assert_eq!(twice.check(), Err(format!("slot {a} is named twice")));
    let mut unbounded = layout.clone();
    unbounded.records.to_mut()[0].bound = 0;
    assert!(unbounded.check().is_err());
}
