//! Which permutations of a family's instances (an `active [N]` family or a pool,
//! `thread[k]`) the model cannot tell apart: the symmetry group that symmetry reduction may
//! use.
//!
//! Values that are instance indices ("pids") are found by unification: `index`, every
//! variable a pid is copied into (`victim[l] := index`), every quantified variable compared
//! with one or indexing what a pid indexes, and the positions of every array indexed by one
//! share a class. The family is symmetric when its class is used only in the ways a
//! permutation preserves: copies, `==` and `!=` within the class, `a[p]` into arrays of
//! exactly N elements indexed only by pids, `T[p]@loc`, and quantifiers over all N instances
//! whose bodies cannot fault (the order of evaluation would decide which instance faults
//! first). Any other use — arithmetic, `<`, a boolean operator, a narrower type — breaks the
//! symmetry, and the note says where. A constant of the class within `0..N` (`victim` starting
//! at 0, an invariant on `P[0]@cs`, `level[1]` in a property) names one instance: the group
//! is restricted to the permutations that fix it, and so is an instance whose slots of
//! indexed arrays start at values the others do not.
//!
//! Channels and locks (version 3) are read through what their hidden state means
//! (`hidden`): a channel's length and message slots are indexed by the channel's element,
//! a message carries its fields' values from the send to the targets, and a lock's owner
//! holds the global number of an instance among all the model's — a second kind of pid,
//! whose class every family that takes locks shares, each family's instances in a window
//! of its own.
//!
//! A pool's instances are named by `tid`s, a third kind (`pools`): every `tid` place holds
//! them, a pool's instances in a window of their own (`g + 1` for global number `g`), and
//! `start` takes the free instance of lowest index, which the rule of `pools` makes
//! harmless.

mod group;
mod hidden;
mod pools;
mod quantifiers;

use std::collections::BTreeMap;

use quantifiers::{may_fault, Quantifier};

use crate::ir::{self, Action, CmpOp, Expr, GlobalId, LocalId, QuantVarId, ThreadId, VarRef};

/// The symmetry found for one family of at least two instances: an `active [N]` family or
/// a pool (`thread[k]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Family {
    /// The thread.
    pub thread: ThreadId,
    /// The instances the group permutes in every way, ascending (fewer than two: no
    /// symmetry).
    pub permuted: Vec<u32>,
    /// The globals that are arrays of N elements indexed by the family's pids: element `p`
    /// moves with instance `p`.
    pub indexed: Vec<GlobalId>,
    /// The message slots of an array of N channels indexed by the family's pids, each with
    /// the channel's capacity `k`: elements `p * k .. (p + 1) * k` move with instance `p`.
    pub strided: Vec<(GlobalId, u32)>,
    /// The per-instance arrays of the hidden state (the wait marks), each with the global
    /// number `first` of the family's instance 0: element `first + p` moves with instance
    /// `p`.
    pub windows: Vec<(GlobalId, u32)>,
    /// The globals whose values are the family's pids (renamed by a permutation).
    pub pid_globals: Vec<GlobalId>,
    /// The globals whose values are instances' global numbers (a lock's owner): the
    /// family's instance `p` is `first + p` there, renamed within that window.
    pub instance_globals: Vec<GlobalId>,
    /// The locals (of any thread) whose values are the family's pids.
    pub pid_locals: Vec<(ThreadId, LocalId)>,
    /// The globals whose values are `tid`s (a pool's): the family's instance `p` is
    /// `first + p + 1` there (`first` its global number), renamed within that window.
    pub tid_globals: Vec<GlobalId>,
    /// The locals (of any thread) whose values are `tid`s (a pool's).
    pub tid_locals: Vec<(ThreadId, LocalId)>,
    /// The group, and why not a larger one, in a sentence.
    pub note: String,
}

impl Family {
    /// Family `thread` without symmetry, saying `note`.
    fn fixed(thread: ThreadId, note: String) -> Family {
        Family {
            thread,
            permuted: Vec::new(),
            indexed: Vec::new(),
            strided: Vec::new(),
            windows: Vec::new(),
            pid_globals: Vec::new(),
            instance_globals: Vec::new(),
            pid_locals: Vec::new(),
            tid_globals: Vec::new(),
            tid_locals: Vec::new(),
            note,
        }
    }

    /// Forgets what moves and what is renamed: the family is left unpermuted.
    fn clear(&mut self) {
        self.permuted.clear();
        self.indexed.clear();
        self.strided.clear();
        self.windows.clear();
        self.pid_globals.clear();
        self.instance_globals.clear();
        self.pid_locals.clear();
        self.tid_globals.clear();
        self.tid_locals.clear();
    }
}

