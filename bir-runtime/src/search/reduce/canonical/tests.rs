//! The canonical forms against the brute force: one per orbit, whatever the families.

use std::borrow::Cow;

use super::*;
use crate::model::FamilySymmetry;

/// Three instances, each with one row (a bit); no ids.
fn bits(n: u32) -> SymmetryInfo {
    SymmetryInfo {
        families: Cow::Owned(vec![FamilySymmetry {
            thread: Cow::Borrowed("T"),
            instances: n,
            permuted: Cow::Owned((0..n).collect()),
            rows: Cow::Owned((0..n).collect()),
            row_pids: Cow::Borrowed(&[false]),
            pid_slots: Cow::Borrowed(&[]),
            row_offsets: Cow::Borrowed(&[]),
            pid_offsets: Cow::Borrowed(&[]),
        }]),
        notes: Cow::Borrowed(&[]),
    }
}

#[test]
fn bits_sort() {
    let info = bits(3);
    let mut canon = Canonicaliser::new();
    let mut values = vec![1, 0, 1];
    assert!(canon.canonicalise(&Group::new(&info), &mut values));
    assert_eq!(values, [0, 1, 1]);
    assert_eq!(info.describe(), "all 6 permutations of T[0], T[1], T[2]");
}

/// Instances with a status row and a pid slot (a "victim") outside the rows; instance 0
/// fixed.
fn victim() -> SymmetryInfo {
    SymmetryInfo {
        families: Cow::Owned(vec![FamilySymmetry {
            thread: Cow::Borrowed("P"),
            instances: 3,
            permuted: Cow::Borrowed(&[1, 2]),
            // Slots 0..3: statuses; slot 3: the victim.
            rows: Cow::Borrowed(&[0, 1, 2]),
            row_pids: Cow::Borrowed(&[false]),
            pid_slots: Cow::Borrowed(&[3]),
            row_offsets: Cow::Borrowed(&[]),
            pid_offsets: Cow::Borrowed(&[]),
        }]),
        notes: Cow::Borrowed(&[]),
    }
}

#[test]
fn pid_slots_are_renamed_and_fixed_instances_stay() {
    let info = victim();
    assert_eq!(
        info.describe(),
        "all 2 permutations of P[1], P[2] (P[0] fixed)"
    );
    let mut canon = Canonicaliser::new();
    // P[1] and P[2] at status 0, the victim is P[1]: the named one sorts last (a key
    // with a reference is larger).
    let mut values = vec![5, 0, 0, 1];
    canon.canonicalise(&Group::new(&info), &mut values);
    assert_eq!(values, [5, 0, 0, 2]);
    let mut other = vec![5, 0, 0, 2];
    canon.canonicalise(&Group::new(&info), &mut other);
    assert_eq!(other, values);
    // The victim is the fixed instance: nothing moves.
    let mut values = vec![1, 3, 0, 0];
    canon.canonicalise(&Group::new(&info), &mut values);
    assert_eq!(values, [1, 0, 3, 0]);
}

#[test]
fn ids_in_rows_are_tried_within_blocks_and_the_least_image_kept() {
    // Each instance has a `next` pointer (a row of ids); a ring 0 -> 1 -> 2 -> 0 and
    // the ring 0 -> 2 -> 1 -> 0 are one orbit.
    let info = SymmetryInfo {
        families: Cow::Owned(vec![FamilySymmetry {
            thread: Cow::Borrowed("N"),
            instances: 3,
            permuted: Cow::Borrowed(&[0, 1, 2]),
            rows: Cow::Borrowed(&[0, 1, 2]),
            row_pids: Cow::Borrowed(&[true]),
            pid_slots: Cow::Borrowed(&[]),
            row_offsets: Cow::Borrowed(&[]),
            pid_offsets: Cow::Borrowed(&[]),
        }]),
        notes: Cow::Borrowed(&[]),
    };
    let mut canon = Canonicaliser::new();
    let mut a = vec![1, 2, 0];
    let mut b = vec![2, 0, 1];
    canon.canonicalise(&Group::new(&info), &mut a);
    canon.canonicalise(&Group::new(&info), &mut b);
    assert_eq!(a, b);
    assert_eq!(a, [1, 2, 0]);
    // With a cap of one permutation, the result is still in the orbit.
    let mut capped = Canonicaliser::new().with_cap(1);
    let mut c = vec![2, 0, 1];
    assert!(!capped.canonicalise(&Group::new(&info), &mut c));
    assert!(c == [1, 2, 0] || c == [2, 0, 1], "{c:?}");
}

