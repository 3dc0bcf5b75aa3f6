//! The canonical form of a state under a model's symmetry ([`SymmetryInfo`]): the least
//! image under the group, found by sorting each family's instances by a key no permutation
//! changes and trying only the permutations within blocks of equal keys.
//!
//! The group is the product of the families' groups, and one family's rows may hold
//! another's ids (a client's `server`, a server's `client`), so the families are
//! canonicalised together: the canonical form is the least image of a state under the whole
//! group, in an order that compares first each family's sequence of instance *keys* (what of
//! an instance no permutation of any family changes: its rows' values, with ids reduced to
//! "itself" or "another", how many slots of other families' rows name it, and which fixed
//! pid slots name it) and then every value. The least image therefore has every family's
//! keys sorted, so only the permutations that sort them are candidates: those within blocks
//! of equal keys, combined across the families. When no row of a family holds ids and no
//! other family's row names its instances, instances with equal keys have equal values and
//! nothing tells them apart, so one sorting permutation is the answer; otherwise the
//! combinations are tried, at most [`DEFAULT_CAP`] of them, the least image of those
//! tried being taken. A capped form is still in the state's orbit, so the search stays
//! sound, but two states of one orbit may then be stored apart (counts above the number of
//! orbits); the report says when that happened.
//!
//! Ids may be held at an offset (a lock's owner holds instances' global numbers, each
//! family's from where its instances start): a value is an id of a family when it lies in
//! that family's window, and a row or slot of global numbers may name instances of several
//! families, whose windows are disjoint. The tests hold the forms against the brute force
//! ([`SymmetryInfo::orbit`]) on random groups of two and three families, with ids relative
//! and at offsets.

use std::cmp::Ordering;
use std::ops::Range;

use crate::model::symmetry::{apply, is_permuted, next_permutation};
use crate::model::{FamilySymmetry, SymmetryInfo};

/// A model's symmetry prepared for canonicalising, once per search: which families act,
/// whose instance ids each of their rows holds, and how their keys are laid out.
#[derive(Clone, Debug)]
pub struct Group<'a> {
    info: &'a SymmetryInfo,
    families: Vec<Acting>,
}

/// A family whose group has more than one permutation, prepared.
#[derive(Clone, Debug)]
struct Acting {
    /// Its index in `SymmetryInfo::families`.
    index: usize,
    /// Per row: the acting families (positions in `Group::families`) whose ids the row
    /// holds, each with the offset it holds them at; the family's own first, if it holds
    /// those. A row holds several families' ids at disjoint offsets when its values are
    /// instances' global numbers (a lock's owner, in an array of locks).
    row_ids: Vec<Vec<(usize, i64)>>,
    /// Per pid slot: `Some(k)` when the slot is in a row of some family, so that it moves;
    /// its references are then counted at key position `2 * rows + k`.
    moving: Vec<Option<usize>>,
    /// How many distinct rows of other families hold its ids.
    moving_rows: usize,
}

impl Acting {
    /// True when instances with equal keys may still differ: the family's rows hold ids, or
    /// rows of another family name its instances. Otherwise equal keys mean equal rows that
    /// nothing tells apart, and one sorting permutation will do.
    fn ambiguous(&self) -> bool {
        self.moving_rows > 0 || self.row_ids.iter().any(|ids| !ids.is_empty())
    }
}

impl<'a> Group<'a> {
    /// The group of `info`, prepared for [`Canonicaliser::canonicalise`].
    pub(crate) fn new(info: &'a SymmetryInfo) -> Self {
        let acting: Vec<usize> = (0..info.families.len())
            .filter(|&i| info.families[i].acts())
            .collect();
        let ids_of = |slot: u32| {
            acting.iter().enumerate().filter_map(move |(g, &index)| {
                let family = &info.families[index];
                let i = family.pid_slots.iter().position(|&s| s == slot)?;
                Some((g, family.pid_offset(i)))
            })
        };
        let row_of = |slot: u32| {
            acting.iter().enumerate().find_map(|(g, &index)| {
                let family = &info.families[index];
                let at = family.rows.iter().position(|&s| s == slot)?;
                Some((g, at / family.instances as usize))
            })
        };
        let families = acting
            .iter()
            .enumerate()
            .map(|(f, &index)| {
                let family = &info.families[index];
                let row_ids = (0..family.row_count())
                    .map(|row| {
                        let own = family.row_pids[row].then(|| (f, family.row_offset(row)));
                        let others = ids_of(family.slot(row, 0) as u32).filter(|&(g, _)| g != f);
                        own.into_iter().chain(others).collect()
                    })
                    .collect();
                let mut rows = Vec::new();
                let moving: Vec<Option<usize>> = family
                    .pid_slots
                    .iter()
                    .map(|&slot| {
                        let row = row_of(slot)?;
                        Some(rows.iter().position(|&r| r == row).unwrap_or_else(|| {
                            rows.push(row);
                            rows.len() - 1
                        }))
                    })
                    .collect();
                Acting {
                    index,
                    row_ids,
                    moving,
                    moving_rows: rows.len(),
                }
            })
            .collect();
        Group { info, families }
    }
}

