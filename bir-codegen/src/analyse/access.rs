//! What each transformation reads and writes: the globals (with the element, when the index
//! is a constant), the executing instance's locals and the threads' statuses its guard and
//! actions touch. Partial-order reduction decides from these sets which transitions are
//! independent; nothing else uses them yet.

use crate::ir::{self, Expr, GlobalId, LocalId, ThreadId, VarRef};

/// A variable (or status) a transformation touches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Access {
    /// A global; `element` is the array index when it is a compile-time constant.
    Global {
        /// The global.
        var: GlobalId,
        /// The element, when known; `None` means "any" (or the scalar itself).
        element: Option<u32>,
    },
    /// A local of the executing instance.
    Local(LocalId),
    /// The status of a thread's instance(s) (read by `T@loc`, written by `start`).
    Status(ThreadId),
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
        for action in &transform.actions {
            match action {
                ir::Action::Assign { place, value, .. } => {
                    expr_reads(value, &mut reads);
                    let element = place.index.as_ref().and_then(|(index, _)| {
                        expr_reads(index, &mut reads);
                        constant_index(index)
                    });
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

fn access(var: VarRef, element: Option<u32>) -> Access {
    match var {
        VarRef::Global(var) => Access::Global { var, element },
        VarRef::Local(id) => Access::Local(id),
    }
}

fn constant_index(index: &Expr) -> Option<u32> {
    match index {
        Expr::Int(value) => u32::try_from(*value).ok(),
        _ => None,
    }
}

fn expr_reads(expr: &Expr, out: &mut Vec<Access>) {
    match expr {
        Expr::Read(var) => out.push(access(*var, None)),
        Expr::Element { var, index, .. } => out.push(access(*var, constant_index(index))),
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
    use crate::ir::TransformId;

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
        let fork = Access::Global {
            var: GlobalId(0),
            element: None,
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
                    element: None
                },
                Access::Status(ThreadId(1))
            ]
        );
        assert_eq!(
            t.writes,
            [Access::Global {
                var: GlobalId(0),
                element: Some(1)
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
                    element: None
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
                    element: Some(2)
                },
                Access::Local(LocalId(0)),
                Access::Status(ThreadId(0))
            ]
        );
    }
}
