//! The canonical heap against brute force on small random layouts: a recursive reference
//! implementation of the walk, and the classes of raw states under every renaming of
//! object numbers.
use super::super::*;
use std::collections::BTreeSet;

/// SplitMix64: a small generator with a fixed seed, for reproducible layouts and states.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n`.
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A layout of 1-2 record types of bounds 1-3, with 0-2 reference fields and 0-1 data field
/// (values 0 and 1) in a random order, and 1-3 roots; its slots in a random order.
fn random_layout(rng: &mut Rng) -> (HeapLayout, usize) {
    let types = 1 + rng.below(2) as u32;
    let mut shapes = Vec::new();
    let mut slots = 0u32;
    for r in 0..types {
        let bound = 1 + rng.below(3) as u32;
        let mut fields: Vec<(Option<u32>, i64)> = Vec::new();
        for _ in 0..rng.below(3) {
            fields.push((Some(rng.below(u64::from(types)) as u32), 0));
        }
        if rng.below(2) == 1 {
            let at = rng.below(fields.len() as u64 + 1) as usize;
            fields.insert(at, (None, rng.below(2) as i64));
        }
        slots += bound * (1 + fields.len() as u32);
        shapes.push((r, bound, fields));
    }
    let roots = 1 + rng.below(3) as u32;
    slots += roots;
    // A random numbering of the slots.
    let mut order: Vec<u32> = (0..slots).collect();
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i as u64 + 1) as usize);
    }
    let mut next = order.into_iter();
    let mut take =
        |n: u32| -> Cow<'static, [u32]> { (0..n).map(|_| next.next().unwrap()).collect() };
    let records: Vec<RecordLayout> = shapes
        .iter()
        .map(|(r, bound, fields)| RecordLayout {
            name: format!("R{r}").into(),
            bound: *bound,
            live: take(*bound),
            fields: fields
                .iter()
                .enumerate()
                .map(|(i, &(refers, default))| FieldLayout {
                    name: format!("f{i}").into(),
                    element: None,
                    slots: take(*bound),
                    default,
                    refers,
                })
                .collect(),
        })
        .collect();
    let roots: Vec<HeapRoot> = (0..roots)
        .map(|_| HeapRoot {
            slot: take(1)[0],
            record: rng.below(u64::from(types)) as u32,
        })
        .collect();
    let layout = HeapLayout {
        records: records.into(),
        roots: roots.into(),
    };
    layout.check().unwrap();
    (layout, slots as usize)
}

/// The values a slot may hold in a well-formed state whose live objects are `live`
/// (`live[r][j]`): for a reference, null or a live object.
fn choices(live: &[Vec<bool>], refers: Option<u32>) -> Vec<i64> {
    match refers {
        Some(t) => std::iter::once(0)
            .chain(
                (0..live[t as usize].len())
                    .filter(|&j| live[t as usize][j])
                    .map(|j| j as i64 + 1),
            )
            .collect(),
        None => vec![0, 1],
    }
}

/// A well-formed state with the objects `live` alive: its free slots and their choices.
fn frame(
    layout: &HeapLayout,
    slots: usize,
    live: &[Vec<bool>],
) -> (Vec<i64>, Vec<(u32, Vec<i64>)>) {
    let mut state = vec![0; slots];
    let mut free = Vec::new();
    for (r, record) in layout.records.iter().enumerate() {
        for j in 0..record.bound as usize {
            state[record.live[j] as usize] = i64::from(live[r][j]);
            for field in record.fields.iter() {
                state[field.slots[j] as usize] = field.default;
                if live[r][j] {
                    free.push((field.slots[j], choices(live, field.refers)));
                }
            }
        }
    }
    for root in layout.roots.iter() {
        free.push((root.slot, choices(live, Some(root.record))));
    }
    (state, free)
}

fn live_sets(layout: &HeapLayout, mask: u64) -> Vec<Vec<bool>> {
    let mut bit = 0;
    let mut sets = Vec::new();
    for record in layout.records.iter() {
        sets.push(
            (0..record.bound)
                .map(|_| (mask >> bit & 1 == 1, bit += 1).0)
                .collect(),
        );
    }
    sets
}

