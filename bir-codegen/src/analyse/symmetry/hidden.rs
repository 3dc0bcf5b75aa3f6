//! The hidden state of channels and locks in the unification, read for what it means
//! (`ir::Hidden`) rather than for the arithmetic that implements it:
//!
//! - A send or receive indexes the channel's length and message slots by its element, and
//!   its values flow into the message slots (a buffered channel) or straight to the
//!   partner's targets (a rendezvous, [`Node::Message`]), which receive them. A slot of an
//!   array of N channels indexed by pids is `p * k + s`: the family's instance `p` owns the
//!   `k` slots of its channel.
//! - A lock's owner holds "this instance" as its global number ([`Node::Instance`]): the
//!   expression the checker writes for it (`index`, or `index + first` for a family whose
//!   instances start at `first`) is that node wherever it is assigned to an owner or
//!   compared with one, or indexes the wait marks. Every family that takes locks shares the
//!   class of global numbers; a permutation renames each family's window of it.
//! - The wait marks are arrays with one element per instance, by global number: the
//!   family's window moves with it. A constant index into them (`notify` and `notifyAll`
//!   take every instance alike, one transition or one action each) names no instance.
//!   Their values are lock elements' numbers: one computed from an index into an array of
//!   locks would have to be renamed too, which is not done (the index's class is tainted,
//!   saying so).

use std::collections::BTreeMap;

use super::{constant, Classes, Family, Holder, Node, Val};
use crate::ir::{ArithOp, Expr, GlobalId, RendezvousRole, Scalar, ThreadId, VarRef};