#[test]
fn instances_that_nothing_names_are_not_permuted_among_themselves() {
    // Ten instances with a status (slots 0..10) and a `next` pointer (slots 10..20), each
    // pointing at itself; nine share status 0. No slot names any of the nine but itself,
    // so every order of them gives the same image: none is tried, and even a cap of one
    // permutation gives the least image.
    let info = SymmetryInfo {
        families: Cow::Owned(vec![FamilySymmetry {
            thread: Cow::Borrowed("N"),
            instances: 10,
            permuted: Cow::Owned((0..10).collect()),
            rows: Cow::Owned((0..20).collect()),
            row_pids: Cow::Borrowed(&[false, true]),
            pid_slots: Cow::Borrowed(&[]),
            row_offsets: Cow::Borrowed(&[]),
            pid_offsets: Cow::Borrowed(&[]),
        }]),
        notes: Cow::Borrowed(&[]),
    };
    let mut values: Vec<i64> = (0..10).map(|p| i64::from(p == 4)).collect();
    values.extend(0..10);
    let mut capped = Canonicaliser::new().with_cap(1);
    assert!(capped.canonicalise(&Group::new(&info), &mut values));
    let mut least: Vec<i64> = (0..10).map(|p| i64::from(p == 9)).collect();
    least.extend(0..10);
    assert_eq!(values, least);
    // Once one of them names another, the order of the eight alike matters again: 8!
    // orders pass the cap.
    let mut named: Vec<i64> = (0..10).map(|p| i64::from(p == 4)).collect();
    named.extend((0..10).map(|p| if p == 0 { 1 } else { p }));
    assert!(!capped.canonicalise(&Group::new(&info), &mut named));
}

#[test]
fn next_permutation_walks_every_order_once() {
    let mut items = [1, 2, 3];
    let mut seen = vec![items];
    while next_permutation(&mut items) {
        seen.push(items);
    }
    assert_eq!(seen.len(), 6);
    assert_eq!(items, [1, 2, 3]);
}

/// Every state over `domains` (slot `i` ranges over `domains[i]`).
fn states(domains: &[std::ops::Range<i64>]) -> Vec<Vec<i64>> {
    let mut all = vec![Vec::new()];
    for domain in domains {
        all = all
            .into_iter()
            .flat_map(|prefix: Vec<i64>| {
                domain.clone().map(move |v| {
                    let mut s = prefix.clone();
                    s.push(v);
                    s
                })
            })
            .collect();
    }
    all
}

/// Checks on every state over `domains` that the canonical form is one per orbit: the
/// same for every member, in the orbit, and found without reaching the cap.
fn assert_exact(info: &SymmetryInfo, domains: &[std::ops::Range<i64>]) {
    let group = Group::new(info);
    let mut canon = Canonicaliser::new();
    let mut seen = std::collections::HashSet::new();
    let mut forms = std::collections::HashSet::new();
    let mut orbits = 0;
    for state in states(domains) {
        if seen.contains(&state) {
            continue;
        }
        orbits += 1;
        let images = info.orbit(&state);
        let mut form = state.clone();
        assert!(canon.canonicalise(&group, &mut form), "capped");
        assert!(
            images.contains(&form),
            "{form:?} is not in the orbit of {state:?}"
        );
        for image in &images {
            let mut other = image.clone();
            canon.canonicalise(&group, &mut other);
            assert_eq!(
                other, form,
                "two forms for the orbit of {state:?} ({info:?})"
            );
        }
        seen.extend(images);
        forms.insert(form);
    }
    assert_eq!(forms.len(), orbits);
}

