//! The group of each family, once every class is known: what the class of its pids (and,
//! when it takes locks, the class of instances' global numbers; for a pool, the class of
//! tids) holds, which instances its constants and the initial values name, and the note
//! that says so.

use std::collections::BTreeMap;

use super::{Classes, Family, Holder, Node};
use crate::ir::{GlobalId, Scalar, ThreadId};

impl Classes<'_> {
    /// The symmetry of family `thread`, once every class is known.
    pub(super) fn family(&mut self, thread_id: ThreadId) -> Family {
        let thread = &self.system.threads[thread_id];
        let (name, n) = (thread.name.clone(), thread.instances());
        let index = self.node(Node::Index(thread_id));
        let class = self.find(index);
        let mut family = Family::fixed(thread_id, String::new());
        let pool = thread.is_pool();
        let why_not = self
            .why_not(class, thread_id, n, &mut family)
            .and_then(|mut fixed| {
                // The class of global numbers, when the family takes locks.
                let numbers = self
                    .nodes
                    .iter()
                    .position(|node| *node == Node::Instance(thread_id));
                if let Some(numbers) = numbers {
                    let numbers = self.find(numbers);
                    for (p, why) in self.why_not_global(numbers, thread_id, &mut family)? {
                        fixed.entry(p).or_insert(why);
                    }
                }
                if pool {
                    for (p, why) in self.why_not_tids(thread_id, &mut family)? {
                        fixed.entry(p).or_insert(why);
                    }
                }
                self.fix_unlike_starts(&family, &mut fixed);
                if pool {
                    self.pool_rule(&family, &mut fixed)?;
                }
                Ok(fixed)
            });
        match why_not {
            Err(why) => {
                family.note = format!("`{name}`: no symmetry: {why}");
                family.clear();
            }
            Ok(fixed) => {
                family.permuted = (0..n).filter(|p| !fixed.contains_key(p)).collect();
                let reasons: Vec<String> = fixed
                    .iter()
                    .map(|(p, why)| format!("{name}[{p}] fixed: {why}"))
                    .collect();
                family.note = if reasons.is_empty() {
                    format!("`{name}`: every permutation of its {n} instances")
                } else if family.permuted.len() < 2 {
                    format!("`{name}`: no symmetry: {}", reasons.join("; "))
                } else {
                    format!(
                        "`{name}`: the permutations of {} of its {n} instances; {}",
                        family.permuted.len(),
                        reasons.join("; ")
                    )
                };
            }
        }
        family
    }

    /// Checks that the class of family `thread`'s pids is used only as a permutation
    /// preserves, filling in the arrays and variables of the class; returns the instances
    /// the group must fix, with the reason for each, or why there is no symmetry.
    fn why_not(
        &mut self,
        class: usize,
        thread: ThreadId,
        n: u32,
        family: &mut Family,
    ) -> Result<BTreeMap<u32, String>, String> {
        if let Some(why) = &self.facts[class].tainted {
            return Err(why.clone());
        }
        let holds_pids = |scalar: Scalar| matches!(scalar, Scalar::Int { lo, hi, .. } if lo <= 0 && hi >= i64::from(n) - 1);
        for i in 0..self.nodes.len() {
            if self.find(i) != class {
                continue;
            }
            match self.nodes[i] {
                Node::Index(other) if other != thread => {
                    return Err(format!(
                        "its instance indices mix with those of `{}`",
                        self.thread_name(other)
                    ))
                }
                Node::Instance(_) => {
                    return Err(
                        "its instance indices mix with instances' global numbers".to_string()
                    )
                }
                Node::Tid => return Err("its instance indices mix with `tid`s".to_string()),
                Node::Index(_) | Node::Quant(_) => {}
                Node::Message(channel, field) => {
                    let hidden = &self.system.hidden.channels[channel as usize];
                    if !hidden.fields.get(field).is_some_and(|&f| holds_pids(f)) {
                        return Err(format!(
                            "the messages of `{}` carry instance indices but the type of \
                             field {} does not hold all {n}",
                            hidden.name,
                            field + 1
                        ));
                    }
                }
                Node::Var(holder) => {
                    let var = match holder {
                        Holder::Global(id) => &self.system.globals[id],
                        Holder::Local(t, l) => &self.system.threads[t].locals[l],
                    };
                    if !holds_pids(var.ty.scalar) {
                        return Err(format!(
                            "`{}` holds instance indices but its type does not hold all {n}",
                            self.holder_name(holder)
                        ));
                    }
                    match holder {
                        Holder::Global(id) => family.pid_globals.push(id),
                        Holder::Local(t, l) => family.pid_locals.push((t, l)),
                    }
                }
                Node::Positions(Holder::Global(id)) => {
                    let var = &self.system.globals[id];
                    // The message slots of an array of N channels: `k` per channel.
                    let channel = self.system.hidden.channel_of(id);
                    let strided = channel
                        .map(|c| &self.system.hidden.channels[c])
                        .filter(|c| c.length != id && c.len == Some(n));
                    if let Some(channel) = strided {
                        family.strided.push((id, channel.capacity));
                        continue;
                    }
                    if var.ty.len != Some(n) {
                        return Err(format!(
                            "`{}` is indexed by instance indices but has {} elements, not {n}",
                            var.name,
                            var.ty.elements()
                        ));
                    }
                    family.indexed.push(id);
                }
                Node::Positions(holder) => {
                    return Err(format!(
                        "the local array `{}` is indexed by instance indices (not supported)",
                        self.holder_name(holder)
                    ))
                }
            }
        }
        for q in 0..self.quantifiers.len() {
            let node = self.quantifiers[q].node;
            if self.find(node) != class {
                continue;
            }
            let quantifier = &self.quantifiers[q];
            if quantifier.range != (0, i64::from(n)) {
                return Err(format!(
                    "a quantifier over instance indices ranges over {} .. {}, not over all \
                     {n} instances ({})",
                    quantifier.range.0, quantifier.range.1, quantifier.place
                ));
            }
            if quantifier.may_fault {
                return Err(format!(
                    "the body of a quantifier over instances may fault, and the order of \
                     evaluation would decide which instance faults first ({})",
                    quantifier.place
                ));
            }
        }
        let mut fixed = BTreeMap::new();
        for (&value, place) in &self.facts[class].constants {
            if let Ok(p) = u32::try_from(value) {
                if p < n {
                    fixed.insert(p, format!("the constant {value} in {place} names it"));
                }
            }
        }
        Ok(fixed)
    }

    /// Fixes the instances whose elements of the arrays that move with the instances start
    /// at other values than most instances' do.
    fn fix_unlike_starts(&self, family: &Family, fixed: &mut BTreeMap<u32, String>) {
        let n = self.system.threads[family.thread].instances();
        let init = |g: GlobalId, element: u32| {
            self.system.globals[g]
                .init
                .get(element as usize)
                .copied()
                .unwrap_or(0)
        };
        let start = |p: u32| -> Vec<i64> {
            let indexed = family.indexed.iter().map(|&g| init(g, p));
            let strided = family
                .strided
                .iter()
                .flat_map(|&(g, k)| (p * k..(p + 1) * k).map(move |e| init(g, e)));
            let windows = family.windows.iter().map(|&(g, first)| init(g, first + p));
            indexed.chain(strided).chain(windows).collect()
        };
        let mut counts: BTreeMap<Vec<i64>, u32> = BTreeMap::new();
        for p in (0..n).filter(|p| !fixed.contains_key(p)) {
            *counts.entry(start(p)).or_default() += 1;
        }
        if let Some((common, _)) = counts.iter().max_by_key(|(_, count)| **count) {
            let common = common.clone();
            for p in 0..n {
                if !fixed.contains_key(&p) && start(p) != common {
                    fixed.insert(
                        p,
                        "its elements of the arrays indexed by instance start at other values"
                            .to_string(),
                    );
                }
            }
        }
    }
}
