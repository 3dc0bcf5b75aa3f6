//! Symmetry reduction: the group of instance permutations a model is invariant under, as the
//! code generator found it ([`SymmetryInfo`]), and the canonical form of a state under it
//! ([`Canonicaliser`]).
//!
//! A permutation `π` of a family's instances acts on a decoded state: the values of each
//! *row* (an instance's status, its locals, its slot of an array indexed by instance ids)
//! move from instance `p` to instance `π(p)`, and every value that is an instance id of the
//! family (in a row that holds ids, or in a *pid slot* that stays in place, as `victim[l]`)
//! is renamed from `p` to `π(p)`; values outside `0..N` (a "nobody" of -1, say) stay.
//!
//! The canonical form is the least image of a state under the group, in an order that
//! compares first the sequence of the instances' *keys* (what of an instance does not depend
//! on the names of the others: its rows' values, and which fixed pid slots name it) and then
//! every value. The least image therefore has its keys sorted, so only the permutations that
//! sort them are candidates: those within blocks of equal keys. When no row holds instance
//! ids, instances with equal keys have equal values and no slot names them, so one sorting
//! permutation is the answer; otherwise the permutations within the blocks are tried, at
//! most [`Canonicaliser::cap`] of them, the least image of those tried being taken. A capped
//! form is still in the state's orbit, so the search stays sound, but two states of one orbit
//! may then be stored apart (counts above the number of orbits); the report says when that
//! happened.

use std::borrow::Cow;
use std::cmp::Ordering;

/// The symmetry of a model, found at compile time (see `docs/LANGUAGE.md`, "Symmetry").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SymmetryInfo {
    /// The families whose group is not trivial.
    pub families: Cow<'static, [FamilySymmetry]>,
    /// One sentence per `active [N]` family of at least two instances: the group found for
    /// it, and why not a larger one.
    pub notes: Cow<'static, [Cow<'static, str>]>,
}

impl SymmetryInfo {
    /// No symmetry, with nothing to say.
    pub const NONE: SymmetryInfo = SymmetryInfo {
        families: Cow::Borrowed(&[]),
        notes: Cow::Borrowed(&[]),
    };

    /// True when some family has a group of more than one permutation.
    pub fn is_trivial(&self) -> bool {
        self.families.iter().all(|f| f.permuted.len() < 2)
    }

    /// The group in words: `all 6 permutations of P[1], P[2], P[3] (P[0] fixed)`, one
    /// clause per family.
    pub fn describe(&self) -> String {
        let clauses: Vec<String> = self
            .families
            .iter()
            .filter(|f| f.permuted.len() >= 2)
            .map(FamilySymmetry::describe)
            .collect();
        if clauses.is_empty() {
            "the trivial group".to_string()
        } else {
            clauses.join("; ")
        }
    }
}

/// The symmetry of one `active [N]` family: its instances in `permuted` may be permuted in
/// every way; the others stay fixed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FamilySymmetry {
    /// The thread's name.
    pub thread: Cow<'static, str>,
    /// Its number of instances `N`.
    pub instances: u32,
    /// The instance indices the group permutes, ascending.
    pub permuted: Cow<'static, [u32]>,
    /// The slots (indices into `ModelInfo::slots`) that move with the instances: row `r`
    /// of instance `p` is `rows[r * instances + p]`.
    pub rows: Cow<'static, [u32]>,
    /// Per row, whether its values are instance indices of this family (renamed).
    pub row_pids: Cow<'static, [bool]>,
    /// The slots that stay in place but hold instance indices of this family (renamed).
    pub pid_slots: Cow<'static, [u32]>,
}