/// The symmetry of every family (`active [N]` or pool) of at least two instances, in thread
/// order.
pub fn families(system: &ir::System) -> Vec<Family> {
    let replicated = system
        .threads
        .iter_enumerated()
        .filter(|(_, t)| t.is_replicated() && t.instances() >= 2);
    // Rule: the heap's canonical numbers follow the walk from the roots, instance by
    // instance, so a permutation of instances changes them; permuting and renumbering
    // together is not implemented, and the family is kept fixed, saying why.
    if system.hidden.has_heap() {
        return replicated
            .map(|(thread, t)| {
                Family::fixed(
                    thread,
                    format!(
                        "`{}`: no symmetry: the model has records, and the heap's canonical \
                         numbering follows the instances' order (symmetry and the heap \
                         together are not implemented)",
                        t.name
                    ),
                )
            })
            .collect();
    }
    let mut classes = Classes::new(system);
    classes.walk_system();
    system
        .threads
        .iter_enumerated()
        .filter(|(_, t)| t.is_replicated() && t.instances() >= 2)
        .map(|(id, _)| classes.family(id))
        .collect()
}

/// A node of the unification: something that holds values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Node {
    /// The values of a variable (of any element).
    Var(Holder),
    /// The positions of an array: the values its indices take.
    Positions(Holder),
    /// The instance index of a thread's instances.
    Index(ThreadId),
    /// The global number of a thread's instances (its index plus the number of the
    /// instances declared before it), which a lock's owner holds.
    Instance(ThreadId),
    /// A field of the messages of a rendezvous channel (declaration, field): what a send
    /// hands its partner's targets.
    Message(u32, usize),
    /// A quantified variable.
    Quant(QuantVarId),
    /// The `tid`s: what `start` yields, and every place of type `tid`.
    Tid,
}

/// A variable: a global, or a local of a thread (any of its instances).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Holder {
    Global(GlobalId),
    Local(ThreadId, LocalId),
}

/// What an expression's value is, for the unification.
#[derive(Clone, Copy, Debug)]
enum Val {
    /// A value of this node's class.
    Node(usize),
    /// A constant.
    Const(i64),
    /// Anything else (a computed value, a boolean).
    Other,
}

/// What a class is known to do.
#[derive(Clone, Debug, Default)]
struct Facts {
    /// The first use a permutation does not preserve.
    tainted: Option<String>,
    /// Constants of the class, each with where it occurs (the first place).
    constants: BTreeMap<i64, String>,
}

/// Union-find over [`Node`]s, with the facts of each class at its root.
struct Classes<'s> {
    system: &'s ir::System,
    nodes: Vec<Node>,
    parent: Vec<usize>,
    facts: Vec<Facts>,
    /// Where the walk is, for the notes: `line 12: `...``.
    place: String,
    /// The thread whose code is walked (for `index`).
    thread: Option<ThreadId>,
    /// Every quantifier met.
    quantifiers: Vec<Quantifier>,
}

impl<'s> Classes<'s> {
    fn new(system: &'s ir::System) -> Self {
        Classes {
            system,
            nodes: Vec::new(),
            parent: Vec::new(),
            facts: Vec::new(),
            place: String::new(),
            thread: None,
            quantifiers: Vec::new(),
        }
    }

    fn node(&mut self, node: Node) -> usize {
        if let Some(i) = self.nodes.iter().position(|n| *n == node) {
            return i;
        }
        self.nodes.push(node);
        self.parent.push(self.parent.len());
        self.facts.push(Facts::default());
        self.nodes.len() - 1
    }

    fn find(&mut self, mut i: usize) -> usize {
        while self.parent[i] != i {
            self.parent[i] = self.parent[self.parent[i]];
            i = self.parent[i];
        }
        i
    }

    fn union(&mut self, a: usize, b: usize) {
        let (a, b) = (self.find(a), self.find(b));
        if a == b {
            return;
        }
        self.parent[b] = a;
        let facts = std::mem::take(&mut self.facts[b]);
        let root = &mut self.facts[a];
        root.tainted = root.tainted.take().or(facts.tainted);
        for (value, place) in facts.constants {
            root.constants.entry(value).or_insert(place);
        }
    }

    fn taint(&mut self, val: Val, how: &str) {
        if let Val::Node(i) = val {
            let root = self.find(i);
            if self.facts[root].tainted.is_none() {
                let what = self.describe(i);
                self.facts[root].tainted = Some(format!("{what} {how} ({})", self.place));
            }
        }
    }

    fn constant(&mut self, node: usize, value: i64, place: String) {
        let root = self.find(node);
        self.facts[root].constants.entry(value).or_insert(place);
    }