/// A family of `n` instances, every one permuted, with two rows that hold no ids.
fn family(name: &'static str, n: u32, rows: Vec<u32>, pid_slots: Vec<u32>) -> FamilySymmetry {
    FamilySymmetry {
        thread: Cow::Borrowed(name),
        instances: n,
        permuted: Cow::Owned((0..n).collect()),
        rows: Cow::Owned(rows),
        row_pids: Cow::Borrowed(&[false, false]),
        pid_slots: Cow::Owned(pid_slots),
        row_offsets: Cow::Borrowed(&[]),
        pid_offsets: Cow::Borrowed(&[]),
    }
}

#[test]
fn two_families_holding_each_others_ids() {
    // A[0..3].p holds B ids (slots 0..3), B[0..3].q holds A ids (slots 3..6), statuses
    // of A at 6..9, of B at 9..12.
    let info = SymmetryInfo {
        families: Cow::Owned(vec![
            family("A", 3, vec![6, 7, 8, 0, 1, 2], vec![3, 4, 5]),
            family("B", 3, vec![9, 10, 11, 3, 4, 5], vec![0, 1, 2]),
        ]),
        notes: Cow::Borrowed(&[]),
    };
    let mut domains = vec![0..3; 6];
    domains.extend(vec![0..2; 6]);
    assert_exact(&info, &domains);
}

/// A small deterministic generator (xorshift), so that failures reproduce.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// What a generated row holds.
#[derive(Clone, Copy)]
enum Holds {
    Plain,
    OwnIds,
    IdsOf(usize),
}

/// Random groups of two or three families whose rows hold plain values, their own ids
/// or another family's, some with a fixed instance or a fixed pid slot, each checked on
/// every state of a small domain.
#[test]
fn random_families_are_canonicalised_exactly() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut checked = 0;
    while checked < 40 {
        let count = 2 + rng.below(2) as usize;
        let sizes: Vec<u32> = (0..count).map(|_| 2 + rng.below(2) as u32).collect();
        let mut domains: Vec<std::ops::Range<i64>> = Vec::new();
        let mut rows: Vec<Vec<u32>> = vec![Vec::new(); count];
        let mut row_pids: Vec<Vec<bool>> = vec![Vec::new(); count];
        let mut pid_slots: Vec<Vec<u32>> = vec![Vec::new(); count];
        for f in 0..count {
            let n = sizes[f];
            for row in 0..1 + rng.below(3) {
                let holds = match (row, rng.below(3)) {
                    (0, _) | (_, 0) => Holds::Plain,
                    (_, 1) => Holds::OwnIds,
                    _ => Holds::IdsOf((f + 1 + rng.below(count as u64 - 1) as usize) % count),
                };
                for _ in 0..n {
                    let slot = domains.len() as u32;
                    rows[f].push(slot);
                    domains.push(match holds {
                        Holds::Plain => 0..2,
                        Holds::OwnIds => -1..i64::from(n),
                        Holds::IdsOf(g) => {
                            pid_slots[g].push(slot);
                            0..i64::from(sizes[g])
                        }
                    });
                }
                row_pids[f].push(matches!(holds, Holds::OwnIds));
            }
            if rng.below(3) == 0 {
                pid_slots[f].push(domains.len() as u32);
                domains.push(0..i64::from(n));
            }
        }
        let states: u64 = domains.iter().map(|d| (d.end - d.start) as u64).product();
        if states > 20_000 {
            continue;
        }
        let families = (0..count)
            .map(|f| FamilySymmetry {
                thread: Cow::Owned(format!("F{f}")),
                instances: sizes[f],
                permuted: Cow::Owned((rng.below(3) as u32 / 2..sizes[f]).collect()),
                rows: Cow::Owned(rows[f].clone()),
                row_pids: Cow::Owned(row_pids[f].clone()),
                pid_slots: Cow::Owned(pid_slots[f].clone()),
                row_offsets: Cow::Borrowed(&[]),
                pid_offsets: Cow::Borrowed(&[]),
            })
            .collect();
        let info = SymmetryInfo {
            families: Cow::Owned(families),
            notes: Cow::Borrowed(&[]),
        };
        assert_exact(&info, &domains);
        checked += 1;
    }
}