/// Every well-formed state, when there are at most `limit`.
fn enumerate(layout: &HeapLayout, slots: usize, limit: usize) -> Option<Vec<Vec<i64>>> {
    let objects: u32 = layout.records.iter().map(|r| r.bound).sum();
    let mut out = Vec::new();
    for mask in 0..1u64 << objects {
        let (state, free) = frame(layout, slots, &live_sets(layout, mask));
        let count = free
            .iter()
            .try_fold(1usize, |n, (_, c)| n.checked_mul(c.len()))?;
        if out.len() + count > limit {
            return None;
        }
        for mut i in 0..count {
            let mut state = state.clone();
            for (slot, choices) in &free {
                state[*slot as usize] = choices[i % choices.len()];
                i /= choices.len();
            }
            out.push(state);
        }
    }
    Some(out)
}

/// `count` random well-formed states.
fn sample(layout: &HeapLayout, slots: usize, rng: &mut Rng, count: usize) -> Vec<Vec<i64>> {
    let objects: u32 = layout.records.iter().map(|r| r.bound).sum();
    (0..count)
        .map(|_| {
            let (mut state, free) =
                frame(layout, slots, &live_sets(layout, rng.below(1 << objects)));
            for (slot, choices) in free {
                state[slot as usize] = choices[rng.below(choices.len() as u64) as usize];
            }
            state
        })
        .collect()
}

/// The rules written the plain way: a recursive walk, and the collected state built anew.
fn reference(layout: &HeapLayout, state: &[i64], order: HeapOrder) -> Vec<i64> {
    fn visit(layout: &HeapLayout, state: &[i64], numbers: &mut [Vec<i64>], r: u32, v: i64) {
        let record = &layout.records[r as usize];
        if v == 0 || numbers[r as usize][v as usize - 1] != 0 {
            return;
        }
        let count = numbers[r as usize].iter().filter(|&&n| n != 0).count() as i64;
        numbers[r as usize][v as usize - 1] = count + 1;
        for field in record.fields.iter() {
            if let Some(t) = field.refers {
                visit(
                    layout,
                    state,
                    numbers,
                    t,
                    state[field.slots[v as usize - 1] as usize],
                );
            }
        }
    }
    let mut numbers: Vec<Vec<i64>> = layout
        .records
        .iter()
        .map(|r| vec![0; r.bound as usize])
        .collect();
    for root in layout.roots.iter() {
        visit(
            layout,
            state,
            &mut numbers,
            root.record,
            state[root.slot as usize],
        );
    }
    let mut out = state.to_vec();
    for (r, record) in layout.records.iter().enumerate() {
        for j in 0..record.bound as usize {
            let garbage = numbers[r][j] == 0 && state[record.live[j] as usize] != 0;
            if garbage || order == HeapOrder::Canonical {
                out[record.live[j] as usize] = 0;
                for field in record.fields.iter() {
                    out[field.slots[j] as usize] = field.default;
                }
            }
        }
    }
    if order == HeapOrder::Allocation {
        return out;
    }
    let renamed = |t: Option<u32>, v: i64| match t {
        Some(t) if v != 0 => numbers[t as usize][v as usize - 1],
        _ => v,
    };
    for (r, record) in layout.records.iter().enumerate() {
        for j in (0..record.bound as usize).filter(|&j| numbers[r][j] != 0) {
            let to = numbers[r][j] as usize - 1;
            out[record.live[to] as usize] = state[record.live[j] as usize];
            for field in record.fields.iter() {
                out[field.slots[to] as usize] =
                    renamed(field.refers, state[field.slots[j] as usize]);
            }
        }
    }
    for root in layout.roots.iter() {
        out[root.slot as usize] = renamed(Some(root.record), state[root.slot as usize]);
    }
    out
}

/// `state` with object `j` of each type `r` moved to `pi[r][j]`, and the references renamed.
fn rename(layout: &HeapLayout, state: &[i64], pi: &[Vec<usize>]) -> Vec<i64> {
    let renamed = |t: Option<u32>, v: i64| match t {
        Some(t) if v != 0 => pi[t as usize][v as usize - 1] as i64 + 1,
        _ => v,
    };
    let mut out = state.to_vec();
    for (r, record) in layout.records.iter().enumerate() {
        for j in 0..record.bound as usize {
            let to = pi[r][j];
            out[record.live[to] as usize] = state[record.live[j] as usize];
            for field in record.fields.iter() {
                out[field.slots[to] as usize] =
                    renamed(field.refers, state[field.slots[j] as usize]);
            }
        }
    }
    for root in layout.roots.iter() {
        out[root.slot as usize] = renamed(Some(root.record), state[root.slot as usize]);
    }
    out
}

