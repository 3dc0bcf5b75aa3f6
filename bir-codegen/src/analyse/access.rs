//! What each transformation reads and writes: the globals (with the element, when the index
//! is a constant or the executing instance's own index), the executing instance's locals and
//! the threads' statuses its guard and actions touch, and how it uses the buffered channels
//! ([`super::channels`]); and what invariants and property predicates read. Partial-order
//! reduction ([`super::por`]) decides from these sets which transitions are independent and
//! invisible.

use super::channels;
use crate::ir::{self, Expr, GlobalId, IdVec, LocalId, ThreadId, TransformId, VarRef};

/// A variable (or status) a transformation touches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Access {
    /// A global, or some of its elements.
    Global {
        /// The global.
        var: GlobalId,
        /// Which part of it.
        element: Element,
    },
    /// A local of the executing instance.
    Local(LocalId),
    /// The status of a thread's instance(s) (read by `T@loc`, written by `start`).
    Status(ThreadId),
}

/// Which elements of a global an access touches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Element {
    /// The scalar itself, or any element (the index is computed).
    Any,
    /// The element at this compile-time constant index.
    At(u32),
    /// `a[index]`: the element at the executing instance's own index.
    Own,
}

/// The accesses of one transformation, each list sorted and without duplicates.
///
/// The hidden globals of a buffered channel (its length and message slots) are no reads or
/// writes here: the transformation's [`channels`](Self::channels) say how it uses them. The
/// hidden globals of locks and of rendezvous channels are globals like any other.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Accesses {
    /// What its guard and actions may read.
    pub reads: Vec<Access>,
    /// What its actions may write.
    pub writes: Vec<Access>,
    /// How it uses each buffered channel it touches, sorted by unit.
    pub channels: Vec<channels::Use>,
}

impl Accesses {
    /// The variables, statuses and channels the guard and actions of `transform` (of a
    /// thread of `instances` instances) touch; `hidden` tells the channels' hidden globals
    /// apart.
    pub fn of(hidden: &ir::Hidden, transform: &ir::Transform, instances: u32) -> Accesses {
        let mut walk = Walk {
            reads: Vec::new(),
            writes: Vec::new(),
            uses: channels::Uses::new(hidden, instances),
        };
        if let Some(guard) = &transform.guard {
            walk.guard(guard);
        }
        // A buffered send or receive: its first actions carry it out, and what of them is
        // the model's (the element, the values, the targets) is in the operation.
        let mut skip = 0;
        if let Some(op) = &transform.buffered {
            walk.uses.operation(op);
            if let Some(index) = &op.index {
                walk.expr(index, false);
            }
            walk.role(&op.role);
            skip = op.actions;
        }
        // A rendezvous reads its index and values and writes its targets, then runs the
        // rest of its block; its partners' accesses are theirs.
        let mut block: Vec<&ir::Action> = transform.actions.iter().skip(skip).collect();
        if let Some(meets) = &transform.rendezvous {
            if let Some((index, _)) = &meets.index {
                walk.expr(index, false);
            }
            walk.role(&meets.role);
            block.extend(&meets.block);
        }
        for action in block {
            walk.action(action);
        }
        let Walk {
            mut reads,
            mut writes,
            uses,
        } = walk;
        reads.sort();
        reads.dedup();
        writes.sort();
        writes.dedup();
        Accesses {
            reads,
            writes,
            channels: uses.finish(),
        }
    }
}

/// The accesses of every transformation of every thread.
pub fn of_system(system: &ir::System) -> IdVec<ThreadId, IdVec<TransformId, Accesses>> {
    system
        .threads
        .iter()
        .map(|thread| {
            thread
                .transforms
                .iter()
                .map(|transform| Accesses::of(&system.hidden, transform, thread.instances()))
                .collect()
        })
        .collect()
}

/// One transformation's accesses, as they are found.
struct Walk<'s> {
    reads: Vec<Access>,
    writes: Vec<Access>,
    uses: channels::Uses<'s>,
}

