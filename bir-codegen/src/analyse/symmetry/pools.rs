//! Pools (`thread[k] W`) in the unification: the `tid`s that name their instances, and the
//! rule that makes `start`'s choice of the lowest free instance harmless.
//!
//! - Every place of type `tid` (a global, a local of any thread, a channel's message slots
//!   or a rendezvous message's field) and what `start` yields share one class,
//!   [`Node::Tid`]: the checker keeps tids apart from ints, so they are only copied,
//!   compared with `==` and `!=` (`null` is 0 and names no instance), passed and sent.
//!   A pool's instance `p` is the tid `first + p + 1` (`first` its global number), so each
//!   pool's tids are a window of the class, renamed within it as a lock's owners are.
//! - `threadTerminated(t)` is translated by the checker into `t == 0 || (t == c &&
//!   !(W[i]@l0 || ...)) || ...` over every instance of every started thread, whose
//!   constants would each name an instance. Read whole, the disjunction is invariant
//!   under a permutation of a pool's instances that renames `t` alike, so it is recognised
//!   ([`Classes::thread_terminated`]) and only `t` joins the class.
//! - Rule, `start` takes the free instance of lowest index. A permutation `π` of the
//!   instances is then no automorphism of the transition relation (in `π(s)` the lowest
//!   free instance may be another than `π` of the one `s` starts), but it is one up to
//!   orbit: if every free instance is in one reset state that nothing else names, any two
//!   free permuted instances `f`, `g` are swapped by the transposition `(f g)`, which fixes
//!   the state, so starting either gives successors of one orbit. Freeing resets an
//!   instance's locals, status and wait marks, nulls every tid naming it and leaves its
//!   locks to no instance, and before their first start the instances are alike; what it
//!   does not reset is an element of an array indexed by the pool's instance indices
//!   (from `W[k]@l` in a quantifier with `a[k]`), so such an array refuses the symmetry.
//!   The swap must also stay in the group: with `W[i]` fixed (a property on `W[i]@l`),
//!   the lowest free instance of `π(s)` could be `W[i]` where `s`'s was a permuted one
//!   below it, so every instance below a fixed one is fixed too, and the group permutes
//!   the instances above the highest fixed one. The reduced search therefore stores one
//!   state per orbit of the reachable states (an orbit's members need not all be
//!   reachable: `start` never leaves `W[0]` free and `W[1]` running), and a counterexample
//!   is replayed concretely from the initial state, each step choosing a transition whose
//!   successor lies in the stored orbit.

use std::collections::{BTreeMap, BTreeSet};

use super::{Classes, Family, Holder, Node, Val};
use crate::ir::{CmpOp, Expr, Scalar, ThreadId};

