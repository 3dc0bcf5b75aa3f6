//! The symmetry of a model: the group of instance permutations it is invariant under, as the
//! code generator found it ([`SymmetryInfo`]), and how a permutation acts on a decoded
//! state. The canonical form under the group is the search's (`search::reduce::canonical`).
//!
//! A permutation `π` of a family's instances acts on a decoded state: the values of each
//! *row* (an instance's status, its locals, its slot of an array indexed by instance ids)
//! move from instance `p` to instance `π(p)`, and every value that is an instance id of the
//! family (in a row that holds ids, or in a *pid slot* that stays in place, as `victim[l]`)
//! is renamed from `p` to `π(p)`; values outside `0..N` (a "nobody" of -1, say) stay. A row
//! or pid slot may hold the ids shifted by an *offset* `o` (instance `p` as `o + p`: a
//! lock's owner holds the global number of an instance among all the model's, whose
//! family starts at `o`; a `tid` holds it plus one): then `o + p` is renamed to `o + π(p)`,
//! and values outside `o..o + N` stay.
use std::borrow::Cow;

/// The symmetry of a model, found at compile time (see `docs/LANGUAGE.md`, "Symmetry").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SymmetryInfo {
    /// The families whose group is not trivial.
    pub families: Cow<'static, [FamilySymmetry]>,
    /// One sentence per family (`active [N]` or pool) of at least two instances: the group
    /// found for it, and why not a larger one.
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
        !self.families.iter().any(FamilySymmetry::acts)
    }

    /// Every image of `values` (a decoded state) under the group, found by trying every
    /// permutation: the brute force that tests hold the canonical forms against, for small
    /// groups only (the product of the families' factorials).
    pub fn orbit(&self, values: &[i64]) -> Vec<Vec<i64>> {
        let mut images = vec![values.to_vec()];
        for family in self.families.iter() {
            let mut order = family.permuted.to_vec();
            let mut next = Vec::new();
            loop {
                let mut pi: Vec<u32> = (0..family.instances).collect();
                for (&from, &to) in family.permuted.iter().zip(&order) {
                    pi[from as usize] = to;
                }
                for image in &images {
                    let mut out = Vec::new();
                    apply(family, &pi, image, &mut out);
                    next.push(out);
                }
                if !next_permutation(&mut order) {
                    break;
                }
            }
            images = next;
        }
        images.sort();
        images.dedup();
        images
    }

    /// The group in words: `all 6 permutations of P[1], P[2], P[3] (P[0] fixed)`, one
    /// clause per family.
    pub fn describe(&self) -> String {
        let clauses: Vec<String> = self
            .families
            .iter()
            .filter(|f| f.acts())
            .map(FamilySymmetry::describe)
            .collect();
        if clauses.is_empty() {
            "the trivial group".to_string()
        } else {
            clauses.join("; ")
        }
    }
}

/// The symmetry of one family (`active [N]`, or a pool `thread[k]` whose instances `tid`s
/// name, held at an offset): its instances in `permuted` may be permuted in every way; the
/// others stay fixed.
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
    /// Per row that holds the family's ids (`row_pids`), the offset they are held at:
    /// instance `p` as `offset + p`. Empty when every offset is 0.
    pub row_offsets: Cow<'static, [i64]>,
    /// Per pid slot (as `pid_slots` lists them), the offset its ids are held at. Empty when
    /// every offset is 0.
    pub pid_offsets: Cow<'static, [i64]>,
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

    /// True when the family's group has more than one permutation: it moves instances.
    pub fn acts(&self) -> bool {
        self.permuted.len() >= 2
    }

    /// The values of each instance that the family's permutations move: its rows.
    #[doc(hidden)]
    pub fn row_count(&self) -> usize {
        self.row_pids.len()
    }

    /// The slot of a decoded state holding row `row` of instance `instance`.
    #[doc(hidden)]
    pub fn slot(&self, row: usize, instance: usize) -> usize {
        self.rows[row * self.instances as usize + instance] as usize
    }

    /// The offset at which row `row` holds the family's ids (0 when it holds none).
    #[doc(hidden)]
    pub fn row_offset(&self, row: usize) -> i64 {
        self.row_offsets.get(row).copied().unwrap_or(0)
    }

    /// The offset at which the `i`-th pid slot holds the family's ids.
    #[doc(hidden)]
    pub fn pid_offset(&self, i: usize) -> i64 {
        self.pid_offsets.get(i).copied().unwrap_or(0)
    }

    /// The instance that `value`, an id held at `offset`, names; `None` when it names none
    /// of the family's.
    #[doc(hidden)]
    pub fn instance_of(&self, value: i64, offset: i64) -> Option<usize> {
        let p = usize::try_from(value.checked_sub(offset)?).ok()?;
        (p < self.instances as usize).then_some(p)
    }
}

/// True when `value`, an id held at `offset`, names an instance the family's group moves.
#[doc(hidden)]
pub fn is_permuted(family: &FamilySymmetry, value: i64, offset: i64) -> bool {
    family
        .instance_of(value, offset)
        .is_some_and(|p| family.permuted.binary_search(&(p as u32)).is_ok())
}

/// Writes into `image` the image of `values` under `pi` (instance `p` goes to `pi[p]`).
#[doc(hidden)]
pub fn apply(family: &FamilySymmetry, pi: &[u32], values: &[i64], image: &mut Vec<i64>) {
    let n = family.instances as usize;
    let rename = |value: i64, offset: i64| match family.instance_of(value, offset) {
        Some(p) => offset + i64::from(pi[p]),
        None => value,
    };
    image.clear();
    image.extend_from_slice(values);
    for row in 0..family.row_count() {
        let offset = family.row_offset(row);
        for p in 0..n {
            let value = values[family.slot(row, p)];
            let value = if family.row_pids[row] {
                rename(value, offset)
            } else {
                value
            };
            image[family.slot(row, pi[p] as usize)] = value;
        }
    }
    for (i, &slot) in family.pid_slots.iter().enumerate() {
        image[slot as usize] = rename(values[slot as usize], family.pid_offset(i));
    }
}

/// Rearranges `items` into the next permutation in lexicographic order; at the last one,
/// back to the first (ascending) and false.
#[doc(hidden)]
pub fn next_permutation(items: &mut [u32]) -> bool {
    let Some(i) = items.windows(2).rposition(|w| w[0] < w[1]) else {
        items.reverse();
        return false;
    };
    let j = items.iter().rposition(|&x| x > items[i]).unwrap_or(i + 1);
    items.swap(i, j);
    items[i + 1..].reverse();
    true
}