impl Walk<'_> {
    /// The guard, conjunct by conjunct: one that compares a buffered channel's length with
    /// a constant narrows the lengths its use allows; any other read of a channel makes
    /// them unknown.
    fn guard(&mut self, guard: &Expr) {
        match guard {
            Expr::And(lhs, rhs) => {
                self.guard(lhs);
                self.guard(rhs);
            }
            conjunct => match self.uses.conjunct(conjunct) {
                Some(index) => {
                    if let Some(index) = index {
                        self.expr(index, false);
                    }
                }
                None => self.expr(conjunct, true),
            },
        }
    }

    /// What an expression reads; a read of a buffered channel in the guard (`in_guard`)
    /// makes its lengths unknown, elsewhere makes its use opaque.
    fn expr(&mut self, expr: &Expr, in_guard: bool) {
        let channel_read = match expr {
            Expr::Read(VarRef::Global(var)) => Some((*var, None)),
            Expr::Element {
                var: VarRef::Global(var),
                index,
                ..
            } => Some((*var, Some(&**index))),
            _ => None,
        };
        match channel_read.and_then(|(var, index)| Some((self.uses.buffered(var)?, var, index))) {
            Some((channel, var, index)) if in_guard => self.uses.unknown(channel, var, index),
            Some((channel, var, index)) => self.uses.opaque(channel, var, index),
            None => match expr {
                Expr::Read(var) => self.reads.push(access(*var, Element::Any)),
                Expr::Element { var, index, .. } => {
                    self.reads.push(access(*var, element_of(index)))
                }
                Expr::At { thread, .. } => self.reads.push(Access::Status(*thread)),
                _ => {}
            },
        }
        for child in expr.children() {
            self.expr(child, in_guard);
        }
    }

    /// A write of `place`, and what its index reads.
    fn write(&mut self, place: &ir::Place) {
        let element = match &place.index {
            Some((index, _)) => {
                self.expr(index, false);
                element_of(index)
            }
            None => Element::Any,
        };
        if let VarRef::Global(var) = place.var {
            // Only its send or receive writes a channel (the actions `skip`ped): a write
            // anywhere else would be opaque.
            if let Some(channel) = self.uses.buffered(var) {
                let index = place.index.as_ref().map(|(index, _)| &**index);
                self.uses.opaque(channel, var, index);
                return;
            }
        }
        self.writes.push(access(place.var, element));
    }

    /// The values a communication sends, or the targets it writes.
    fn role(&mut self, role: &ir::RendezvousRole) {
        match role {
            ir::RendezvousRole::Send(values) => {
                for (value, _, _) in values {
                    self.expr(value, false);
                }
            }
            ir::RendezvousRole::Receive(targets) => {
                for (place, _) in targets.iter().flatten() {
                    self.write(place);
                }
            }
        }
    }

    fn action(&mut self, action: &ir::Action) {
        match action {
            ir::Action::Assign { place, value, .. } => {
                self.expr(value, false);
                self.write(place);
            }
            ir::Action::Assert { cond, .. } | ir::Action::Assume(cond) => self.expr(cond, false),
            ir::Action::Start {
                thread,
                args,
                result,
                ..
            } => {
                for arg in args {
                    self.expr(arg, false);
                }
                self.reads.push(Access::Status(*thread));
                self.writes.push(Access::Status(*thread));
                if let Some(place) = result {
                    self.write(place);
                }
            }
            ir::Action::Exit => {}
        }
    }
}

/// What an expression (an invariant, a property's predicate) reads, sorted, without
/// duplicates.
pub fn reads_of(expr: &Expr) -> Vec<Access> {
    let mut reads = Vec::new();
    expr_reads(expr, &mut reads);
    reads.sort();
    reads.dedup();
    reads
}

fn access(var: VarRef, element: Element) -> Access {
    match var {
        VarRef::Global(var) => Access::Global { var, element },
        VarRef::Local(id) => Access::Local(id),
    }
}

fn element_of(index: &Expr) -> Element {
    match index {
        Expr::Int(value) => u32::try_from(*value).map_or(Element::Any, Element::At),
        Expr::InstanceIndex => Element::Own,
        _ => Element::Any,
    }
}