impl Classes<'_> {
    /// A place of type `scalar` held at `node`: a `tid` place joins the class of tids.
    pub(super) fn tid_place(&mut self, node: usize, scalar: Scalar) {
        if matches!(scalar, Scalar::Tid { .. }) {
            let tid = self.node(Node::Tid);
            self.union(tid, node);
        }
    }

    /// `expr` when it is the checker's translation of `threadTerminated(t)` over every
    /// instance of each pool it names: `t` is walked and joins the class of tids, and the
    /// constants that name instances are left out. `None` for any other expression.
    pub(super) fn thread_terminated(&mut self, expr: &Expr) -> Option<Val> {
        let Expr::Or(..) = expr else {
            return None;
        };
        let mut terms = Vec::new();
        let mut base = expr;
        while let Expr::Or(lhs, rhs) = base {
            terms.push(&**rhs);
            base = lhs;
        }
        let Expr::Cmp {
            op: CmpOp::Eq,
            lhs: operand,
            rhs,
        } = base
        else {
            return None;
        };
        if !matches!(**rhs, Expr::Int(0)) {
            return None;
        }
        let same = format!("{operand:?}");
        let mut named: BTreeMap<ThreadId, BTreeSet<u32>> = BTreeMap::new();
        for term in terms {
            let (thread, index) = self.ended_term(term, &same)?;
            named.entry(thread).or_default().insert(index);
        }
        let whole = named.iter().all(|(&thread, indices)| {
            let t = &self.system.threads[thread];
            !t.is_pool() || indices.len() == t.instances() as usize
        });
        if !whole {
            return None;
        }
        let value = self.expr(operand);
        let tid = self.node(Node::Tid);
        self.unify(Val::Node(tid), value);
        Some(Val::Other)
    }

    /// A term `t == c && !(T[i]@l0 || T[i]@l1 ...)` of a translated `threadTerminated`,
    /// `t` printing as `operand`: the instance `c` names (thread, index), when the term
    /// lists exactly that instance's every location.
    fn ended_term(&self, term: &Expr, operand: &str) -> Option<(ThreadId, u32)> {
        let Expr::And(names, not) = term else {
            return None;
        };
        let Expr::Cmp {
            op: CmpOp::Eq,
            lhs,
            rhs,
        } = &**names
        else {
            return None;
        };
        let (Expr::Int(tid), Expr::Not(running)) = (&**rhs, &**not) else {
            return None;
        };
        if format!("{lhs:?}") != operand {
            return None;
        }
        let instance = self.system.tid_instance(*tid)?;
        let (thread, index) = self.system.instance(instance);
        let t = &self.system.threads[thread];
        let mut locations = BTreeSet::new();
        let mut stack = vec![&**running];
        while let Some(e) = stack.pop() {
            match e {
                Expr::Or(a, b) => stack.extend([&**a, &**b]),
                Expr::At {
                    thread: at,
                    instance: which,
                    location,
                } if *at == thread => {
                    let right = match which {
                        Some((i, _)) => matches!(**i, Expr::Int(v) if v == i64::from(index)),
                        None => !t.is_replicated(),
                    };
                    if !right {
                        return None;
                    }
                    locations.insert(location.0);
                }
                _ => return None,
            }
        }
        (locations.len() == t.locations.len()).then_some((thread, index))
    }

    /// Checks that the class of tids, as pool `thread` sees it, holds only tid places of a
    /// type that holds the pool's window; fills in the family's tid globals and locals, and
    /// returns the instances that constants of the class name (none the checker writes:
    /// a model has no tid constants but `null`).
    pub(super) fn why_not_tids(
        &mut self,
        thread: ThreadId,
        family: &mut Family,
    ) -> Result<BTreeMap<u32, String>, String> {
        let tid = self.node(Node::Tid);
        let class = self.find(tid);
        if let Some(why) = &self.facts[class].tainted {
            return Err(why.clone());
        }
        let t = &self.system.threads[thread];
        let first = i64::from(t.first_instance.0) + 1;
        let window = first..first + i64::from(t.instances());
        let holds_window = |scalar: Scalar| matches!(scalar, Scalar::Tid { instances } if i64::from(instances) >= window.end - 1);
        for i in 0..self.nodes.len() {
            if self.find(i) != class {
                continue;
            }
            let (scalar, holder) = match self.nodes[i] {
                Node::Tid => continue,
                Node::Var(holder) => {
                    let var = match holder {
                        Holder::Global(id) => &self.system.globals[id],
                        Holder::Local(t, l) => &self.system.threads[t].locals[l],
                    };
                    (var.ty.scalar, Some(holder))
                }
                Node::Message(channel, field) => {
                    let fields = &self.system.hidden.channels[channel as usize].fields;
                    (fields.get(field).copied().unwrap_or(Scalar::Bool), None)
                }
                _ => {
                    return Err(format!(
                        "{} holds `tid`s, which symmetry reduction renames only in places of \
                         type `tid`",
                        self.describe(i)
                    ))
                }
            };
            if !holds_window(scalar) {
                return Err(format!(
                    "{} holds `tid`s but its type is not `tid`",
                    self.describe(i)
                ));
            }
            match holder {
                Some(Holder::Global(id)) => family.tid_globals.push(id),
                Some(Holder::Local(t, l)) => family.tid_locals.push((t, l)),
                None => {}
            }
        }
        let mut fixed = BTreeMap::new();
        for (&value, place) in &self.facts[class].constants {
            if window.contains(&value) {
                let p = (value - window.start) as u32;
                fixed.insert(p, format!("the tid {value} in {place} names it"));
            }
        }
        Ok(fixed)
    }

    /// The rule of pools (see the module's text): an array that moves with the instances
    /// is not reset when one is freed, so it refuses the symmetry; every instance below a
    /// fixed one is fixed too.
    pub(super) fn pool_rule(
        &self,
        family: &Family,
        fixed: &mut BTreeMap<u32, String>,
    ) -> Result<(), String> {
        let moving = family
            .indexed
            .iter()
            .chain(family.strided.iter().map(|(g, _)| g))
            .next();
        if let Some(&global) = moving {
            return Err(format!(
                "`{}` is indexed by the pool's instance indices but keeps its values when an \
                 instance is freed, so free instances could differ, and `start` takes the \
                 lowest free one",
                self.system.globals[global].name
            ));
        }
        let name = &self.system.threads[family.thread].name;
        if let Some(&top) = fixed.keys().next_back() {
            for p in 0..top {
                fixed.entry(p).or_insert_with(|| {
                    format!(
                        "below the fixed {name}[{top}] (`start` takes the free instance of \
                         lowest index, so only the instances above every fixed one are \
                         interchangeable)"
                    )
                });
            }
        }
        Ok(())
    }
}