impl FamilySymmetry {
    /// `all 6 permutations of P[1], P[2], P[3] (P[0] fixed)`.
    pub fn describe(&self) -> String {
        let names = |ids: &mut dyn Iterator<Item = u32>| {
            ids.map(|p| format!("{}[{p}]", self.thread))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let count = (1..=self.permuted.len() as u64)
            .try_fold(1u64, |acc, k| acc.checked_mul(k))
            .map_or_else(|| "all".to_string(), |n| format!("all {n}"));
        let mut text = format!(
            "{count} permutations of {}",
            names(&mut self.permuted.iter().copied())
        );
        let mut fixed = (0..self.instances).filter(|p| !self.permuted.contains(p));
        if let Some(first) = fixed.next() {
            let rest = names(&mut std::iter::once(first).chain(fixed));
            text.push_str(&format!(" ({rest} fixed)"));
        }
        text
    }

    fn row_count(&self) -> usize {
        self.row_pids.len()
    }

    fn slot(&self, row: usize, instance: usize) -> usize {
        self.rows[row * self.instances as usize + instance] as usize
    }
}

/// Computes canonical forms of decoded states, with buffers reused from call to call.
#[derive(Debug, Default)]
pub struct Canonicaliser {
    cap: usize,
    keys: Vec<i64>,
    order: Vec<u32>,
    /// `pi[p]`: where instance `p` goes.
    pi: Vec<u32>,
    image: Vec<i64>,
    best: Vec<i64>,
}

/// The most permutations tried for one state by default.
pub const DEFAULT_CAP: usize = 5040;

impl Canonicaliser {
    /// A canonicaliser that tries at most [`DEFAULT_CAP`] permutations per state.
    pub fn new() -> Self {
        Canonicaliser {
            cap: DEFAULT_CAP,
            keys: Vec::new(),
            order: Vec::new(),
            pi: Vec::new(),
            image: Vec::new(),
            best: Vec::new(),
        }
    }

    /// Tries at most `cap` (at least 1) permutations per state and family.
    pub fn with_cap(mut self, cap: usize) -> Self {
        self.cap = cap.max(1);
        self
    }

    /// The most permutations tried per state and family.
    pub fn cap(&self) -> usize {
        self.cap
    }

    /// Replaces `values` (a decoded state) with its canonical form under the group of
    /// `info`. Returns false when some family had more candidate permutations than the
    /// cap, so that the form may not be the least of the orbit (it is still in the orbit).
    pub fn canonicalise(&mut self, info: &SymmetryInfo, values: &mut [i64]) -> bool {
        let mut exact = true;
        for family in info.families.iter() {
            if family.permuted.len() >= 2 {
                exact &= self.family(family, values);
            }
        }
        exact
    }

    /// Canonicalises one family's part of `values`; false when capped.
    fn family(&mut self, family: &FamilySymmetry, values: &mut [i64]) -> bool {
        let n = family.instances as usize;
        let stride = self.write_keys(family, values);
        let keys = &self.keys;
        let key = |p: u32| &keys[p as usize * stride..(p as usize + 1) * stride];
        self.order.clear();
        self.order.extend(family.permuted.iter().copied());
        self.order
            .sort_by(|&a, &b| key(a).cmp(key(b)).then(a.cmp(&b)));
        let ids_in_rows = family.row_pids.contains(&true);
        let mut blocks = Vec::new();
        if ids_in_rows {
            let mut start = 0;
            while start < self.order.len() {
                let first = key(self.order[start]);
                let len = self.order[start..]
                    .iter()
                    .take_while(|&&p| key(p) == first)
                    .count();
                if len > 1 {
                    blocks.push(start..start + len);
                }
                start += len;
            }
        }
        self.pi.clear();
        self.pi.extend(0..n as u32);
        if blocks.is_empty() {
            self.set_pi(family);
            apply(family, &self.pi, values, &mut self.image);
            values.copy_from_slice(&self.image);
            return true;
        }
        // Each block's instances start ascending; `next_permutation` walks them all.
        let mut tried = 0;
        let mut has_best = false;
        loop {
            self.set_pi(family);
            apply(family, &self.pi, values, &mut self.image);
            if !has_best || self.image.as_slice().cmp(self.best.as_slice()) == Ordering::Less {
                std::mem::swap(&mut self.image, &mut self.best);
                has_best = true;
            }
            tried += 1;
            let mut advanced = false;
            for block in blocks.iter().rev() {
                if next_permutation(&mut self.order[block.clone()]) {
                    advanced = true;
                    break;
                }
            }
            if !advanced {
                values.copy_from_slice(&self.best);
                return true;
            }
            if tried >= self.cap {
                values.copy_from_slice(&self.best);
                return false;
            }
        }
    }

    /// `pi` from `order`: the instance at sorted position `i` goes to `permuted[i]`.
    fn set_pi(&mut self, family: &FamilySymmetry) {
        for (position, &instance) in self.order.iter().enumerate() {
            self.pi[instance as usize] = family.permuted[position];
        }
    }