/// Computes canonical forms of decoded states, with buffers reused from call to call.
#[derive(Debug, Default)]
pub struct Canonicaliser {
    cap: usize,
    /// Per acting family: its instances' keys, a fixed stride per instance.
    keys: Vec<Vec<i64>>,
    /// Per acting family: its permuted instances, sorted by key, then walked within blocks.
    orders: Vec<Vec<u32>>,
    /// Per acting family: the runs of equal keys in `orders` whose permutations are tried.
    blocks: Vec<Vec<Range<usize>>>,
    /// Per acting family, `pi[p]`: where instance `p` goes.
    pis: Vec<Vec<u32>>,
    /// For the family whose blocks are being found: per instance, how many slots of the
    /// family's own id rows name it, in other instances' rows.
    named_in_rows: Vec<u32>,
    /// For the family whose keys are being written: per instance, the fixed pid slots
    /// that name it.
    refs: Vec<usize>,
    image: Vec<i64>,
    between: Vec<i64>,
    best: Vec<i64>,
}

/// The most permutations tried for one state by default.
pub const DEFAULT_CAP: usize = 5040;

impl Canonicaliser {
    /// A canonicaliser that tries at most [`DEFAULT_CAP`] permutations per state.
    pub fn new() -> Self {
        Canonicaliser {
            cap: DEFAULT_CAP,
            ..Canonicaliser::default()
        }
    }

    /// Tries at most `cap` (at least 1) permutations per state.
    #[cfg(test)]
    pub(crate) fn with_cap(mut self, cap: usize) -> Self {
        self.cap = cap.max(1);
        self
    }

    /// Replaces `values` (a decoded state) with its canonical form under `group`: the
    /// product of every family's group, minimised jointly, since one family's rows may hold
    /// another's ids. Returns false when there were more candidate permutations than the
    /// cap, so that the form may not be the least of the orbit (it is still in the orbit).
    pub fn canonicalise(&mut self, group: &Group, values: &mut [i64]) -> bool {
        let acting = group.families.len();
        if acting == 0 {
            return true;
        }
        for buffers in [&mut self.orders, &mut self.pis] {
            buffers.resize_with(acting, Vec::new);
        }
        self.keys.resize_with(acting, Vec::new);
        self.blocks.resize_with(acting, Vec::new);
        let mut search = false;
        for f in 0..acting {
            let stride = self.write_keys(group, f, values);
            let family = &group.info.families[group.families[f].index];
            let keys = &self.keys[f];
            let key = |p: u32| &keys[p as usize * stride..(p as usize + 1) * stride];
            let order = &mut self.orders[f];
            order.clear();
            order.extend(family.permuted.iter().copied());
            order.sort_by(|&a, &b| key(a).cmp(key(b)).then(a.cmp(&b)));
            let blocks = &mut self.blocks[f];
            blocks.clear();
            let acting_f = &group.families[f];
            if acting_f.ambiguous() {
                count_named_in_rows(group, f, values, &mut self.named_in_rows);
                let named = &self.named_in_rows;
                let mut start = 0;
                while start < order.len() {
                    let first = key(order[start]);
                    let len = order[start..]
                        .iter()
                        .take_while(|&&p| key(p) == first)
                        .count();
                    let members = &order[start..start + len];
                    if len > 1 && !interchangeable(acting_f, family, first, members, named) {
                        blocks.push(start..start + len);
                    }
                    start += len;
                }
            }
            search |= !blocks.is_empty();
            let pi = &mut self.pis[f];
            pi.clear();
            pi.extend(0..family.instances);
        }
        if !search {
            self.image_of_orders(group, values);
            values.copy_from_slice(&self.image);
            return true;
        }
        // Each block's instances start ascending; the blocks, the last family's last block
        // fastest, walk every combination like an odometer.
        let mut tried = 0;
        let mut has_best = false;
        loop {
            self.image_of_orders(group, values);
            if !has_best || self.image.as_slice().cmp(self.best.as_slice()) == Ordering::Less {
                std::mem::swap(&mut self.image, &mut self.best);
                has_best = true;
            }
            tried += 1;
            let advanced = self
                .orders
                .iter_mut()
                .zip(&self.blocks)
                .rev()
                .any(|(order, blocks)| {
                    blocks
                        .iter()
                        .rev()
                        .any(|block| next_permutation(&mut order[block.clone()]))
                });
            if !advanced || tried >= self.cap {
                values.copy_from_slice(&self.best);
                return !advanced;
            }
        }
    }

    /// `image`: `values` with every acting family's instance at sorted position `i` moved
    /// to that family's `permuted[i]`.
    fn image_of_orders(&mut self, group: &Group, values: &[i64]) {
        for (f, acting) in group.families.iter().enumerate() {
            let family = &group.info.families[acting.index];
            let pi = &mut self.pis[f];
            for (position, &instance) in self.orders[f].iter().enumerate() {
                pi[instance as usize] = family.permuted[position];
            }
            if f == 0 {
                apply(family, pi, values, &mut self.image);
            } else {
                std::mem::swap(&mut self.image, &mut self.between);
                apply(family, pi, &self.between, &mut self.image);
            }
        }
    }