    /// `a` and `b` hold the same kind of value.
    fn unify(&mut self, a: Val, b: Val) {
        match (a, b) {
            (Val::Node(a), Val::Node(b)) => self.union(a, b),
            (Val::Node(n), Val::Const(c)) | (Val::Const(c), Val::Node(n)) => {
                let place = self.place.clone();
                self.constant(n, c, place);
            }
            (Val::Node(_), Val::Other) => self.taint(a, "takes a computed value"),
            (Val::Other, Val::Node(_)) => self.taint(b, "takes a computed value"),
            _ => {}
        }
    }

    fn describe(&self, i: usize) -> String {
        match self.nodes[i] {
            Node::Var(holder) => format!("`{}`", self.holder_name(holder)),
            Node::Positions(holder) => format!("an index of `{}`", self.holder_name(holder)),
            Node::Index(thread) => format!("the instance index of `{}`", self.thread_name(thread)),
            Node::Quant(_) => "a quantified variable".to_string(),
            Node::Instance(thread) => format!(
                "the global number of an instance of `{}`",
                self.thread_name(thread)
            ),
            Node::Message(channel, field) => format!(
                "field {} of the messages of `{}`",
                field + 1,
                self.system.hidden.channels[channel as usize].name
            ),
            Node::Tid => "a `tid`".to_string(),
        }
    }

    fn thread_name(&self, thread: ThreadId) -> &str {
        &self.system.threads[thread].name
    }

    fn holder_name(&self, holder: Holder) -> String {
        match holder {
            Holder::Global(id) => self.system.globals[id].name.clone(),
            Holder::Local(thread, local) => format!(
                "{}.{}",
                self.thread_name(thread),
                self.system.threads[thread].locals[local].name
            ),
        }
    }

    fn holder(&self, var: VarRef) -> Holder {
        match (var, self.thread) {
            (VarRef::Global(id), _) => Holder::Global(id),
            (VarRef::Local(local), Some(thread)) => Holder::Local(thread, local),
            // The checker allows locals only in thread code.
            (VarRef::Local(local), None) => Holder::Local(ThreadId(u32::MAX), local),
        }
    }

    fn walk_system(&mut self) {
        let system = self.system;
        for (id, var) in system.globals.iter_enumerated() {
            self.place = match system.hidden.channel_of(id) {
                Some(channel) if system.hidden.channels[channel].length != id => format!(
                    "the empty message slots of channel `{}`",
                    system.hidden.channels[channel].name
                ),
                _ => format!("the initial value of `{}`", var.name),
            };
            let node = self.node(Node::Var(Holder::Global(id)));
            for &value in &var.init {
                self.constant(node, value, self.place.clone());
            }
            self.tid_place(node, var.ty.scalar);
        }
        for (channel, hidden) in system.hidden.channels.iter().enumerate() {
            if hidden.slots.is_empty() {
                for (field, &scalar) in hidden.fields.iter().enumerate() {
                    let node = self.node(Node::Message(channel as u32, field));
                    self.tid_place(node, scalar);
                }
            }
        }
        for (thread_id, thread) in system.threads.iter_enumerated() {
            self.thread = Some(thread_id);
            for (local_id, var) in thread.locals.iter_enumerated() {
                self.place = format!("the initial value of `{}.{}`", thread.name, var.name);
                let node = self.node(Node::Var(Holder::Local(thread_id, local_id)));
                for &value in &var.init {
                    self.constant(node, value, self.place.clone());
                }
                self.tid_place(node, var.ty.scalar);
            }
            for transform in thread.transforms.iter() {
                self.place = format!("line {}: `{}`", transform.line, transform.text);
                if let Some(guard) = &transform.guard {
                    let value = self.expr(guard);
                    self.taint(value, "is a condition");
                }
                // A buffered send or receive: what its first actions do to the hidden state
                // is read from the operation instead.
                let skip = match &transform.buffered {
                    Some(op) => {
                        self.communication(op.channel, op.index.as_ref(), &op.role);
                        op.actions
                    }
                    None => 0,
                };
                for action in transform.actions.iter().skip(skip) {
                    self.action(action);
                }
                if let Some(meets) = &transform.rendezvous {
                    let index = meets.index.as_ref().map(|(index, _)| index);
                    self.communication(meets.channel, index, &meets.role);
                    for action in &meets.block {
                        self.action(action);
                    }
                }
            }
        }
        self.thread = None;
        for invariant in &system.invariants {
            self.place = format!("invariant `{}`", invariant.name);
            let value = self.expr(&invariant.cond);
            self.taint(value, "is a condition");
        }
        for property in &system.properties {
            self.place = format!("property `{}`", property.name);
            for atom in &property.atoms {
                let value = self.expr(atom);
                self.taint(value, "is a condition");
            }
        }
    }