/// Random groups of two or three families numbered as a model numbers its instances
/// globally (each family from an offset, with other instances between them), whose rows
/// and pid slots hold global numbers — a lock's owner, per instance or shared — beside
/// plain values and relative ids, each checked on every state of a small domain.
#[test]
fn ids_held_at_offsets_are_canonicalised_exactly() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut checked = 0;
    while checked < 40 {
        let count = 2 + rng.below(2) as usize;
        let sizes: Vec<u32> = (0..count).map(|_| 2 + rng.below(2) as u32 / 2).collect();
        // Global numbers: each family after the previous one and maybe one other instance.
        let mut offsets = Vec::new();
        let mut total = 0i64;
        for &n in &sizes {
            total += rng.below(2) as i64;
            offsets.push(total);
            total += i64::from(n);
        }
        let mut domains: Vec<std::ops::Range<i64>> = Vec::new();
        let mut rows: Vec<Vec<u32>> = vec![Vec::new(); count];
        let mut row_pids: Vec<Vec<bool>> = vec![Vec::new(); count];
        let mut row_offsets: Vec<Vec<i64>> = vec![Vec::new(); count];
        let mut pid_slots: Vec<Vec<u32>> = vec![Vec::new(); count];
        let mut pid_offsets: Vec<Vec<i64>> = vec![Vec::new(); count];
        for f in 0..count {
            let n = sizes[f];
            for row in 0..1 + rng.below(3) {
                let kind = if row == 0 { 0 } else { rng.below(3) };
                for _ in 0..n {
                    let slot = domains.len() as u32;
                    rows[f].push(slot);
                    domains.push(match kind {
                        0 => 0..2,
                        1 => -1..i64::from(n),
                        _ => {
                            // Every other family's ids may be there too.
                            for g in (0..count).filter(|&g| g != f) {
                                pid_slots[g].push(slot);
                                pid_offsets[g].push(offsets[g]);
                            }
                            -1..total
                        }
                    });
                }
                row_pids[f].push(kind != 0);
                row_offsets[f].push(if kind == 2 { offsets[f] } else { 0 });
            }
        }
        // A shared lock's owner: any instance's global number.
        if rng.below(2) == 0 {
            let slot = domains.len() as u32;
            domains.push(-1..total);
            for g in 0..count {
                pid_slots[g].push(slot);
                pid_offsets[g].push(offsets[g]);
            }
        }
        let states: u64 = domains.iter().map(|d| (d.end - d.start) as u64).product();
        if states > 15_000 {
            continue;
        }
        let families = (0..count)
            .map(|f| FamilySymmetry {
                thread: Cow::Owned(format!("F{f}")),
                instances: sizes[f],
                permuted: Cow::Owned((rng.below(3) as u32 / 2..sizes[f]).collect()),
                rows: Cow::Owned(rows[f].clone()),
                row_pids: Cow::Owned(row_pids[f].clone()),
                pid_slots: Cow::Owned(pid_slots[f].clone()),
                row_offsets: Cow::Owned(row_offsets[f].clone()),
                pid_offsets: Cow::Owned(pid_offsets[f].clone()),
            })
            .collect();
        let info = SymmetryInfo {
            families: Cow::Owned(families),
            notes: Cow::Borrowed(&[]),
        };
        assert_exact(&info, &domains);
        checked += 1;
    }
}