/// Every renaming: per type, every permutation of its objects.
fn renamings(layout: &HeapLayout) -> Vec<Vec<Vec<usize>>> {
    let mut all = vec![Vec::new()];
    for record in layout.records.iter() {
        let mut order: Vec<u32> = (0..record.bound).collect();
        let mut perms = Vec::new();
        loop {
            perms.push(order.iter().map(|&x| x as usize).collect::<Vec<_>>());
            if !crate::symmetry::next_permutation(&mut order) {
                break;
            }
        }
        all = all
            .into_iter()
            .flat_map(|pi: Vec<Vec<usize>>| {
                perms.iter().map(move |p| {
                    let mut pi = pi.clone();
                    pi.push(p.clone());
                    pi
                })
            })
            .collect();
    }
    all
}

/// `state` collected, checking that `collect` says it wrote exactly when it changed it.
fn collected(layout: &HeapLayout, state: &[i64], order: HeapOrder) -> Vec<i64> {
    let mut out = state.to_vec();
    let wrote = layout.collect(&mut out, order);
    assert_eq!(wrote, out != state, "{layout:?}\n{state:?}");
    out
}

/// Checks every property on the states of one layout.
fn check_layout(layout: &HeapLayout, states: &[Vec<i64>]) {
    let renamings = renamings(layout);
    let mut classes = BTreeSet::new();
    let mut forms = BTreeSet::new();
    let mut pairs = BTreeSet::new();
    for state in states {
        let canonical = collected(layout, state, HeapOrder::Canonical);
        let allocation = collected(layout, state, HeapOrder::Allocation);
        // Garbage removed the plain way: the classes are counted on it.
        let swept = reference(layout, state, HeapOrder::Allocation);
        // The numbering of the recursive preorder walk.
        assert_eq!(
            canonical,
            reference(layout, state, HeapOrder::Canonical),
            "{layout:?}\n{state:?}"
        );
        assert_eq!(allocation, swept.clone(), "{layout:?}\n{state:?}");
        // (a) Idempotent.
        assert_eq!(
            collected(layout, &canonical, HeapOrder::Canonical),
            canonical
        );
        assert_eq!(
            collected(layout, &allocation, HeapOrder::Allocation),
            allocation
        );
        assert_eq!(
            collected(layout, &allocation, HeapOrder::Canonical),
            canonical
        );
        // (d) Live objects #1..=n, dead ones at their defaults.
        for record in layout.records.iter() {
            let live: Vec<bool> = record
                .live
                .iter()
                .map(|&s| canonical[s as usize] == 1)
                .collect();
            assert!(
                live.windows(2).all(|w| w[0] || !w[1]),
                "{layout:?}\n{canonical:?}"
            );
            for j in (0..record.bound as usize).filter(|&j| !live[j]) {
                assert_eq!(canonical[record.live[j] as usize], 0);
                for field in record.fields.iter() {
                    assert_eq!(canonical[field.slots[j] as usize], field.default);
                }
            }
        }
        // (b) The same canonical form for every renaming; and the class of the swept raw
        // state under renaming, as its least image.
        let mut class = swept.clone();
        for pi in &renamings {
            assert_eq!(
                collected(layout, &rename(layout, state, pi), HeapOrder::Canonical),
                canonical
            );
            class = class.min(rename(layout, &swept, pi));
        }
        pairs.insert((class.clone(), canonical.clone()));
        classes.insert(class);
        forms.insert(canonical);
    }
    // (c) Same canonical form iff isomorphic after garbage removal: classes and forms
    // correspond one to one.
    assert_eq!(classes.len(), pairs.len(), "{layout:?}");
    assert_eq!(forms.len(), pairs.len(), "{layout:?}");
}

#[test]
fn canonical_forms_are_the_classes_under_renaming() {
    let mut rng = Rng(0x5EED_0B1A);
    let (mut exhaustive, mut sampled, mut states) = (0, 0, 0);
    for _ in 0..100 {
        let (layout, slots) = random_layout(&mut rng);
        let all = match enumerate(&layout, slots, 1500) {
            Some(all) => {
                exhaustive += 1;
                all
            }
            None => {
                sampled += 1;
                sample(&layout, slots, &mut rng, 800)
            }
        };
        states += all.len();
        check_layout(&layout, &all);
    }
    assert!(exhaustive >= 30 && sampled >= 10, "{exhaustive} {sampled}");
    assert!(states > 30_000, "{states}");
}