fn expr_reads(expr: &Expr, out: &mut Vec<Access>) {
    match expr {
        Expr::Read(var) => out.push(access(*var, Element::Any)),
        Expr::Element { var, index, .. } => out.push(access(*var, element_of(index))),
        Expr::At { thread, .. } => out.push(Access::Status(*thread)),
        _ => {}
    }
    for child in expr.children() {
        expr_reads(child, out);
    }
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use proc_macro2::TokenStream;

    use super::*;
    use crate::ir::{LocalId, TransformId};

    fn accesses(source: &str, thread: u32, transform: u32) -> Accesses {
        let tokens = TokenStream::from_str(source).expect("tokenizes");
        let system = crate::front_end(tokens)
            .unwrap_or_else(|d| panic!("{:?}", d.iter().map(|d| &d.message).collect::<Vec<_>>()));
        let thread = &system.threads[ThreadId(thread)];
        Accesses::of(
            &system.hidden,
            &thread.transforms[TransformId(transform)],
            thread.instances(),
        )
    }

    #[test]
    fn read_and_write_sets_are_recorded() {
        let take_left = accesses(
            include_str!("../../../models/dining_philosophers.bir"),
            0,
            0,
        );
        // `fork[index]`: the executing instance's own element.
        let fork = Access::Global {
            var: GlobalId(0),
            element: Element::Own,
        };
        assert_eq!(take_left.reads, [fork]);
        assert_eq!(take_left.writes, [fork]);
        let t = accesses(
            "system S {
                boolean[2] a; int x;
                active thread T() { loc l: when Q@m do { a[1] := x > 0; } goto l; }
                thread Q() { loc m: do { start Q(); } goto m; }
            }",
            0,
            0,
        );
        assert_eq!(
            t.reads,
            [
                Access::Global {
                    var: GlobalId(1),
                    element: Element::Any
                },
                Access::Status(ThreadId(1))
            ]
        );
        assert_eq!(
            t.writes,
            [Access::Global {
                var: GlobalId(0),
                element: Element::At(1)
            }]
        );
    }

    #[test]
    fn locals_constant_elements_and_starts_are_told_apart() {
        let t = accesses(
            "system S {
                int (0, 1)[3] a;
                thread Q(int p) { loc m: do { } return; }
                active thread T() { int i; loc l: do { a[2] := a[i]; i := 1; start Q(i); } goto l; }
            }",
            1,
            0,
        );
        assert_eq!(
            t.reads,
            [
                Access::Global {
                    var: GlobalId(0),
                    element: Element::Any
                },
                Access::Local(LocalId(0)),
                Access::Status(ThreadId(0))
            ]
        );
        assert_eq!(
            t.writes,
            [
                Access::Global {
                    var: GlobalId(0),
                    element: Element::At(2)
                },
                Access::Local(LocalId(0)),
                Access::Status(ThreadId(0))
            ]
        );
    }

    #[test]
    fn lock_operations_read_and_write_the_lock_s_hidden_state() {
        let source = "system S {
            lock m;
            active thread T() {
                loc l: do { lock(m); } goto u;
                loc u: do { unlock(m); } goto l;
            }
        }";
        // `owner(m)` and `holds(m)`, the first two globals.
        let (owner, count) = (GlobalId(0), GlobalId(1));
        let global = |var| Access::Global {
            var,
            element: Element::Any,
        };
        for transform in 0..2 {
            let t = accesses(source, 0, transform);
            assert_eq!(t.reads, [global(owner), global(count)], "{transform}");
            assert_eq!(t.writes, [global(owner), global(count)], "{transform}");
            assert!(t.channels.is_empty());
        }
    }

    #[test]
    fn a_buffered_channel_is_a_use_not_a_read_or_a_write() {
        use crate::analyse::channels::{Direction, Lengths, Unit, Use, Which};
        let source = "system S {
            channel (int (0, 3)) buffer 2 c[2];
            int (0, 3) g;
            active thread T() {
                int (0, 3) x;
                loc l: when !full(c[1]) && x > 0 do { c[1]!(x); } goto m;
                loc m: do { c[0]?(x); g := len(c[0]); } goto l;
            }
        }";
        let send = accesses(source, 0, 0);
        assert_eq!(send.reads, [Access::Local(LocalId(0))]);
        assert!(send.writes.is_empty());
        let unit = |k| Unit {
            channel: 0,
            element: Which::Each(vec![k].into()),
        };
        assert_eq!(
            send.channels,
            [Use {
                unit: unit(1),
                op: Some(Direction::Send),
                allowed: Some(Lengths { lo: 0, hi: 1 }),
                opaque: false,
            }]
        );
        let receive = accesses(source, 0, 1);
        // The target and `g` (the model's globals come first) are written; the length read
        // after the receive is opaque.
        assert_eq!(
            receive.writes,
            [
                Access::Global {
                    var: GlobalId(0),
                    element: Element::Any
                },
                Access::Local(LocalId(0))
            ]
        );
        assert_eq!(
            receive.channels,
            [Use {
                unit: unit(0),
                op: Some(Direction::Receive),
                allowed: Some(Lengths { lo: 1, hi: 2 }),
                opaque: true,
            }]
        );
    }
}