    fn action(&mut self, action: &Action) {
        match action {
            Action::Assign { place, value, .. } => {
                if let Some((index, _)) = &place.index {
                    self.index(place.var, index);
                }
                let value = self.assigned(place.var, value);
                let var = self.node(Node::Var(self.holder(place.var)));
                self.unify(Val::Node(var), value);
            }
            Action::Assert { cond, .. } | Action::Assume(cond) => {
                let value = self.expr(cond);
                self.taint(value, "is a condition");
            }
            Action::Start {
                thread,
                args,
                result,
                ..
            } => {
                let params = self.system.threads[*thread].start_params.clone();
                for (arg, param) in args.iter().zip(params) {
                    let value = self.expr(arg);
                    let local = self.node(Node::Var(Holder::Local(*thread, param)));
                    self.unify(Val::Node(local), value);
                }
                if let Some(place) = result {
                    if let Some((index, _)) = &place.index {
                        self.index(place.var, index);
                    }
                    let var = self.node(Node::Var(self.holder(place.var)));
                    let tid = self.node(Node::Tid);
                    self.union(tid, var);
                }
            }
            Action::Exit => {}
        }
    }

    fn expr(&mut self, expr: &Expr) -> Val {
        if let Some(value) = constant(expr) {
            return Val::Const(value);
        }
        if let Some(value) = self.thread_terminated(expr) {
            return value;
        }
        match expr {
            Expr::Bool(_) => Val::Other,
            Expr::Int(value) => Val::Const(*value),
            Expr::Read(var) => Val::Node(self.node(Node::Var(self.holder(*var)))),
            Expr::Element { var, index, .. } => {
                self.index(*var, index);
                Val::Node(self.node(Node::Var(self.holder(*var))))
            }
            Expr::InstanceIndex => match self.thread {
                Some(thread) => Val::Node(self.node(Node::Index(thread))),
                None => Val::Other,
            },
            Expr::QuantVar(var) => Val::Node(self.node(Node::Quant(*var))),
            Expr::Not(inner) | Expr::Neg(inner, _) => {
                let value = self.expr(inner);
                self.taint(value, "is used in arithmetic or logic");
                Val::Other
            }
            Expr::Arith { lhs, rhs, .. } => {
                for side in [lhs, rhs] {
                    let value = self.expr(side);
                    self.taint(value, "is used in arithmetic");
                }
                Val::Other
            }
            Expr::Cmp { op, lhs, rhs } => {
                let (a, b) = (self.compared(lhs, rhs), self.compared(rhs, lhs));
                if matches!(op, CmpOp::Eq | CmpOp::Ne) {
                    self.unify(a, b);
                } else {
                    self.taint(a, "is compared by order");
                    self.taint(b, "is compared by order");
                }
                Val::Other
            }
            Expr::And(lhs, rhs) | Expr::Or(lhs, rhs) => {
                for side in [lhs, rhs] {
                    let value = self.expr(side);
                    self.taint(value, "is used in logic");
                }
                Val::Other
            }
            Expr::Cond {
                cond,
                then,
                otherwise,
            } => {
                let value = self.expr(cond);
                self.taint(value, "is a condition");
                let (a, b) = (self.expr(then), self.expr(otherwise));
                self.unify(a, b);
                match (a, b) {
                    (Val::Node(n), _) | (_, Val::Node(n)) => Val::Node(n),
                    _ => Val::Other,
                }
            }
            Expr::At {
                thread, instance, ..
            } => {
                if let Some((index, _)) = instance {
                    let index = self.expr(index);
                    let node = self.node(Node::Index(*thread));
                    self.unify(Val::Node(node), index);
                }
                Val::Other
            }
            Expr::Quant {
                var, lo, hi, body, ..
            } => {
                let node = self.node(Node::Quant(*var));
                let value = self.expr(body);
                self.taint(value, "is a condition");
                self.quantifiers.push(Quantifier {
                    node,
                    range: (*lo, *hi),
                    may_fault: may_fault(
                        self.system,
                        expr,
                        &mut Vec::new(),
                        self.thread
                            .map_or(0, |t| self.system.threads[t].instances()),
                    ),
                    place: self.place.clone(),
                });
                Val::Other
            }
        }
    }
}

/// The value of an expression built of constants alone (`-1`, `2 * 3`), if it has one.
fn constant(expr: &Expr) -> Option<i64> {
    match expr {
        Expr::Int(value) => Some(*value),
        Expr::Neg(inner, _) => constant(inner)?.checked_neg(),
        Expr::Arith { op, lhs, rhs, .. } => {
            ir::eval::arith_value(*op, constant(lhs)?, constant(rhs)?).ok()
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests;