    /// Writes each instance's key into `keys` (a fixed stride per instance) and returns the
    /// stride. The key: the values of the rows that hold no ids; per row that holds ids,
    /// what its value is regardless of names (outside the family or a fixed instance: that
    /// value; the instance itself; another permuted instance); then how many fixed pid slots
    /// name the instance, and which.
    fn write_keys(&mut self, family: &FamilySymmetry, values: &[i64]) -> usize {
        let n = family.instances as usize;
        let rows = family.row_count();
        let stride = 2 * rows + 1 + family.pid_slots.len();
        self.keys.clear();
        self.keys.resize(stride * n, i64::MAX);
        for p in 0..n {
            let key = &mut self.keys[p * stride..(p + 1) * stride];
            for row in 0..rows {
                let value = values[family.slot(row, p)];
                let (tag, shown) = if !family.row_pids[row] {
                    (0, value)
                } else if value == p as i64 {
                    (1, 0)
                } else if is_permuted(family, value) {
                    (2, 0)
                } else {
                    (0, value)
                };
                key[2 * row] = tag;
                key[2 * row + 1] = shown;
            }
            let mut refs = 0;
            for (i, &slot) in family.pid_slots.iter().enumerate() {
                if values[slot as usize] == p as i64 {
                    key[2 * rows + 1 + refs] = i as i64;
                    refs += 1;
                }
            }
            key[2 * rows] = refs as i64;
        }
        stride
    }
}

/// True when `value` is the index of an instance the family's group moves.
fn is_permuted(family: &FamilySymmetry, value: i64) -> bool {
    u32::try_from(value).is_ok_and(|v| family.permuted.binary_search(&v).is_ok())
}

/// Writes into `image` the image of `values` under `pi` (instance `p` goes to `pi[p]`).
fn apply(family: &FamilySymmetry, pi: &[u32], values: &[i64], image: &mut Vec<i64>) {
    let n = family.instances as usize;
    let rename = |value: i64| match usize::try_from(value) {
        Ok(p) if p < n => i64::from(pi[p]),
        _ => value,
    };
    image.clear();
    image.extend_from_slice(values);
    for row in 0..family.row_count() {
        for p in 0..n {
            let value = values[family.slot(row, p)];
            let value = if family.row_pids[row] {
                rename(value)
            } else {
                value
            };
            image[family.slot(row, pi[p] as usize)] = value;
        }
    }
    for &slot in family.pid_slots.iter() {
        image[slot as usize] = rename(values[slot as usize]);
    }
}

/// Rearranges `items` into the next permutation in lexicographic order; at the last one,
/// back to the first (ascending) and false.
fn next_permutation(items: &mut [u32]) -> bool {
    let Some(i) = items.windows(2).rposition(|w| w[0] < w[1]) else {
        items.reverse();
        return false;
    };
    let j = items.iter().rposition(|&x| x > items[i]).unwrap_or(i + 1);
    items.swap(i, j);
    items[i + 1..].reverse();
    true
}

#[cfg(test)]
mod tests {
    use super::*;

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
            }]),
            notes: Cow::Borrowed(&[]),
        }
    }

    #[test]
    fn bits_sort() {
        let info = bits(3);
        let mut canon = Canonicaliser::new();
        let mut values = vec![1, 0, 1];
        assert!(canon.canonicalise(&info, &mut values));
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
        canon.canonicalise(&info, &mut values);
        assert_eq!(values, [5, 0, 0, 2]);
        let mut other = vec![5, 0, 0, 2];
        canon.canonicalise(&info, &mut other);
        assert_eq!(other, values);
        // The victim is the fixed instance: nothing moves.
        let mut values = vec![1, 3, 0, 0];
        canon.canonicalise(&info, &mut values);
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
            }]),
            notes: Cow::Borrowed(&[]),
        };
        let mut canon = Canonicaliser::new();
        let mut a = vec![1, 2, 0];
        let mut b = vec![2, 0, 1];
        canon.canonicalise(&info, &mut a);
        canon.canonicalise(&info, &mut b);
        assert_eq!(a, b);
        assert_eq!(a, [1, 2, 0]);
        // With a cap of one permutation, the result is still in the orbit.
        let mut capped = Canonicaliser::new().with_cap(1);
        let mut c = vec![2, 0, 1];
        assert!(!capped.canonicalise(&info, &mut c));
        assert!(c == [1, 2, 0] || c == [2, 0, 1], "{c:?}");
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
}