impl Classes<'_> {
    /// A send or receive on channel `channel` (element `index`): the element indexes the
    /// channel's hidden globals, the values flow into its messages and from them into the
    /// targets.
    pub(super) fn communication(
        &mut self,
        channel: u32,
        index: Option<&Expr>,
        role: &RendezvousRole,
    ) {
        let hidden = &self.system.hidden.channels[channel as usize];
        if let Some(index) = index {
            let value = self.expr(index);
            for global in std::iter::once(hidden.length).chain(hidden.slots.iter().copied()) {
                let positions = self.node(Node::Positions(Holder::Global(global)));
                self.unify(Val::Node(positions), value);
            }
        }
        match role {
            RendezvousRole::Send(values) => {
                for (field, (value, _, _)) in values.iter().enumerate() {
                    let value = self.expr(value);
                    let message = self.message(channel, field);
                    self.unify(message, value);
                }
            }
            RendezvousRole::Receive(targets) => {
                for (field, target) in targets.iter().enumerate() {
                    let Some((place, _)) = target else {
                        continue;
                    };
                    if let Some((index, _)) = &place.index {
                        self.index(place.var, index);
                    }
                    let var = self.node(Node::Var(self.holder(place.var)));
                    let message = self.message(channel, field);
                    self.unify(Val::Node(var), message);
                }
            }
        }
    }

    /// What holds field `field` of channel `channel`'s messages: its slots, or (a
    /// rendezvous) the message itself.
    fn message(&mut self, channel: u32, field: usize) -> Val {
        let node = match self.system.hidden.channels[channel as usize]
            .slots
            .get(field)
        {
            Some(&slots) => Node::Var(Holder::Global(slots)),
            None => Node::Message(channel, field),
        };
        Val::Node(self.node(node))
    }

    /// `var[index]`: the positions of `var` take the index's values; a constant index into
    /// the wait marks names no instance, and "this instance" there is its global number.
    pub(super) fn index(&mut self, var: VarRef, index: &Expr) {
        let waits = matches!(var, VarRef::Global(g) if self.system.hidden.is_wait_array(g));
        let value = if waits {
            if constant(index).is_some() {
                return;
            }
            self.me(index).unwrap_or_else(|| self.expr(index))
        } else {
            self.expr(index)
        };
        let positions = self.node(Node::Positions(self.holder(var)));
        self.unify(Val::Node(positions), value);
    }

    /// The value assigned to `var`: "this instance" into a lock's owner, a lock element's
    /// number into a wait mark.
    pub(super) fn assigned(&mut self, var: VarRef, value: &Expr) -> Val {
        match var {
            VarRef::Global(g) if self.system.hidden.is_owner(g) => {
                self.me(value).unwrap_or_else(|| self.expr(value))
            }
            VarRef::Global(g) if self.is_mark(g) => self.mark_value(value),
            _ => self.expr(value),
        }
    }

    /// One side of a comparison with `other`: "this instance" against a lock's owner, a
    /// lock element's number against a wait mark.
    pub(super) fn compared(&mut self, side: &Expr, other: &Expr) -> Val {
        match hidden_read(other) {
            Some(g) if self.system.hidden.is_owner(g) => {
                self.me(side).unwrap_or_else(|| self.expr(side))
            }
            Some(g) if self.is_mark(g) => self.mark_value(side),
            _ => self.expr(side),
        }
    }

    fn is_mark(&self, global: GlobalId) -> bool {
        self.system.hidden.waits.is_some_and(|w| w.mark == global)
    }

    /// "This instance" as the checker writes it for the thread walked: `index` plus the
    /// number of the instances declared before the thread's (plain `index` from 0).
    fn me(&mut self, expr: &Expr) -> Option<Val> {
        let thread = self.thread?;
        let first = i64::from(self.system.threads[thread].first_instance.0);
        let is_me = match expr {
            Expr::InstanceIndex => first == 0,
            Expr::Arith {
                op: ArithOp::Add,
                lhs,
                rhs,
                ..
            } => matches!(**lhs, Expr::InstanceIndex) && constant(rhs) == Some(first),
            _ => false,
        };
        is_me.then(|| Val::Node(self.node(Node::Instance(thread))))
    }

    /// A value a wait mark takes or is compared with: 0, a lock element's number (a
    /// constant for a single lock or a constant element), or a choice of them.
    fn mark_value(&mut self, expr: &Expr) -> Val {
        if let Some(value) = constant(expr) {
            return Val::Const(value);
        }
        match expr {
            Expr::Cond {
                cond,
                then,
                otherwise,
            } => {
                let value = self.expr(cond);
                self.taint(value, "is a condition");
                let (a, b) = (self.mark_value(then), self.mark_value(otherwise));
                self.unify(a, b);
                Val::Other
            }
            Expr::Read(_) | Expr::Element { .. } => self.expr(expr),
            other => {
                self.lock_number(other);
                Val::Other
            }
        }
    }

    /// A lock element's number computed from an index into an array of locks: the index's
    /// class would have to be renamed in the wait marks, which is not done.
    fn lock_number(&mut self, expr: &Expr) {
        if constant(expr).is_some() {
            return;
        }
        match expr {
            Expr::Arith {
                op: ArithOp::Add,
                lhs,
                rhs,
                ..
            } => {
                self.lock_number(lhs);
                self.lock_number(rhs);
            }
            index => {
                let value = self.expr(index);
                self.taint(
                    value,
                    "names the element of an array of locks that a `wait` waits on, which an \
                     instance's wait mark records and symmetry reduction does not rename",
                );
            }
        }
    }

    /// Checks that the class of global numbers, as family `thread` (N instances, the first
    /// numbered `first`) sees it, holds only what a permutation renames: a lock's owner,
    /// of a type that holds the family's window, and the positions of the wait marks.
    /// Fills in the family's instance globals and windows; returns the instances the
    /// constants of the class name.
    pub(super) fn why_not_global(
        &mut self,
        class: usize,
        thread: ThreadId,
        family: &mut Family,
    ) -> Result<BTreeMap<u32, String>, String> {
        if let Some(why) = &self.facts[class].tainted {
            return Err(why.clone());
        }
        let n = self.system.threads[thread].instances();
        let first = self.system.threads[thread].first_instance.0;
        let window = i64::from(first)..i64::from(first) + i64::from(n);
        let holds_window = |scalar: Scalar| matches!(scalar, Scalar::Int { lo, hi, .. } if lo <= window.start && hi >= window.end - 1);
        for i in 0..self.nodes.len() {
            if self.find(i) != class {
                continue;
            }
            match self.nodes[i] {
                Node::Instance(_) => {}
                Node::Var(Holder::Global(id)) if self.system.hidden.is_owner(id) => {
                    if !holds_window(self.system.globals[id].ty.scalar) {
                        return Err(format!(
                            "`{}` holds instance numbers but its type does not hold {}'s",
                            self.system.globals[id].name,
                            self.thread_name(thread)
                        ));
                    }
                    family.instance_globals.push(id);
                }
                Node::Positions(Holder::Global(id)) if self.system.hidden.is_wait_array(id) => {
                    family.windows.push((id, first));
                }
                _ => {
                    return Err(format!(
                        "{} holds instances' global numbers, which symmetry reduction renames \
                         only in a lock's owner and the wait marks",
                        self.describe(i)
                    ))
                }
            }
        }
        let mut fixed = BTreeMap::new();
        for (&value, place) in &self.facts[class].constants {
            if window.contains(&value) {
                let p = (value - window.start) as u32;
                fixed.insert(
                    p,
                    format!("the instance number {value} in {place} names it"),
                );
            }
        }
        Ok(fixed)
    }
}

/// The hidden global an expression reads (a lock's owner, a wait mark), if it is a read.
fn hidden_read(expr: &Expr) -> Option<GlobalId> {
    match expr {
        Expr::Read(VarRef::Global(g))
        | Expr::Element {
            var: VarRef::Global(g),
            ..
        } => Some(*g),
        _ => None,
    }
}
