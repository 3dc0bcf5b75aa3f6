//! What each transformation reads and writes: the globals (with the element, when the index
//! is a constant or the executing instance's own index), the executing instance's locals and
//! the threads' statuses its guard and actions touch; and what invariants and property
//! predicates read. Partial-order reduction ([`super::por`]) decides from these sets which
//! transitions are independent and invisible.

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
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Accesses {
    /// What its guard and actions may read.
    pub reads: Vec<Access>,
    /// What its actions may write.
    pub writes: Vec<Access>,
}

impl Accesses {
    /// The variables and statuses the guard and actions of `transform` touch.
    pub fn of(transform: &ir::Transform) -> Accesses {
        let mut reads = Vec::new();
        let mut writes = Vec::new();
        if let Some(guard) = &transform.guard {
            expr_reads(guard, &mut reads);
        }
        // A rendezvous reads its index and values and writes its targets, then runs the
        // rest of its block; its partners' accesses are theirs.
        let mut block: Vec<&ir::Action> = transform.actions.iter().collect();
        if let Some(meets) = &transform.rendezvous {
            if let Some((index, _)) = &meets.index {
                expr_reads(index, &mut reads);
            }
            match &meets.role {
                ir::RendezvousRole::Send(values) => {
                    for (value, _, _) in values {
                        expr_reads(value, &mut reads);
                    }
                }
                ir::RendezvousRole::Receive(targets) => {
                    for (place, _) in targets.iter().flatten() {
                        let element = match &place.index {
                            Some((index, _)) => {
                                expr_reads(index, &mut reads);
                                element_of(index)
                            }
                            None => Element::Any,
                        };
                        writes.push(access(place.var, element));
                    }
                }
            }
            block.extend(&meets.block);
        }
        for action in block {
            match action {
                ir::Action::Assign { place, value, .. } => {
                    expr_reads(value, &mut reads);
                    let element = match &place.index {
                        Some((index, _)) => {
                            expr_reads(index, &mut reads);
                            element_of(index)
                        }
                        None => Element::Any,
                    };
                    writes.push(access(place.var, element));
                }
                ir::Action::Assert { cond, .. } | ir::Action::Assume(cond) => {
                    expr_reads(cond, &mut reads)
                }
                ir::Action::Start { thread, arg, .. } => {
                    if let Some(arg) = arg {
                        expr_reads(arg, &mut reads);
                    }
                    reads.push(Access::Status(*thread));
                    writes.push(Access::Status(*thread));
                }
                ir::Action::Exit => {}
            }
        }
        reads.sort();
        reads.dedup();
        writes.sort();
        writes.dedup();
        Accesses { reads, writes }
    }
}

/// The accesses of every transformation of every thread.
pub fn of_system(system: &ir::System) -> IdVec<ThreadId, IdVec<TransformId, Accesses>> {
    system
        .threads
        .iter()
        .map(|thread| thread.transforms.iter().map(Accesses::of).collect())
        .collect()
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
        Accesses::of(&system.threads[ThreadId(thread)].transforms[TransformId(transform)])
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
}