    /// Writes the keys of acting family `f`'s instances into `keys[f]` and returns the
    /// stride. A key is what of an instance no permutation of any family changes: per row,
    /// its value when that is no permuted instance's id, else whether the id is the
    /// instance itself or another; then, per row of another family that holds its ids, how
    /// many of that row's slots name the instance; then how many fixed pid slots name it,
    /// and which. The list of those slots has room for as many as name any one permuted
    /// instance (only theirs are compared; a fixed instance's is cut there), so that a
    /// state whose fixed slots mostly name a fixed instance compares short keys.
    fn write_keys(&mut self, group: &Group, f: usize, values: &[i64]) -> usize {
        let acting = &group.families[f];
        let family = &group.info.families[acting.index];
        let n = family.instances as usize;
        let rows = family.row_count();
        let fixed_start = 2 * rows + acting.moving_rows;
        let instance_of =
            |i: usize, slot: u32| family.instance_of(values[slot as usize], family.pid_offset(i));
        let refs = &mut self.refs;
        refs.clear();
        refs.resize(n, 0);
        for (i, &slot) in family.pid_slots.iter().enumerate() {
            if let (None, Some(p)) = (acting.moving[i], instance_of(i, slot)) {
                refs[p] += 1;
            }
        }
        let most = family
            .permuted
            .iter()
            .map(|&p| refs[p as usize])
            .max()
            .unwrap_or(0);
        let stride = fixed_start + 1 + most;
        let keys = &mut self.keys[f];
        keys.clear();
        keys.resize(stride * n, i64::MAX);
        for p in 0..n {
            let key = &mut keys[p * stride..(p + 1) * stride];
            for (row, ids) in acting.row_ids.iter().enumerate() {
                let value = values[family.slot(row, p)];
                let ids_family = |g: usize| &group.info.families[group.families[g].index];
                let itself = matches!(ids.first(), Some(&(g, offset))
                    if g == f && value == offset + p as i64);
                let (tag, shown) = if itself {
                    (1, 0)
                } else if ids
                    .iter()
                    .any(|&(g, offset)| is_permuted(ids_family(g), value, offset))
                {
                    (2, 0)
                } else {
                    (0, value)
                };
                key[2 * row] = tag;
                key[2 * row + 1] = shown;
            }
            key[2 * rows..fixed_start].fill(0);
            key[fixed_start] = refs[p] as i64;
            refs[p] = 0;
        }
        // The slots, in order, into each instance's list; `refs` counts them again.
        for (i, &slot) in family.pid_slots.iter().enumerate() {
            let Some(p) = instance_of(i, slot) else {
                continue;
            };
            let key = &mut keys[p * stride..(p + 1) * stride];
            match acting.moving[i] {
                Some(k) => key[2 * rows + k] += 1,
                None => {
                    if refs[p] < most {
                        key[fixed_start + 1 + refs[p]] = i as i64;
                    }
                    refs[p] += 1;
                }
            }
        }
        stride
    }
}

/// Counts, per instance of acting family `f`, the slots of the family's own id rows that
/// name it in another instance's row: the references its key leaves out.
fn count_named_in_rows(group: &Group, f: usize, values: &[i64], named: &mut Vec<u32>) {
    let acting = &group.families[f];
    let family = &group.info.families[acting.index];
    let n = family.instances as usize;
    named.clear();
    named.resize(n, 0);
    for (row, ids) in acting.row_ids.iter().enumerate() {
        let Some(&(g, offset)) = ids.first() else {
            continue;
        };
        if g != f {
            continue;
        }
        for instance in 0..n {
            let value = values[family.slot(row, instance)];
            match family.instance_of(value, offset) {
                Some(p) if p != instance && is_permuted(family, value, offset) => named[p] += 1,
                _ => {}
            }
        }
    }
}

/// True when the instances of a block (equal keys `key`) can be permuted among themselves
/// without changing the image, so that no order of them need be tried: no slot anywhere
/// names any of them (the key's counts of references, and `named` for the family's own id
/// rows), and their rows hold no other instance's id (ids of their own are renamed alike).
/// Their rows are then equal value for value, and a permutation of them moves equal rows
/// onto each other.
fn interchangeable(
    acting: &Acting,
    family: &FamilySymmetry,
    key: &[i64],
    members: &[u32],
    named: &[u32],
) -> bool {
    let rows = family.row_count();
    let fixed_start = 2 * rows + acting.moving_rows;
    (0..rows).all(|row| key[2 * row] != 2)
        && key[2 * rows..=fixed_start].iter().all(|&count| count == 0)
        && members.iter().all(|&p| named[p as usize] == 0)
}

#[cfg(test)]
mod tests;
